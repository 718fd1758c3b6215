//! A fast approximation of shortest-arc slerp, four quaternion pairs at a time: normalised
//! lerp (nlerp) with a corrected parameter, for pose blending and additive layers.
//!
//! Plain nlerp moves at the wrong speed (up to 0.14 rad off slerp at 180°); slerp itself needs
//! trigonometry or, as `quat::slerp_shortest`, a long polynomial. Following Zeux Kapoulkine's
//! "Approximating slerp" (2015), nlerp is given `t' = t + t (t − ½)(t − 1) k(d, (t − ½)²)`,
//! where `d = |a · b|`; here `k` is our own fit, a polynomial of degrees 3, 3 and 2 in `d` for
//! the `(t − ½)⁰`, `(t − ½)²` and `(t − ½)⁴` terms (Kapoulkine's has no fourth-power term and
//! is off by up to 7.7e-4 rad). The bound, checked by the test below over random pairs at every
//! angle up to 180° and random `t`: the result is within [`MAX_ANGLE_ERROR`] radians of
//! rotation from the true slerp. `t = 0` gives `a` and `t = 1` gives `±b` exactly (the sign of
//! the shorter arc, as `slerp_shortest`).

use glam::Vec4;

use super::lanes::{QuatLanes, inverse_sqrt};

/// How far (rotation angle, radians) the result may be from the exact slerp.
pub const MAX_ANGLE_ERROR: f32 = 1e-4;

/// `k`'s coefficients in powers of `d`, for the `(t − ½)⁰`, `(t − ½)²` and `(t − ½)⁴` terms.
const K0: [f32; 4] = [0.859056, -1.132611, 0.351524, -0.072982];
const K2: [f32; 4] = [0.815693, -2.152928, 2.304294, -1.103618];
const K4: [f32; 3] = [1.189466, -4.050767, 3.377424];

/// Approximately `quat::slerp_shortest(a[lane], b[lane], t[lane])` per lane, normalised.
#[inline(always)]
pub(super) fn slerp_approx4(a: &QuatLanes, b: &QuatLanes, t: Vec4) -> QuatLanes {
    // Sums and polynomials as trees (Estrin's scheme): shorter chains of dependent steps than
    // Horner's (measured no slower, no faster on the benchmark's machine).
    let dot = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
    let d = dot.abs();
    let d2 = d * d;
    let poly3 = |c: [f32; 4]| (Vec4::splat(c[0]) + d * c[1]) + (Vec4::splat(c[2]) + d * c[3]) * d2;
    let half = t - Vec4::splat(0.5);
    let u = half * half;
    let k4 = (Vec4::splat(K4[0]) + d * K4[1]) + d2 * K4[2];
    let k = (poly3(K0) + u * poly3(K2)) + (u * u) * k4;
    // t(t − ½)(t − 1) is zero at both ends, so t' is exactly 0 and 1 there.
    let corrected = t + (t * half) * ((t - Vec4::ONE) * k);
    // The sign of the dot picks the shorter arc: it goes onto b's weight.
    let to = corrected.copysign(dot);
    let from = Vec4::ONE - corrected;
    let mixed: QuatLanes = std::array::from_fn(|i| a[i] * from + b[i] * to);
    let length_squared = (mixed[0] * mixed[0] + mixed[1] * mixed[1]) + (mixed[2] * mixed[2] + mixed[3] * mixed[3]);
    let inverse_length = inverse_sqrt(length_squared);
    // At the ends `mixed` is exactly `a` or `±b` (one weight is 0, the other ±1): keep it
    // unnormalised, so the inputs come back untouched.
    let ends = t.cmpeq(Vec4::ZERO) | t.cmpeq(Vec4::ONE);
    std::array::from_fn(|i| Vec4::select(ends, mixed[i], mixed[i] * inverse_length))
}

/// The angle (radians) of the rotation between `a` and `b`, for the tests' bounds: from the
/// vector part of `a⁻¹ b` in f64, which stays accurate near zero where glam's `angle_between`
/// (the arc cosine of an f32 dot) cannot resolve less than about 7e-4.
#[cfg(test)]
pub(crate) fn angle_apart(a: glam::Quat, b: glam::Quat) -> f64 {
    let between = a.as_dquat().conjugate() * b.as_dquat();
    2.0 * between.xyz().length().min(1.0).asin()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::lanes::transpose;
    use glam::{DQuat, Quat};

    /// A deterministic stream of numbers in [0, 1) (no random crate in the core).
    struct Numbers(u64);

    impl Numbers {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        fn quat(&mut self) -> DQuat {
            // Uniform on the sphere of unit quaternions (Shoemake's method).
            let (u1, u2, u3) = (
                self.next(),
                self.next() * std::f64::consts::TAU,
                self.next() * std::f64::consts::TAU,
            );
            let (r1, r2) = ((1.0 - u1).sqrt(), u1.sqrt());
            DQuat::from_xyzw(r1 * u2.sin(), r1 * u2.cos(), r2 * u3.sin(), r2 * u3.cos())
        }
    }

    /// Exact shortest-arc slerp in f64.
    fn slerp_f64(a: DQuat, b: DQuat, t: f64) -> DQuat {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        let theta = a.dot(b).clamp(-1.0, 1.0).acos();
        if theta < 1e-9 {
            return a;
        }
        (a * ((1.0 - t) * theta).sin() + b * (t * theta).sin()) * (1.0 / theta.sin())
    }

    fn run(a: [DQuat; 4], b: [DQuat; 4], t: [f64; 4]) -> [Quat; 4] {
        let lanes = |q: [DQuat; 4]| transpose(q.map(|q| Vec4::from(q.as_quat())));
        let t = Vec4::from_array(t.map(|t| t as f32));
        transpose(slerp_approx4(&lanes(a), &lanes(b), t)).map(Quat::from_vec4)
    }

    #[test]
    fn within_the_bound_of_slerp_at_every_angle() {
        let mut numbers = Numbers(18);
        let mut worst = 0.0f64;
        for pair in 0..50_000 {
            let a: [DQuat; 4] = std::array::from_fn(|_| numbers.quat());
            // Every fourth group is close to 180° apart (quaternions at right angles, given with
            // either sign), where the correction works hardest.
            let b: [DQuat; 4] = std::array::from_fn(|i| match pair % 4 {
                0 => -a[i] * DQuat::from_axis_angle(glam::DVec3::X, std::f64::consts::PI - numbers.next() * 0.05),
                _ => numbers.quat(),
            });
            let t: [f64; 4] = std::array::from_fn(|_| numbers.next());
            for (lane, got) in run(a, b, t).into_iter().enumerate() {
                let want = slerp_f64(a[lane], b[lane], t[lane]);
                assert!((got.length() - 1.0).abs() < 1e-6, "normalised");
                let angle = angle_apart(want.as_quat(), got);
                worst = worst.max(angle);
            }
        }
        assert!(worst < MAX_ANGLE_ERROR as f64, "off slerp by {worst} rad");
        assert!(
            worst > 1e-5,
            "a bound far above the error ({worst}) would not catch regressions"
        );
    }

    #[test]
    fn the_ends_are_exact_and_take_the_shorter_arc() {
        let mut numbers = Numbers(7);
        let a: [DQuat; 4] = std::array::from_fn(|_| numbers.quat());
        let b: [DQuat; 4] = std::array::from_fn(|i| if i % 2 == 0 { -a[i].conjugate() } else { numbers.quat() });
        let start = run(a, b, [0.0; 4]);
        let end = run(a, b, [1.0; 4]);
        for lane in 0..4 {
            assert_eq!(start[lane], a[lane].as_quat());
            let shorter = if a[lane].dot(b[lane]) < 0.0 { -b[lane] } else { b[lane] };
            assert_eq!(end[lane], shorter.as_quat());
        }
    }
}
