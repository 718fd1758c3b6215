//! Four joints' transforms as their rotations and eight floats each, for the blends and
//! additive layers.
//!
//! A `Transform` is the rotation (four floats, 16-byte aligned) then translation and scale (six
//! floats back to back) and two floats of zero padding. A group of four joints loads as its
//! four rotations and, per joint, the eight floats after the rotation: translation, scale and
//! padding lerp as one 256-bit vector a joint where the processor has AVX (two 128-bit vectors
//! where not), with no transposes; the padding stays zero, as a mix of zeros is zero.

use std::mem::offset_of;

use glam::{Quat, Vec4};

use super::transform::Transform;

// The float view below relies on this layout: translation right after the rotation, scale
// right after the translation.
const _: () = assert!(offset_of!(Transform, rotation) == 0);
const _: () = assert!(offset_of!(Transform, translation) == 16);
const _: () = assert!(offset_of!(Transform, scale) == 28);
const _: () = assert!(size_of::<Transform>() == 48);

/// Four joints: `rotations[lane]`, and `tails[lane]` that joint's translation, scale and
/// padding (eight floats, for the compiler to mix as one 256-bit vector where it has AVX).
#[derive(Clone, Copy)]
pub(super) struct JointGroup {
    pub rotations: [Vec4; 4],
    pub tails: [[f32; 8]; 4],
}

impl JointGroup {
    /// The four joints' rotations and tails.
    ///
    /// This and the mixes below are loops, not `array::map` or `from_fn`: the compiler may
    /// keep those out of line, and then they are calls compiled without AVX.
    #[inline(always)]
    pub fn load(joints: &[Transform; 4]) -> Self {
        let mut group = Self {
            rotations: [Vec4::ZERO; 4],
            tails: [[0.0; 8]; 4],
        };
        for ((rotation, tail), joint) in group.rotations.iter_mut().zip(&mut group.tails).zip(joints) {
            *rotation = Vec4::from(joint.rotation);
            tail.copy_from_slice(&floats(joint)[4..]);
        }
        group
    }

    /// `tails[lane] + (to[lane] − tails[lane]) · weights[lane]`, each lane.
    #[inline(always)]
    pub fn lerp_tails(&self, to: &[[f32; 8]; 4], weights: Vec4) -> [[f32; 8]; 4] {
        let mut out = self.tails;
        for ((out, to), weight) in out.iter_mut().zip(to).zip(weights.to_array()) {
            for (out, to) in out.iter_mut().zip(to) {
                *out += (to - *out) * weight;
            }
        }
        out
    }

    /// `tails[lane] + deltas[lane] · weights[lane]`, each lane.
    #[inline(always)]
    pub fn add_tails(&self, deltas: &[[f32; 8]; 4], weights: Vec4) -> [[f32; 8]; 4] {
        let mut out = self.tails;
        for ((out, deltas), weight) in out.iter_mut().zip(deltas).zip(weights.to_array()) {
            for (out, delta) in out.iter_mut().zip(deltas) {
                *out += delta * weight;
            }
        }
        out
    }

    /// Writes lane `lane` to `joint`.
    #[inline(always)]
    pub fn store_lane(&self, lane: usize, joint: &mut Transform) {
        joint.rotation = Quat::from_vec4(self.rotations[lane]);
        floats_mut(joint)[4..].copy_from_slice(&self.tails[lane]);
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

/// The twelve floats of rotation, translation, scale and padding.
#[inline(always)]
fn floats(joint: &Transform) -> &[f32; 12] {
    // SAFETY: `Transform` is `repr(C)`: a `Quat` (four f32) at offset 0, two `Vec3`s (three
    // f32 each) at offsets 16 and 28, then its two f32 of padding, 48 bytes with no gaps
    // (asserted above), so it is twelve initialised f32s, and its alignment (16) is a multiple
    // of f32's. The reference borrows `joint`, so the memory stays valid and unaliased by
    // writers for its lifetime.
    unsafe { &*std::ptr::from_ref(joint).cast::<[f32; 12]>() }
}

/// `floats`, writable.
#[inline(always)]
fn floats_mut(joint: &mut Transform) -> &mut [f32; 12] {
    // SAFETY: as in `floats`; every bit pattern is a valid f32, so any write keeps the
    // transform valid, and the exclusive borrow of `joint` makes this the only access.
    unsafe { &mut *std::ptr::from_mut(joint).cast::<[f32; 12]>() }
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
        assert_eq!(group.tails[1], [14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 0.0, 0.0]);
        assert_eq!(group.rotations[3], Vec4::new(30.0, 31.0, 32.0, 33.0));
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
        // Each lane's tail mixed or added by that lane's weight.
        let weights = Vec4::new(0.0, 0.5, 1.0, 2.0);
        let others = JointGroup::load(&others).tails;
        let mixed = group.lerp_tails(&others, weights);
        assert_eq!(mixed[0], group.tails[0]);
        assert_eq!(mixed[1], [34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 0.0, 0.0]);
        assert_eq!(mixed[2], others[2]);
        assert_eq!(group.add_tails(&others, weights)[3][5], 39.0 + 2.0 * 79.0);
    }
}
