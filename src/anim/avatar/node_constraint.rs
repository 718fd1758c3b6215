//! VRM node constraints (`VRMC_node_constraint`): a joint that follows another's turn, as the
//! specification's formulas give it, each blended from the joint's rest by its weight:
//! - **rotation**: the source's turn from its rest, `dst = dst_rest · slerp(1, src_rest⁻¹ · src, w)`;
//! - **roll**: only the part of that turn about one axis of the destination (its twist);
//! - **aim**: the destination turned so that one of its axes points at the source.
//!
//! Constraints run in their list's order, which the loader makes sources-first, so a
//! constraint whose source is itself constrained sees it done. Applying allocates nothing.

use glam::{Mat4, Quat, Vec3};

use crate::anim::Pose;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstraintKind {
    Rotation,
    /// About this axis of the destination (unit X, Y or Z).
    Roll(Vec3),
    /// This axis of the destination (a signed unit axis) points at the source.
    Aim(Vec3),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeConstraint {
    pub destination: usize,
    pub source: usize,
    pub kind: ConstraintKind,
    pub weight: f32,
}

/// Applies `constraints` (sources first) to `pose`, measuring from `rest`; `matrices` is
/// scratch for the aim constraints' model matrices.
pub fn apply_constraints(constraints: &[NodeConstraint], rest: &Pose, pose: &mut Pose, matrices: &mut Vec<Mat4>) {
    let aims = constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Aim(_)));
    if aims {
        matrices.resize(pose.len(), Mat4::IDENTITY);
        pose.model_matrices(matrices);
    }
    for constraint in constraints {
        let (source, destination) = (constraint.source, constraint.destination);
        let (Some(source_rest), Some(destination_rest)) = (rest.local().get(source), rest.local().get(destination))
        else {
            continue;
        };
        let (source_rest, destination_rest) = (source_rest.rotation, destination_rest.rotation);
        let source_now = pose.local()[source].rotation;
        let weight = constraint.weight.clamp(0.0, 1.0);
        let turned = match constraint.kind {
            ConstraintKind::Rotation => {
                let delta = source_rest.inverse() * source_now;
                destination_rest * Quat::IDENTITY.slerp(delta, weight)
            }
            ConstraintKind::Roll(axis) => {
                // The source's turn, in its parent's space, then in the destination's rest frame.
                let delta = source_rest.inverse() * source_now;
                let in_parent = source_rest * delta * source_rest.inverse();
                let in_destination = destination_rest.inverse() * in_parent * destination_rest;
                let swing = Quat::from_rotation_arc(axis, (in_destination * axis).normalize());
                destination_rest * Quat::IDENTITY.slerp(swing.inverse() * in_destination, weight)
            }
            ConstraintKind::Aim(axis) => {
                let parent = pose.hierarchy().parent(destination);
                let parent_rotation = parent.map_or(Quat::IDENTITY, |p| Quat::from_mat4(&matrices[p]).normalize());
                let aim = (parent_rotation * destination_rest * axis).normalize();
                let to_source = matrices[source].w_axis.truncate() - matrices[destination].w_axis.truncate();
                let to_source = to_source.normalize_or_zero();
                if to_source == Vec3::ZERO {
                    continue;
                }
                let from_to = Quat::from_rotation_arc(aim, to_source);
                let aimed = parent_rotation.inverse() * from_to * parent_rotation * destination_rest;
                destination_rest.slerp(aimed, weight)
            }
        };
        pose.local_mut()[destination].rotation = turned.normalize();
        if aims {
            // Later aim constraints measure from positions this turn moved.
            pose.model_matrices(matrices);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;
    use std::sync::Arc;

    use super::*;
    use crate::anim::Transform;
    use crate::anim::pose::Hierarchy;

    /// Three roots: a source at the origin and two destinations beside it.
    fn three() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, None, None]).unwrap());
        let at = |x: f32| Transform::new(Vec3::new(x, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
        Pose::new(hierarchy, vec![at(0.0), at(-3.0), at(3.0)], Vec::new()).unwrap()
    }

    #[test]
    fn rotation_follows_by_its_weight_and_roll_keeps_only_the_twist() {
        let rest = three();
        let mut pose = rest.clone();
        // The source turns 90° about Y and 90° about X.
        let turn = Quat::from_rotation_y(FRAC_PI_2) * Quat::from_rotation_x(FRAC_PI_2);
        pose.local_mut()[0].rotation = turn;
        let constraints = [
            NodeConstraint {
                destination: 1,
                source: 0,
                kind: ConstraintKind::Roll(Vec3::Y),
                weight: 1.0,
            },
            NodeConstraint {
                destination: 2,
                source: 0,
                kind: ConstraintKind::Rotation,
                weight: 0.5,
            },
        ];
        apply_constraints(&constraints, &rest, &mut pose, &mut Vec::new());
        assert!(
            pose.local()[2]
                .rotation
                .abs_diff_eq(Quat::IDENTITY.slerp(turn, 0.5), 1e-5)
        );
        // The roll about Y: Y stays put, and the rest of the turn is about Y alone.
        let roll = pose.local()[1].rotation;
        assert!((roll * Vec3::Y).abs_diff_eq(Vec3::Y, 1e-5), "{roll}");
        let (axis, _) = roll.to_axis_angle();
        assert!(axis.abs().abs_diff_eq(Vec3::Y, 1e-4), "{axis}");
    }

    #[test]
    fn aim_points_the_axis_at_the_source() {
        let rest = three();
        let mut pose = rest.clone();
        pose.local_mut()[0].translation = Vec3::new(0.0, 4.0, 0.0);
        let constraints = [NodeConstraint {
            destination: 2,
            source: 0,
            kind: ConstraintKind::Aim(Vec3::NEG_X),
            weight: 1.0,
        }];
        apply_constraints(&constraints, &rest, &mut pose, &mut Vec::new());
        let pointing = pose.local()[2].rotation * Vec3::NEG_X;
        let wanted = (Vec3::new(0.0, 4.0, 0.0) - Vec3::new(3.0, 0.0, 0.0)).normalize();
        assert!(pointing.abs_diff_eq(wanted, 1e-5), "{pointing}");
    }
}
