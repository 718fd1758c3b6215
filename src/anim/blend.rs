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

use std::ops::Range;

use glam::Vec4;

use super::fast_slerp::{ArcWeights, PerLaneT, UniformT};
use super::joint_group::JointGroup;
use super::lanes::dots;
use super::pose::{Hierarchy, Pose};
use super::transform::Transform;
use crate::simd;
#[cfg(target_arch = "x86_64")]
use crate::simd::Avx8;
use crate::simd::{Avx, Wide, splat_lanes};

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
    #[cfg(any(test, feature = "internals"))]
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
    let joints = a.len().min(b.len());
    mix_joints(a.groups_mut(), None, b.groups(), joints, t, mask);
    mix_floats(a, None, b, t);
}

/// `out ← mix(a, b, t · mask)`: `blend` into a third pose (which must have as many joints and
/// weights), so the caller need not copy `a` first. Allocates nothing.
#[cfg(any(test, feature = "internals"))]
pub fn blend_into(out: &mut Pose, a: &Pose, b: &Pose, t: f32, mask: Option<&JointMask>) {
    let joints = out.len().min(a.len()).min(b.len());
    mix_joints(out.groups_mut(), Some(a.groups()), b.groups(), joints, t, mask);
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

simd::dispatch! {
    /// `out[j] ← a[j].mix(b[j], t · m_j)` for the first `joints` joints of the groups (`a` is `out`
    /// when `None`), four joints at a time; in AVX's encoding where the processor has it (the same
    /// operations in three-operand forms, and each joint's translation and scale as one 256-bit
    /// vector: `joint_group`), the batches' rotation weights then in 256-bit registers. Inlined
    /// into its two callers, so that each calls a build directly.
    #[inline(always)]
    fn mix_joints(
        out: &mut [[Transform; 4]],
        a: Option<&[[Transform; 4]]>,
        b: &[[Transform; 4]],
        joints: usize,
        t: f32,
        mask: Option<&JointMask>,
    ) [baseline: mix_joints_baseline, avx] {
        match mask {
            // Every joint keeps `a`.
            None if t == 0.0 => {
                if let Some(a) = a {
                    out.as_flattened_mut()[..joints].copy_from_slice(&a.as_flattened()[..joints]);
                }
            }
            // One t for every joint, and not 0: the rotation weights' polynomial is prepared once,
            // and no joint is left as it is.
            None => mix_groups(
                out,
                a,
                b,
                joints,
                |_, _| Vec4::splat(t),
                (&UniformT::new(t), avx),
                false,
            ),
            Some(mask) => mix_groups(
                out,
                a,
                b,
                joints,
                |first, count| Vec4::from_array(lane_weights(t, Some(mask), first, count)),
                (&PerLaneT, avx),
                true,
            ),
        }
    }
}

/// Groups whose rotation weights are computed before any of them is mixed: each group's weights
/// are a long chain of dependent steps (dots, polynomial, inverse square root), and a batch of
/// independent chains side by side (`simd::Wide`) lets the processor overlap them instead of waiting
/// on each. The loads that start them (the dots) are a loop of their own, before the chains.
pub(super) const BATCH: usize = 8;

/// The groups holding the first `joints` joints, `BATCH` groups at a time: `load` (given the
/// groups as they are and a group's index) for every group of the batch, then `prepare` on all
/// that `load` gave and the batch's groups (slots past them hold `L::default()`), then `apply`
/// to each group with how many of its lanes are joints to write (4, or fewer in the last group)
/// and what `prepare` gave it.
#[inline(always)]
pub(super) fn in_batches<G, L: Copy + Default, P: Copy>(
    groups: &mut [G],
    joints: usize,
    load: impl Fn(&[G], usize) -> L,
    prepare: impl Fn([L; BATCH], Range<usize>) -> [P; BATCH],
    mut apply: impl FnMut(&mut [G], usize, usize, P),
) {
    let (count, full) = (joints.div_ceil(4), joints / 4);
    let mut partial = None;
    for batch in (0..count).step_by(BATCH) {
        let members = batch..count.min(batch + BATCH);
        let mut loaded = [L::default(); BATCH];
        for (loaded, group) in loaded.iter_mut().zip(members.clone()) {
            *loaded = load(groups, group);
        }
        let prepared = prepare(loaded, members.clone());
        for (&prepared, group) in prepared.iter().zip(members) {
            if group < full {
                apply(groups, group, 4, prepared);
            } else {
                partial = Some(prepared);
            }
        }
    }
    // The last group's few joints apart, so that the loop's `apply` is compiled for four
    // lanes (a lane count in the loop is slower).
    if let Some(prepared) = partial {
        apply(groups, full, joints - 4 * full, prepared);
    }
}

/// The rotation weights of a batch's groups (`members`, at most `BATCH`), from their dots (each
/// group's joint weights being `weights(first joint, 4)`), all at once (see `simd::Wide`): as many
/// side by side as a power of two needs to hold them, so that a short last batch does not
/// compute eight; eight in four 256-bit registers where there is `avx`.
#[inline(always)]
pub(super) fn batch_arc_weights(
    avx: Option<Avx>,
    arc: &impl ArcWeights,
    dots: [Vec4; BATCH],
    members: Range<usize>,
    weights: impl Fn(usize, usize) -> Vec4,
) -> [(Vec4, Vec4); BATCH] {
    let first = members.start;
    match members.len() {
        5.. => match avx {
            #[cfg(target_arch = "x86_64")]
            Some(avx) => side_by_side_avx(avx, arc, dots, first, weights),
            _ => side_by_side::<8>(arc, dots, first, weights),
        },
        3..=4 => side_by_side::<4>(arc, dots, first, weights),
        2 => side_by_side::<2>(arc, dots, first, weights),
        _ => side_by_side::<1>(arc, dots, first, weights),
    }
}

/// `batch_arc_weights` for the first `N` groups of the batch (the rest get zeros).
#[inline(always)]
fn side_by_side<const N: usize>(
    arc: &impl ArcWeights,
    dots: [Vec4; BATCH],
    first: usize,
    weights: impl Fn(usize, usize) -> Vec4,
) -> [(Vec4, Vec4); BATCH] {
    let weights: Wide<Vec4, N> = Wide(std::array::from_fn(|group| weights(4 * (first + group), 4)));
    let (from, to) = arc.weights(Wide(std::array::from_fn(|group| dots[group])), weights);
    std::array::from_fn(|group| {
        if group < N {
            (from.0[group], to.0[group])
        } else {
            (Vec4::ZERO, Vec4::ZERO)
        }
    })
}

/// `side_by_side::<8>` in four 256-bit registers, two groups each: half the instructions for
/// the same chains.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn side_by_side_avx(
    avx: Avx,
    arc: &impl ArcWeights,
    dots: [Vec4; BATCH],
    first: usize,
    weights: impl Fn(usize, usize) -> Vec4,
) -> [(Vec4, Vec4); BATCH] {
    let weights = std::array::from_fn(|group| weights(4 * (first + group), 4));
    let (from, to) = arc.weights(Wide(Avx8::pairs(avx, dots)), Wide(Avx8::pairs(avx, weights)));
    let (from, to) = (Avx8::unpair(from.0), Avx8::unpair(to.0));
    std::array::from_fn(|group| (from[group], to[group]))
}

/// `mix_joints` with the weights of joints `first..first + count` from `weights`, and the
/// rotation weights from `arc` (in 256-bit registers where there is `avx`); `some_unweighted`
/// says whether a weight may be 0 (that joint then keeps `a`).
#[inline(always)]
fn mix_groups(
    out: &mut [[Transform; 4]],
    a: Option<&[[Transform; 4]]>,
    b: &[[Transform; 4]],
    joints: usize,
    weights: impl Fn(usize, usize) -> Vec4,
    (arc, avx): (&impl ArcWeights, Option<Avx>),
    some_unweighted: bool,
) {
    // Groups as fixed-size arrays, so that the compiler keeps them in registers; their rotation
    // weights a batch ahead of their mixing. The closures are inlined, so that the AVX build
    // compiles them with AVX (a closure of its own stays SSE2). All three cut to the groups
    // used, so that one bound covers every index.
    let count = joints.div_ceil(4);
    let (out, a, b) = (&mut out[..count], a.map(|a| &a[..count]), &b[..count]);
    in_batches(
        out,
        joints,
        #[inline(always)]
        |out, group| dots(&rotations(&a.unwrap_or(out)[group]), &rotations(&b[group])),
        #[inline(always)]
        |dots, members| batch_arc_weights(avx, arc, dots, members, &weights),
        #[inline(always)]
        |out, group, lanes, arc_weights| {
            // Computed again rather than kept with the batch, which is slower.
            let weights = weights(4 * group, lanes);
            let a = a.map(|a| &a[group]);
            mix4(
                &mut out[group],
                a,
                &b[group],
                lanes,
                weights,
                arc_weights,
                some_unweighted,
            );
        },
    );
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

/// The rotations of four joints, one per vector.
#[inline(always)]
pub(super) fn rotations(joints: &[Transform; 4]) -> [Vec4; 4] {
    joints.each_ref().map(|joint| Vec4::from(joint.rotation))
}

/// `out[lane] ← a[lane].mix(b[lane], weights[lane])` for the first `lanes` lanes (`a` is `out`
/// when `None`): rotations by the corrected nlerp of `fast_slerp` (whose weights `(from, to)`
/// the caller computed from the rotations' dots), mixed in place without transposing,
/// translations and scales by lerp. Joints of weight 0 keep `a` exactly, when `some_unweighted`
/// says there may be any (else every lane is written without looking).
#[inline(always)]
fn mix4(
    out: &mut [Transform; 4],
    a: Option<&[Transform; 4]>,
    b: &[Transform; 4],
    lanes: usize,
    weights: Vec4,
    (from_weights, to_weights): (Vec4, Vec4),
    some_unweighted: bool,
) {
    let (from, to) = (JointGroup::load(a.unwrap_or(out)), JointGroup::load(b));
    let (from_weights, to_weights) = (splat_lanes(from_weights), splat_lanes(to_weights));
    let mixed = JointGroup {
        rotations: std::array::from_fn(|i| from.rotations[i] * from_weights[i] + to.rotations[i] * to_weights[i]),
        tails: from.lerp_tails(&to.tails, weights),
    };
    if some_unweighted || lanes < 4 {
        mixed.store(out, lanes, weights, a);
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
                    let untouched = crate::anim::fixtures::padding_is_untouched;
                    assert!(untouched(&into) && untouched(&in_place), "{joints} joints: padding");
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
        if !crate::simd::has_avx() {
            eprintln!("skipped: this processor has no AVX and FMA, so there is no AVX build to compare");
            return;
        }
        let mut numbers = crate::anim::fixtures::Numbers(7);
        // Batches of one, four (three groups), eight and two groups side by side.
        for joints in [3, 12, 26, 70] {
            let (a, b) = (numbers.pose(joints), numbers.pose(joints));
            let mask = JointMask::weights(numbers.mask(joints));
            // In place (`blend`) and from a third pose (`blend_into`).
            for (mask, into) in [(None, false), (Some(&mask), false), (None, true), (Some(&mask), true)] {
                let (mut dispatched, mut baseline) = (a.clone(), a.clone());
                let from = into.then_some(b.groups());
                mix_joints(dispatched.groups_mut(), from, a.groups(), joints, 0.3, mask);
                mix_joints_baseline(baseline.groups_mut(), from, a.groups(), joints, 0.3, mask);
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
