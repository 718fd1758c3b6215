//! What the window and its renderer report for the panel to show: the graphics adapter, notes
//! about how the model is drawn, frame times, the environment lighting the scene, and the
//! difference view's measurement. The window holds it and writes it; the panel only reads it.

use super::frame_stats::FrameStats;
use crate::inspect::SkinDifference;

#[derive(Debug)]
pub struct RenderStatus {
    /// The graphics adapter and how skins reach the shaders, and why that adapter.
    pub adapter: String,
    pub adapter_choice: String,
    /// How the window's frames reach the screen, and why.
    pub presentation: String,
    /// Notes from the renderer about this model (CPU fallback, undecodable textures).
    pub notes: Vec<String>,
    /// How long frames take.
    pub frame_stats: FrameStats,
    /// The environment lighting the scene ("studio" or its file's name), and why the last one
    /// asked for could not be used.
    pub environment_name: String,
    pub environment_error: Option<String>,
    /// What the difference view measured in the last frame, or why it could not.
    pub skin_difference: Option<Result<SkinDifference, String>>,
}

impl Default for RenderStatus {
    fn default() -> Self {
        Self {
            adapter: String::new(),
            adapter_choice: String::new(),
            presentation: String::new(),
            notes: Vec::new(),
            frame_stats: FrameStats::default(),
            environment_name: "studio".into(),
            environment_error: None,
            skin_difference: None,
        }
    }
}
