//! Scale along joint chains, and transforms on skinned mesh nodes.

use glam::{Mat4, Vec3};

use super::skin::listed;
use super::{Findings, Rest, Rule, joint_name};
use crate::anim::ChannelTrack;
use crate::asset::Model;

/// Scale components closer than this ratio count as uniform.
const UNIFORM_TOLERANCE: f32 = 1e-3;

pub(super) fn check(model: &Model, rest: &Rest, findings: &mut Findings) {
    let skeleton = &model.skeleton;
    let has_children: Vec<bool> = {
        let mut flags = vec![false; skeleton.len()];
        for joint in 0..skeleton.len() {
            if let Some(parent) = skeleton.parent(joint) {
                flags[parent] = true;
            }
        }
        flags
    };
    let (mut negative, mut non_uniform) = (Vec::new(), Vec::new());
    for (joint, local) in skeleton.rest_pose().local().iter().enumerate() {
        if is_negative(local.scale) {
            negative.push(joint);
        } else if has_children[joint] && !is_uniform(local.scale) {
            non_uniform.push(joint);
        }
    }
    findings.add(
        Rule::NegativeScale,
        "rest pose",
        format!("joints with a negative (mirroring) scale: {}", listed(model, &negative)),
        negative.len(),
    );
    findings.add(
        Rule::NonUniformScale,
        "rest pose",
        format!(
            "joints with children and a non-uniform scale (their children shear when they turn): {}",
            listed(model, &non_uniform)
        ),
        non_uniform.len(),
    );
    for clip in &model.clips {
        for channel in clip.channels() {
            let ChannelTrack::Scale(track) = &channel.track else {
                continue;
            };
            let subject = format!("clip '{}' joint {}", clip.name(), joint_name(model, channel.joint));
            let keys: Vec<Vec3> = track.key_values().collect();
            let negative = keys.iter().filter(|s| is_negative(**s)).count();
            findings.add(
                Rule::NegativeScale,
                &subject,
                "scale keys are negative (mirroring)",
                negative,
            );
            if has_children[channel.joint] {
                let uneven = keys.iter().filter(|s| !is_negative(**s) && !is_uniform(**s)).count();
                findings.add(
                    Rule::NonUniformScale,
                    &subject,
                    "scale keys are non-uniform on a joint with children",
                    uneven,
                );
            }
        }
    }
    check_skinned_nodes(model, rest, findings);
}

/// glTF places skinned meshes by their skin alone and ignores the transform of the node that
/// holds the mesh; a transform there usually means the exporter expected it to apply.
fn check_skinned_nodes(model: &Model, rest: &Rest, findings: &mut Findings) {
    if !model.format.is_some_and(|f| f.is_gltf()) {
        return;
    }
    let local = model.skeleton.rest_pose().local();
    for instance in model.instances.iter().filter(|i| i.skin.is_some()) {
        let node = instance.joint;
        // As the Khronos validator words it: local transforms, then parents' transforms.
        let message = if !local[node].to_mat4().abs_diff_eq(Mat4::IDENTITY, 1e-4) {
            "holds a skinned mesh and has a transform of its own, which glTF ignores for skinned meshes"
        } else if !rest.matrices[node].abs_diff_eq(Mat4::IDENTITY, 1e-4) {
            "holds a skinned mesh under transformed nodes, whose transforms glTF ignores for skinned meshes"
        } else {
            continue;
        };
        findings.add(
            Rule::SkinnedMeshNodeTransform,
            format!("node {}", joint_name(model, node)),
            message,
            1,
        );
    }
}

fn is_negative(scale: Vec3) -> bool {
    scale.x * scale.y * scale.z < 0.0
}

fn is_uniform(scale: Vec3) -> bool {
    let (min, max) = (scale.abs().min_element(), scale.abs().max_element());
    max <= min * (1.0 + UNIFORM_TOLERANCE)
}
