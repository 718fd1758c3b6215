//! egui: the side panel and the viewer state it edits. Panels never touch wgpu.

mod avatar_panel;
pub mod bone_labels;
pub mod clips_from;
mod compare_panel;
pub mod crowd_panel;
pub mod curve_panel;
pub mod export_panel;
pub mod file_browser;
mod file_facts;
mod filter_field;
pub mod frame_stats;
pub mod ik_edit;
mod ik_panel;
mod inspect_panel;
pub mod inspection;
mod joint_panel;
mod lighting_panel;
mod morph_panel;
pub mod motion_panel;
pub mod notice;
mod notice_bar;
pub mod panel;
pub mod render_status;
pub mod state;
pub mod system_fonts;
pub mod timeline;
pub mod trail_panel;
mod variant_panel;
mod view_panel;
pub mod watch_panel;

pub use render_status::RenderStatus;
pub use state::{Requests, Shortcut, ViewerState};
