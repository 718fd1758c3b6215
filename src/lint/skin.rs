//! Weights, inverse bind matrices and the bind pose.

use glam::Mat4;

use super::{Findings, Rest, Rule, joint_name};
use crate::asset::Model;

/// Bind pose and rest pose differ when a joint's position differs by more than this fraction
/// of the model's size, or its orientation by more than this many degrees.
const BIND_POSITION_TOLERANCE: f32 = 0.01;
const BIND_ANGLE_TOLERANCE_DEGREES: f32 = 2.0;
/// How many joint names a message lists before "and N more".
const NAMES_LISTED: usize = 5;

pub(super) fn check(model: &Model, rest: &Rest, findings: &mut Findings) {
    check_weights(model, findings);
    for (index, skin) in model.skins.iter().enumerate() {
        let subject = format!("skin '{}'", skin.name);
        if !skin.inverse_bind_given {
            findings.add(
                Rule::MissingInverseBindMatrices,
                &subject,
                "has no inverse bind matrices: every joint is taken as bound at the origin",
                1,
            );
        }
        let singular = skin
            .inverse_bind
            .iter()
            .filter(|m| !m.is_finite() || m.determinant().abs() < 1e-12)
            .count();
        findings.add(
            Rule::NonInvertibleInverseBindMatrix,
            &subject,
            "inverse bind matrices that cannot be inverted (zero scale or not finite)",
            singular,
        );
        if skin.inverse_bind_given {
            check_bind_pose(model, rest, index, &subject, findings);
        }
        check_unused_joints(model, index, &subject, findings);
    }
}

/// What the loader counted while reading each skinned primitive's weights.
fn check_weights(model: &Model, findings: &mut Findings) {
    for mesh in &model.meshes {
        for (index, primitive) in mesh.primitives.iter().enumerate() {
            let Some(weights) = &primitive.skin_weights else {
                continue;
            };
            let subject = format!("mesh '{}' primitive {index}", mesh.name);
            let rules = [
                (
                    Rule::JointIndexOutOfRange,
                    "influences name a joint outside the skin",
                    weights.out_of_range,
                ),
                (
                    Rule::NegativeWeight,
                    "influences have a negative weight",
                    weights.negative,
                ),
                (
                    Rule::WeightsNotNormalised,
                    "vertices' weights do not sum to 1",
                    weights.renormalised,
                ),
                (
                    Rule::UnweightedVertex,
                    "vertices have no weight on any joint",
                    weights.unweighted,
                ),
                (
                    Rule::ZeroWeightInfluence,
                    "influences name a joint with zero weight",
                    weights.zero_weight,
                ),
                (
                    Rule::TooManyInfluences,
                    "vertices have more than 8 influences (the weakest are dropped)",
                    weights.truncated,
                ),
            ];
            for (rule, message, count) in rules {
                findings.add(rule, &subject, message, count);
            }
        }
    }
}

/// Joints of a skin whose bind pose (the inverse of their inverse bind matrix) is far from
/// their rest pose: the rig was bound in another pose than the one the file rests in, which
/// shows as a distorted mesh wherever the animation does not key those joints.
fn check_bind_pose(model: &Model, rest: &Rest, skin: usize, subject: &str, findings: &mut Findings) {
    let skin = &model.skins[skin];
    let (matrices, size) = (&rest.matrices, rest.size);
    // Skinned meshes are placed in model space; the skin's root may sit under transformed
    // nodes, so compare each joint relative to the skin's root in both poses.
    // Bind space → rest: through the root's inverse bind matrix to the root, then the root's
    // rest placement (the identity when the root has no inverse bind matrix).
    let bind_to_rest = skin
        .joints
        .iter()
        .position(|&j| j == skin.root)
        .map_or(Mat4::IDENTITY, |i| matrices[skin.root] * skin.inverse_bind[i]);
    let mut far = Vec::new();
    for (&joint, inverse_bind) in skin.joints.iter().zip(&skin.inverse_bind) {
        let bind = bind_to_rest * inverse_bind.inverse();
        let (_, bind_rotation, bind_position) = bind.to_scale_rotation_translation();
        let (_, rest_rotation, rest_position) = matrices[joint].to_scale_rotation_translation();
        let moved = bind_position.distance(rest_position) / size;
        let turned = bind_rotation.angle_between(rest_rotation).to_degrees();
        if moved > BIND_POSITION_TOLERANCE || turned > BIND_ANGLE_TOLERANCE_DEGREES {
            far.push(joint);
        }
    }
    findings.add(
        Rule::BindPoseFarFromRest,
        subject,
        format!("joints bound far from their rest pose: {}", listed(model, &far)),
        far.len(),
    );
}

/// Joints of a skin that no vertex of any primitive it deforms depends on.
fn check_unused_joints(model: &Model, skin: usize, subject: &str, findings: &mut Findings) {
    let joints = &model.skins[skin].joints;
    let mut used = vec![false; joints.len()];
    let primitives = model
        .instances
        .iter()
        .filter(|i| i.skin == Some(skin))
        .flat_map(|i| &model.meshes[i.mesh].primitives);
    for weights in primitives.filter_map(|p| p.skin_weights.as_ref()) {
        for vertex in 0..weights.joints.len() {
            for (joint, _) in weights.influences(vertex) {
                if let Some(slot) = used.get_mut(joint) {
                    *slot = true;
                }
            }
        }
    }
    let unused: Vec<usize> = joints
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(&j, _)| j)
        .collect();
    findings.add(
        Rule::UnusedJoint,
        subject,
        format!("joints influence no vertex: {}", listed(model, &unused)),
        unused.len(),
    );
}

/// The first few joints' names, and how many more.
pub(super) fn listed(model: &Model, joints: &[usize]) -> String {
    let names: Vec<String> = joints
        .iter()
        .take(NAMES_LISTED)
        .map(|&j| joint_name(model, j))
        .collect();
    let more = joints.len().saturating_sub(NAMES_LISTED);
    if more > 0 {
        format!("{} and {more} more", names.join(", "))
    } else {
        names.join(", ")
    }
}
