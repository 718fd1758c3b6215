//! The file's nodes as joints: every node under the root (which ufbx adds), parents first, each
//! with its local transform as ufbx resolves it (pivots, pre- and post-rotations and rotation
//! order folded into one rotation and translation).

use glam::Mat4;

use super::{quat, vec3};
use crate::anim::{JointDesc, Skeleton, Transform};
use crate::asset::LoadErrorKind;

/// Which joint each ufbx node became, and the joints' nodes.
pub struct Nodes {
    /// Per joint, the node's `typed_id` (its index in `Scene::nodes`).
    node_of_joint: Vec<usize>,
    /// Per node (by `typed_id`), its joint; none for the root.
    joint_of_node: Vec<Option<usize>>,
    /// Per joint, its parent joint.
    parents: Vec<Option<usize>>,
}

impl Nodes {
    pub fn new(scene: &ufbx::Scene) -> Result<Self, LoadErrorKind> {
        let count = scene.nodes.len();
        let mut node_of_joint = Vec::with_capacity(count);
        let mut parents = Vec::with_capacity(count);
        let mut joint_of_node = vec![None; count];
        // Depth first from the root's children, children in file order.
        let mut stack: Vec<(&ufbx::Node, Option<usize>)> =
            scene.root_node.children.iter().rev().map(|c| (&**c, None)).collect();
        while let Some((node, parent)) = stack.pop() {
            let id = node.element.typed_id as usize;
            let Some(slot) = joint_of_node.get_mut(id).filter(|j| j.is_none()) else {
                return Err(LoadErrorKind::invalid(
                    format!("node '{}'", node.element.name),
                    "the node hierarchy reaches it twice",
                ));
            };
            let joint = node_of_joint.len();
            *slot = Some(joint);
            node_of_joint.push(id);
            parents.push(parent);
            stack.extend(node.children.iter().rev().map(|c| (&**c, Some(joint))));
        }
        Ok(Self {
            node_of_joint,
            joint_of_node,
            parents,
        })
    }

    pub fn len(&self) -> usize {
        self.node_of_joint.len()
    }

    /// The joint of `node` (none for the root).
    pub fn joint(&self, node: &ufbx::Node) -> Option<usize> {
        self.joint_of_node
            .get(node.element.typed_id as usize)
            .copied()
            .flatten()
    }

    /// The node of `joint`.
    pub fn node<'a>(&self, scene: &'a ufbx::Scene, joint: usize) -> Option<&'a ufbx::Node> {
        scene.nodes.get(*self.node_of_joint.get(joint)?).map(|n| &**n)
    }

    /// The skeleton: each joint's name, parent and rest transform, the bind pose the skins
    /// give (`bind_model`, per joint), and the morph weights of the nodes whose meshes have
    /// morph targets (`morph_weights`, per joint).
    pub fn skeleton(
        &self,
        scene: &ufbx::Scene,
        morph_weights: &[Vec<f32>],
        bind_model: Vec<Option<Mat4>>,
    ) -> Result<Skeleton, LoadErrorKind> {
        let joints = (self.node_of_joint.iter().zip(&self.parents).zip(bind_model).enumerate())
            .map(|(joint, ((&node, &parent), bind_model))| {
                let node = &scene.nodes[node];
                let local = &node.local_transform;
                let rest = Transform::new(
                    vec3(local.translation),
                    quat(local.rotation).normalize(),
                    vec3(local.scale),
                );
                JointDesc {
                    name: node.element.name.to_string(),
                    parent: parent.map(|p| p as u32),
                    rest: if rest.is_finite() { rest } else { Transform::IDENTITY },
                    bind_model,
                    morph_weights: morph_weights.get(joint).cloned().unwrap_or_default(),
                }
            })
            .collect();
        Skeleton::new(joints).map_err(|e| LoadErrorKind::invalid("the node hierarchy", e.to_string()))
    }
}
