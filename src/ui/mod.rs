//! egui: the side panel and the viewer state it edits. Panels never touch wgpu.

pub mod bone_labels;
mod file_facts;
pub mod ik_edit;
mod ik_panel;
mod inspect_panel;
pub mod inspection;
mod joint_panel;
mod lighting_panel;
pub mod panel;
pub mod state;
pub mod timeline;
mod view_panel;

pub use state::{Requests, Shortcut, ViewerState};
