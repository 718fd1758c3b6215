//! What a VRM avatar adds over the clip's pose in the viewer and its clip export: where its
//! eyes look, its expressions (the panel's weights), its node constraints and its spring bones
//! (a running simulation, made afresh for each model), in the order VRM gives.

use glam::{Mat4, Vec3};

use crate::anim::Pose;
use crate::anim::avatar::{Face, SpringSimulation};
use crate::asset::Model;

/// What a VRM avatar's eyes look at in the viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EyeTarget {
    /// Where the clip has them.
    Animated,
    /// At the viewer's camera.
    Camera,
    /// At a model-space point.
    Point(Vec3),
}

impl EyeTarget {
    /// The point looked at, the camera being at `camera`.
    pub fn point(self, camera: Vec3) -> Option<Vec3> {
        match self {
            Self::Animated => None,
            Self::Camera => Some(camera),
            Self::Point(point) => Some(point),
        }
    }
}

pub struct AvatarMotion {
    /// The weight of each of the avatar's expressions (`Avatar::expressions`), set in the panel.
    pub expressions: Vec<f32>,
    /// What the eyes follow, and where that is this frame (none: as the clip has them), set
    /// before each step.
    pub eyes: EyeTarget,
    pub look_target: Option<Vec3>,
    /// The eyes' point is being dragged in the view.
    pub eyes_grabbed: bool,
    /// The face made last (look-at and expressions).
    pub face: Face,
    /// Whether the spring bones swing (else they stay as the clip poses them).
    pub springs_on: bool,
    /// The spring bones' simulation, and the model generation it was made for.
    springs: Option<(u64, SpringSimulation)>,
}

impl AvatarMotion {
    /// Nothing set for `model`: the eyes on the camera, the springs swinging.
    pub fn new(model: &Model) -> Self {
        Self {
            expressions: vec![0.0; model.avatar.as_ref().map_or(0, |a| a.expressions.len())],
            eyes: EyeTarget::Camera,
            look_target: None,
            eyes_grabbed: false,
            face: Face::default(),
            springs_on: true,
            springs: None,
        }
    }

    /// The same settings, its springs to start afresh (the clip export's first frame).
    pub fn settings_only(&self) -> Self {
        Self {
            expressions: self.expressions.clone(),
            eyes: self.eyes,
            look_target: self.look_target,
            eyes_grabbed: false,
            face: Face::default(),
            springs_on: self.springs_on,
            springs: None,
        }
    }

    /// Adds the face, the node constraints and `dt` seconds of the spring bones to `pose` of
    /// `model` (whose `generation` counts model changes); `matrices` is scratch.
    pub fn apply(&mut self, model: &Model, generation: u64, pose: &mut Pose, matrices: &mut Vec<Mat4>, dt: f32) {
        if let Some(avatar) = &model.avatar {
            let look_at = avatar.look_at.as_ref();
            (self.face).apply(look_at, &avatar.expressions, &self.expressions, self.look_target, pose);
        }
        model.apply_node_constraints(pose, matrices);
        let springs = &model.spring_bones;
        if !self.springs_on || springs.is_empty() {
            return;
        }
        if self
            .springs
            .as_ref()
            .is_none_or(|(made_for, _)| *made_for != generation)
        {
            let simulation = SpringSimulation::new(springs, model.skeleton.rest_pose(), pose);
            self.springs = Some((generation, simulation));
        }
        if let Some((_, simulation)) = &mut self.springs {
            simulation.advance(springs, pose, dt);
        }
    }

    /// Puts the spring bones back at rest under `pose`.
    pub fn reset_springs(&mut self, model: &Model, pose: &Pose) {
        if let Some((_, simulation)) = &mut self.springs {
            simulation.reset(&model.spring_bones, pose);
        }
    }
}
