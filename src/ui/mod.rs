//! egui: the side panel and the viewer state it edits. Panels never touch wgpu.

mod avatar_panel;
pub(crate) mod bone_labels;
pub mod clips_from;
mod compare_panel;
mod crowd_panel;
pub mod curve_panel;
mod export_panel;
pub mod file_browser;
mod file_facts;
mod filter_field;
pub mod frame_stats;
mod ik_edit;
mod ik_panel;
mod inspect_panel;
pub mod inspection;
mod joint_panel;
mod lighting_panel;
mod morph_panel;
mod motion_panel;
pub(crate) mod notice;
mod notice_bar;
pub mod panel;
mod render_status;
pub mod state;
pub mod system_fonts;
pub mod timeline;
mod trail_panel;
mod variant_panel;
mod view_panel;
pub mod watch_panel;

pub use render_status::RenderStatus;
pub use state::{Shortcut, ViewerState};
#[cfg(any(test, feature = "internals"))]
pub use state::Requests;
