//! What the viewer opens with: the command line's viewer options, read by `cli` and used by
//! `app` (so neither imports the other).

use std::path::PathBuf;
use std::time::Duration;

use super::compare_layout::CompareLayout;
use super::crowd::CrowdOptions;
use super::{Lighting, Lights, Quality};

/// What the viewer opens and how it starts.
#[derive(Clone, Debug, Default)]
pub struct ViewerOptions {
    /// The model to open; the built-in demo rig when absent.
    pub file: Option<PathBuf>,
    /// Save the window's image after this many frames to this PNG, then exit (for tests).
    pub screenshot: Option<(u32, PathBuf)>,
    /// Time this many frames (after a warm-up), print their statistics as JSON, then exit.
    pub benchmark_frames: Option<usize>,
    /// Copies of the model to draw (`--crowd`; a count of 1: the model alone).
    pub crowd: CrowdOptions,
    /// The lighting to start with; its lights are `lights`, or the model's default.
    pub lighting: Lighting,
    pub lights: Option<Lights>,
    /// An equirectangular .hdr to light the scene with instead of the built-in studio.
    pub environment: Option<PathBuf>,
    /// The rendering quality; by default `Fast` on a software rasteriser, else `Best`.
    pub quality: Option<Quality>,
    /// Open with playback paused.
    pub paused: bool,
    /// The joint to select at start, as the command line names it.
    pub select: Option<String>,
    /// Open with the curve view shown.
    pub curves: bool,
    /// Open with the clip played in place (`--in-place`).
    pub in_place: bool,
    /// Open with the root's path and the feet's contacts shown (`--motion`).
    pub motion: bool,
    /// Close after this long and print what was drawn as JSON (for tests and scripts).
    pub exit_after: Option<Duration>,
    /// Morph weights to start with, as if set in the panel (`MESH:TARGET=WEIGHT` each).
    pub morph: Vec<String>,
    /// VRM expression weights to start with, as if set in the panel (`NAME=WEIGHT` each).
    pub expression: Vec<String>,
    /// A model-space point the avatar's eyes look at instead of the camera (`X,Y,Z`).
    pub look_at: Option<String>,
    /// Files whose clips are added to the model, retargeted (`--clips-from`).
    pub clips_from: Vec<PathBuf>,
    /// The material variant to start with, by name (`--variant`).
    pub variant: Option<String>,
    /// A model to compare the opened one with (`--compare`), and how to show it.
    pub compare: Option<PathBuf>,
    pub compare_layout: CompareLayout,
}
