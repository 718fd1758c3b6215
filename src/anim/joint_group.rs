//! Four joints' transforms as ten SIMD vectors, for the blends and additive layers.
//!
//! A `Transform` is the rotation (four floats, 16-byte aligned) then translation and scale (six
//! floats back to back) and eight bytes of padding. A group of four joints loads as its four
//! rotations, four `(tx, ty, tz, sx)` vectors and two vectors holding two joints' `(sy, sz)`
//! each: translation and scale then lerp as six vectors with a weight pattern per vector, with
//! no transposes, and the padding is never read (it is uninitialised memory).

use std::mem::offset_of;

use glam::{Quat, Vec4, Vec4Swizzles};

use super::transform::Transform;

// The float view below relies on this layout: translation right after the rotation, scale
// right after the translation.
const _: () = assert!(offset_of!(Transform, rotation) == 0);
const _: () = assert!(offset_of!(Transform, translation) == 16);
const _: () = assert!(offset_of!(Transform, scale) == 28);

/// Four joints: `rotations[lane]`; `tail[lane]` is `(tx, ty, tz, sx)` of that joint for lanes
/// 0-3, `tail[4]` is `(sy, sz)` of joints 0 and 1, `tail[5]` of joints 2 and 3.
#[derive(Clone, Copy)]
pub(super) struct JointGroup {
    pub rotations: [Vec4; 4],
    pub tail: [Vec4; 6],
}

impl JointGroup {
    #[inline(always)]
    pub fn load(joints: &[Transform; 4]) -> Self {
        let floats = joints.each_ref().map(floats);
        let pair = |a: &[f32; 10], b: &[f32; 10]| Vec4::new(a[8], a[9], b[8], b[9]);
        Self {
            rotations: joints.each_ref().map(|joint| Vec4::from(joint.rotation)),
            tail: [
                Vec4::from_slice(&floats[0][4..8]),
                Vec4::from_slice(&floats[1][4..8]),
                Vec4::from_slice(&floats[2][4..8]),
                Vec4::from_slice(&floats[3][4..8]),
                pair(floats[0], floats[1]),
                pair(floats[2], floats[3]),
            ],
        }
    }

    /// Writes lane `lane` to `joint`.
    #[inline(always)]
    pub fn store_lane(&self, lane: usize, joint: &mut Transform) {
        joint.rotation = Quat::from_vec4(self.rotations[lane]);
        let floats = floats_mut(joint);
        self.tail[lane].write_to_slice(&mut floats[4..8]);
        let pair = self.tail[4 + lane / 2];
        let (sy, sz) = if lane.is_multiple_of(2) {
            (pair.x, pair.y)
        } else {
            (pair.z, pair.w)
        };
        floats[8] = sy;
        floats[9] = sz;
    }

    /// Writes every lane.
    #[inline(always)]
    pub fn store_all(&self, out: &mut [Transform; 4]) {
        for (lane, joint) in out.iter_mut().enumerate() {
            self.store_lane(lane, joint);
        }
    }

    /// Writes the first `lanes` lanes, where their weight is not 0; the others of them get
    /// `unweighted` (`None` leaves them as they are), and lanes from `lanes` on are left as
    /// they are. A branch per group, not per joint, when all four lanes are written.
    #[inline(always)]
    pub fn store(&self, out: &mut [Transform; 4], lanes: usize, weights: Vec4, unweighted: Option<&[Transform; 4]>) {
        if lanes == 4 && !weights.cmpeq(Vec4::ZERO).any() {
            return self.store_all(out);
        }
        for (lane, joint) in out.iter_mut().enumerate().take(lanes) {
            match unweighted {
                _ if weights[lane] != 0.0 => self.store_lane(lane, joint),
                Some(joints) => *joint = joints[lane],
                None => {}
            }
        }
    }
}

/// The weight of each tail vector: a joint's weight on its `(tx, ty, tz, sx)`, two joints'
/// weights on their `(sy, sz)` pair.
#[inline(always)]
pub(super) fn tail_weights(weights: Vec4) -> [Vec4; 6] {
    let splat = super::lanes::splat_lanes(weights);
    [splat[0], splat[1], splat[2], splat[3], weights.xxyy(), weights.zzww()]
}

/// The ten floats of rotation, translation and scale.
#[inline(always)]
fn floats(joint: &Transform) -> &[f32; 10] {
    // SAFETY: `Transform` is `repr(C)`: a `Quat` (four f32) at offset 0 and two `Vec3`s (three
    // f32 each) at offsets 16 and 28 (asserted above), so its first 40 bytes are ten
    // initialised f32s, and its alignment (16) is a multiple of f32's. The reference borrows
    // `joint`, so the memory stays valid and unaliased by writers for its lifetime.
    unsafe { &*std::ptr::from_ref(joint).cast::<[f32; 10]>() }
}

/// `floats`, writable.
#[inline(always)]
fn floats_mut(joint: &mut Transform) -> &mut [f32; 10] {
    // SAFETY: as in `floats`; every bit pattern is a valid f32, so any write keeps the
    // transform valid, and the exclusive borrow of `joint` makes this the only access.
    unsafe { &mut *std::ptr::from_mut(joint).cast::<[f32; 10]>() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn loads_and_stores_every_field_of_every_lane() {
        let joint = |i: usize| {
            let f = i as f32 * 10.0;
            Transform::new(
                Vec3::new(f + 4.0, f + 5.0, f + 6.0),
                Quat::from_xyzw(f, f + 1.0, f + 2.0, f + 3.0),
                Vec3::new(f + 7.0, f + 8.0, f + 9.0),
            )
        };
        let joints: [Transform; 4] = std::array::from_fn(joint);
        let group = JointGroup::load(&joints);
        assert_eq!(group.tail[1], Vec4::new(14.0, 15.0, 16.0, 17.0));
        assert_eq!(group.tail[5], Vec4::new(28.0, 29.0, 38.0, 39.0));
        let mut out = [Transform::IDENTITY; 4];
        group.store(&mut out, 4, Vec4::ONE, None);
        assert_eq!(out, joints);
        // Weight-0 lanes take the unweighted joints, or stay.
        let mut kept = [Transform::IDENTITY; 4];
        group.store(&mut kept, 4, Vec4::new(1.0, 0.0, 0.5, 0.0), None);
        assert_eq!(kept, [joints[0], Transform::IDENTITY, joints[2], Transform::IDENTITY]);
        let others: [Transform; 4] = std::array::from_fn(|i| joint(i + 4));
        group.store(&mut kept, 4, Vec4::new(0.0, 1.0, 0.0, 1.0), Some(&others));
        assert_eq!(kept, [others[0], joints[1], others[2], joints[3]]);
        // Lanes from `lanes` on are left as they are, whatever their weight.
        let mut first_two = [Transform::IDENTITY; 4];
        group.store(&mut first_two, 2, Vec4::new(1.0, 0.0, 1.0, 1.0), Some(&others));
        assert_eq!(
            first_two,
            [joints[0], others[1], Transform::IDENTITY, Transform::IDENTITY]
        );
        let weights = tail_weights(Vec4::new(1.0, 2.0, 3.0, 4.0));
        assert_eq!(weights[2], Vec4::splat(3.0));
        assert_eq!(weights[5], Vec4::new(3.0, 3.0, 4.0, 4.0));
    }
}
