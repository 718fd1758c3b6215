//! Joints paired across two rigs, and what was added, removed, renamed or reparented.
//!
//! Pairing, in order:
//! 1. **By name**: the retargeter's rules (`anim::match_joints`): exact names, then names
//!    equal once normalised (`mixamorig:Hips` and `hips`).
//! 2. **By place**: each joint of A still unpaired, parents first, pairs with the joint of B
//!    at the same child index under its parent's pair (or among the roots, for a root), if that
//!    joint is unpaired too. Its name differs, or step 1 would have paired it: it was renamed.
//!
//! A paired joint whose name differs is *renamed*; one whose parent in B is not its parent's
//! pair is *reparented*. Joints of A without a pair were *removed*, joints of B *added*.
//!
//! Nodes whose transform places nothing are left out on both sides: those in no skin, moved
//! by no clip (a clip that only shows and hides a node does not count), holding no unskinned mesh, camera or light, with no such node below them. That
//! is where a file keeps its skinned meshes (glTF ignores those nodes' transforms, and where
//! they go differs from writer to writer: rigscope's own puts each on a root node of its own)
//! and empty helper nodes. They have no pair. A file with no mesh at all (a skeleton and its
//! clips) keeps every node.

use serde::Serialize;

use super::{Finding, JointChange, Section};
use crate::anim::{Channel, ChannelTrack, Skeleton, match_joints};
use crate::asset::Model;

/// How the joints of two rigs compare, in numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct JointSummary {
    /// Joints of A and of B compared (all but the nodes that place nothing).
    pub count: usize,
    pub count_b: usize,
    /// Joints of A with a pair in B.
    pub paired: usize,
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub reparented: usize,
    /// Paired joints whose rest transform (model space) moved or turned beyond tolerance.
    pub rest_moved: usize,
    /// Paired joints whose bind transform moved or turned beyond tolerance.
    pub bind_moved: usize,
}

/// The joint pairing and the changes found so far (`binds` adds the moves).
pub struct JointComparison {
    /// For each joint of A, its pair in B (None: removed, or a node left out).
    pub pairs: Vec<Option<usize>>,
    pub changes: Vec<JointChange>,
    pub summary: JointSummary,
}

/// Pairs the joints of `a` and `b` and notes the structural changes in `findings`.
pub fn compare(a: &Model, b: &Model, findings: &mut Vec<Finding>) -> JointComparison {
    let (left_out, left_out_b) = (placing_nothing(a), placing_nothing(b));
    let pairs = pair_joints(&a.skeleton, &left_out, &b.skeleton, &left_out_b);
    let mut pair_of_b = vec![None; b.skeleton.len()];
    for (joint, pair) in pairs.iter().enumerate() {
        if let Some(&joint_b) = pair.as_ref() {
            pair_of_b[joint_b] = Some(joint);
        }
    }
    let (names, names_b) = (a.skeleton.names(), b.skeleton.names());
    let parent_name = |skeleton: &Skeleton, joint: usize| skeleton.parent(joint).map(|p| skeleton.name(p).to_owned());
    let mut changes = Vec::new();
    for (joint, pair) in pairs.iter().enumerate().filter(|&(j, _)| !left_out[j]) {
        let name = &names[joint];
        let Some(joint_b) = *pair else {
            changes.push(JointChange::Removed {
                joint,
                name: name.clone(),
            });
            findings.push(joint_finding(format!("'{name}' removed"), Some(joint)));
            continue;
        };
        let name_b = &names_b[joint_b];
        if name != name_b {
            changes.push(JointChange::Renamed {
                joint,
                joint_b,
                name: name.clone(),
                name_b: name_b.clone(),
            });
            findings.push(joint_finding(format!("'{name}' renamed to '{name_b}'"), Some(joint)));
        }
        let parent_pair = a.skeleton.parent(joint).map(|p| pairs[p]);
        let parent_b = b.skeleton.parent(joint_b);
        let same_parent = match parent_pair {
            None => parent_b.is_none(),
            Some(pair) => pair.is_some() && pair == parent_b,
        };
        if !same_parent {
            let (parent, parent_b) = (parent_name(&a.skeleton, joint), parent_name(&b.skeleton, joint_b));
            let text = format!(
                "'{name}' reparented: under {} in A, under {} in B",
                quoted_or_root(parent.as_deref()),
                quoted_or_root(parent_b.as_deref())
            );
            findings.push(joint_finding(text, Some(joint)));
            changes.push(JointChange::Reparented {
                joint,
                joint_b,
                parent,
                parent_b,
            });
        }
    }
    let added = |&(joint_b, _): &(usize, &String)| pair_of_b[joint_b].is_none() && !left_out_b[joint_b];
    for (joint_b, name) in names_b.iter().enumerate().filter(added) {
        let parent = parent_name(&b.skeleton, joint_b);
        let text = format!("'{name}' added under {}", quoted_or_root(parent.as_deref()));
        findings.push(joint_finding(text, None));
        changes.push(JointChange::Added {
            joint_b,
            name: name.clone(),
        });
    }
    let count_of = |wanted: fn(&JointChange) -> bool| changes.iter().filter(|c| wanted(c)).count();
    let summary = JointSummary {
        count: left_out.iter().filter(|&&l| !l).count(),
        count_b: left_out_b.iter().filter(|&&l| !l).count(),
        paired: pairs.iter().flatten().count(),
        added: count_of(|c| matches!(c, JointChange::Added { .. })),
        removed: count_of(|c| matches!(c, JointChange::Removed { .. })),
        renamed: count_of(|c| matches!(c, JointChange::Renamed { .. })),
        reparented: count_of(|c| matches!(c, JointChange::Reparented { .. })),
        rest_moved: 0,
        bind_moved: 0,
    };
    JointComparison {
        pairs,
        changes,
        summary,
    }
}

/// "'name'", or "the root" for none.
fn quoted_or_root(name: Option<&str>) -> String {
    name.map_or_else(|| "the root".to_owned(), |name| format!("'{name}'"))
}

fn joint_finding(text: String, joint: Option<usize>) -> Finding {
    Finding {
        section: Section::Joints,
        text,
        joint,
        clip: None,
        time: None,
    }
}

/// Per joint, whether it is left out: its transform places nothing (see the module docs).
fn placing_nothing(model: &Model) -> Vec<bool> {
    let skeleton = &model.skeleton;
    if model.instances.is_empty() {
        return vec![false; skeleton.len()];
    }
    let mut places = vec![false; skeleton.len()];
    let moves = |channel: &&Channel| {
        matches!(
            channel.track,
            ChannelTrack::Translation(_) | ChannelTrack::Rotation(_) | ChannelTrack::Scale(_)
        )
    };
    let placing = (model.skins.iter().flat_map(|skin| skin.joints.iter().copied()))
        .chain(
            model
                .clips
                .iter()
                .flat_map(|clip| clip.channels())
                .filter(moves)
                .map(|channel| channel.joint),
        )
        .chain(model.instances.iter().filter(|i| i.skin.is_none()).map(|i| i.joint))
        .chain(model.cameras.iter().map(|camera| camera.joint))
        .chain(model.lights.iter().map(|light| light.joint));
    for joint in placing {
        if let Some(flag) = places.get_mut(joint) {
            *flag = true;
        }
    }
    // Children come after their parents: one backward pass carries the flags up.
    for joint in (0..skeleton.len()).rev() {
        if let Some(parent) = skeleton.parent(joint).filter(|_| places[joint]) {
            places[parent] = true;
        }
    }
    places.iter().map(|&p| !p).collect()
}

/// For each joint of `a`, its pair in `b`: by name, then by place (see the module docs).
/// Joints marked in `left_out` (of `a`) and `left_out_b` (of `b`) pair with nothing.
pub fn pair_joints(a: &Skeleton, left_out: &[bool], b: &Skeleton, left_out_b: &[bool]) -> Vec<Option<usize>> {
    let mut pairs = vec![None; a.len()];
    let mut used_b = left_out_b.to_vec();
    // Names of the joints compared, and which joint each is.
    let compared = |skeleton: &Skeleton, left_out: &[bool]| -> (Vec<String>, Vec<usize>) {
        (0..skeleton.len())
            .filter(|&joint| !left_out[joint])
            .map(|joint| (skeleton.name(joint).to_owned(), joint))
            .unzip()
    };
    let (names, joints) = compared(a, left_out);
    let (names_b, joints_b) = compared(b, left_out_b);
    for pair in match_joints(&names_b, &names).pairs {
        pairs[joints[pair.target]] = Some(joints_b[pair.source]);
        used_b[joints_b[pair.source]] = true;
    }
    let children = |skeleton: &Skeleton, left_out: &[bool]| {
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); skeleton.len()];
        let mut roots = Vec::new();
        for joint in (0..skeleton.len()).filter(|&joint| !left_out[joint]) {
            match skeleton.parent(joint) {
                Some(parent) => children[parent].push(joint),
                None => roots.push(joint),
            }
        }
        (children, roots)
    };
    let (children_a, roots_a) = children(a, left_out);
    let (children_b, roots_b) = children(b, left_out_b);
    // Parents come before their children, so a joint paired here lets its children pair too.
    for joint in (0..a.len()).filter(|&joint| !left_out[joint]) {
        if pairs[joint].is_some() {
            continue;
        }
        let (siblings, siblings_b) = match a.parent(joint) {
            None => (&roots_a, &roots_b),
            Some(parent) => match pairs[parent] {
                Some(parent_b) => (&children_a[parent], &children_b[parent_b]),
                None => continue,
            },
        };
        let place = siblings.iter().position(|&s| s == joint);
        if let Some(&joint_b) = place.and_then(|place| siblings_b.get(place))
            && !used_b[joint_b]
        {
            pairs[joint] = Some(joint_b);
            used_b[joint_b] = true;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{JointDesc, Transform};

    /// A skeleton of (name, parent) joints, all at rest at the origin.
    fn skeleton(joints: &[(&str, Option<u32>)]) -> Skeleton {
        let joints = joints.iter().map(|&(name, parent)| JointDesc {
            name: name.into(),
            parent,
            rest: Transform::IDENTITY,
            bind_model: None,
            morph_weights: Vec::new(),
        });
        Skeleton::new(joints.collect()).unwrap()
    }

    fn pair(a: &Skeleton, b: &Skeleton) -> Vec<Option<usize>> {
        pair_joints(a, &vec![false; a.len()], b, &vec![false; b.len()])
    }

    #[test]
    fn joints_pair_by_exact_then_normalised_name_whatever_their_order() {
        let a = skeleton(&[("mixamorig:Hips", None), ("Spine", Some(0)), ("Head", Some(1))]);
        let b = skeleton(&[("hips", None), ("head", Some(0)), ("Spine", Some(0))]);
        assert_eq!(pair(&a, &b), [Some(0), Some(2), Some(1)]);
    }

    #[test]
    fn unnamed_joints_pair_by_child_index_under_paired_parents() {
        let a = skeleton(&[("root", None), ("arm", Some(0)), ("leg", Some(0)), ("hand", Some(1))]);
        let b = skeleton(&[("root", None), ("arm_l", Some(0)), ("leg", Some(0)), ("palm", Some(1))]);
        // 'arm' is the first child of the root in both; 'hand' the first of the arm's pair.
        assert_eq!(pair(&a, &b), [Some(0), Some(1), Some(2), Some(3)]);
    }

    #[test]
    fn a_joint_whose_place_is_taken_stays_unpaired() {
        let a = skeleton(&[("root", None), ("old", Some(0)), ("leg", Some(0))]);
        // B's first child of the root is 'leg', paired by name: 'old' has nothing left.
        let b = skeleton(&[("root", None), ("leg", Some(0)), ("new", Some(1))]);
        assert_eq!(pair(&a, &b), [Some(0), None, Some(1)]);
    }

    #[test]
    fn children_of_an_unpaired_joint_do_not_pair_by_place() {
        let a = skeleton(&[("root", None), ("x", Some(0)), ("y", Some(1))]);
        let b = skeleton(&[("other", None), ("p", Some(0)), ("q", Some(1))]);
        // The roots pair by place (both the first root), and their children after them.
        assert_eq!(pair(&a, &b), [Some(0), Some(1), Some(2)]);
        let b = skeleton(&[("root", None), ("z", None), ("q", Some(1))]);
        // 'x' has no child of B's root to pair with, so 'y' has no parent pair.
        assert_eq!(pair(&a, &b), [Some(0), None, None]);
    }

    fn model(skeleton: Skeleton) -> Model {
        let mut model = crate::asset::demo::demo_model();
        model.skeleton = skeleton;
        model.skins.clear();
        model.meshes.clear();
        model.instances.clear();
        model.clips.clear();
        model
    }

    #[test]
    fn renamed_reparented_added_and_removed_joints_are_named() {
        let a = model(skeleton(&[
            ("root", None),
            ("arm", Some(0)),
            ("leg", Some(0)),
            ("tail", Some(0)),
        ]));
        let b = model(skeleton(&[
            ("root", None),
            ("arm_l", Some(0)),
            ("leg", Some(1)),
            ("wing", None),
        ]));
        let mut findings = Vec::new();
        let joints = compare(&a, &b, &mut findings);
        let texts: Vec<_> = findings.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "'arm' renamed to 'arm_l'",
                "'leg' reparented: under 'root' in A, under 'arm_l' in B",
                "'tail' removed",
                "'wing' added under the root",
            ]
        );
        let summary = &joints.summary;
        let counts = (summary.renamed, summary.reparented, summary.removed, summary.added);
        assert_eq!(counts, (1, 1, 1, 1));
        assert_eq!(joints.pairs, [Some(0), Some(1), Some(2), None]);
    }

    #[test]
    fn nodes_that_place_nothing_are_left_out() {
        let skinned_on = |mut model: Model, holder: usize| {
            model.skins = vec![crate::asset::Skin {
                name: "skin".into(),
                joints: vec![0, 1],
                inverse_bind: vec![glam::Mat4::IDENTITY; 2],
                inverse_bind_given: true,
                root: 0,
            }];
            model.instances = vec![crate::asset::MeshInstance {
                joint: holder,
                mesh: 0,
                skin: Some(0),
            }];
            model
        };
        let a = skinned_on(model(skeleton(&[("root", None), ("bone", Some(0)), ("Body", None)])), 2);
        // B keeps the mesh on a node of its own, and the node A had it on is empty.
        let b = skinned_on(
            model(skeleton(&[
                ("root", None),
                ("bone", Some(0)),
                ("Body", None),
                ("Mesh 0", None),
            ])),
            3,
        );
        let mut findings = Vec::new();
        let joints = compare(&a, &b, &mut findings);
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(joints.pairs, [Some(0), Some(1), None]);
        assert_eq!((joints.summary.count, joints.summary.count_b), (2, 2));
        // A node with an unskinned mesh on it places the mesh: it is compared, and its parent.
        let mut c = skinned_on(
            model(skeleton(&[("root", None), ("prop", None), ("handle", Some(1))])),
            0,
        );
        c.instances[0].skin = None;
        c.instances[0].joint = 2;
        assert_eq!(compare(&c, &c, &mut findings).pairs, [Some(0), Some(1), Some(2)]);
    }
}
