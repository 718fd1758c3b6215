//! egui: the side panel and the viewer state it edits. Panels never touch wgpu.

pub mod ik_edit;
mod ik_panel;
pub mod panel;
pub mod state;
pub mod viewport;

pub use state::{Requests, Shortcut, ViewerState};
pub use viewport::Viewport;
