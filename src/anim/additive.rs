//! Additive layers: a clip applied as its difference to a reference pose.
//!
//! Semantics, per joint `j` with layer weight `w` times the mask weight `m_j`:
//! - translation `t = t_in + w·(t_add − t_ref)`; scale `s = s_in + w·(s_add − s_ref)`;
//! - rotation, in Hamilton products (glam's order, `a * b` applies `b` first), either
//!   - `Parent` (the default): `r = (r_add · r_ref⁻¹)^w · r_in`, the delta taken in the
//!     parent's frame (written with quaternions that multiply the other way round, as some
//!     engines do, this is `input * (inverse(base) * current)`); or
//!   - `Local` (as three.js applies additive clips): `r = r_in · (r_ref⁻¹ · r_add)^w`, the delta in
//!     the joint's own frame.
//!
//!   `q^w` scales the rotation angle of `q` (taken on the shortest arc) by `w`, so any weight
//!   works: 0 is the identity, 1 the full delta, negative weights subtract, weights above 1
//!   exaggerate. Weights in [0, 1] (the usual case) take a four-joints-at-a-time path where
//!   `q^w` is the shortest-arc slerp from the identity to `q`, by `fast_slerp`'s corrected
//!   nlerp (within 1e-4 rad of the exact rotation); other weights go by axis and angle.
//! - The reference pose is the clip sampled at each track's first key (the default) or at a
//!   chosen time. Joints the clip does not animate have no delta.
//! - Morph-target weights and animated property values (`Pose::properties`) add `w·(add − ref)` too.
//!
//! A layer turns its clip into deltas from the reference once (`delta_clip`), when its settings
//! change; each frame then samples the deltas and `apply_additive` adds them, `w` times.

use glam::{Quat, Vec4};

use super::blend::{JointMask, batch_arc_weights, in_batches, lane_weights, rotations};
use super::clip::{Clip, ClipCursor};
pub use super::delta_clip::AdditiveSpace;
use super::delta_clip::{delta_clip, no_delta};
use super::fast_slerp::{ArcWeights, PerLaneT, UniformT};
use super::joint_group::JointGroup;
use super::lanes::{QuatLanes, SUBNORMAL_GUARD};
use super::pose::Pose;
use super::transform::Transform;
use crate::simd;
use crate::simd::{Avx, transpose};

/// `q^w`: the rotation of `q` (on the shortest arc) with its angle scaled by `w`.
pub fn scale_rotation(q: Quat, w: f32) -> Quat {
    let q = if q.w < 0.0 { -q } else { q };
    let (axis, angle) = q.normalize().to_axis_angle();
    if angle.abs() < 1e-9 {
        Quat::IDENTITY
    } else {
        Quat::from_axis_angle(axis, angle * w)
    }
}

/// Adds `w` times the deltas in `delta` (see `delta_clip`) to `out`, per joint scaled by `mask`.
/// Allocates nothing.
pub fn apply_additive(out: &mut Pose, delta: &Pose, w: f32, mask: Option<&JointMask>, space: AdditiveSpace) {
    let joints = out.len().min(delta.len());
    // Mask weights lie in [0, 1], so every joint's weight does when `w` does.
    match (mask, (0.0..=1.0).contains(&w)) {
        (_, false) => {
            let deltas = delta.local().iter();
            for (joint, (out, delta)) in out.local_mut().iter_mut().zip(deltas).enumerate() {
                add_joint(out, delta, w * mask.map_or(1.0, |mask| mask.weight(joint)), space);
            }
        }
        (mask, true) => add_weighted_joints(out.groups_mut(), delta.groups(), joints, w, mask, space),
    }
    let add_floats = |out: &mut [f32], delta: &[f32]| {
        for (out, delta) in out.iter_mut().zip(delta) {
            *out += delta * w;
        }
    };
    add_floats(out.morph_weights_mut(), delta.morph_weights());
    add_floats(out.properties_mut(), delta.properties());
}

simd::dispatch! {
    /// The first `joints` joints, for a weight `w` in [0, 1], four at a time (`add_groups`), in
    /// AVX's encoding where the processor has it, as the blends are. Inlined, as
    /// `blend::mix_joints` is.
    #[inline(always)]
    fn add_weighted_joints(
        out: &mut [[Transform; 4]],
        deltas: &[[Transform; 4]],
        joints: usize,
        w: f32,
        mask: Option<&JointMask>,
        space: AdditiveSpace,
    ) [baseline: add_weighted_joints_baseline, avx] {
        match mask {
            // One weight for every joint: the rotation weights' polynomial is prepared once.
            None => add_groups(
                avx,
                out,
                deltas,
                joints,
                space,
                |_, _| Vec4::splat(w),
                &UniformT::new(w),
            ),
            Some(mask) => add_groups(
                avx,
                out,
                deltas,
                joints,
                space,
                |first, count| Vec4::from_array(lane_weights(w, Some(mask), first, count)),
                &PerLaneT,
            ),
        }
    }
}

/// One joint, any weight: `q^w` by axis and angle.
fn add_joint(out: &mut Transform, delta: &Transform, weight: f32, space: AdditiveSpace) {
    if weight == 0.0 {
        return;
    }
    out.translation += delta.translation * weight;
    out.scale += delta.scale * weight;
    let rotation = scale_rotation(delta.rotation, weight);
    out.rotation = match space {
        AdditiveSpace::Parent => rotation * out.rotation,
        AdditiveSpace::Local => out.rotation * rotation,
    }
    .normalize();
}

/// The first `joints` joints four at a time, for weights in [0, 1]: `weights(first, count)`
/// gives those of joints `first..first + count`, `arc` the rotation weights (see `add_delta`).
#[inline(always)]
fn add_groups(
    avx: Option<Avx>,
    local: &mut [[Transform; 4]],
    deltas: &[[Transform; 4]],
    joints: usize,
    space: AdditiveSpace,
    weights: impl Fn(usize, usize) -> Vec4,
    arc: &impl ArcWeights,
) {
    // The dot of each delta rotation with the identity is its w. Groups as fixed-size arrays
    // (kept in registers); a batch's rotation weights before any of its joints is added to
    // (`blend::in_batches`). Both cut to the groups used, so that one bound covers every index.
    let count = joints.div_ceil(4);
    let (local, deltas) = (&mut local[..count], &deltas[..count]);
    in_batches(
        local,
        joints,
        #[inline(always)]
        |_, group| Vec4::from_array(deltas[group].each_ref().map(|delta| delta.rotation.w)),
        #[inline(always)]
        |dots, members| batch_arc_weights(avx, arc, dots, members, &weights),
        #[inline(always)]
        |local, group, lanes, arc_weights| {
            let weights = weights(4 * group, lanes);
            add_delta(&mut local[group], &deltas[group], lanes, weights, arc_weights, space);
        },
    );
}

/// For four joints whose weights lie in [0, 1], `q^w` of each delta rotation `q` is the
/// shortest-arc slerp from the identity to `q`, by `fast_slerp`'s corrected nlerp (within
/// `fast_slerp::MAX_ANGLE_ERROR` of it), whose weights `(from, to)` the caller gives (`arc`
/// of the dots with the identity, the deltas' w) with the normalisation folded in:
/// `out ← q^w · out` (or `out · q^w`, by `space`), and translations and scales plus `w` times
/// their deltas, kept where they lie (`joint_group`), for the first `lanes` lanes. Joints of
/// weight 0, and lanes from `lanes` on, are left exactly as they are.
#[inline(always)]
fn add_delta(
    out: &mut [Transform; 4],
    delta: &[Transform; 4],
    lanes: usize,
    weights: Vec4,
    (from, to): (Vec4, Vec4),
    space: AdditiveSpace,
) {
    let ([x, y, z, w], input) = (transpose(rotations(delta)), JointGroup::load(out));
    // G · (identity · from + q · to), G being `SUBNORMAL_GUARD`, undone after the product.
    let to = to * SUBNORMAL_GUARD;
    let rotation = [x * to, y * to, z * to, w * to + from * SUBNORMAL_GUARD];
    let (input_rotations, delta) = (transpose(input.rotations), JointGroup::load(delta).tails);
    let rotated = match space {
        AdditiveSpace::Parent => multiply(&rotation, &input_rotations),
        AdditiveSpace::Local => multiply(&input_rotations, &rotation),
    };
    let result = JointGroup {
        rotations: transpose(rotated.map(|component| component * SUBNORMAL_GUARD.recip())),
        tails: input.add_tails(&delta, weights),
    };
    result.store(out, lanes, weights, None);
}

/// Hamilton products `a · b` of four pairs of quaternions.
#[inline(always)]
fn multiply([ax, ay, az, aw]: &QuatLanes, [bx, by, bz, bw]: &QuatLanes) -> QuatLanes {
    [
        *aw * *bx + *ax * *bw + *ay * *bz - *az * *by,
        *aw * *by - *ax * *bz + *ay * *bw + *az * *bx,
        *aw * *bz + *ax * *by - *ay * *bx + *az * *bw,
        *aw * *bw - *ax * *bx - *ay * *by - *az * *bz,
    ]
}

/// One additive layer over an animation: which clip, how much, where, and its reference.
#[derive(Clone, Debug)]
pub struct AdditiveLayer {
    clip: usize,
    /// Any value: negative subtracts, above 1 exaggerates.
    pub weight: f32,
    pub space: AdditiveSpace,
    reference_time: Option<f32>,
    mask_root: Option<usize>,
    /// Made from the clip, reference time, space and mask root on first use.
    prepared: Option<Prepared>,
}

/// What a layer derives from its settings, and its per-frame scratch.
#[derive(Clone, Debug)]
struct Prepared {
    /// The space `deltas` were taken in (`space` is a public field, so it can change under it).
    space: AdditiveSpace,
    /// The clip as deltas from the reference pose.
    deltas: Clip,
    mask: Option<JointMask>,
    /// The deltas at the current time.
    sampled: Pose,
    cursor: ClipCursor,
}

impl AdditiveLayer {
    pub fn new(clip: usize, weight: f32) -> Self {
        Self {
            clip,
            weight,
            space: AdditiveSpace::Parent,
            reference_time: None,
            mask_root: None,
            prepared: None,
        }
    }

    pub fn clip(&self) -> usize {
        self.clip
    }

    pub fn set_clip(&mut self, clip: usize) {
        self.clip = clip;
        self.prepared = None;
    }

    /// Clip time of the reference pose; `None` takes each track's first key.
    pub fn reference_time(&self) -> Option<f32> {
        self.reference_time
    }

    pub fn set_reference_time(&mut self, time: Option<f32>) {
        self.reference_time = time;
        self.prepared = None;
    }

    /// The joint whose subtree the layer is limited to; `None` for the whole body.
    pub fn mask_root(&self) -> Option<usize> {
        self.mask_root
    }

    pub fn set_mask_root(&mut self, joint: Option<usize>) {
        self.mask_root = joint;
        self.prepared = None;
    }

    fn prepare(&self, clip: &Clip, rest: &Pose) -> Prepared {
        let mut reference = rest.clone();
        // Before the first key every track holds its first key's value.
        let time = self.reference_time.unwrap_or(f32::NEG_INFINITY);
        clip.sample(time, &mut reference, &mut clip.cursor());
        let deltas = delta_clip(clip, &reference, self.space);
        let mask = self
            .mask_root
            .filter(|&root| root < rest.len())
            .map(|root| JointMask::subtree(rest.hierarchy(), root));
        Prepared {
            space: self.space,
            cursor: deltas.cursor(),
            deltas,
            mask,
            sampled: no_delta(rest),
        }
    }

    /// Adds this layer, its clip at clip time `time`, to `out`. Allocates only on the first
    /// call after a setting changed.
    pub fn apply(&mut self, clips: &[Clip], rest: &Pose, time: f32, out: &mut Pose) {
        let Some(clip) = clips.get(self.clip) else {
            return;
        };
        let prepared = match &mut self.prepared {
            Some(prepared) if prepared.space == self.space => prepared,
            _ => self.prepared.insert(self.prepare(clip, rest)),
        };
        let Prepared {
            deltas,
            mask,
            sampled,
            cursor,
            ..
        } = prepared;
        // The delta clip writes the same channels every time, and the others hold no delta.
        deltas.sample(time, sampled, cursor);
        apply_additive(out, sampled, self.weight, mask.as_ref(), self.space);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Hierarchy, Transform};
    use crate::simd::Wide;
    use glam::Vec3;
    use std::sync::Arc;

    /// The delta of `add` from `reference`, joint by joint (what `delta_clip`'s samples hold).
    fn delta(add: &Transform, reference: &Transform, space: AdditiveSpace) -> Transform {
        let inverse = reference.rotation.inverse();
        Transform::new(
            add.translation - reference.translation,
            match space {
                AdditiveSpace::Parent => add.rotation * inverse,
                AdditiveSpace::Local => inverse * add.rotation,
            },
            add.scale - reference.scale,
        )
    }

    fn deltas(add: &Pose, reference: &Pose, space: AdditiveSpace) -> Pose {
        let mut out = add.clone();
        for (out, reference) in out.local_mut().iter_mut().zip(reference.local()) {
            *out = delta(out, reference, space);
        }
        out
    }

    #[test]
    fn four_joint_path_matches_axis_and_angle() {
        let joint = |i: usize, turn: f32| {
            let axis = Vec3::new(1.0, i as f32 - 2.0, 0.5).normalize();
            Transform::new(
                Vec3::splat(i as f32),
                Quat::from_axis_angle(axis, turn * (0.3 + 0.7 * i as f32)),
                Vec3::ONE,
            )
        };
        let out: [Transform; 4] = std::array::from_fn(|i| joint(i, 0.5));
        // Deltas of up to 2.4 rad, and one beyond half a turn given with w < 0.
        let mut delta: [Transform; 4] = std::array::from_fn(|i| joint(i, 1.0));
        delta[2].rotation = -delta[2].rotation;
        let weights = [0.0, 0.3, 0.75, 1.0];
        for space in [AdditiveSpace::Parent, AdditiveSpace::Local] {
            let mut fast = out;
            let lanes = Vec4::from_array(weights);
            let dots = Vec4::from_array(delta.each_ref().map(|delta| delta.rotation.w));
            let (Wide([from]), Wide([to])) = PerLaneT.weights(Wide([dots]), Wide([lanes]));
            add_delta(&mut fast, &delta, 4, lanes, (from, to), space);
            for lane in 0..4 {
                let mut slow = out[lane];
                add_joint(&mut slow, &delta[lane], weights[lane], space);
                // Within the corrected nlerp's bound of the exact power.
                let angle = crate::anim::fast_slerp::angle_apart(fast[lane].rotation, slow.rotation);
                let bound = crate::anim::fast_slerp::MAX_ANGLE_ERROR as f64;
                assert!(angle < bound, "{space:?} lane {lane}: {angle} rad apart");
                assert!(fast[lane].translation.abs_diff_eq(slow.translation, 1e-6));
            }
        }
    }

    fn pose(transforms: Vec<Transform>) -> Pose {
        let parents = (0..transforms.len())
            .map(|i| i.checked_sub(1).map(|p| p as u32))
            .collect();
        Pose::new(Arc::new(Hierarchy::new(parents).unwrap()), transforms, Vec::new()).unwrap()
    }

    fn sample() -> (Pose, Pose, Pose) {
        let input = Transform::new(Vec3::X, Quat::from_rotation_x(0.4), Vec3::ONE);
        let reference = Transform::new(Vec3::Y, Quat::from_rotation_z(0.2), Vec3::ONE);
        let add = Transform::new(
            Vec3::new(0.0, 3.0, 0.0),
            Quat::from_rotation_z(0.9) * Quat::from_rotation_y(0.3),
            Vec3::splat(2.0),
        );
        (pose(vec![input; 2]), pose(vec![add; 2]), pose(vec![reference; 2]))
    }

    #[test]
    fn no_delta_changes_nothing() {
        let (input, _, _) = sample();
        for w in [0.4, 1.0, 1.7] {
            let mut out = input.clone();
            apply_additive(&mut out, &no_delta(&input), w, None, AdditiveSpace::Parent);
            assert_eq!(out, input, "weight {w}");
        }
    }

    #[test]
    fn weight_zero_is_a_no_op_and_one_adds_the_full_delta() {
        let (input, add, reference) = sample();
        for space in [AdditiveSpace::Parent, AdditiveSpace::Local] {
            let delta = deltas(&add, &reference, space);
            let mut zero = input.clone();
            apply_additive(&mut zero, &delta, 0.0, None, space);
            assert_eq!(zero, input);
            let mut out = input.clone();
            apply_additive(&mut out, &delta, 1.0, None, space);
            let (i, a, r) = (input.local()[0], add.local()[0], reference.local()[0]);
            let expected = match space {
                AdditiveSpace::Parent => a.rotation * r.rotation.inverse() * i.rotation,
                AdditiveSpace::Local => i.rotation * r.rotation.inverse() * a.rotation,
            };
            assert!(out.local()[0].rotation.dot(expected).abs() > 1.0 - 1e-6, "{space:?}");
            assert!(
                out.local()[0]
                    .translation
                    .abs_diff_eq(i.translation + a.translation - r.translation, 1e-6)
            );
            assert!(out.local()[0].scale.abs_diff_eq(Vec3::splat(2.0), 1e-6));
        }
    }

    #[test]
    fn negative_weights_subtract_and_masks_limit() {
        let (input, add, reference) = sample();
        let delta = deltas(&add, &reference, AdditiveSpace::Parent);
        let mut there_and_back = input.clone();
        apply_additive(&mut there_and_back, &delta, 0.7, None, AdditiveSpace::Parent);
        apply_additive(&mut there_and_back, &delta, -0.7, None, AdditiveSpace::Parent);
        assert!(there_and_back.local()[0].rotation.dot(input.local()[0].rotation).abs() > 1.0 - 1e-5);
        assert!(
            there_and_back.local()[0]
                .translation
                .abs_diff_eq(input.local()[0].translation, 1e-5)
        );
        let mask = JointMask::weights(vec![0.0, 1.0]);
        let mut masked = input.clone();
        apply_additive(&mut masked, &delta, 1.0, Some(&mask), AdditiveSpace::Local);
        assert_eq!(masked.local()[0], input.local()[0]);
        assert_ne!(masked.local()[1], input.local()[1]);
    }

    #[test]
    fn avx_build_matches_the_baseline() {
        if !crate::simd::has_avx() {
            eprintln!("skipped: this processor has no AVX and FMA, so there is no AVX build to compare");
            return;
        }
        let mut numbers = crate::anim::fixtures::Numbers(11);
        for joints in [3, 12, 26, 70] {
            let (input, delta) = (numbers.pose(joints), numbers.pose(joints));
            let mask = JointMask::weights(numbers.mask(joints));
            for (mask, space) in [(None, AdditiveSpace::Parent), (Some(&mask), AdditiveSpace::Local)] {
                let (mut dispatched, mut baseline) = (input.clone(), input.clone());
                add_weighted_joints(dispatched.groups_mut(), delta.groups(), joints, 0.3, mask, space);
                add_weighted_joints_baseline(baseline.groups_mut(), delta.groups(), joints, 0.3, mask, space);
                assert_eq!(dispatched, baseline, "{joints} joints, {space:?}");
            }
        }
    }

    #[test]
    fn random_poses_of_any_length_match_adding_each_joint() {
        let mut numbers = crate::anim::fixtures::Numbers(9);
        let bound = crate::anim::fast_slerp::MAX_ANGLE_ERROR as f64;
        for joints in (1..=9).chain([26, 70]) {
            for round in 0..12 {
                let (input, delta) = (numbers.pose(joints), numbers.pose(joints));
                // The group path's ends and inside, and the per-joint path outside [0, 1].
                let w = [0.0, 1.0, numbers.next() as f32, -0.6, 1.7, numbers.next() as f32][round % 6];
                let mask = JointMask::weights(numbers.mask(joints));
                let space = [AdditiveSpace::Parent, AdditiveSpace::Local][round / 6];
                for mask in [None, Some(&mask)] {
                    let mut got = input.clone();
                    apply_additive(&mut got, &delta, w, mask, space);
                    assert!(
                        crate::anim::fixtures::padding_is_untouched(&got),
                        "{joints} joints: padding"
                    );
                    for (j, got) in got.local().iter().enumerate() {
                        let weight = w * mask.map_or(1.0, |mask| mask.weight(j));
                        let mut want = input.local()[j];
                        add_joint(&mut want, &delta.local()[j], weight, space);
                        let context = format!("{space:?}, {joints} joints, joint {j}, weight {weight}");
                        if weight == 0.0 {
                            assert_eq!(*got, input.local()[j], "{context}: weight 0 changes nothing");
                            continue;
                        }
                        assert!(got.translation.abs_diff_eq(want.translation, 1e-5), "{context}");
                        assert!(got.scale.abs_diff_eq(want.scale, 1e-5), "{context}");
                        assert!((got.rotation.length() - 1.0).abs() < 1e-5, "{context}");
                        let angle = crate::anim::fast_slerp::angle_apart(got.rotation, want.rotation);
                        assert!(angle < bound, "{context}: {angle} rad off");
                    }
                }
            }
        }
    }

    #[test]
    fn a_layer_follows_its_space_and_reference_time() {
        use crate::anim::fixtures::Numbers;
        use crate::anim::{Channel, ChannelTrack, Interpolation, Track};
        let mut numbers = Numbers(3);
        let keys: Vec<Quat> = (0..3).map(|_| numbers.quat().as_quat()).collect();
        let track = Track::new(Interpolation::Linear, vec![0.0, 1.0, 2.0], keys.clone()).unwrap();
        let clips = [Clip::new(
            "turn".into(),
            vec![Channel {
                joint: 1,
                track: ChannelTrack::Rotation(track.clone()),
            }],
        )];
        let (input, _, _) = sample();
        let rest = pose(vec![Transform::IDENTITY; 2]);
        let mut layer = AdditiveLayer::new(0, 1.0);
        let check = |layer: &mut AdditiveLayer, reference: Quat| {
            let mut out = input.clone();
            layer.apply(&clips, &rest, 1.5, &mut out);
            let (i, a) = (input.local()[1].rotation, track.sample(1.5, &mut 0));
            let expected = match layer.space {
                AdditiveSpace::Parent => a * reference.inverse() * i,
                AdditiveSpace::Local => i * reference.inverse() * a,
            };
            assert!(
                out.local()[1].rotation.dot(expected).abs() > 1.0 - 1e-5,
                "{:?}",
                layer.space
            );
            assert_eq!(out.local()[0], input.local()[0], "joint 0 is not animated");
        };
        check(&mut layer, keys[0]);
        // A change of space after the first frame takes effect on the next.
        layer.space = AdditiveSpace::Local;
        check(&mut layer, keys[0]);
        layer.set_reference_time(Some(2.0));
        check(&mut layer, keys[2]);
    }

    #[test]
    fn scaled_rotations_take_the_short_way() {
        let half = scale_rotation(-Quat::from_rotation_y(0.8), 0.5);
        assert!(half.dot(Quat::from_rotation_y(0.4)).abs() > 1.0 - 1e-6);
        assert_eq!(scale_rotation(Quat::IDENTITY, 3.0), Quat::IDENTITY);
    }
}
