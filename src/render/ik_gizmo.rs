//! What an IK chain looks like in the view: its target, the line still to go, the chain's
//! bones, and (on request) each joint's limits: a ball joint's cone around its rest direction,
//! a hinge's axis and the arc it may turn through.

use glam::{Mat4, Vec3, Vec4};

use super::overlay::Overlay;
use crate::anim::{IkLayer, JointConstraint, Pose};

const CHAIN_COLOR: Vec4 = Vec4::new(1.0, 0.35, 0.85, 1.0);
const REACHED_COLOR: Vec4 = Vec4::new(0.3, 1.0, 0.4, 1.0);
const MISSED_COLOR: Vec4 = Vec4::new(1.0, 0.4, 0.25, 1.0);
const ACTIVE_COLOR: Vec4 = Vec4::new(1.0, 1.0, 0.3, 1.0);
const GAP_COLOR: Vec4 = Vec4::new(0.8, 0.8, 0.8, 0.8);
const CONE_COLOR: Vec4 = Vec4::new(0.35, 0.8, 1.0, 0.9);
const HINGE_COLOR: Vec4 = Vec4::new(1.0, 0.65, 0.2, 0.9);
/// Half size of the target's square, in clip units per w (about 6 pixels on 800).
const TARGET_SIZE: f32 = 0.015;

/// Adds the gizmos of `layers` to `overlay`: `matrices` are the model matrices of `pose`,
/// `rest` the rest pose the constraints measure from; `constraints` adds the limits;
/// `dragging` is the chain whose target is being dragged (highlighted).
pub fn draw_ik_chains(
    overlay: &mut Overlay,
    layers: &[IkLayer],
    poses: (&Pose, &Pose, &[Mat4]),
    constraints: bool,
    dragging: Option<usize>,
) {
    for (index, layer) in layers.iter().enumerate() {
        draw_ik_chain(overlay, layer, poses, constraints, dragging == Some(index));
    }
}

/// One chain's gizmo; `active` highlights the target.
fn draw_ik_chain(
    overlay: &mut Overlay,
    layer: &IkLayer,
    (pose, rest, matrices): (&Pose, &Pose, &[Mat4]),
    constraints: bool,
    active: bool,
) {
    let joints = layer.chain.joints();
    let position = |joint: usize| matrices[joint].w_axis.truncate();
    let marker = (layer.chain.length() * 0.06).max(1e-4);
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
        let rest_bone = to_model(layer.chain.bone_direction(bone));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::JointConstraint;
    use crate::asset::demo::demo_model;

    #[test]
    fn limits_are_drawn_only_when_asked_and_each_kind_adds_its_shape() {
        let model = demo_model();
        let skeleton = &model.skeleton;
        let wrist = skeleton.find("wrist.L").unwrap();
        let pose = skeleton.rest_pose();
        let matrices = pose.to_model_matrices();
        let mut layer = IkLayer::new(skeleton.hierarchy(), wrist, 2, glam::Vec3::ONE).unwrap();
        let poses = (pose, pose, matrices.as_slice());
        let lines = |layer: &IkLayer, constraints: bool| {
            let mut overlay = Overlay::default();
            draw_ik_chains(&mut overlay, std::slice::from_ref(layer), poses, constraints, None);
            overlay.lines().len()
        };
        let bare = lines(&layer, false);
        assert_eq!(lines(&layer, true), bare, "free joints have no limits to draw");
        layer.chain.constraints_mut()[0] = JointConstraint::Ball { cone: 0.5, twist: 0.2 };
        let ball = lines(&layer, true);
        assert!(ball > bare, "a cone");
        assert_eq!(lines(&layer, false), bare, "limits hidden");
        layer.chain.constraints_mut()[1] = JointConstraint::Hinge {
            axis: glam::Vec3::X,
            min: 0.0,
            max: 2.0,
        };
        assert!(lines(&layer, true) > ball, "and a hinge arc");
    }
}
