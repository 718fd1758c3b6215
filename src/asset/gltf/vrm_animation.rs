//! `VRMC_vrm_animation` (`.vrma` files): besides the humanoid's bones, the file animates nodes
//! that only carry values: one per expression (its translation's x is the expression's weight)
//! and one for where the eyes look. They are not bones: they are neither drawn in the skeleton
//! nor framed.

use gltf_json::Root;
use serde_json::Value;

use super::scenes::NodeJoints;

pub const EXTENSION: &str = "VRMC_vrm_animation";

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
