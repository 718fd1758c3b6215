//! What a VRM avatar adds to its pose each frame, in the order VRM 1.0 gives: look-at (eye bones
//! or look expressions towards a target), expressions (facial poses over morph targets and
//! material values), node constraints (joints that follow another's turn), then spring bones
//! (hair, skirts and tails swinging behind the motion).

pub mod expression;
pub mod look_at;
pub mod node_constraint;
pub mod spring_bone;

pub use expression::{Expression, Override, PRESETS, apply_expressions};
pub use look_at::{Gaze, LookAt, LookAtKind, RangeMap};
pub use node_constraint::{ConstraintKind, NodeConstraint, apply_constraints};
pub use spring_bone::{
    Collider, ColliderShape, SpringBones, SpringJoint, SpringReplay, SpringSettings, SpringSimulation,
};

use glam::{Mat4, Vec3};

use crate::anim::Pose;

/// The face an avatar makes over a pose: its eyes on a target, then its expressions. Keeps the
/// weights it applied and the last gaze; allocates nothing once sized.
#[derive(Clone, Debug, Default)]
pub struct Face {
    /// The expression weights applied last: those set, with the look-at's in place of the
    /// look expressions' (expression-type look-at).
    pub applied: Vec<f32>,
    /// Where the eyes looked last (none: no target or no look-at).
    pub gaze: Option<Gaze>,
    matrices: Vec<Mat4>,
}

impl Face {
    /// Turns the eyes of `pose` towards `target` (model space; none: where the pose's clip has
    /// them look, if it does) by `look_at`, then adds `expressions` at `weights` plus what the
    /// pose's clip sets.
    pub fn apply(
        &mut self,
        look_at: Option<&LookAt>,
        expressions: &[Expression],
        weights: &[f32],
        target: Option<Vec3>,
        pose: &mut Pose,
    ) {
        self.applied.clear();
        self.applied.extend_from_slice(weights);
        self.applied.resize(expressions.len(), 0.0);
        // What a clip sets adds to what is set by hand.
        for (expression, weight) in expressions.iter().zip(&mut self.applied) {
            if let Some(&animated) = expression.weight_entry.and_then(|entry| pose.properties().get(entry)) {
                *weight += animated;
            }
        }
        // A target wins over where a clip has the eyes look.
        self.gaze = look_at.and_then(|look_at| match target {
            Some(target) => {
                self.matrices.resize(pose.len(), Mat4::IDENTITY);
                pose.model_matrices(&mut self.matrices);
                Some(look_at.gaze(&self.matrices, target))
            }
            None => look_at.animated_gaze(pose),
        });
        if let (Some(look_at), Some(gaze)) = (look_at, self.gaze) {
            match look_at.kind {
                LookAtKind::Bone => look_at.turn_eyes(gaze, pose),
                LookAtKind::Expression => look_at.set_expressions(gaze, expressions, &mut self.applied),
            }
        }
        apply_expressions(expressions, &self.applied, pose);
    }
}
