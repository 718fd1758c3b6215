//! A file's scenes: which one is shown, and which of the file's nodes it takes.
//!
//! glTF shows one scene at a time: the one asked for, else the file's `scene`, else the first;
//! a file without scenes shows every node. The shown scene takes its nodes and everything
//! below them, and the joints of the skins its meshes use with their ancestors (a skin may
//! keep its skeleton outside the scene's tree). Nodes outside it are not loaded: their meshes,
//! cameras and lights are not drawn, and clips leave out the channels that animate them.

use gltf_json::Root;

use crate::asset::model::SceneInfo;
use crate::asset::{LoadErrorKind, SceneChoice};

/// Which joint each file node became: none for a node outside the scene shown.
pub struct NodeJoints(Vec<Option<usize>>);

impl NodeJoints {
    /// `order` lists the loaded file nodes, joint by joint; `node_count` is the file's.
    pub fn new(order: &[usize], node_count: usize) -> Self {
        let mut joints = vec![None; node_count];
        for (joint, &node) in order.iter().enumerate() {
            joints[node] = Some(joint);
        }
        Self(joints)
    }

    /// The joint of file node `node`, if it exists and was loaded.
    pub fn get(&self, node: usize) -> Option<usize> {
        self.0.get(node).copied().flatten()
    }

    /// How many nodes the file has (loaded or not).
    pub fn node_count(&self) -> usize {
        self.0.len()
    }
}

/// The file's scenes, and the index of the one `wanted` names. None when the file has no
/// scenes and none was asked for.
pub fn choose(root: &Root, wanted: &SceneChoice) -> Result<(Vec<SceneInfo>, Option<usize>), LoadErrorKind> {
    let scenes: Vec<SceneInfo> = (root.scenes.iter().enumerate())
        .map(|(index, scene)| SceneInfo {
            name: scene.name.clone().unwrap_or_else(|| format!("Scene {index}")),
            root_nodes: scene.nodes.len(),
        })
        .collect();
    let shown = match wanted {
        SceneChoice::FileDefault if scenes.is_empty() => None,
        SceneChoice::FileDefault => Some(root.scene.map(|s| s.value()).filter(|&s| s < scenes.len()).unwrap_or(0)),
        wanted => Some(find(&scenes, wanted)?),
    };
    Ok((scenes, shown))
}

/// The scene `wanted` names: by index, or by name and else by index.
fn find(scenes: &[SceneInfo], wanted: &SceneChoice) -> Result<usize, LoadErrorKind> {
    let found = match wanted {
        SceneChoice::FileDefault => Some(0),
        SceneChoice::Index(index) => Some(*index),
        SceneChoice::Named(name) => {
            (scenes.iter().position(|s| s.name == *name)).or_else(|| name.trim().parse::<usize>().ok())
        }
    };
    if let Some(index) = found.filter(|&i| i < scenes.len()) {
        return Ok(index);
    }
    let listed: Vec<String> = (scenes.iter().enumerate())
        .map(|(index, scene)| format!("{index} '{}'", scene.name))
        .collect();
    Err(LoadErrorKind::NoSuchScene {
        wanted: wanted.to_string(),
        scenes: if listed.is_empty() {
            "the file has none".into()
        } else {
            format!("the file's scenes: {}", listed.join(", "))
        },
    })
}

/// Per file node, whether scene `shown` takes it (every node when there is no scene).
/// `parent` is each node's parent; the hierarchy has no cycles.
pub fn nodes_taken(root: &Root, parent: &[Option<usize>], shown: Option<usize>) -> Vec<bool> {
    let count = root.nodes.len();
    let Some(scene) = shown.and_then(|s| root.scenes.get(s)) else {
        return vec![true; count];
    };
    let mut taken = vec![false; count];
    // The scene's nodes and everything below them.
    let mut stack: Vec<usize> = scene.nodes.iter().map(|n| n.value()).filter(|&n| n < count).collect();
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut taken[node], true) {
            continue;
        }
        let children = root.nodes[node].children.iter().flatten().map(|c| c.value());
        stack.extend(children.filter(|&c| c < count));
    }
    // The joints of the skins its meshes use, which may lie outside its tree.
    let skins = (root.nodes.iter().enumerate())
        .filter(|&(node, json)| taken[node] && json.mesh.is_some())
        .filter_map(|(_, json)| root.skins.get(json.skin?.value()));
    let joints: Vec<usize> = skins
        .flat_map(|skin| skin.joints.iter().chain(&skin.skeleton).map(|n| n.value()))
        .filter(|&n| n < count)
        .collect();
    for joint in joints {
        take_with_ancestors(joint, parent, &mut taken);
    }
    // A scene's node that is not a root (the validator's NODE_NOT_ROOT) keeps its ancestors.
    for node in 0..count {
        if taken[node] {
            take_with_ancestors(node, parent, &mut taken);
        }
    }
    taken
}

fn take_with_ancestors(node: usize, parent: &[Option<usize>], taken: &mut [bool]) {
    taken[node] = true;
    let mut up = parent[node];
    while let Some(ancestor) = up.filter(|&a| !taken[a]) {
        taken[ancestor] = true;
        up = parent[ancestor];
    }
}
