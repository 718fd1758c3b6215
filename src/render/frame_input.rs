//! What one frame shows: a model in a pose, seen by a camera, with the view's options.

use glam::Mat4;

use crate::anim::Pose;
use crate::asset::Model;
use crate::view::{CameraView, ViewOptions};

#[derive(Clone, Copy)]
pub struct FrameInput<'a> {
    pub model: &'a Model,
    /// Local transforms, and the morph weights.
    pub pose: &'a Pose,
    /// The pose's joint → model space matrices, computed once per frame by the caller; every
    /// stage (palettes, placement of static meshes, the skeleton overlay) reads these.
    pub model_matrices: &'a [Mat4],
    /// Made for the target's aspect.
    pub camera: &'a CameraView,
    pub view: &'a ViewOptions,
}
