//! The skeleton over the model: the rig's joints as squares and its bones as lines, the other
//! nodes (scene roots, armature objects, mesh nodes) as smaller dim squares.
//!
//! A bone is drawn between two rig joints (`Model::rig_joints`) only. A node that is no skin's
//! joint, as Blender's "Armature" object at the origin above the hips, gets no line to the
//! skin's root or to anything else: such lines ran from the body to a point on the ground that
//! the rig does not move. A model without skins (FBX, MD5 or node-animated files) has every node
//! as a rig joint, so each node gets its line to its parent.

use glam::{Mat4, Vec4};

use super::overlay::Overlay;
use crate::asset::Model;

const BONE_COLOR: Vec4 = Vec4::new(1.0, 0.75, 0.1, 1.0);
const JOINT_COLOR: Vec4 = Vec4::new(0.2, 0.9, 1.0, 1.0);
/// Half the side of a joint's square, in clip units per w (about 4 pixels at 800 px).
const JOINT_SIZE: f32 = 0.01;
/// Nodes that are not rig joints: dim, smaller, so the rig reads apart from the scene around
/// it.
const NODE_COLOR: Vec4 = Vec4::new(0.55, 0.55, 0.6, 0.8);
const NODE_SIZE: f32 = 0.006;

/// Adds the skeleton of `model`, posed by its model-space `matrices`, to `overlay`;
/// `rig_joints` says per joint whether it is a rig joint (`Model::rig_joints`).
pub(super) fn draw_skeleton(overlay: &mut Overlay, model: &Model, matrices: &[Mat4], rig_joints: &[bool]) {
    let nodes = (matrices.iter().enumerate()).filter(|(joint, _)| !model.value_joints.contains(joint));
    let in_rig = |joint: usize| rig_joints.get(joint).copied().unwrap_or(true);
    for (joint, matrix) in nodes {
        let position = matrix.w_axis.truncate();
        if !in_rig(joint) {
            overlay.square(position, NODE_COLOR, NODE_SIZE);
            continue;
        }
        let parent = model.skeleton.parent(joint).filter(|&parent| in_rig(parent));
        if let Some(parent_matrix) = parent.and_then(|parent| matrices.get(parent)) {
            overlay.line(parent_matrix.w_axis.truncate(), position, BONE_COLOR);
        }
        overlay.square(position, JOINT_COLOR, JOINT_SIZE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    /// The lines `draw_skeleton` adds for `model` in its rest pose, as (from, to) pairs.
    fn bones(model: &Model) -> Vec<(glam::Vec3, glam::Vec3)> {
        let matrices = model.skeleton.rest_pose().to_model_matrices();
        let mut rig_joints = Vec::new();
        model.rig_joints(&mut rig_joints);
        let mut overlay = Overlay::default();
        draw_skeleton(&mut overlay, model, &matrices, &rig_joints);
        let ends: Vec<glam::Vec3> = overlay.lines().iter().map(|v| v.position.into()).collect();
        ends.chunks(2).map(|pair| (pair[0], pair[1])).collect()
    }

    #[test]
    fn a_node_that_is_no_joint_gets_no_line() {
        // The demo with its root out of the skin: an armature node above the rig's joints.
        let mut model = demo_model();
        let root = 0;
        model.skins[0].joints.retain(|&joint| joint != root);
        let matrices = model.skeleton.rest_pose().to_model_matrices();
        let root_at = matrices[root].w_axis.truncate();
        let drawn = bones(&model);
        assert!(
            drawn.iter().all(|&(from, to)| from != root_at && to != root_at),
            "a line ends at the non-joint root: {drawn:?}"
        );
        // Every other joint but the root's children gets its bone.
        let joints = model.skeleton.len();
        let children_of_root = (0..joints)
            .filter(|&joint| model.skeleton.parent(joint) == Some(root))
            .count();
        assert!(children_of_root > 0);
        assert_eq!(drawn.len(), joints - 1 - children_of_root);
    }

    #[test]
    fn without_skins_every_node_gets_its_line() {
        let mut model = demo_model();
        let with_skin = bones(&model).len();
        model.skins.clear();
        let drawn = bones(&model);
        assert_eq!(drawn.len(), model.skeleton.len() - 1, "one line per node but the root");
        assert_eq!(drawn.len(), with_skin, "the demo's skin holds every node");
    }

    #[test]
    fn cesium_mans_armature_and_scene_root_get_no_lines() {
        // CesiumMan: Z_UP → Armature → (the mesh node, the torso joint at the skin's root),
        // none of the three a joint.
        let model = crate::asset::sample_gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
        let mut rig_joints = Vec::new();
        model.rig_joints(&mut rig_joints);
        let rig = rig_joints.iter().filter(|&&in_rig| in_rig).count();
        assert_eq!((model.skeleton.len(), rig), (22, 19));
        let drawn = bones(&model);
        // The skin's joints form one tree: a bone to every joint but its root.
        assert_eq!(drawn.len(), rig - 1);
        let matrices = model.skeleton.rest_pose().to_model_matrices();
        for name in ["Z_UP", "Armature", "Cesium_Man"] {
            let node = model.skeleton.find(name).expect("CesiumMan's node");
            let at = matrices[node].w_axis.truncate();
            assert!(
                drawn.iter().all(|&(from, to)| from != at && to != at),
                "a line ends at {name}"
            );
        }
    }
}
