//! Spring bones written back, the inverse of `asset::gltf::vrm_springs`:
//! - VRM 1.0's `VRMC_springBone`: colliders (inside shapes and planes through
//!   `VRMC_springBone_extended_collider`, over a sphere of no size that readers without it
//!   ignore), collider groups, and springs: the joints that follow each other through their
//!   tails (a joint's tail is the next joint listed) with the same center and collider groups
//!   become one spring, the last tail listed only as a tail;
//! - VRM 0.x's `secondaryAnimation`: collider groups (one node each, their offsets' Z flipped
//!   to Unity's axes) and bone groups whose roots are the joints whose parent is not a spring
//!   joint of the same settings. The loader makes every node below a root a joint (the first
//!   walk to reach a node wins), so the roots are listed deepest first; a 0.x joint's tail is
//!   its first child, which the writer cannot choose.
//!
//! What a version cannot hold is a warning: a 1.0 joint without a tail, a 0.x collider that is
//! not an outside sphere or a group over several joints, a 0.x tail that is not the first child.

use std::collections::HashMap;

use glam::Vec3;
use serde_json::{Value, json};

use super::document::Document;
use crate::anim::Skeleton;
use crate::anim::avatar::{Collider, ColliderShape, SpringBones, SpringJoint};

pub const EXTENSION: &str = "VRMC_springBone";
const EXTENDED_COLLIDER: &str = "VRMC_springBone_extended_collider";

/// `VRMC_springBone` for `springs`.
pub fn spring_bone_1_0(springs: &SpringBones, document: &mut Document) -> Value {
    let colliders: Vec<Value> = (springs.colliders.iter()).map(|c| collider_1_0(c, document)).collect();
    let groups: Vec<Value> = (springs.collider_groups.iter())
        .map(|group| json!({ "colliders": group }))
        .collect();
    let tailless = springs.joints.iter().filter(|j| j.child.is_none()).count();
    if tailless > 0 {
        document.warn(format!(
            "spring bones: {tailless} joints without a tail cannot be VRM 1.0 spring joints (left out)"
        ));
    }
    let joints: Vec<&SpringJoint> = springs.joints.iter().filter(|j| j.child.is_some()).collect();
    let chains = chains(&joints);
    let springs: Vec<Value> = chains
        .iter()
        .map(|chain| {
            let mut listed: Vec<Value> = chain.iter().map(|&j| joint_1_0(joints[j])).collect();
            let last = joints[chain[chain.len() - 1]];
            listed.extend(last.child.map(|tail| json!({ "node": tail })));
            let first = joints[chain[0]];
            let mut spring = json!({ "joints": listed, "colliderGroups": first.collider_groups });
            if let Some(center) = first.center {
                spring["center"] = json!(center);
            }
            spring
        })
        .collect();
    json!({ "specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs })
}

/// A spring's joint with its settings (the next joint listed is its tail).
fn joint_1_0(joint: &SpringJoint) -> Value {
    let s = &joint.settings;
    json!({
        "node": joint.joint,
        "hitRadius": s.hit_radius,
        "stiffness": s.stiffness,
        "gravityPower": s.gravity_power,
        "gravityDir": s.gravity_dir.to_array(),
        "dragForce": s.drag_force,
    })
}

/// A collider: an outside sphere or capsule as it is, any other shape as the extended
/// collider's over a sphere of no size.
fn collider_1_0(collider: &Collider, document: &mut Document) -> Value {
    let core = |shape: Value| json!({ "node": collider.joint, "shape": shape });
    let (offset, extended) = match collider.shape {
        ColliderShape::Sphere {
            offset,
            radius,
            inside: false,
        } => return core(json!({ "sphere": { "offset": offset.to_array(), "radius": radius } })),
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
            inside: false,
        } => {
            let capsule = json!({ "offset": offset.to_array(), "radius": radius, "tail": tail.to_array() });
            return core(json!({ "capsule": capsule }));
        }
        ColliderShape::Sphere { offset, radius, .. } => (
            offset,
            json!({ "sphere": { "offset": offset.to_array(), "radius": radius, "inside": true } }),
        ),
        ColliderShape::Capsule {
            offset, tail, radius, ..
        } => (
            offset,
            json!({ "capsule": { "offset": offset.to_array(), "radius": radius, "tail": tail.to_array(), "inside": true } }),
        ),
        ColliderShape::Plane { offset, normal } => (
            offset,
            json!({ "plane": { "offset": offset.to_array(), "normal": normal.to_array() } }),
        ),
    };
    document.use_extension(EXTENDED_COLLIDER, false);
    let mut json = core(json!({ "sphere": { "offset": offset.to_array(), "radius": 0.0 } }));
    json["extensions"] = json!({ EXTENDED_COLLIDER: { "specVersion": "1.0", "shape": extended } });
    json
}

/// The joints (indices into `joints`) as springs: each a run of joints whose tail is the next,
/// with the same center and collider groups. Runs start at joints no other joint's tail is;
/// joints left (tails of each other in a loop) start runs of their own.
fn chains(joints: &[&SpringJoint]) -> Vec<Vec<usize>> {
    let index_of: HashMap<usize, usize> = joints.iter().enumerate().map(|(i, j)| (j.joint, i)).collect();
    let same_spring = |a: &SpringJoint, b: &SpringJoint| a.center == b.center && a.collider_groups == b.collider_groups;
    let next = |i: usize| {
        let child = joints[i].child?;
        index_of
            .get(&child)
            .copied()
            .filter(|&n| same_spring(joints[i], joints[n]))
    };
    let mut is_next = vec![false; joints.len()];
    for i in 0..joints.len() {
        if let Some(n) = next(i) {
            is_next[n] = true;
        }
    }
    let starts = (0..joints.len()).filter(|&i| !is_next[i]).chain(0..joints.len());
    let mut taken = vec![false; joints.len()];
    let mut chains = Vec::new();
    for start in starts {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at.filter(|&i| !taken[i]) {
            taken[i] = true;
            chain.push(i);
            at = next(i);
        }
        if !chain.is_empty() {
            chains.push(chain);
        }
    }
    chains
}

/// VRM 0.x's `secondaryAnimation` for `springs` on `skeleton`.
pub fn secondary_animation(springs: &SpringBones, skeleton: &Skeleton, document: &mut Document) -> Value {
    let mut collider_groups = Vec::with_capacity(springs.collider_groups.len());
    for (index, group) in springs.collider_groups.iter().enumerate() {
        let colliders: Vec<&Collider> = group.iter().filter_map(|&c| springs.colliders.get(c)).collect();
        // An empty group (the loader's for a group naming no node) names the first node.
        let node = colliders.first().map_or(0, |c| c.joint);
        let mut spheres = Vec::with_capacity(colliders.len());
        for collider in colliders {
            match collider.shape {
                ColliderShape::Sphere {
                    offset,
                    radius,
                    inside: false,
                } if collider.joint == node => {
                    let offset = offset * Vec3::new(1.0, 1.0, -1.0);
                    spheres.push(json!({ "offset": { "x": offset.x, "y": offset.y, "z": offset.z }, "radius": radius }));
                }
                _ => document.warn(format!(
                    "spring bones: collider group {index} holds a collider VRM 0.x cannot (not an outside sphere on the group's node; left out)"
                )),
            }
        }
        collider_groups.push(json!({ "node": node, "colliders": spheres }));
    }
    json!({ "boneGroups": bone_groups(springs, skeleton, document), "colliderGroups": collider_groups })
}

/// The bone groups: per run of roots (deepest first) of the same settings, one group.
fn bone_groups(springs: &SpringBones, skeleton: &Skeleton, document: &mut Document) -> Vec<Value> {
    let mut on_joint: Vec<Option<&SpringJoint>> = vec![None; skeleton.len()];
    for joint in &springs.joints {
        if let Some(slot) = on_joint.get_mut(joint.joint) {
            *slot = Some(joint);
        }
    }
    let same = |a: &SpringJoint, b: &SpringJoint| {
        (a.settings, a.center, &a.collider_groups) == (b.settings, b.center, &b.collider_groups)
    };
    let first_child = |joint: usize| (joint + 1..skeleton.len()).find(|&c| skeleton.parent(c) == Some(joint));
    let (mut unlike, mut other_tails) = (0, 0);
    let mut roots: Vec<&SpringJoint> = Vec::new();
    for joint in &springs.joints {
        let parent = skeleton.parent(joint.joint).and_then(|p| on_joint[p]);
        if !parent.is_some_and(|parent| same(parent, joint)) {
            roots.push(joint);
        }
        if joint.child != first_child(joint.joint) {
            other_tails += 1;
        }
        // The loader makes every joint below a root a spring joint.
        let children = (joint.joint + 1..skeleton.len()).filter(|&c| skeleton.parent(c) == Some(joint.joint));
        unlike += children.filter(|&c| on_joint[c].is_none()).count();
    }
    if unlike > 0 {
        document.warn(format!(
            "spring bones: {unlike} joints below spring joints do not swing, which VRM 0.x cannot say (they will)"
        ));
    }
    if other_tails > 0 {
        document.warn(format!(
            "spring bones: {other_tails} joints have a tail other than their first child, which VRM 0.x cannot say"
        ));
    }
    roots.sort_by_key(|root| std::cmp::Reverse(root.joint));
    let mut groups: Vec<(&SpringJoint, Vec<usize>)> = Vec::new();
    for root in roots {
        match groups.last_mut() {
            Some((first, bones)) if same(first, root) => bones.push(root.joint),
            _ => groups.push((root, vec![root.joint])),
        }
    }
    (groups.into_iter())
        .map(|(first, bones)| {
            let s = &first.settings;
            json!({
                "comment": "",
                "stiffiness": s.stiffness,
                "gravityPower": s.gravity_power,
                "gravityDir": { "x": s.gravity_dir.x, "y": s.gravity_dir.y, "z": s.gravity_dir.z },
                "dragForce": s.drag_force,
                "center": first.center.map_or(-1, |c| c as i64),
                "hitRadius": s.hit_radius,
                "bones": bones,
                "colliderGroups": first.collider_groups,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::avatar::SpringSettings;

    /// A spring joint of the default settings and no collider groups.
    fn joint(joint: usize, child: Option<usize>, center: Option<usize>) -> SpringJoint {
        SpringJoint {
            joint,
            child,
            settings: SpringSettings::default(),
            center,
            collider_groups: Vec::new(),
        }
    }

    #[test]
    fn joints_following_their_tails_become_one_spring_and_loops_are_kept() {
        // 1 → 2 → 3 (3's tail is 4, no spring joint); 5 → 6 of another center; 7 ⇄ 8.
        let listed = [
            joint(1, Some(2), None),
            joint(2, Some(3), None),
            joint(3, Some(4), None),
            joint(5, Some(6), None),
            joint(6, Some(9), Some(0)),
            joint(7, Some(8), None),
            joint(8, Some(7), None),
        ];
        let joints: Vec<&SpringJoint> = listed.iter().collect();
        assert_eq!(chains(&joints), [vec![0, 1, 2], vec![3], vec![4], vec![5, 6]]);
    }
}
