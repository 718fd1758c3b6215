//! What one frame shows: a model in a pose (or a crowd of it), seen by a camera, with the
//! view's options.

use glam::{Mat4, Vec2};

use crate::anim::Pose;
use crate::asset::Model;
use crate::view::crowd::Crowd;
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
    /// Copies of the model to draw beside it, posed already (instance 0 is `pose`); `None`
    /// draws the model alone.
    pub crowd: Option<&'a Crowd>,
    /// The animation's time in seconds: what moves with time in the materials (MToon's
    /// texture scroll) shows it.
    pub time: f32,
    /// How far the ground's grid has slid back (x, z): the travel taken out of a clip played
    /// in place.
    pub ground_slide: Vec2,
}
