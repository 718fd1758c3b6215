//! Quaternions and vectors four at a time in structure-of-arrays form, for clip sampling and
//! blending: a `Vec4` here holds one component of four different values (lane `i` belongs to
//! value `i`), so one SIMD instruction does the work of four scalar ones and no lane waits on a
//! horizontal sum (`simd::transpose` moves between that layout and one value per `Vec4`).

use glam::Vec4;

use super::quat::nest3;
use crate::simd::transpose;

/// Four quaternions, one component per `Vec4`: `[x, y, z, w]`.
pub type QuatLanes = [Vec4; 4];

/// Four 3D vectors, one component per `Vec4`: `[x, y, z]`.
pub type Vec3Lanes = [Vec4; 3];

/// 2⁶⁴: scales one factor of a product of unit-quaternion components, so that two tiny ones
/// (files exported from Blender hold components near 1e-20) do not make a subnormal product,
/// which costs x86 CPUs some seventy cycles each (measured). Powers of two scale exactly, so
/// the results are the same bits as without it wherever those have no subnormals.
pub const SUBNORMAL_GUARD: f32 = 18_446_744_073_709_551_616.0;

/// The dot products `a[i] · b[i]` of four pairs of unit quaternions (one per `Vec4`), as the
/// lanes of one vector.
#[inline(always)]
pub fn dots(a: &[Vec4; 4], b: &[Vec4; 4]) -> Vec4 {
    let [x, y, z, w] = transpose(std::array::from_fn(|i| (a[i] * SUBNORMAL_GUARD) * b[i]));
    ((x + y) + (z + w)) * SUBNORMAL_GUARD.recip()
}

/// `a + (b - a) · t` per lane: glam's `lerp` for four vectors at once.
#[inline(always)]
pub fn lerp3(a: &Vec3Lanes, b: &Vec3Lanes, t: Vec4) -> Vec3Lanes {
    let s = Vec4::ONE - t;
    std::array::from_fn(|i| a[i] * s + b[i] * t)
}

/// `quat::slerp_shortest` for four pairs of quaternions at once, each with its own `t`: the
/// same Eberly polynomial, with as many terms as the widest of the four angles needs.
#[inline(always)]
pub fn slerp_shortest4(a: &QuatLanes, b: &QuatLanes, t: Vec4) -> QuatLanes {
    use super::quat::{ONE_PLUS_MU, U, V};
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    // Negating `b` where the dot is negative takes the shorter arc.
    let flip = Vec4::select(dot.cmplt(Vec4::ZERO), Vec4::NEG_ONE, Vec4::ONE);
    let cos = dot * flip;
    let s = Vec4::ONE - t;
    let (s2, t2) = (s * s, t * t);
    let cos_minus_one = cos - Vec4::ONE;
    let terms = |square: Vec4, i: usize| (square * U[i] - Vec4::splat(V[i])) * cos_minus_one;
    let weight = |square: Vec4| {
        let term = |i| terms(square, i);
        let widest = cos.min_element();
        if widest >= 0.99 {
            nest3(term(0), term(1), term(2), Vec4::ONE)
        } else if widest >= 0.9 {
            nest3(term(0), term(1), term(2), nest3(term(3), term(4), term(5), Vec4::ONE))
        } else {
            let last = (square * (U[11] * ONE_PLUS_MU) - Vec4::splat(V[11] * ONE_PLUS_MU)) * cos_minus_one;
            let inner = nest3(term(6), term(7), term(8), nest3(term(9), term(10), last, Vec4::ONE));
            nest3(term(0), term(1), term(2), nest3(term(3), term(4), term(5), inner))
        }
    };
    let from = s * weight(s2);
    let to = t * weight(t2) * flip;
    std::array::from_fn(|i| a[i] * from + b[i] * to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn dots_per_lane() {
        let a = [1.0, 2.0, 3.0, 4.0].map(|f| Vec4::new(f, -f, 2.0 * f, 0.5));
        let b = [Vec4::ONE, Vec4::X, Vec4::new(0.0, 1.0, 1.0, 2.0), Vec4::W];
        assert_eq!(dots(&a, &b), Vec4::new(2.5, 2.0, 4.0, 0.5));
        // Products of tiny components stay normal numbers inside and are summed exactly.
        let tiny = [Vec4::new(3e-22, 0.0, 0.0, 1.0); 4];
        let dot = dots(&tiny, &tiny)[0];
        assert_eq!(dot, 1.0);
        let tiny = [Vec4::new(3e-22, 4e-21, 0.0, 0.0); 4];
        let want = (3e-22f64 * 3e-22 + 4e-21 * 4e-21) as f32;
        assert!((dots(&tiny, &tiny)[0] - want).abs() <= want * 1e-6);
    }

    #[test]
    fn four_wide_slerp_matches_the_scalar_one_lane_by_lane() {
        // Pairs from close to 150 degrees apart (some given with the opposite sign), each lane
        // with its own t: the lanes share a term count but not a result.
        let pairs: Vec<(Quat, Quat)> = (0..16)
            .map(|i| {
                let from = Quat::from_euler(glam::EulerRot::XYZ, 0.3 * i as f32, -0.2, 0.1 * i as f32);
                let step = Quat::from_axis_angle(glam::Vec3::new(1.0, 2.0, -0.5).normalize(), 0.01 + 0.17 * i as f32);
                let to = step * from;
                (from, if i % 3 == 0 { -to } else { to })
            })
            .collect();
        for group in pairs.chunks(4) {
            let t = Vec4::new(0.0, 0.3, 0.71, 1.0);
            let lanes =
                |pick: fn(&(Quat, Quat)) -> Quat| transpose(std::array::from_fn(|i| Vec4::from(pick(&group[i]))));
            let result = transpose(slerp_shortest4(&lanes(|p| p.0), &lanes(|p| p.1), t));
            for (lane, (from, to)) in group.iter().enumerate() {
                let expected = Vec4::from(super::super::quat::slerp_shortest(*from, *to, t[lane]));
                assert!(
                    (result[lane] - expected).abs().max_element() < 2e-6,
                    "{} vs {expected}",
                    result[lane]
                );
            }
        }
    }
}
