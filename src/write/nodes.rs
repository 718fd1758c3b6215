//! The node hierarchy: node i is joint i (the skeleton is parents-first, so every parent comes
//! before its children), with its name, rest transform as translation, rotation and scale,
//! and what it holds: a mesh, a camera, a light. Nodes for meshes come after the joints, so
//! joint indices stay node indices: a skinned mesh goes on a root node of its own (glTF
//! ignores a skinned mesh node's transform, and the validator asks for skinned meshes at the
//! root), and a joint's second and further rigid meshes on child nodes at its place. A node
//! that holds a mesh carries the joint's morph weights. One scene lists the root nodes.

use gltf_json as json;

use super::document::Document;
use super::lights::node_light;
use super::skins::node;
use crate::anim::Transform;
use crate::asset::Model;

/// What the other writers placed on each joint's node, by joint.
pub struct Attached<'a> {
    /// Per model mesh, its glTF mesh (none: nothing to draw).
    pub meshes: &'a [Option<json::Index<json::Mesh>>],
    pub cameras: &'a [Option<json::Index<json::Camera>>],
    pub lights: &'a [Option<usize>],
}

/// Writes the nodes and the scene; returns every node that holds a mesh with the joint that
/// places it and carries its morph weights, as (joint, node): one per instance whose mesh was
/// written, in `model.instances` order (`instancing` finds instances' nodes by it).
pub fn write_nodes(document: &mut Document, model: &Model, attached: &Attached) -> Vec<(usize, usize)> {
    let skeleton = &model.skeleton;
    let rest = skeleton.rest_pose();
    let mut nodes: Vec<json::Node> = (0..skeleton.len())
        .map(|joint| {
            let mut node = trs_node(skeleton.name(joint), &rest.local()[joint]);
            node.camera = attached.cameras.get(joint).copied().flatten();
            if let Some(light) = attached.lights.get(joint).copied().flatten() {
                let (name, value) = node_light(light);
                node.extensions
                    .get_or_insert_with(Default::default)
                    .others
                    .insert(name, value);
            }
            node
        })
        .collect();
    let mut children: Vec<Vec<json::Index<json::Node>>> = vec![Vec::new(); nodes.len()];
    for joint in 0..skeleton.len() {
        if let Some(parent) = skeleton.parent(joint) {
            children[parent].push(node(joint));
        }
    }
    let mut roots: Vec<json::Index<json::Node>> = (0..skeleton.len())
        .filter(|&joint| skeleton.parent(joint).is_none())
        .map(node)
        .collect();
    let mut mesh_nodes = Vec::new();
    for instance in &model.instances {
        let Some(mesh) = attached.meshes.get(instance.mesh).copied().flatten() else {
            continue;
        };
        let joint = instance.joint;
        let weights = &rest.morph_weights()[skeleton.morph_weight_range(joint)];
        let weights = (!weights.is_empty()).then(|| weights.to_vec());
        let skin = instance.skin.map(|s| json::Index::new(s as u32));
        if skin.is_none() && nodes[joint].mesh.is_none() {
            (nodes[joint].mesh, nodes[joint].weights) = (Some(mesh), weights);
            mesh_nodes.push((joint, joint));
            continue;
        }
        let mesh_name = &model.meshes[instance.mesh].name;
        let mut holder = trs_node(mesh_name, &Transform::IDENTITY);
        (holder.mesh, holder.skin, holder.weights) = (Some(mesh), skin, weights);
        let index = nodes.len();
        match skin {
            Some(_) => roots.push(node(index)),
            None => children[joint].push(node(index)),
        }
        children.push(Vec::new());
        nodes.push(holder);
        mesh_nodes.push((joint, index));
    }
    if skins_span_trees(model) {
        // glTF asks a skin's joints for a common root: the joints' trees go under one node.
        let joint_roots: Vec<_> = roots.iter().copied().filter(|r| r.value() < skeleton.len()).collect();
        roots.retain(|r| r.value() >= skeleton.len());
        roots.insert(0, node(nodes.len()));
        nodes.push(trs_node("Root", &Transform::IDENTITY));
        children.push(joint_roots);
    }
    for (node, children) in nodes.iter_mut().zip(children) {
        node.children = (!children.is_empty()).then_some(children);
    }
    document.root.nodes = nodes;
    let scene = document.root.push(json::Scene {
        extensions: None,
        extras: None,
        name: Some("Scene".into()),
        nodes: roots,
    });
    document.root.scene = Some(scene);
    mesh_nodes
}

/// Whether some skin's joints lie in trees with different roots.
fn skins_span_trees(model: &Model) -> bool {
    let hierarchy = model.skeleton.rest_pose().hierarchy();
    let root_of = |joint: usize| hierarchy.ancestors(joint).last().unwrap_or(joint);
    model.skins.iter().any(|skin| {
        let mut roots = skin.joints.iter().map(|&joint| root_of(joint));
        let first = roots.next();
        roots.any(|root| Some(root) != first)
    })
}

/// A node named `name` with `transform`'s translation, rotation and scale, each left out
/// where it is the identity's.
fn trs_node(name: &str, transform: &Transform) -> json::Node {
    let rotation = transform.rotation.normalize();
    json::Node {
        name: Some(name.to_owned()),
        translation: (transform.translation != glam::Vec3::ZERO).then(|| transform.translation.to_array()),
        rotation: (rotation != glam::Quat::IDENTITY).then(|| json::scene::UnitQuaternion(rotation.to_array())),
        scale: (transform.scale != glam::Vec3::ONE).then(|| transform.scale.to_array()),
        ..Default::default()
    }
}
