//! `N` SIMD vectors that every operation acts on together, one step for all `N` before the
//! next step.
//!
//! For the blends' rotation weights: each group of four joints needs a long chain of dependent
//! steps (polynomial, normalisation, inverse square root: some sixty cycles of latency), and a
//! processor overlaps chains only as far as it can hold their waiting steps. Chains written one
//! after another fill that room with the first chain's steps; written side by side, step by
//! step, `N` chains are under way at once (`N` = 8: Xbot `blend_into` 3.76 -> 3.59 ns/joint in
//! interleaved runs of a loop of it alone; see the README for the ozz harness's rounds).

use std::array::from_fn;
use std::ops::{Add, Mul, Sub};

use glam::{BVec4A, Vec4};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Wide<const N: usize>(pub [Vec4; N]);

impl<const N: usize> Wide<N> {
    #[inline(always)]
    pub fn splat(v: Vec4) -> Self {
        Self([v; N])
    }

    #[inline(always)]
    pub fn map(self, f: impl Fn(Vec4) -> Vec4) -> Self {
        Self(self.0.map(f))
    }

    #[inline(always)]
    pub fn zip(self, other: Self, f: impl Fn(Vec4, Vec4) -> Vec4) -> Self {
        Self(from_fn(|i| f(self.0[i], other.0[i])))
    }

    /// Per lane, `if_true` where `mask` is set and `self` elsewhere.
    #[inline(always)]
    pub fn unless(self, mask: [BVec4A; N], if_true: Vec4) -> Self {
        Self(from_fn(|i| Vec4::select(mask[i], if_true, self.0[i])))
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.zip(other, |a, b| a + b)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        self.zip(other, |a, b| a - b)
    }
}

impl<const N: usize> Mul for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        self.zip(other, |a, b| a * b)
    }
}

/// Every vector times the same one.
impl<const N: usize> Mul<Vec4> for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, other: Vec4) -> Self {
        self.map(|a| a * other)
    }
}

/// Every vector minus the same one.
impl<const N: usize> Sub<Vec4> for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, other: Vec4) -> Self {
        self.map(|a| a - other)
    }
}

/// Every vector plus the same one.
impl<const N: usize> Add<Vec4> for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, other: Vec4) -> Self {
        self.map(|a| a + other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_act_on_each_vector() {
        let a = Wide([Vec4::ONE, Vec4::new(1.0, 2.0, 3.0, 4.0)]);
        let b = Wide([Vec4::splat(2.0), Vec4::splat(-1.0)]);
        assert_eq!((a + b).0[1], Vec4::new(0.0, 1.0, 2.0, 3.0));
        assert_eq!((a - b).0[0], Vec4::splat(-1.0));
        assert_eq!((a * b).0[1], Vec4::new(-1.0, -2.0, -3.0, -4.0));
        assert_eq!((a * Vec4::splat(3.0)).0[1], Vec4::new(3.0, 6.0, 9.0, 12.0));
        assert_eq!((a + Vec4::X).0[0], Vec4::new(2.0, 1.0, 1.0, 1.0));
        assert_eq!((a - Vec4::X).0[0], Vec4::new(0.0, 1.0, 1.0, 1.0));
        assert_eq!(Wide::<3>::splat(Vec4::W).0[2], Vec4::W);
        let mask = [
            BVec4A::new(true, false, false, false),
            BVec4A::new(false, false, false, true),
        ];
        assert_eq!(
            a.unless(mask, Vec4::ZERO).0,
            [Vec4::new(0.0, 1.0, 1.0, 1.0), Vec4::new(1.0, 2.0, 3.0, 0.0)]
        );
    }
}
