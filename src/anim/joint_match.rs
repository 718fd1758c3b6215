//! Pairs the joints of two rigs by name, for playing one rig's clips on the other.
//!
//! Rules, in order:
//! 1. **Exact**: a target joint takes the source joint with the same name.
//! 2. **Normalised**: each target joint still unpaired takes the first unpaired source joint
//!    (in the source's joint order) whose name normalises to the same key. A name normalises by
//!    - dropping everything up to its last `:` or `|` (namespaces such as `mixamorig:`,
//!      `mixamorig1:`, Maya's `rig:` and Blender's `Armature|`),
//!    - lower-casing it,
//!    - dropping a leading `bip01` or `bip001` (3ds Max biped names: `Bip01 L Thigh`) when
//!      something follows it,
//!    - removing the separators `_`, `-`, `.`, `:` and spaces.
//!
//!    A name that would normalise to nothing (`"mixamorig:"`) keeps its separator-free,
//!    lower-case spelling instead.
//!
//! Each source joint pairs with at most one target joint. Joints left over on either side are
//! reported, so the viewer can show what the clips will not move.

use std::collections::HashMap;

/// How a pair of joints was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchedBy {
    Exact,
    Normalised,
}

/// One target joint and the source joint that drives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointPair {
    pub target: usize,
    pub source: usize,
    pub by: MatchedBy,
}

/// The pairs, and the joints of each rig that have none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JointMatching {
    /// In target joint order.
    pub pairs: Vec<JointPair>,
    /// Target joints no source joint drives (they keep their rest pose), in joint order.
    pub unmatched_target: Vec<usize>,
    /// Source joints whose motion is left out, in joint order.
    pub unmatched_source: Vec<usize>,
}

/// The key names are compared by after exact matching fails (see the module docs).
pub fn normalise_joint_name(name: &str) -> String {
    let local = name.rsplit([':', '|']).next().unwrap_or(name);
    let lower = local.to_lowercase();
    let unprefixed = ["bip001", "bip01"]
        .iter()
        .find_map(|prefix| lower.strip_prefix(prefix).filter(|rest| !rest.is_empty()))
        .unwrap_or(lower.as_str());
    let key = without_separators(unprefixed);
    if key.is_empty() {
        without_separators(&name.to_lowercase())
    } else {
        key
    }
}

fn without_separators(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ':' | ' '))
        .collect()
}

/// Pairs `target` joint names with `source` joint names by the rules above.
pub fn match_joints(source: &[String], target: &[String]) -> JointMatching {
    let mut source_of: Vec<Option<(usize, MatchedBy)>> = vec![None; target.len()];
    let mut used = vec![false; source.len()];

    let mut exact: HashMap<&str, usize> = HashMap::with_capacity(source.len());
    for (index, name) in source.iter().enumerate().rev() {
        exact.insert(name, index);
    }
    for (slot, name) in source_of.iter_mut().zip(target) {
        if let Some(&index) = exact.get(name.as_str()).filter(|&&i| !used[i]) {
            used[index] = true;
            *slot = Some((index, MatchedBy::Exact));
        }
    }

    // Unpaired source joints by key, each list in joint order (taken from the front).
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, name) in source.iter().enumerate().filter(|&(i, _)| !used[i]) {
        by_key.entry(normalise_joint_name(name)).or_default().push(index);
    }
    for list in by_key.values_mut() {
        list.reverse();
    }
    for (slot, name) in source_of.iter_mut().zip(target).filter(|(slot, _)| slot.is_none()) {
        if let Some(index) = by_key.get_mut(&normalise_joint_name(name)).and_then(Vec::pop) {
            used[index] = true;
            *slot = Some((index, MatchedBy::Normalised));
        }
    }

    let mut matching = JointMatching::default();
    for (target, slot) in source_of.into_iter().enumerate() {
        match slot {
            Some((source, by)) => matching.pairs.push(JointPair { target, source, by }),
            None => matching.unmatched_target.push(target),
        }
    }
    matching.unmatched_source = (0..source.len()).filter(|&i| !used[i]).collect();
    matching
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn normalising_drops_namespaces_case_prefixes_and_separators() {
        assert_eq!(normalise_joint_name("mixamorig:LeftUpLeg"), "leftupleg");
        assert_eq!(normalise_joint_name("mixamorig1:LeftUpLeg"), "leftupleg");
        assert_eq!(normalise_joint_name("Armature|Left_Up-Leg"), "leftupleg");
        assert_eq!(normalise_joint_name("Bip01 L Thigh"), "lthigh");
        assert_eq!(normalise_joint_name("Bip001_Spine.1"), "spine1");
        assert_eq!(normalise_joint_name("Bip01"), "bip01", "a lone prefix is the name");
        assert_eq!(normalise_joint_name("mixamorig:"), "mixamorig");
    }

    #[test]
    fn exact_names_pair_first_then_normalised_ones() {
        let source = names(&["mixamorig:Hips", "Spine", "spine", "mixamorig:Head"]);
        let target = names(&["hips", "spine", "Spine", "HEAD", "Tail"]);
        let matching = match_joints(&source, &target);
        let pairs: Vec<_> = matching.pairs.iter().map(|p| (p.target, p.source, p.by)).collect();
        assert_eq!(
            pairs,
            [
                (0, 0, MatchedBy::Normalised),
                (1, 2, MatchedBy::Exact),
                (2, 1, MatchedBy::Exact),
                (3, 3, MatchedBy::Normalised),
            ]
        );
        assert_eq!(matching.unmatched_target, [4]);
        assert!(matching.unmatched_source.is_empty());
    }

    #[test]
    fn each_source_joint_drives_one_target_joint() {
        let source = names(&["Arm", "Leg"]);
        let target = names(&["arm", "ARM", "Hand"]);
        let matching = match_joints(&source, &target);
        assert_eq!(matching.pairs.len(), 1);
        assert_eq!((matching.pairs[0].target, matching.pairs[0].source), (0, 0));
        assert_eq!(matching.unmatched_target, [1, 2]);
        assert_eq!(matching.unmatched_source, [1]);
    }
}
