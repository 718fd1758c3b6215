//! A SIMD register of f32 lanes in groups of four, as the hot loops see it: a `Vec4` (one
//! group) on any processor, an `Avx8` (two groups) where there is AVX and FMA. Kernels written
//! against `Register` compile to either.

use std::ops::{Add, Mul, Sub};

use glam::{BVec4A, Vec4};

use super::transpose::transpose;

/// A register of f32 lanes in groups of four, one group per group of joints.
pub(crate) trait Register: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    type Mask: Copy;
    /// A register of this kind (`self` says which) with `v` in every group of four lanes.
    fn splat4(self, v: Vec4) -> Self;
    fn abs(self) -> Self;
    /// The magnitude of `self` with the sign of `sign`, per lane.
    fn copysign(self, sign: Self) -> Self;
    /// `1 / √x` per lane to about 23 bits (the estimate and one Newton step).
    fn inverse_sqrt(self) -> Self;
    /// The lanes equal to 0 or 1.
    fn is_end(self) -> Self::Mask;
    /// `mask` in every group of four lanes (of a register of this kind).
    fn mask4(self, mask: BVec4A) -> Self::Mask;
    /// `if_true` where `mask` is set, `self` elsewhere.
    fn unless(self, mask: Self::Mask, if_true: Self) -> Self;
    /// The lanes below zero.
    fn is_negative(self) -> Self::Mask;
    /// `self * a + b`, fused (one rounding) in an `Avx8`.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// `self * a - b`, fused in an `Avx8`.
    fn mul_sub(self, a: Self, b: Self) -> Self;
    /// `a * b + c` on `Vec4`s, fused where registers of this kind (`self` says which) fuse.
    fn mul_add_vec4(self, a: Vec4, b: Vec4, c: Vec4) -> Vec4;
    /// Each group of four lanes transposed: lane `j` of group `g` of output `i` is lane `i`
    /// of group `g` of input `j`.
    fn transpose4(registers: [Self; 4]) -> [Self; 4];
}

impl Register for Vec4 {
    type Mask = BVec4A;

    #[inline(always)]
    fn splat4(self, v: Vec4) -> Self {
        v
    }

    #[inline(always)]
    fn abs(self) -> Self {
        Vec4::abs(self)
    }

    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        Vec4::copysign(self, sign)
    }

    #[inline(always)]
    fn inverse_sqrt(self) -> Self {
        inverse_sqrt(self)
    }

    #[inline(always)]
    fn is_end(self) -> BVec4A {
        self.cmpeq(Vec4::ZERO) | self.cmpeq(Vec4::ONE)
    }

    #[inline(always)]
    fn mask4(self, mask: BVec4A) -> BVec4A {
        mask
    }

    #[inline(always)]
    fn unless(self, mask: BVec4A, if_true: Self) -> Self {
        Vec4::select(mask, if_true, self)
    }

    #[inline(always)]
    fn is_negative(self) -> BVec4A {
        self.cmplt(Vec4::ZERO)
    }

    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self * a + b
    }

    #[inline(always)]
    fn mul_sub(self, a: Self, b: Self) -> Self {
        self * a - b
    }

    #[inline(always)]
    fn mul_add_vec4(self, a: Vec4, b: Vec4, c: Vec4) -> Vec4 {
        a * b + c
    }

    #[inline(always)]
    fn transpose4(registers: [Self; 4]) -> [Self; 4] {
        transpose(registers)
    }
}

/// `1 / √x` per lane to about 23 bits: the hardware estimate (12 bits) and one Newton step,
/// three times faster than a square root and a division.
#[inline(always)]
fn inverse_sqrt(x: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `_mm_rsqrt_ps` only reads a register, and SSE is part of every x86-64 CPU
        // (the target's baseline), so it is always available.
        let estimate: Vec4 = unsafe { std::arch::x86_64::_mm_rsqrt_ps(x.into()) }.into();
        estimate * (Vec4::splat(1.5) - Vec4::splat(0.5) * x * estimate * estimate)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec4::ONE / x.sqrt()
    }
}
