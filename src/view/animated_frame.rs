//! What moves in the viewer's frame: the player (clips, fades, layers, IK), the pose it wrote
//! with the pose mode, a VRM avatar's look-at, expressions, node constraints and spring
//! bones and hand-set morph weights over it, its travel taken out when the clip plays in
//! place, the joints' model matrices, and the crowd beside the model. `advance` is the frame's
//! animation stage, run once a frame before anything reads the pose, the matrices or the
//! crowd.

use glam::{Mat4, Vec2};

use super::avatar_motion::AvatarMotion;
use super::crowd_playback::CrowdPlayback;
use crate::anim::avatar::spring_bone::STEP;
use crate::anim::{MorphOverride, Player, Pose};
use crate::asset::Model;
use crate::inspect::PoseMode;
use crate::inspect::motion::InPlace;

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
    /// A VRM avatar's eyes, expressions, constraints and springs over the pose.
    pub avatar: AvatarMotion,
    /// Copies of the model drawn beside it (the panel's crowd size).
    pub crowd: CrowdPlayback,
    /// Seconds played since the model opened: what moves with time beside the clips (MToon's
    /// texture scroll) follows it, and holds still while paused.
    pub played: f32,
    /// The clip playing, played in place: its travel is taken out of each animated pose.
    pub in_place: Option<InPlace>,
    /// The travel taken out of this frame's pose (ground-plane x, z; zero when not in place):
    /// the ground slides back by it.
    pub travel: Vec2,
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
    /// `model` at rest, clip `clip` chosen (not yet played).
    pub fn new(model: &Model, clip: Option<usize>) -> Self {
        let pose = model.skeleton.rest_pose().clone();
        Self {
            player: Player::new(clip),
            joint_matrices: pose.to_model_matrices(),
            morphs: MorphOverride::new(pose.morph_weights().len()),
            avatar: AvatarMotion::new(model),
            pose,
            crowd: CrowdPlayback::default(),
            played: 0.0,
            in_place: None,
            travel: Vec2::ZERO,
        }
    }

    /// Advances playback by `dt` seconds of wall time and poses `model` (whose `generation`
    /// counts model changes) as `pose_mode` shows it: the player's pose, the avatar's motion
    /// (its springs stepped by playback time: paused, they hold still), the hand-set morph
    /// weights, the travel taken out (when `in_place` is set), the model matrices once, then
    /// the crowd.
    pub fn advance(&mut self, model: &Model, generation: u64, pose_mode: PoseMode, dt: f32) -> Stepped {
        let was_moving = self.player.is_moving();
        self.player.advance(dt, &model.clips);
        self.player
            .pose(&model.clips, model.skeleton.rest_pose(), &mut self.pose);
        pose_mode.apply(&model.skeleton, &mut self.pose);
        let clip_dt = self.player.clip_step(dt);
        self.played += clip_dt;
        // After a stall the springs slow down rather than stall the next frame too.
        let spring_dt = clip_dt.min(MAX_SPRING_TIME_PER_FRAME);
        (self.avatar).apply(model, generation, &mut self.pose, &mut self.joint_matrices, spring_dt);
        self.morphs.apply(&mut self.pose);
        // After the springs, which swing with the travel as they would in the game.
        self.travel = match self.in_place {
            Some(in_place) if pose_mode == PoseMode::Animated => in_place.apply(&mut self.pose),
            _ => Vec2::ZERO,
        };
        self.pose.model_matrices(&mut self.joint_matrices);
        let document = (self.player.clip(), generation);
        let crowd_changed = self.crowd.advance(model, clip_dt, &self.joint_matrices, document);
        Stepped {
            motion_stopped: was_moving && !self.player.is_moving(),
            crowd_changed,
        }
    }
}
