//! `N` SIMD registers that every operation acts on together, one step for all `N` before the
//! next step.
//!
//! For the blends' rotation weights: each group of four joints needs a long chain of dependent
//! steps (polynomial, normalisation, inverse square root: some sixty cycles of latency), and a
//! processor overlaps chains only as far as it can hold their waiting steps. Chains written one
//! after another fill that room with the first chain's steps; written side by side, step by
//! step, `N` chains are under way at once.
//!
//! A register ([`Register`]) is a `Vec4` (one group's four lanes) or, where the processor has AVX
//! and FMA, an `Avx8` holding two groups, which halves the instructions of a batch's chains. The
//! CPU skinning's blended vertices use the same registers (`skin::vertex_registers`).

use std::ops::{Add, Mul, Sub};

use super::register::Register;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wide<R, const N: usize>(pub [R; N]);

/// Loops rather than `array::map` and `from_fn`: those go through helpers the compiler may keep
/// out of line, and an `Avx8` operation left in a function not compiled for AVX is a call.
impl<R: Register, const N: usize> Wide<R, N> {
    #[inline(always)]
    pub fn splat(v: R) -> Self {
        Self([v; N])
    }

    #[inline(always)]
    pub fn map(self, f: impl Fn(R) -> R) -> Self {
        let mut out = self.0;
        for register in &mut out {
            *register = f(*register);
        }
        Self(out)
    }

    #[inline(always)]
    pub fn zip(self, other: Self, f: impl Fn(R, R) -> R) -> Self {
        let mut out = self.0;
        for (register, other) in out.iter_mut().zip(other.0) {
            *register = f(*register, other);
        }
        Self(out)
    }

    /// `R::is_end` of each register.
    #[inline(always)]
    pub fn ends(self) -> [R::Mask; N] {
        let mut out = [self.0[0].is_end(); N];
        for (mask, register) in out.iter_mut().zip(self.0) {
            *mask = register.is_end();
        }
        out
    }

    /// Per lane, `if_true` where `mask` is set and `self` elsewhere.
    #[inline(always)]
    pub fn unless(self, mask: [R::Mask; N], if_true: R) -> Self {
        let mut out = self.0;
        for (register, mask) in out.iter_mut().zip(mask) {
            *register = register.unless(mask, if_true);
        }
        Self(out)
    }
}

impl<R: Register, const N: usize> Add for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.zip(other, |a, b| a + b)
    }
}

impl<R: Register, const N: usize> Sub for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        self.zip(other, |a, b| a - b)
    }
}

impl<R: Register, const N: usize> Mul for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        self.zip(other, |a, b| a * b)
    }
}

/// Every register times the same one.
impl<R: Register, const N: usize> Mul<R> for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, other: R) -> Self {
        self.map(|a| a * other)
    }
}

/// Every register minus the same one.
impl<R: Register, const N: usize> Sub<R> for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, other: R) -> Self {
        self.map(|a| a - other)
    }
}

/// Every register plus the same one.
impl<R: Register, const N: usize> Add<R> for Wide<R, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, other: R) -> Self {
        self.map(|a| a + other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{BVec4A, Vec4};

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
        assert_eq!(Wide::<_, 3>::splat(Vec4::W).0[2], Vec4::W);
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
