//! What a VRM avatar adds to its pose each frame, in the order VRM 1.0 gives: look-at (eye bones
//! or look expressions towards a target), expressions (facial poses over morph targets and
//! material values), node constraints (joints that follow another's turn), then spring bones
//! (hair, skirts and tails swinging behind the motion).

mod expression;
mod look_at;
mod node_constraint;
pub(crate) mod spring_bone;

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
    /// pose's clip sets. While an expression-type look-at looks somewhere, the look presets'
    /// weights are its own (`LookAt::owns`): what `weights` or the clip give them is replaced;
    /// with neither a target nor a clip's gaze the look-at rests and leaves them as set.
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::Transform;
    use crate::anim::pose::Hierarchy;

    #[test]
    fn an_expression_look_at_owns_the_look_expressions_while_it_looks() {
        // A head at 1.5 (its one property an animated lookUp weight) and lookUp, happy.
        let hierarchy = Arc::new(Hierarchy::new(vec![None]).unwrap());
        let head = Transform::new(Vec3::new(0.0, 1.5, 0.0), glam::Quat::IDENTITY, Vec3::ONE);
        let rest = Pose::new(hierarchy, vec![head], vec![0.0; 2])
            .unwrap()
            .with_properties(vec![0.0]);
        let map = RangeMap {
            input_max: 90.0,
            output_scale: 1.0,
        };
        let look_at = LookAt::new(
            LookAtKind::Expression,
            0,
            [None, None],
            Vec3::ZERO,
            [map; 4],
            &rest,
            &rest.to_model_matrices(),
        );
        let expression = |name: &str, morph: usize, weight_entry: Option<usize>| Expression {
            name: name.into(),
            is_preset: true,
            morph_binds: vec![(morph, 1.0)],
            weight_entry,
            ..Default::default()
        };
        let expressions = [expression("lookUp", 0, Some(0)), expression("happy", 1, None)];
        assert!(look_at.owns(&expressions[0]) && !look_at.owns(&expressions[1]));
        let mut face = Face::default();
        let face_at = |face: &mut Face, clip_look_up: f32, target: Option<Vec3>| {
            let mut pose = rest.clone();
            pose.properties_mut()[0] = clip_look_up;
            face.apply(Some(&look_at), &expressions, &[1.0, 0.5], target, &mut pose);
            pose.morph_weights().to_vec()
        };
        // Looking straight ahead: lookUp is 0, whatever the slider and the clip say; happy stays.
        let ahead = Some(Vec3::new(0.0, 1.5, 5.0));
        assert_eq!(face_at(&mut face, 0.25, ahead), [0.0, 0.5]);
        assert_eq!(face.applied, [0.0, 0.5]);
        // Looking 45° up: the up map's half, not the slider's 1 added.
        let up = Some(Vec3::new(0.0, 6.5, 5.0));
        let weights = face_at(&mut face, 0.25, up);
        assert!((weights[0] - 0.5).abs() < 1e-5, "{weights:?}");
        // No target and no gaze in the clip: the look-at rests, the slider and the clip add up.
        assert_eq!(face_at(&mut face, 0.25, None), [1.0, 0.5]);
        assert_eq!(face.gaze, None);
    }
}
