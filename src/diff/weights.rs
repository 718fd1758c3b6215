//! Skin weights of two paired vertices compared through the joint pairing.
//!
//! A vertex's influences are skeleton joints with weights: a skinned vertex's (its skin's
//! joints), or for a mesh placed on a joint without a skin, that joint with weight 1 (so a
//! rigid mesh that became skinned to the same joint has not changed). The change of one joint
//! is |weight in A − weight of its pair in B|; a joint without a pair keeps its whole weight as
//! change. A vertex's change is the largest over its joints.

use serde::Serialize;

use crate::asset::{Model, SkinWeights};

/// Most influences a vertex has (`SkinWeights` holds eight).
const MAX_INFLUENCES: usize = 8;

/// One vertex's influences: skeleton joints and weights, each joint once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Influences {
    joints: [usize; MAX_INFLUENCES],
    weights: [f32; MAX_INFLUENCES],
    len: usize,
}

impl Influences {
    /// The influences of `vertex` of `weights`, whose joint indices point into `skin_joints`
    /// (influences naming no joint of the skin are left out).
    pub fn skinned(weights: &SkinWeights, vertex: usize, skin_joints: &[usize]) -> Self {
        let mut influences = Self::default();
        for (index, weight) in weights.influences(vertex) {
            if let Some(&joint) = skin_joints.get(index) {
                influences.add(joint, weight);
            }
        }
        influences
    }

    /// A vertex that follows `joint` alone.
    pub fn rigid(joint: usize) -> Self {
        let mut influences = Self::default();
        influences.add(joint, 1.0);
        influences
    }

    /// Adds `weight` to `joint`'s (a joint named twice is summed).
    fn add(&mut self, joint: usize, weight: f32) {
        match self.joints[..self.len].iter().position(|&j| j == joint) {
            Some(slot) => self.weights[slot] += weight,
            None if self.len < MAX_INFLUENCES => {
                self.joints[self.len] = joint;
                self.weights[self.len] = weight;
                self.len += 1;
            }
            None => {}
        }
    }

    fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.joints[..self.len]
            .iter()
            .copied()
            .zip(self.weights[..self.len].iter().copied())
    }

    /// The weight of `joint` (0 when it does not influence the vertex).
    fn weight_of(&self, joint: usize) -> f32 {
        self.iter().filter(|&(j, _)| j == joint).map(|(_, w)| w).sum()
    }
}

/// A joint whose influence changed, for the per-joint sums: a joint of A, or one only in B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangedJoint {
    A(usize),
    OnlyB(usize),
}

/// The largest weight change between vertex influences `a` (joints of A) and `b` (joints of
/// B), calling `changed` with each joint's change. `pairs`: each joint of A's pair in B;
/// `pair_of_b`: each joint of B's pair in A.
pub fn largest_change(
    a: &Influences,
    b: &Influences,
    pairs: &[Option<usize>],
    pair_of_b: &[Option<usize>],
    mut changed: impl FnMut(ChangedJoint, f32),
) -> f32 {
    let mut largest = 0.0f32;
    for (joint, weight) in a.iter() {
        let weight_b = pairs
            .get(joint)
            .copied()
            .flatten()
            .map_or(0.0, |joint_b| b.weight_of(joint_b));
        let change = (weight - weight_b).abs();
        changed(ChangedJoint::A(joint), change);
        largest = largest.max(change);
    }
    // B's joints not already compared above: their pair (if any) does not influence a.
    for (joint_b, weight_b) in b.iter() {
        let pair = pair_of_b.get(joint_b).copied().flatten();
        if pair.is_some_and(|joint| a.weight_of(joint) > 0.0) {
            continue;
        }
        changed(pair.map_or(ChangedJoint::OnlyB(joint_b), ChangedJoint::A), weight_b);
        largest = largest.max(weight_b);
    }
    largest
}

/// How the skin weights of paired vertices compare.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WeightSummary {
    /// Paired vertices whose weights were compared.
    pub compared: usize,
    /// Of those, vertices where some joint's weight changed beyond tolerance.
    pub changed: usize,
    /// The largest change of one joint's weight on one vertex.
    pub largest: f32,
    /// The mean of the changed vertices' largest changes.
    pub mean: f32,
    /// The joints whose influence moved on the most vertices, most first (at most five).
    pub joints_moved_most: Vec<JointWeightChange>,
}

/// How one joint's influence changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointWeightChange {
    /// A's name (B's for a joint only in B).
    pub name: String,
    /// Vertices where its weight changed beyond tolerance.
    pub vertices: usize,
    /// The largest change of its weight.
    pub largest: f32,
}

/// Sums of weight changes per joint, over some vertices (one mesh's, or all).
pub struct JointChangeSums {
    /// Per joint of A, then per joint of B: vertices changed beyond tolerance, largest change.
    of_a: Vec<(usize, f32)>,
    only_b: Vec<(usize, f32)>,
    tolerance: f32,
}

impl JointChangeSums {
    pub fn new(a: &Model, b: &Model, tolerance: f32) -> Self {
        Self {
            of_a: vec![(0, 0.0); a.skeleton.len()],
            only_b: vec![(0, 0.0); b.skeleton.len()],
            tolerance,
        }
    }

    /// Starts over, for another set of vertices.
    pub fn clear(&mut self) {
        self.of_a.fill((0, 0.0));
        self.only_b.fill((0, 0.0));
    }

    /// Counts one joint's change on one vertex.
    pub fn add(&mut self, joint: ChangedJoint, change: f32) {
        let slot = match joint {
            ChangedJoint::A(joint) => self.of_a.get_mut(joint),
            ChangedJoint::OnlyB(joint) => self.only_b.get_mut(joint),
        };
        if let Some((vertices, largest)) = slot
            && change > self.tolerance
        {
            *vertices += 1;
            *largest = largest.max(change);
        }
    }

    /// The joints changed on the most vertices, most first (ties: the larger change first).
    pub fn most(&self, a: &Model, b: &Model, count: usize) -> Vec<JointWeightChange> {
        let named = |names: &[String], sums: &[(usize, f32)]| -> Vec<JointWeightChange> {
            (names.iter().zip(sums))
                .filter(|(_, (vertices, _))| *vertices > 0)
                .map(|(name, &(vertices, largest))| JointWeightChange {
                    name: name.clone(),
                    vertices,
                    largest,
                })
                .collect()
        };
        let mut joints = named(a.skeleton.names(), &self.of_a);
        joints.extend(named(b.skeleton.names(), &self.only_b));
        joints.sort_by(|x, y| y.vertices.cmp(&x.vertices).then(y.largest.total_cmp(&x.largest)));
        joints.truncate(count);
        joints
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn influences(list: &[(usize, f32)]) -> Influences {
        let mut influences = Influences::default();
        for &(joint, weight) in list {
            influences.add(joint, weight);
        }
        influences
    }

    #[test]
    fn weights_compare_through_the_joint_pairing() {
        // A's joints 0, 1, 2 are B's 2, 0, 1.
        let pairs = [Some(2), Some(0), Some(1)];
        let pair_of_b = [Some(1), Some(2), Some(0)];
        let a = influences(&[(0, 0.75), (1, 0.25)]);
        let same = influences(&[(2, 0.75), (0, 0.25)]);
        assert_eq!(largest_change(&a, &same, &pairs, &pair_of_b, |_, _| {}), 0.0);
        let moved = influences(&[(2, 0.5), (1, 0.5)]);
        let mut changes = Vec::new();
        let largest = largest_change(&a, &moved, &pairs, &pair_of_b, |joint, change| {
            changes.push((joint, change))
        });
        assert_eq!(largest, 0.5);
        assert_eq!(
            changes,
            [
                (ChangedJoint::A(0), 0.25),
                (ChangedJoint::A(1), 0.25),
                (ChangedJoint::A(2), 0.5)
            ]
        );
    }

    #[test]
    fn joints_without_a_pair_change_by_their_whole_weight() {
        let pairs = [Some(0), None];
        let pair_of_b = [Some(0), None];
        let a = influences(&[(0, 0.5), (1, 0.5)]);
        let b = influences(&[(0, 0.5), (1, 0.5)]);
        let mut changes = Vec::new();
        let largest = largest_change(&a, &b, &pairs, &pair_of_b, |joint, change| {
            changes.push((joint, change))
        });
        assert_eq!(largest, 0.5);
        assert_eq!(
            changes,
            [
                (ChangedJoint::A(0), 0.0),
                (ChangedJoint::A(1), 0.5),
                (ChangedJoint::OnlyB(1), 0.5)
            ]
        );
    }

    #[test]
    fn a_joint_named_twice_counts_once_with_both_weights() {
        let pairs = [Some(0)];
        let a = influences(&[(0, 0.5), (0, 0.5)]);
        assert_eq!(
            largest_change(&a, &Influences::rigid(0), &pairs, &pairs, |_, _| {}),
            0.0
        );
    }
}
