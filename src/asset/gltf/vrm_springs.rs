//! Spring bones from `VRMC_springBone` (VRM 1.0, with `VRMC_springBone_extended_collider`'s
//! planes and inside shapes) or from VRM 0.x's `secondaryAnimation`, read as three-vrm reads
//! them: a 1.0 spring's joints pair each listed node with the next (the last is only a tail);
//! a 0.x bone group makes every node below each of its roots a joint, with its first child as
//! tail, its collider offsets' Z flipped (Unity's axes) and `stiffiness` spelled as 0.x does.
//! Anything that names a node the file does not have is left out with a warning.

use glam::Vec3;
use gltf_json::Root;
use serde_json::Value;

use super::scenes::NodeJoints;
use super::vrm_json::{array, number, vec3};
use crate::anim::avatar::{Collider, ColliderShape, SpringBones, SpringJoint, SpringSettings};
use crate::asset::avatar::VrmVersion;

pub const EXTENSION: &str = "VRMC_springBone";
const EXTENDED_COLLIDER: &str = "VRMC_springBone_extended_collider";

/// The file's spring bones (empty when it has none). `vrm` is the file's VRM extension.
pub fn load_springs(
    root: &Root,
    vrm: Option<(VrmVersion, &Value)>,
    joint_of_node: &NodeJoints,
    warnings: &mut Vec<String>,
) -> SpringBones {
    let others = root.extensions.as_ref().map(|e| &e.others);
    let reader = Reader { root, joint_of_node };
    let mut springs = match (others.and_then(|o| o.get(EXTENSION)), vrm) {
        (Some(extension), _) => reader.version_1(extension, warnings),
        (None, Some((VrmVersion::V0, vrm))) => match vrm.get("secondaryAnimation") {
            Some(secondary) => reader.version_0(secondary, warnings),
            None => SpringBones::default(),
        },
        _ => SpringBones::default(),
    };
    // Parents first, as the skeleton's joints are; a joint in two springs moves with the first.
    springs.joints.sort_by_key(|spring| spring.joint);
    let before = springs.joints.len();
    springs.joints.dedup_by_key(|spring| spring.joint);
    if springs.joints.len() < before {
        warnings.push(format!(
            "spring bones: {} joints are listed twice (each moves with its first spring)",
            before - springs.joints.len()
        ));
    }
    springs
}

struct Reader<'a> {
    root: &'a Root,
    joint_of_node: &'a NodeJoints,
}

impl Reader<'_> {
    fn joint(&self, node: Option<&Value>) -> Option<usize> {
        let node = node?.as_u64()?;
        self.joint_of_node.get(usize::try_from(node).ok()?)
    }

    fn version_1(&self, extension: &Value, warnings: &mut Vec<String>) -> SpringBones {
        let mut springs = SpringBones::default();
        let mut collider_of_file = Vec::new();
        for (index, json) in array(extension, "colliders").enumerate() {
            let joint = self.joint(json.get("node"));
            let shape = self
                .extended_shape(index, json, warnings)
                .or_else(|| shape(json.get("shape")?, false));
            match (joint, shape) {
                (Some(joint), Some(shape)) => {
                    collider_of_file.push(Some(springs.colliders.len()));
                    springs.colliders.push(Collider { joint, shape });
                }
                _ => {
                    warnings.push(format!(
                        "VRMC_springBone collider {index}: no node of the file or no shape (left out)"
                    ));
                    collider_of_file.push(None);
                }
            }
        }
        for json in array(extension, "colliderGroups") {
            let group = (array(json, "colliders").filter_map(Value::as_u64))
                .filter_map(|c| collider_of_file.get(usize::try_from(c).ok()?).copied().flatten())
                .collect();
            springs.collider_groups.push(group);
        }
        let group_count = springs.collider_groups.len();
        for (index, spring) in array(extension, "springs").enumerate() {
            let groups: Vec<usize> = (array(spring, "colliderGroups").filter_map(Value::as_u64))
                .filter_map(|g| usize::try_from(g).ok())
                .filter(|&g| g < group_count)
                .collect();
            let center = self.joint(spring.get("center"));
            let joints: Vec<&Value> = array(spring, "joints").collect();
            for pair in joints.windows(2) {
                let (Some(joint), Some(child)) = (self.joint(pair[0].get("node")), self.joint(pair[1].get("node")))
                else {
                    warnings.push(format!(
                        "VRMC_springBone spring {index}: a joint names no node of the file (left out)"
                    ));
                    continue;
                };
                let settings = SpringSettings {
                    hit_radius: number(pair[0], "hitRadius").unwrap_or(0.0),
                    stiffness: number(pair[0], "stiffness").unwrap_or(1.0),
                    gravity_power: number(pair[0], "gravityPower").unwrap_or(0.0),
                    gravity_dir: vec3(pair[0].get("gravityDir")).unwrap_or(Vec3::NEG_Y),
                    drag_force: number(pair[0], "dragForce").unwrap_or(0.5),
                };
                springs.joints.push(SpringJoint {
                    joint,
                    child: Some(child),
                    settings,
                    center,
                    collider_groups: groups.clone(),
                });
            }
        }
        springs
    }

    /// The shape of collider `index`'s extended collider, when it has one of a version three-vrm
    /// knows (1.0). One without `specVersion` or of another version is a warning, as three-vrm
    /// warns: the collider falls back to `VRMC_springBone`'s own shape.
    fn extended_shape(&self, index: usize, json: &Value, warnings: &mut Vec<String>) -> Option<ColliderShape> {
        let extended = json.pointer(&format!("/extensions/{EXTENDED_COLLIDER}"))?;
        let version = match extended.get("specVersion") {
            Some(Value::String(version)) if version == "1.0" => return shape(extended.get("shape")?, false),
            Some(Value::String(version)) => format!("specVersion '{version}', which three-vrm does not know"),
            _ => "no specVersion".to_owned(),
        };
        let node = json.get("node").and_then(Value::as_u64);
        let name = (node.and_then(|n| self.root.nodes.get(usize::try_from(n).ok()?)))
            .and_then(|node| node.name.as_deref())
            .unwrap_or_default();
        let on = node.map_or_else(String::new, |node| format!(" on node {node} '{name}'"));
        warnings.push(format!(
            "VRMC_springBone collider {index}{on}: its {EXTENDED_COLLIDER} has {version} (not used; \
             the collider is VRMC_springBone's own shape, as three-vrm falls back)"
        ));
        None
    }

    fn version_0(&self, secondary: &Value, warnings: &mut Vec<String>) -> SpringBones {
        let mut springs = SpringBones::default();
        let mut walked = vec![false; self.root.nodes.len()];
        for (index, json) in array(secondary, "colliderGroups").enumerate() {
            let Some(joint) = self.joint(json.get("node")) else {
                warnings.push(format!(
                    "VRM 0.x collider group {index}: no node of the file (left out; empty)"
                ));
                springs.collider_groups.push(Vec::new());
                continue;
            };
            let mut group = Vec::new();
            for collider in array(json, "colliders") {
                // Unity's Z runs the other way.
                let offset = vec3(collider.get("offset")).unwrap_or(Vec3::ZERO) * Vec3::new(1.0, 1.0, -1.0);
                let radius = number(collider, "radius").unwrap_or(0.0);
                group.push(springs.colliders.len());
                springs.colliders.push(Collider {
                    joint,
                    shape: ColliderShape::Sphere {
                        offset,
                        radius,
                        inside: false,
                    },
                });
            }
            springs.collider_groups.push(group);
        }
        let group_count = springs.collider_groups.len();
        for (index, json) in array(secondary, "boneGroups").enumerate() {
            let settings = SpringSettings {
                hit_radius: number(json, "hitRadius").unwrap_or(0.0),
                stiffness: number(json, "stiffiness").unwrap_or(1.0),
                gravity_power: number(json, "gravityPower").unwrap_or(0.0),
                gravity_dir: vec3(json.get("gravityDir")).unwrap_or(Vec3::NEG_Y),
                drag_force: number(json, "dragForce").unwrap_or(0.4),
            };
            let center = self.joint(json.get("center"));
            let groups: Vec<usize> = (array(json, "colliderGroups").filter_map(Value::as_u64))
                .filter_map(|g| usize::try_from(g).ok())
                .filter(|&g| g < group_count)
                .collect();
            for root in array(json, "bones") {
                let Some(node) = root
                    .as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|&n| self.joint_of_node.get(n).is_some())
                else {
                    warnings.push(format!(
                        "VRM 0.x bone group {index}: a bone names no node of the file (left out)"
                    ));
                    continue;
                };
                let mut below = vec![node];
                while let Some(node) = below.pop() {
                    // A node below two listed roots moves with the first (and is walked once:
                    // a file listing one root many times asks for no more work).
                    if std::mem::replace(&mut walked[node], true) {
                        continue;
                    }
                    let children: Vec<usize> = (self.root.nodes[node].children.iter().flatten())
                        .map(|c| c.value())
                        .filter(|&c| self.joint_of_node.get(c).is_some())
                        .collect();
                    let (Some(joint), child) = (self.joint_of_node.get(node), children.first()) else {
                        continue;
                    };
                    springs.joints.push(SpringJoint {
                        joint,
                        child: child.and_then(|&c| self.joint_of_node.get(c)),
                        settings,
                        center,
                        collider_groups: groups.clone(),
                    });
                    below.extend(children.iter().rev());
                }
            }
        }
        springs
    }
}

/// A collider shape: `sphere`, `capsule` or (extended) `plane`.
fn shape(json: &Value, inside_default: bool) -> Option<ColliderShape> {
    let inside = |shape: &Value| shape.get("inside").and_then(Value::as_bool).unwrap_or(inside_default);
    let offset = |shape: &Value| vec3(shape.get("offset")).unwrap_or(Vec3::ZERO);
    let radius = |shape: &Value| number(shape, "radius").unwrap_or(0.0);
    if let Some(sphere) = json.get("sphere") {
        return Some(ColliderShape::Sphere {
            offset: offset(sphere),
            radius: radius(sphere),
            inside: inside(sphere),
        });
    }
    if let Some(capsule) = json.get("capsule") {
        return Some(ColliderShape::Capsule {
            offset: offset(capsule),
            tail: vec3(capsule.get("tail")).unwrap_or(Vec3::ZERO),
            radius: radius(capsule),
            inside: inside(capsule),
        });
    }
    let plane = json.get("plane")?;
    Some(ColliderShape::Plane {
        offset: offset(plane),
        normal: vec3(plane.get("normal")).unwrap_or(Vec3::Z),
    })
}
