//! AVX and FMA, where the processor has them: `Avx`, the proof that it does (made only by
//! `detect`), and `Avx8`, two groups of four lanes in one 256-bit register.
#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;
use std::ops::{Add, Mul, Sub};

use glam::{BVec4A, Vec4};

use super::register::Register;

/// Proof that the processor has AVX and FMA (which came together from 2013 on; the few
/// processors with AVX alone take the baseline code): made only by `detect`.
#[derive(Clone, Copy, Debug)]
pub struct Avx(());

impl Avx {
    pub fn detect() -> Option<Self> {
        let found = std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("fma");
        found.then_some(Self(()))
    }
}

/// Two groups of four lanes in one 256-bit register. One exists only where the processor
/// has AVX and FMA (`pair` takes the proof, every other one is made from one), which is
/// what makes the AVX and FMA instructions of its operations sound. Each lane gets the same
/// operations as a `Vec4` lane, in the same order, so the results are the same bits, except
/// that `mul_add` and `mul_sub` round once where a `Vec4` rounds twice.
#[derive(Clone, Copy)]
pub struct Avx8(__m256);

impl Avx8 {
    #[inline(always)]
    pub fn pair(_: Avx, low: Vec4, high: Vec4) -> Self {
        // SAFETY: `Avx` proves the processor has AVX.
        Self(unsafe { _mm256_set_m128(high.into(), low.into()) })
    }

    /// The proof that this register's existence carries.
    #[inline(always)]
    pub fn avx(self) -> Avx {
        Avx(())
    }

    /// The two groups: `[low, high]`.
    #[inline(always)]
    pub fn halves(self) -> [Vec4; 2] {
        // SAFETY: an `Avx8` exists only where the processor has AVX (see the type).
        unsafe {
            [
                _mm256_castps256_ps128(self.0).into(),
                _mm256_extractf128_ps::<1>(self.0).into(),
            ]
        }
    }

    /// Eight groups as four registers, two groups each in order (loops, not `from_fn`:
    /// see `Wide`).
    #[inline(always)]
    pub fn pairs(avx: Avx, groups: [Vec4; 8]) -> [Self; 4] {
        let mut out = [Self::pair(avx, groups[0], groups[1]); 4];
        for (i, register) in out.iter_mut().enumerate().skip(1) {
            *register = Self::pair(avx, groups[2 * i], groups[2 * i + 1]);
        }
        out
    }

    /// `pairs`'s way back.
    #[inline(always)]
    pub fn unpair(registers: [Self; 4]) -> [Vec4; 8] {
        let mut out = [Vec4::ZERO; 8];
        for (i, register) in registers.into_iter().enumerate() {
            [out[2 * i], out[2 * i + 1]] = register.halves();
        }
        out
    }
}

/// The AVX form of a `Vec4` operation: `$op` on the registers.
macro_rules! lanewise {
    ($trait:ident, $method:ident, $op:ident) => {
        impl $trait for Avx8 {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                // SAFETY: an `Avx8` exists only where the processor has AVX.
                Self(unsafe { $op(self.0, other.0) })
            }
        }
    };
}
lanewise!(Add, add, _mm256_add_ps);
lanewise!(Sub, sub, _mm256_sub_ps);
lanewise!(Mul, mul, _mm256_mul_ps);

impl Register for Avx8 {
    type Mask = Avx8;

    #[inline(always)]
    fn splat4(self, v: Vec4) -> Self {
        // SAFETY: `self` exists, so the processor has AVX.
        Self(unsafe { _mm256_set_m128(v.into(), v.into()) })
    }

    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: as in `splat4`. Clears the sign bit, as `Vec4::abs`.
        Self(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
    }

    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        // SAFETY: as in `splat4`. The sign bit of `sign`, the rest of `self`.
        Self(unsafe {
            let mask = _mm256_set1_ps(-0.0);
            _mm256_or_ps(_mm256_andnot_ps(mask, self.0), _mm256_and_ps(mask, sign.0))
        })
    }

    #[inline(always)]
    fn inverse_sqrt(self) -> Self {
        // SAFETY: as in `splat4`. The estimate and Newton step of `register::inverse_sqrt`.
        let estimate = Self(unsafe { _mm256_rsqrt_ps(self.0) });
        let (half, three_halves) = (self.splat4(Vec4::splat(0.5)), self.splat4(Vec4::splat(1.5)));
        estimate * (three_halves - half * self * estimate * estimate)
    }

    #[inline(always)]
    fn is_end(self) -> Avx8 {
        // SAFETY: as in `splat4`.
        Self(unsafe {
            let zero = _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, _mm256_setzero_ps());
            _mm256_or_ps(zero, _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, _mm256_set1_ps(1.0)))
        })
    }

    #[inline(always)]
    fn mask4(self, mask: BVec4A) -> Avx8 {
        let mask = __m128::from(mask);
        // SAFETY: as in `splat4`.
        Self(unsafe { _mm256_set_m128(mask, mask) })
    }

    #[inline(always)]
    fn unless(self, mask: Avx8, if_true: Self) -> Self {
        // SAFETY: as in `splat4`.
        Self(unsafe { _mm256_blendv_ps(self.0, if_true.0, mask.0) })
    }

    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        // SAFETY: as in `splat4` (the processor has FMA too).
        Self(unsafe { _mm256_fmadd_ps(self.0, a.0, b.0) })
    }

    #[inline(always)]
    fn mul_sub(self, a: Self, b: Self) -> Self {
        // SAFETY: as in `mul_add`.
        Self(unsafe { _mm256_fmsub_ps(self.0, a.0, b.0) })
    }

    #[inline(always)]
    fn mul_add_vec4(self, a: Vec4, b: Vec4, c: Vec4) -> Vec4 {
        // SAFETY: as in `mul_add`.
        unsafe { _mm_fmadd_ps(a.into(), b.into(), c.into()) }.into()
    }

    #[inline(always)]
    fn is_negative(self) -> Avx8 {
        // SAFETY: as in `splat4`.
        Self(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, _mm256_setzero_ps()) })
    }

    #[inline(always)]
    fn transpose4([a, b, c, d]: [Self; 4]) -> [Self; 4] {
        // SAFETY: as in `splat4`. `transpose::transpose`'s steps; each acts within each half.
        unsafe {
            let (ab_lo, ab_hi) = (_mm256_unpacklo_ps(a.0, b.0), _mm256_unpackhi_ps(a.0, b.0));
            let (cd_lo, cd_hi) = (_mm256_unpacklo_ps(c.0, d.0), _mm256_unpackhi_ps(c.0, d.0));
            [
                Self(_mm256_shuffle_ps::<0x44>(ab_lo, cd_lo)),
                Self(_mm256_shuffle_ps::<0xee>(ab_lo, cd_lo)),
                Self(_mm256_shuffle_ps::<0x44>(ab_hi, cd_hi)),
                Self(_mm256_shuffle_ps::<0xee>(ab_hi, cd_hi)),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Register;

    /// Every `Avx8` operation gives, in each half, the bits the `Vec4` one does (the fused
    /// ones within their one rounding).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_registers_match_vec4_lane_for_lane() {
        let Some(avx) = Avx::detect() else {
            eprintln!("skipped: this processor has no AVX and FMA");
            return;
        };
        let (a, b) = (Vec4::new(-0.5, 0.0, 1.0, 3.0), Vec4::new(2.0, -1.0, 1e-20, -0.0));
        let (x, y) = (Avx8::pair(avx, a, b), Avx8::pair(avx, b, a));
        let same = |wide: Avx8, narrow: [Vec4; 2], what: &str| {
            let bits = |v: [Vec4; 2]| v.map(|v| v.to_array().map(f32::to_bits));
            assert_eq!(bits(wide.halves()), bits(narrow), "{what}");
        };
        same(x + y, [a + b, b + a], "add");
        same(x - y, [a - b, b - a], "sub");
        same(x * y, [a * b, b * a], "mul");
        same(x.splat4(a), [a, a], "splat4");
        same(x.abs(), [a.abs(), b.abs()], "abs");
        same(x.copysign(y), [a.copysign(b), b.copysign(a)], "copysign");
        let positive = Avx8::pair(avx, a.abs() + Vec4::ONE, b.abs() + Vec4::ONE);
        let narrow = [
            Register::inverse_sqrt(a.abs() + Vec4::ONE),
            Register::inverse_sqrt(b.abs() + Vec4::ONE),
        ];
        same(positive.inverse_sqrt(), narrow, "inverse_sqrt");
        let ends = [a.is_end(), b.is_end()];
        same(
            x.unless(x.is_end(), y),
            [a.unless(ends[0], b), b.unless(ends[1], a)],
            "is_end, unless",
        );
        let mask = BVec4A::new(true, false, true, false);
        same(
            x.unless(x.mask4(mask), y),
            [a.unless(mask, b), b.unless(mask, a)],
            "mask4",
        );
        same(
            x.unless(x.is_negative(), y),
            [a.unless(a.is_negative(), b), b.unless(b.is_negative(), a)],
            "is_negative",
        );
        let (c, d) = (Vec4::new(5.0, 6.0, 7.0, 8.0), Vec4::new(-1.0, -2.0, -3.0, -4.0));
        let transposed = Avx8::transpose4([x, y, Avx8::pair(avx, c, d), Avx8::pair(avx, d, c)]);
        let narrow = [Vec4::transpose4([a, b, c, d]), Vec4::transpose4([b, a, d, c])];
        for (i, register) in transposed.into_iter().enumerate() {
            same(register, [narrow[0][i], narrow[1][i]], "transpose4");
        }
        // Fused: one rounding, so within an ulp of the two-step `Vec4` results here.
        let close = |wide: Avx8, narrow: [Vec4; 2], what: &str| {
            let [low, high] = wide.halves();
            assert!(
                low.abs_diff_eq(narrow[0], 1e-6) && high.abs_diff_eq(narrow[1], 1e-6),
                "{what}"
            );
        };
        let z = Avx8::pair(avx, c, d);
        let narrow = [Register::mul_add(a, b, c), Register::mul_add(b, a, d)];
        close(x.mul_add(y, z), narrow, "mul_add");
        let narrow = [Register::mul_sub(a, b, c), Register::mul_sub(b, a, d)];
        close(x.mul_sub(y, z), narrow, "mul_sub");
        let fused = x.mul_add_vec4(a, b, c);
        assert!(fused.abs_diff_eq(a * b + c, 1e-6), "mul_add_vec4");
        let groups: [Vec4; 8] = std::array::from_fn(|i| Vec4::splat(i as f32));
        assert_eq!(Avx8::pairs(avx, groups)[1].halves(), [groups[2], groups[3]], "pairs");
        assert_eq!(Avx8::unpair(Avx8::pairs(avx, groups)), groups, "unpair");
    }
}
