//! `VRMC_vrm_animation` (`.vrma` files): the humanoid map of the bones it animates (so that its
//! clips play on any VRM avatar through the avatar's map); besides them, the file animates
//! nodes that only carry values: one per expression (its translation's x is the expression's weight)
//! and one for where the eyes look. They are not bones: they are neither drawn in the skeleton
//! nor framed.

use gltf_json::Root;
use serde_json::Value;

use super::scenes::NodeJoints;
use crate::asset::avatar::VrmAnimation;
use crate::asset::human_bone::{HUMAN_BONES, human_bone};

pub const EXTENSION: &str = "VRMC_vrm_animation";

/// The humanoid bones the file maps (by VRM 1.0 name) and their joints, in `HUMAN_BONES`
/// order, the expressions it animates and their value joints, and its look-at's value joint;
/// unknown bones, and nodes
/// the file does not have, are left out.
pub fn load(root: &Root, joint_of_node: &NodeJoints) -> VrmAnimation {
    let Some(extension) = root.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)) else {
        return VrmAnimation::default();
    };
    let joint = |json: &Value| joint_of_node.get(usize::try_from(json.get("node")?.as_u64()?).ok()?);
    let expressions = ["preset", "custom"]
        .into_iter()
        .filter_map(|kind| extension.pointer(&format!("/expressions/{kind}"))?.as_object())
        .flatten()
        .filter_map(|(name, expression)| Some((name.clone(), joint(expression)?)))
        .collect();
    VrmAnimation {
        humanoid: humanoid(extension, joint_of_node),
        expressions,
        look_at: extension.get("lookAt").and_then(joint),
    }
}

fn humanoid(extension: &Value, joint_of_node: &NodeJoints) -> Vec<(&'static str, usize)> {
    let bones = extension.pointer("/humanoid/humanBones").and_then(Value::as_object);
    let mut humanoid: Vec<(&'static str, usize)> = (bones.into_iter().flatten())
        .filter_map(|(name, bone)| {
            let node = usize::try_from(bone.get("node")?.as_u64()?).ok()?;
            Some((human_bone(name)?.name, joint_of_node.get(node)?))
        })
        .collect();
    humanoid.sort_by_key(|&(name, _)| HUMAN_BONES.iter().position(|b| b.name == name));
    humanoid.dedup_by_key(|&mut (_, joint)| joint);
    humanoid
}

/// The joints of the file's expression and look-at nodes.
pub fn value_joints(root: &Root, joint_of_node: &NodeJoints) -> Vec<usize> {
    let Some(extension) = root.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)) else {
        return Vec::new();
    };
    let expressions = ["preset", "custom"]
        .into_iter()
        .filter_map(|kind| extension.pointer(&format!("/expressions/{kind}"))?.as_object())
        .flat_map(|expressions| expressions.values())
        .filter_map(|expression| expression.get("node"));
    let look_at = extension.pointer("/lookAt/node");
    let mut joints: Vec<usize> = (expressions.chain(look_at))
        .filter_map(Value::as_u64)
        .filter_map(|node| joint_of_node.get(usize::try_from(node).ok()?))
        .collect();
    joints.sort_unstable();
    joints.dedup();
    joints
}
