//! Pose blending in local space, with joint masks.
//!
//! Semantics (what the Animator, the viewer and the commands all use):
//! - `blend(a, b, t, mask)` sets every joint `j` of `a` to `mix(a_j, b_j, t · m_j)`: translation
//!   and scale linearly, rotation along the shortest arc as `Transform::mix`'s slerp, to within
//!   `fast_slerp::MAX_ANGLE_ERROR` (1e-4 rad; the measured worst is 6.1e-5): a normalised lerp
//!   with a corrected parameter (`fast_slerp`), far fewer steps than the exact polynomial.
//!   `t = 0` leaves `a` exactly, `t = 1` (with `m_j = 1`) gives `b` exactly (up to the sign of
//!   the shorter arc). `blend_into(out, a, b, t, mask)` writes the same into a third pose. Four
//!   joints at a time (`joint_group`): their dots in one vector, the rotation weights for all
//!   four at once, then each quaternion mixed where it lies and translations and scales lerped
//!   as six vectors, with no transposes.
//! - A mask gives each joint a weight `m_j` in [0, 1]. `JointMask::subtree(root)` blends
//!   from a root joint: 1 on `root` and its descendants, 0 elsewhere, so joints outside the
//!   subtree are untouched. `JointMask::weights` takes per-joint weights (clamped to [0, 1]).
//!   No mask means 1 everywhere.
//! - Morph-target weights and animated property values (`Pose::properties`) blend linearly
//!   with `t` (masks do not apply to them).
//!
//! Blending happens in local space: model-space transforms are derived afterwards.

use glam::Vec4;

use super::fast_slerp::{ArcWeights, PerLaneT, UniformT};
use super::joint_group::{JointGroup, tail_weights};
use super::lanes::{dots, splat_lanes};
use super::pose::{Hierarchy, Pose};
use super::transform::Transform;
use super::wide::Wide;

/// A weight per joint, for blends and additive layers.
#[derive(Clone, Debug, PartialEq)]
pub struct JointMask {
    weights: Vec<f32>,
}

impl JointMask {
    /// 1 on `root` and every joint below it, 0 elsewhere. Parents-first storage makes this one
    /// forward pass.
    pub fn subtree(hierarchy: &Hierarchy, root: usize) -> Self {
        let mut weights = vec![0.0; hierarchy.len()];
        for joint in 0..hierarchy.len() {
            let inside = joint == root || hierarchy.parent(joint).is_some_and(|p| weights[p] == 1.0);
            weights[joint] = if inside { 1.0 } else { 0.0 };
        }
        Self { weights }
    }

    /// Explicit per-joint weights, clamped to [0, 1] (NaN counts as 0).
    pub fn weights(weights: Vec<f32>) -> Self {
        Self {
            weights: weights
                .into_iter()
                .map(|w| if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) })
                .collect(),
        }
    }

    /// The weight of `joint` (0 for joints beyond the mask).
    pub fn weight(&self, joint: usize) -> f32 {
        self.weights.get(joint).copied().unwrap_or(0.0)
    }
}

/// `a ← mix(a, b, t · mask)`, per joint, in local space. Allocates nothing.
pub fn blend(a: &mut Pose, b: &Pose, t: f32, mask: Option<&JointMask>) {
    mix_joints(a.local_mut(), None, b.local(), t, mask);
    mix_floats(a, None, b, t);
}

/// `out ← mix(a, b, t · mask)`: `blend` into a third pose (which must have as many joints and
/// weights), so the caller need not copy `a` first. Allocates nothing.
pub fn blend_into(out: &mut Pose, a: &Pose, b: &Pose, t: f32, mask: Option<&JointMask>) {
    mix_joints(out.local_mut(), Some(a.local()), b.local(), t, mask);
    mix_floats(out, Some(a), b, t);
}

/// Morph weights and property values: `out ← a + (b − a) · t` (`a` is `out` when `None`).
fn mix_floats(out: &mut Pose, a: Option<&Pose>, b: &Pose, t: f32) {
    let mix = |out: &mut [f32], a: Option<&[f32]>, b: &[f32]| {
        for (i, (to, from)) in out.iter_mut().zip(b).enumerate() {
            // Values past the end of `a` are left as they are.
            if let Some(start) = a.map_or(Some(*to), |a| a.get(i).copied()) {
                *to = start + (from - start) * t;
            }
        }
    };
    mix(out.morph_weights_mut(), a.map(Pose::morph_weights), b.morph_weights());
    mix(out.properties_mut(), a.map(Pose::properties), b.properties());
}

/// `out[j] ← a[j].mix(b[j], t · m_j)` (`a` is `out` when `None`), four joints at a time, in
/// AVX's encoding where the processor has it, as the skinning kernels are: the same operations
/// in three-operand forms (six rounds interleaved with the SSE2 build: Xbot `blend_into` 4.05 ->
/// 3.87 ns/joint, Fox 4.81 -> 4.72). Additive layers gained no more than the code's layout moves
/// untouched paths (see the README), so they stay SSE2.
fn mix_joints(out: &mut [Transform], a: Option<&[Transform]>, b: &[Transform], t: f32, mask: Option<&JointMask>) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX (checked just above).
        return unsafe { mix_joints_avx(out, a, b, t, mask) };
    }
    mix_joints_baseline(out, a, b, t, mask)
}

/// `mix_joints_baseline` compiled for processors with AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn mix_joints_avx(out: &mut [Transform], a: Option<&[Transform]>, b: &[Transform], t: f32, mask: Option<&JointMask>) {
    mix_joints_baseline(out, a, b, t, mask)
}

/// `mix_joints` for any processor: always inlined, so compiled for the features of its caller.
#[inline(always)]
fn mix_joints_baseline(
    out: &mut [Transform],
    a: Option<&[Transform]>,
    b: &[Transform],
    t: f32,
    mask: Option<&JointMask>,
) {
    match mask {
        // Every joint keeps `a`.
        None if t == 0.0 => {
            if let Some(a) = a {
                let joints = out.len().min(a.len()).min(b.len());
                out[..joints].copy_from_slice(&a[..joints]);
            }
        }
        // One t for every joint, and not 0: the rotation weights' polynomial is prepared once,
        // and no joint is left as it is.
        None => mix_groups(out, a, b, |_, _| Vec4::splat(t), &UniformT::new(t), false),
        Some(mask) => mix_groups(
            out,
            a,
            b,
            |first, count| Vec4::from_array(lane_weights(t, Some(mask), first, count)),
            &PerLaneT,
            true,
        ),
    }
}

/// Groups whose rotation weights are computed before any of them is mixed: each group's weights
/// are a long chain of dependent steps (dots, polynomial, inverse square root), and a batch of
/// independent chains side by side (`wide`) lets the processor overlap them instead of waiting
/// on each. The loads that start them (the dots) are a loop of their own, before the chains
/// (Xbot `blend_into` 4.54 -> 4.09 ns/joint when the chains were still one after another).
pub(super) const BATCH: usize = 8;

/// The whole groups of four joints in `joints[..full]`, `BATCH` groups at a time: `load`
/// (given the joints as they are and a group's first joint) for every group of the batch, then
/// `prepare` on all that `load` gave and the batch's first joint (slots past the batch's groups
/// hold `L::default()`), then `apply` to each group with what `prepare` gave it.
#[inline(always)]
pub(super) fn in_batches<J, L: Copy + Default, P: Copy>(
    joints: &mut [J],
    full: usize,
    load: impl Fn(&[J], usize) -> L,
    prepare: impl Fn([L; BATCH], usize) -> [P; BATCH],
    mut apply: impl FnMut(&mut [J], usize, P),
) {
    for batch in (0..full).step_by(4 * BATCH) {
        let firsts = (batch..full.min(batch + 4 * BATCH)).step_by(4);
        let mut loaded = [L::default(); BATCH];
        for (loaded, first) in loaded.iter_mut().zip(firsts.clone()) {
            *loaded = load(joints, first);
        }
        let prepared = prepare(loaded, batch);
        for (&prepared, first) in prepared.iter().zip(firsts) {
            apply(joints, first, prepared);
        }
    }
}

/// The rotation weights of `BATCH` groups, from their dots and the batch's first joint (each
/// group's joint weights being `weights(first, 4)`), all at once (see `wide`).
#[inline(always)]
pub(super) fn batch_arc_weights(
    arc: &impl ArcWeights,
    dots: [Vec4; BATCH],
    batch: usize,
    weights: impl Fn(usize, usize) -> Vec4,
) -> [(Vec4, Vec4); BATCH] {
    let weights = Wide(std::array::from_fn(|group| weights(batch + 4 * group, 4)));
    let (from, to) = arc.weights(Wide(dots), weights);
    std::array::from_fn(|group| (from.0[group], to.0[group]))
}

/// `mix_joints` with the weights of joints `first..first + count` from `weights`, and the
/// rotation weights from `arc`; `some_unweighted` says whether a weight may be 0 (that joint
/// then keeps `a`).
#[inline(always)]
fn mix_groups(
    out: &mut [Transform],
    a: Option<&[Transform]>,
    b: &[Transform],
    weights: impl Fn(usize, usize) -> Vec4,
    arc: &impl ArcWeights,
    some_unweighted: bool,
) {
    // Joints past the end of any of the poses are left as they are.
    let joints = out.len().min(b.len()).min(a.map_or(usize::MAX, <[Transform]>::len));
    let full = joints / 4 * 4;
    // Whole groups as fixed-size arrays, so that the compiler keeps them in registers; their
    // rotation weights a batch ahead of their mixing. The closures are inlined, so that the AVX
    // build compiles them with AVX (a closure of its own stays SSE2).
    in_batches(
        out,
        full,
        #[inline(always)]
        |out, first| {
            let rotations = |joints: &[Transform]| rotations(four(&joints[first..first + 4]));
            dots(&rotations(a.unwrap_or(out)), &rotations(b))
        },
        #[inline(always)]
        |dots, batch| batch_arc_weights(arc, dots, batch, &weights),
        #[inline(always)]
        |out, first, arc_weights| {
            // Computed again rather than kept with the batch: keeping them measured 10% slower.
            let weights = weights(first, 4);
            let group = first..first + 4;
            let out: &mut [Transform; 4] = (&mut out[group.clone()]).try_into().expect("four joints");
            let a = a.map(|a| four(&a[group.clone()]));
            mix4(out, a, four(&b[group]), weights, arc_weights, some_unweighted);
        },
    );
    if full < joints {
        // The rest (one to three joints), padded with weight-0 identities.
        let mut rest = padded(&a.unwrap_or(out)[full..joints]);
        let weights = weights(full, joints - full);
        let b = padded(&b[full..joints]);
        let (Wide([from]), Wide([to])) = arc.weights(Wide([dots(&rotations(&rest), &rotations(&b))]), Wide([weights]));
        mix4(&mut rest, None, &b, weights, (from, to), some_unweighted);
        unpad(&rest, &mut out[full..joints]);
    }
}

/// The weights of joints `first..first + 4`: `scale` times each joint's mask weight, and 0 for
/// lanes past the `count` joints there are.
pub(super) fn lane_weights(scale: f32, mask: Option<&JointMask>, first: usize, count: usize) -> [f32; 4] {
    std::array::from_fn(|lane| match (lane < count, mask) {
        (false, _) => 0.0,
        (true, None) => scale,
        (true, Some(mask)) => scale * mask.weight(first + lane),
    })
}

/// One to three joints padded to a group of four with identities (given weight 0). Lane by
/// lane: a copy of a slice of variable length is a call to `memcpy`, a third of a group's time.
#[inline(always)]
pub(super) fn padded(joints: &[Transform]) -> [Transform; 4] {
    std::array::from_fn(|lane| joints.get(lane).copied().unwrap_or(Transform::IDENTITY))
}

/// `padded`'s way back: its first `out.len()` lanes into `out`.
#[inline(always)]
pub(super) fn unpad(lanes: &[Transform; 4], out: &mut [Transform]) {
    for (lane, joint) in lanes.iter().enumerate() {
        if let Some(out) = out.get_mut(lane) {
            *out = *joint;
        }
    }
}

/// The rotations of four joints, one per vector.
#[inline(always)]
pub(super) fn rotations(joints: &[Transform; 4]) -> [Vec4; 4] {
    joints.each_ref().map(|joint| Vec4::from(joint.rotation))
}

/// A group of four joints as a fixed-size array (its copies then stay in registers).
pub(super) fn four(joints: &[Transform]) -> &[Transform; 4] {
    joints.try_into().expect("four joints")
}

/// `out[lane] ← a[lane].mix(b[lane], weights[lane])` (`a` is `out` when `None`): rotations by
/// the corrected nlerp of `fast_slerp` (whose weights `(from, to)` the caller computed from the
/// rotations' dots), mixed in place without transposing, translations and scales by lerp.
/// Joints of weight 0 keep `a` exactly, when `some_unweighted` says there may be any (else every
/// joint is written without looking).
#[inline(always)]
fn mix4(
    out: &mut [Transform; 4],
    a: Option<&[Transform; 4]>,
    b: &[Transform; 4],
    weights: Vec4,
    (from_weights, to_weights): (Vec4, Vec4),
    some_unweighted: bool,
) {
    let (from, to) = (JointGroup::load(a.unwrap_or(out)), JointGroup::load(b));
    let (from_weights, to_weights) = (splat_lanes(from_weights), splat_lanes(to_weights));
    let tail_weights = tail_weights(weights);
    let mixed = JointGroup {
        rotations: std::array::from_fn(|i| from.rotations[i] * from_weights[i] + to.rotations[i] * to_weights[i]),
        tail: std::array::from_fn(|i| from.tail[i] + (to.tail[i] - from.tail[i]) * tail_weights[i]),
    };
    if some_unweighted {
        mixed.store(out, weights, a);
    } else {
        mixed.store_all(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Transform;
    use glam::{Quat, Vec3};
    use std::sync::Arc;

    /// root(0) → spine(1) → head(2); root → leg(3).
    fn poses() -> (Pose, Pose) {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0), Some(1), Some(0)]).unwrap());
        let a = Pose::new(hierarchy.clone(), vec![Transform::IDENTITY; 4], vec![0.0]).unwrap();
        let moved = Transform::new(Vec3::new(2.0, 0.0, 0.0), Quat::from_rotation_y(1.0), Vec3::splat(3.0));
        let b = Pose::new(hierarchy, vec![moved; 4], vec![1.0]).unwrap();
        (a, b)
    }

    #[test]
    fn blending_from_a_shorter_pose_leaves_the_rest_alone() {
        let (mut out, b) = poses();
        let short = Pose::new(
            Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap()),
            vec![Transform::IDENTITY; 2],
            vec![],
        )
        .unwrap();
        blend_into(&mut out, &short, &b, 1.0, None);
        assert!(
            out.local()[..2]
                .iter()
                .all(|j| j.translation == b.local()[0].translation)
        );
        assert!(out.local()[2..].iter().all(|j| *j == Transform::IDENTITY));
        assert_eq!(out.morph_weights(), &[0.0]);
    }

    #[test]
    fn t_zero_and_one_give_the_inputs() {
        let (a, b) = poses();
        let mut zero = a.clone();
        blend(&mut zero, &b, 0.0, None);
        assert_eq!(zero, a);
        let mut one = a.clone();
        blend(&mut one, &b, 1.0, None);
        for (got, want) in one.local().iter().zip(b.local()) {
            assert!(got.translation.abs_diff_eq(want.translation, 1e-6));
            assert_eq!(got.rotation, want.rotation, "t = 1 gives b's rotation exactly");
            assert!(got.scale.abs_diff_eq(want.scale, 1e-6));
        }
        assert_eq!(one.morph_weights(), b.morph_weights());
    }

    #[test]
    fn joints_outside_the_subtree_are_untouched() {
        let (a, b) = poses();
        let mask = JointMask::subtree(a.hierarchy(), 1);
        let mut out = a.clone();
        blend(&mut out, &b, 0.5, Some(&mask));
        assert_eq!(out.local()[0], a.local()[0], "root is outside");
        assert_eq!(out.local()[3], a.local()[3], "the leg is outside");
        assert!(out.local()[1].translation.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-6));
        assert!(
            out.local()[2].translation.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-6),
            "descendants follow"
        );
    }

    #[test]
    fn per_joint_weights_scale_the_blend() {
        let (a, b) = poses();
        let mask = JointMask::weights(vec![0.0, 0.5, 1.0, f32::NAN]);
        let mut out = a.clone();
        blend(&mut out, &b, 1.0, Some(&mask));
        assert_eq!(out.local()[0], a.local()[0]);
        assert!(out.local()[1].translation.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-6));
        assert!(out.local()[2].translation.abs_diff_eq(Vec3::new(2.0, 0.0, 0.0), 1e-6));
        assert_eq!(out.local()[3], a.local()[3], "NaN weighs nothing");
    }

    #[test]
    fn random_poses_of_any_length_match_mixing_each_joint() {
        let mut numbers = crate::anim::fixtures::Numbers(42);
        let bound = crate::anim::fast_slerp::MAX_ANGLE_ERROR as f64;
        for joints in (1..=9).chain([26, 70]) {
            for round in 0..20 {
                let (a, b) = (numbers.pose(joints), numbers.pose(joints));
                let t = [0.0, 1.0, numbers.next() as f32][round % 3];
                // No mask, then a mask with zeros and ones (a different path each).
                let mask = JointMask::weights(numbers.mask(joints));
                for mask in [None, Some(&mask)] {
                    let mut in_place = a.clone();
                    blend(&mut in_place, &b, t, mask);
                    let mut into = numbers.pose(joints);
                    blend_into(&mut into, &a, &b, t, mask);
                    assert_eq!(into, in_place, "{joints} joints: blend_into writes what blend does");
                    for (j, got) in in_place.local().iter().enumerate() {
                        let weight = t * mask.map_or(1.0, |mask| mask.weight(j));
                        let (from, to) = (a.local()[j], b.local()[j]);
                        let context = format!("{joints} joints, joint {j}, weight {weight}");
                        if weight == 0.0 {
                            assert_eq!(*got, from, "{context}: weight 0 keeps a exactly");
                            continue;
                        }
                        let want = from.mix(&to, weight);
                        assert!(got.translation.abs_diff_eq(want.translation, 1e-5), "{context}");
                        assert!(got.scale.abs_diff_eq(want.scale, 1e-5), "{context}");
                        assert!((got.rotation.length() - 1.0).abs() < 1e-5, "{context}");
                        let angle = crate::anim::fast_slerp::angle_apart(got.rotation, want.rotation);
                        assert!(angle < bound, "{context}: {angle} rad off slerp");
                        if weight == 1.0 {
                            let shorter = if from.rotation.dot(to.rotation) < 0.0 {
                                -to.rotation
                            } else {
                                to.rotation
                            };
                            assert_eq!(got.rotation, shorter, "{context}: b's rotation exactly");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn avx_build_matches_the_baseline() {
        let mut numbers = crate::anim::fixtures::Numbers(7);
        for joints in [3, 26, 70] {
            let (a, b) = (numbers.pose(joints), numbers.pose(joints));
            let mask = JointMask::weights(numbers.mask(joints));
            // In place (`blend`) and from a third pose (`blend_into`).
            for (mask, into) in [(None, false), (Some(&mask), false), (None, true), (Some(&mask), true)] {
                let (mut dispatched, mut baseline) = (a.clone(), a.clone());
                let from = into.then_some(b.local());
                mix_joints(dispatched.local_mut(), from, a.local(), 0.3, mask);
                mix_joints_baseline(baseline.local_mut(), from, a.local(), 0.3, mask);
                assert_eq!(dispatched, baseline, "{joints} joints, into a third pose: {into}");
            }
        }
    }

    #[test]
    fn four_joint_groups_and_the_rest_match_mixing_each_joint() {
        // Six joints: one group of four and a remainder of two, with per-joint weights.
        let parents = (0..6).map(|i: u32| i.checked_sub(1)).collect();
        let hierarchy = Arc::new(Hierarchy::new(parents).unwrap());
        let joint = |i: usize, sign: f32| {
            let angle = sign * (0.4 + 0.45 * i as f32);
            let axis = Vec3::new(1.0, i as f32, sign).normalize();
            Transform::new(
                Vec3::splat(sign * i as f32),
                Quat::from_axis_angle(axis, angle),
                Vec3::splat(1.0 + i as f32),
            )
        };
        let a = Pose::new(hierarchy.clone(), (0..6).map(|i| joint(i, 1.0)).collect(), vec![]).unwrap();
        let b = Pose::new(hierarchy, (0..6).map(|i| joint(i, -1.0)).collect(), vec![]).unwrap();
        let mask = JointMask::weights(vec![1.0, 0.25, 0.0, 0.5, 0.9, 0.6]);
        let mut in_place = a.clone();
        blend(&mut in_place, &b, 0.8, Some(&mask));
        let mut into = b.clone();
        blend_into(&mut into, &a, &b, 0.8, Some(&mask));
        assert_eq!(into, in_place, "blend_into writes what blend does");
        for (j, got) in in_place.local().iter().enumerate() {
            let want = a.local()[j].mix(&b.local()[j], 0.8 * mask.weight(j));
            assert!(got.translation.abs_diff_eq(want.translation, 1e-5), "joint {j}");
            assert!(got.scale.abs_diff_eq(want.scale, 1e-5), "joint {j}");
            let angle = crate::anim::fast_slerp::angle_apart(got.rotation, want.rotation);
            let bound = crate::anim::fast_slerp::MAX_ANGLE_ERROR as f64;
            assert!(angle < bound, "joint {j}: {angle} rad off slerp");
        }
        assert_eq!(in_place.local()[2], a.local()[2], "weight 0 keeps the joint exactly");
    }
}
