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
//!
//! The functions give the two weights of the mix, not the mix: the callers mix in whichever
//! layout their data has (four quaternions side by side, not transposed), and the
//! normalisation is folded into the weights from the dot alone, which holds for unit inputs.

use glam::{BVec4A, Vec4};

use crate::simd::{Register, Wide, splat_lanes};

/// How far (rotation angle, radians) the result may be from the exact slerp.
#[cfg(test)]
pub const MAX_ANGLE_ERROR: f32 = 1e-4;

/// `k`'s coefficients in powers of `d`, for the `(t − ½)⁰`, `(t − ½)²` and `(t − ½)⁴` terms.
const K0: [f32; 4] = [0.859056, -1.132611, 0.351524, -0.072982];
const K2: [f32; 4] = [0.815693, -2.152928, 2.304294, -1.103618];
const K4: [f32; 3] = [1.189466, -4.050767, 3.377424];

/// The rotation weights `(from, to)` of a mix, given the rotations' dots and the mix's `t` per
/// lane, for `N` registers of groups of four pairs at once (see `simd::Wide`).
pub(super) trait ArcWeights {
    fn weights<R: Register, const N: usize>(&self, dot: Wide<R, N>, t: Wide<R, N>) -> (Wide<R, N>, Wide<R, N>);
}

/// Each lane with its own `t`: `nlerp_weights`.
pub(super) struct PerLaneT;

impl ArcWeights for PerLaneT {
    #[inline(always)]
    fn weights<R: Register, const N: usize>(&self, dot: Wide<R, N>, t: Wide<R, N>) -> (Wide<R, N>, Wide<R, N>) {
        nlerp_weights(dot, t)
    }
}

/// The weights `(from, to)` per lane that make `a · from + b · to` approximately
/// `quat::slerp_shortest(a, b, t)`, normalised, for pairs of unit quaternions given their
/// dot products `dot` (one pair per lane) and each lane's `t`. The caller does the mixing, so
/// that it can keep its quaternions in whichever layout is cheapest.
#[inline(always)]
fn nlerp_weights<R: Register, const N: usize>(dot: Wide<R, N>, t: Wide<R, N>) -> (Wide<R, N>, Wide<R, N>) {
    // Functions rather than closures, which stay out of line where an `Avx8` must not (`simd::wide`).
    let like = dot.0[0];
    // Sums and polynomials as trees (Estrin's scheme): shorter chains of dependent steps than
    // Horner's.
    let d = dot.map(R::abs);
    let d2 = d * d;
    let half = t - splat(like, 0.5);
    let u = half * half;
    let k4 = (d * splat(like, K4[1]) + splat(like, K4[0])) + d2 * splat(like, K4[2]);
    let k = (cubic(K0, d, d2) + u * cubic(K2, d, d2)) + (u * u) * k4;
    let ends = t.ends();
    finish(t, (t * half) * (t - splat(like, 1.0)), k, dot, ends)
}

/// A register of `like`'s kind with every lane `x`.
#[inline(always)]
fn splat<R: Register>(like: R, x: f32) -> R {
    like.splat4(Vec4::splat(x))
}

/// `c[0] + c[1] d + c[2] d² + c[3] d³`, given `d` and `d²`.
#[inline(always)]
fn cubic<R: Register, const N: usize>(c: [f32; 4], d: Wide<R, N>, d2: Wide<R, N>) -> Wide<R, N> {
    let like = d.0[0];
    (d * splat(like, c[1]) + splat(like, c[0])) + (d * splat(like, c[3]) + splat(like, c[2])) * d2
}

/// `nlerp_weights` with one `t` for every lane (blends without a mask): the part of `k` that
/// depends on `t` alone is summed once, leaving a cubic in `d` per call.
#[derive(Clone, Copy, Debug)]
pub(super) struct UniformT {
    t: Vec4,
    /// `t (t − ½)(t − 1)`.
    bend: Vec4,
    /// `k`'s coefficients in powers of `d`, at this `t`.
    k: [Vec4; 4],
    ends: BVec4A,
}

impl UniformT {
    pub fn new(t: f32) -> Self {
        let half = t - 0.5;
        let u = half * half;
        // The four coefficients as the lanes of one vector (each call's setup: a few vector
        // steps, not a scalar loop), in the same order of steps, so the same bits.
        let [k4, k4d, k4d2] = K4;
        let k = (Vec4::from(K0) + u * Vec4::from(K2)) + (Vec4::new(k4, k4d, k4d2, 0.0) * u) * u;
        Self {
            t: Vec4::splat(t),
            bend: Vec4::splat(t * half * (t - 1.0)),
            k: splat_lanes(k),
            ends: BVec4A::splat(t == 0.0 || t == 1.0),
        }
    }
}

/// `nlerp_weights(dot, t)` for this `t` (the `t` given is not read).
impl ArcWeights for UniformT {
    #[inline(always)]
    fn weights<R: Register, const N: usize>(&self, dot: Wide<R, N>, _: Wide<R, N>) -> (Wide<R, N>, Wide<R, N>) {
        let like = dot.0[0];
        let d = dot.map(R::abs);
        let [c0, c1, c2, c3] = self.k;
        let [c0, c1, c2, c3] = [like.splat4(c0), like.splat4(c1), like.splat4(c2), like.splat4(c3)];
        let k = (d * c1 + c0) + (d * c3 + c2) * (d * d);
        let (t, bend) = (like.splat4(self.t), like.splat4(self.bend));
        finish(Wide::splat(t), Wide::splat(bend), k, dot, [like.mask4(self.ends); N])
    }
}

/// The weights from `t' = t + bend · k`: `b`'s weight takes the sign of the dot (the shorter
/// arc), and both are divided by the length of the mix, which for unit quaternions is
/// `√(from² + to² + 2 · from · to · dot)`. At the ends (`ends`) they are `(1, 0)` or `(0, ±1)`
/// exactly, so the inputs come back untouched.
#[inline(always)]
fn finish<R: Register, const N: usize>(
    t: Wide<R, N>,
    bend: Wide<R, N>,
    k: Wide<R, N>,
    dot: Wide<R, N>,
    ends: [R::Mask; N],
) -> (Wide<R, N>, Wide<R, N>) {
    let one = dot.0[0].splat4(Vec4::ONE);
    // bend is zero at both ends, so t' is exactly 0 and 1 there.
    let corrected = t + bend * k;
    let to = corrected.zip(dot, R::copysign);
    let from = Wide::splat(one) - corrected;
    let length_squared = (from * from + to * to) + (from + from) * (to * dot);
    let scale = length_squared.map(R::inverse_sqrt).unless(ends, one);
    (from * scale, to * scale)
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
    use crate::anim::fixtures::Numbers;
    use crate::anim::lanes::dots;
    use glam::{DQuat, Quat};

    /// Exact shortest-arc slerp in f64.
    fn slerp_f64(a: DQuat, b: DQuat, t: f64) -> DQuat {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        let theta = a.dot(b).clamp(-1.0, 1.0).acos();
        if theta < 1e-9 {
            return a;
        }
        (a * ((1.0 - t) * theta).sin() + b * (t * theta).sin()) * (1.0 / theta.sin())
    }

    /// Mixes four pairs by the weights that `weights` gives for their dots.
    fn mix(a: [DQuat; 4], b: [DQuat; 4], arc: impl ArcWeights, t: Vec4) -> [Quat; 4] {
        let (a, b) = (a.map(|q| Vec4::from(q.as_quat())), b.map(|q| Vec4::from(q.as_quat())));
        let (Wide([from]), Wide([to])) = arc.weights(Wide([dots(&a, &b)]), Wide([t]));
        let (from, to) = (splat_lanes(from), splat_lanes(to));
        std::array::from_fn(|i| Quat::from_vec4(a[i] * from[i] + b[i] * to[i]))
    }

    /// Per-lane `t`s, and the first lane's `t` for all four lanes through `UniformT`.
    fn run(a: [DQuat; 4], b: [DQuat; 4], t: [f64; 4]) -> ([Quat; 4], [Quat; 4]) {
        let per_lane = Vec4::from_array(t.map(|t| t as f32));
        let uniform = UniformT::new(t[0] as f32);
        (mix(a, b, PerLaneT, per_lane), mix(a, b, uniform, Vec4::NAN))
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
            let (per_lane, uniform) = run(a, b, t);
            for lane in 0..4 {
                let checks = [(per_lane[lane], t[lane]), (uniform[lane], t[0])];
                for (got, t) in checks {
                    let want = slerp_f64(a[lane], b[lane], t);
                    assert!((got.length() - 1.0).abs() < 1e-6, "normalised");
                    worst = worst.max(angle_apart(want.as_quat(), got));
                }
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
        // Each end in every lane, per lane and for all lanes at once.
        let (start, start_uniform) = run(a, b, [0.0, 1.0, 0.0, 1.0]);
        let (end, end_uniform) = run(a, b, [1.0, 0.0, 1.0, 0.0]);
        for lane in 0..4 {
            let shorter = if a[lane].dot(b[lane]) < 0.0 { -b[lane] } else { b[lane] };
            let (zero, one) = if lane % 2 == 0 {
                (start[lane], end[lane])
            } else {
                (end[lane], start[lane])
            };
            assert_eq!(zero, a[lane].as_quat());
            assert_eq!(one, shorter.as_quat());
            assert_eq!(start_uniform[lane], a[lane].as_quat());
            assert_eq!(end_uniform[lane], shorter.as_quat());
        }
    }
}
