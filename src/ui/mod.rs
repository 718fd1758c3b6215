//! egui: the side panel and the viewer state it edits. Panels never touch wgpu.

pub mod panel;
pub mod state;

pub use state::{Requests, Shortcut, ViewerState};
