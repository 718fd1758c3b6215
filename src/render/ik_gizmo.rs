//! What an IK chain looks like in the view: its target, the line still to go, the chain's
//! bones, and (on request) each joint's limits: a ball joint's cone around its rest direction,
//! a hinge's axis and the arc it may turn through.

use glam::{Mat4, Vec3, Vec4};

use super::overlay::Overlay;
use crate::anim::ik::chain::bone_direction;
use crate::anim::{IkLayer, JointConstraint, Pose};

const CHAIN_COLOR: Vec4 = Vec4::new(1.0, 0.35, 0.85, 1.0);
const REACHED_COLOR: Vec4 = Vec4::new(0.3, 1.0, 0.4, 1.0);
const MISSED_COLOR: Vec4 = Vec4::new(1.0, 0.4, 0.25, 1.0);
const ACTIVE_COLOR: Vec4 = Vec4::new(1.0, 1.0, 0.3, 1.0);
const GAP_COLOR: Vec4 = Vec4::new(0.8, 0.8, 0.8, 0.8);
const CONE_COLOR: Vec4 = Vec4::new(0.35, 0.8, 1.0, 0.9);
const HINGE_COLOR: Vec4 = Vec4::new(1.0, 0.65, 0.2, 0.9);
/// Half size of the target's square, in clip units per w (about 6 pixels on 800).
pub const TARGET_SIZE: f32 = 0.015;

/// Adds one chain's gizmo to `overlay`. `matrices` are the model matrices of `pose`, `rest` the
/// rest pose its constraints measure from; `active` highlights the target (being dragged).
pub fn draw_ik_chain(
    overlay: &mut Overlay,
    layer: &IkLayer,
    (pose, rest, matrices): (&Pose, &Pose, &[Mat4]),
    constraints: bool,
    active: bool,
) {
    let joints = layer.chain.joints();
    let position = |joint: usize| matrices[joint].w_axis.truncate();
    let length: f32 = joints.windows(2).map(|w| position(w[0]).distance(position(w[1]))).sum();
    let marker = (length * 0.06).max(1e-4);
    for pair in joints.windows(2) {
        overlay.line(position(pair[0]), position(pair[1]), CHAIN_COLOR);
    }
    let end = position(layer.chain.end());
    let color = if active {
        ACTIVE_COLOR
    } else if layer.outcome.reached {
        REACHED_COLOR
    } else {
        MISSED_COLOR
    };
    overlay.line(end, layer.target, GAP_COLOR);
    overlay.cross(layer.target, marker, color);
    overlay.square(layer.target, color, TARGET_SIZE);
    if !constraints {
        return;
    }
    for (bone, constraint) in layer.chain.constraints().iter().enumerate() {
        let (joint, next) = (joints[bone], joints[bone + 1]);
        let parent = pose.hierarchy().parent(joint).map_or(Mat4::IDENTITY, |p| matrices[p]);
        let rest_rotation = rest.local()[joint].rotation;
        // The joint's rest frame, placed at the joint as it is now.
        let to_model = |v: Vec3| parent.transform_vector3(rest_rotation * v).normalize_or_zero();
        let origin = position(joint);
        let size = position(joint).distance(position(next)) * 0.35;
        let rest_bone = to_model(bone_direction(&pose.local()[joint], &pose.local()[next]));
        match *constraint {
            JointConstraint::Free => {}
            JointConstraint::Ball { cone, .. } => {
                let side = rest_bone.any_orthonormal_vector();
                let edge = |angle: f32| {
                    glam::Quat::from_axis_angle(rest_bone, angle) * (rest_bone * cone.cos() + side * cone.sin()) * size
                };
                overlay.line(origin, origin + rest_bone * size, CONE_COLOR);
                for i in 0..8 {
                    overlay.line(
                        origin,
                        origin + edge(i as f32 * std::f32::consts::TAU / 8.0),
                        CONE_COLOR,
                    );
                }
                let rim = origin + rest_bone * cone.cos() * size;
                overlay.arc(
                    rim,
                    rest_bone,
                    side * cone.sin() * size,
                    (0.0, std::f32::consts::TAU),
                    24,
                    CONE_COLOR,
                );
            }
            JointConstraint::Hinge { axis, min, max } => {
                let axis = to_model(axis);
                // Under a mirroring parent a local turn of +θ shows as -θ.
                let (min, max) = if parent.determinant() < 0.0 {
                    (-max, -min)
                } else {
                    (min, max)
                };
                let start = (rest_bone - axis * rest_bone.dot(axis)).normalize_or(axis.any_orthonormal_vector());
                overlay.line(origin - axis * size * 0.5, origin + axis * size * 0.5, HINGE_COLOR);
                overlay.arc(origin, axis, start * size, (min, max), 16, HINGE_COLOR);
                let (from, to) = (
                    glam::Quat::from_axis_angle(axis, min) * start,
                    glam::Quat::from_axis_angle(axis, max) * start,
                );
                overlay.line(origin, origin + from * size, HINGE_COLOR);
                overlay.line(origin, origin + to * size, HINGE_COLOR);
            }
        }
    }
}
