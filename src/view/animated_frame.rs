//! What moves in the viewer's frame: the player (clips, fades, layers, IK), the pose it wrote
//! with the pose mode, a VRM avatar's look-at, expressions, node constraints and spring bones
//! and hand-set morph weights over it, the joints' model matrices, and the crowd beside the
//! model. `advance` is the frame's animation stage, run once a frame before
//! anything reads the pose, the matrices or the crowd.

use glam::{Mat4, Vec3};

use super::crowd_playback::CrowdPlayback;
use crate::anim::avatar::spring_bone::STEP;
use crate::anim::avatar::{Face, SpringSimulation};
use crate::anim::{MorphOverride, Player, Pose};
use crate::asset::Model;
use crate::inspect::PoseMode;

/// The most playback time the spring bones catch up on in one frame (8 steps).
const MAX_SPRING_TIME_PER_FRAME: f32 = 8.0 * STEP;

pub struct AnimatedFrame {
    pub player: Player,
    /// The pose the player wrote last, with the pose mode, the face, the constraints, the
    /// springs and `morphs` applied.
    pub pose: Pose,
    /// Model matrices of `pose`, for picking, gizmos and the renderer.
    pub joint_matrices: Vec<Mat4>,
    /// Morph weights set in the panel, applied over the animation.
    pub morphs: MorphOverride,
    /// The weight of each of the avatar's expressions (`Avatar::expressions`), set in the panel.
    pub expressions: Vec<f32>,
    /// What the avatar's eyes follow, and where that is this frame (none: as the clip has
    /// them), set before each step.
    pub eyes: EyeTarget,
    pub look_target: Option<Vec3>,
    /// The eyes' point is being dragged in the view.
    pub eyes_grabbed: bool,
    /// The face the avatar made last (look-at and expressions).
    pub face: Face,
    /// Whether the model's spring bones swing (else they stay as the clip poses them).
    pub springs_on: bool,
    /// The spring bones' simulation, and the model generation it was made for.
    springs: Option<(u64, SpringSimulation)>,
    /// Copies of the model drawn beside it (the panel's crowd size).
    pub crowd: CrowdPlayback,
}

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

/// What a step of `AnimatedFrame::advance` changed beyond the pose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stepped {
    /// The motion stopped in this step (a fade or a Once clip ended, playing or paused).
    pub motion_stopped: bool,
    /// A crowd was built or dropped: the region to frame changed.
    pub crowd_changed: bool,
}

impl AnimatedFrame {
    /// `model` at rest, its first clip chosen (not yet played).
    pub fn new(model: &Model) -> Self {
        let pose = model.skeleton.rest_pose().clone();
        Self {
            player: Player::new((!model.clips.is_empty()).then_some(0)),
            joint_matrices: pose.to_model_matrices(),
            morphs: MorphOverride::new(pose.morph_weights().len()),
            expressions: vec![0.0; model.avatar.as_ref().map_or(0, |a| a.expressions.len())],
            eyes: EyeTarget::Camera,
            look_target: None,
            eyes_grabbed: false,
            face: Face::default(),
            springs_on: true,
            springs: None,
            pose,
            crowd: CrowdPlayback::default(),
        }
    }

    /// Advances playback by `dt` seconds of wall time and poses `model` (whose `generation`
    /// counts model changes) as `pose_mode` shows it: the player's pose, the look-at and
    /// expressions, the node constraints, the
    /// spring bones (stepped by playback time: paused, they hold still), the hand-set morph
    /// weights, the model matrices once, then the crowd.
    pub fn advance(&mut self, model: &Model, generation: u64, pose_mode: PoseMode, dt: f32) -> Stepped {
        let was_moving = self.player.is_moving();
        self.player.advance(dt, &model.clips);
        self.player
            .pose(&model.clips, model.skeleton.rest_pose(), &mut self.pose);
        pose_mode.apply(&model.skeleton, &mut self.pose);
        if let Some(avatar) = &model.avatar {
            let look_at = avatar.look_at.as_ref();
            (self.face).apply(
                look_at,
                &avatar.expressions,
                &self.expressions,
                self.look_target,
                &mut self.pose,
            );
        }
        model.apply_node_constraints(&mut self.pose, &mut self.joint_matrices);
        let clip_dt = self.player.clip_step(dt);
        self.swing_springs(model, generation, clip_dt);
        self.morphs.apply(&mut self.pose);
        self.pose.model_matrices(&mut self.joint_matrices);
        let document = (self.player.clip(), generation);
        let crowd_changed = self.crowd.advance(model, clip_dt, &self.joint_matrices, document);
        Stepped {
            motion_stopped: was_moving && !self.player.is_moving(),
            crowd_changed,
        }
    }

    /// Steps the spring bones by `dt` seconds of playback on the pose, made afresh for a new
    /// model.
    fn swing_springs(&mut self, model: &Model, generation: u64, dt: f32) {
        let springs = &model.spring_bones;
        if !self.springs_on || springs.is_empty() {
            return;
        }
        if self
            .springs
            .as_ref()
            .is_none_or(|(made_for, _)| *made_for != generation)
        {
            let simulation = SpringSimulation::new(springs, model.skeleton.rest_pose(), &self.pose);
            self.springs = Some((generation, simulation));
        }
        // After a stall the springs slow down rather than stall the next frame too.
        if let Some((_, simulation)) = &mut self.springs {
            simulation.advance(springs, &mut self.pose, dt.min(MAX_SPRING_TIME_PER_FRAME));
        }
    }

    /// Puts the spring bones back at rest under the current pose.
    pub fn reset_springs(&mut self, model: &Model) {
        if let Some((_, simulation)) = &mut self.springs {
            simulation.reset(&model.spring_bones, &self.pose);
        }
    }
}
