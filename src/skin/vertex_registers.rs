//! Vertices side by side in SIMD registers, one register per coordinate (lane `i` belongs to
//! vertex `i`), so that one instruction does the same product for every vertex of a register:
//! four in a `Vec4`, eight in an `Avx8` where the processor has AVX and FMA (whose products
//! and sums fuse, one rounding each). The blended-vertex kernels (`split_linear`) compute
//! positions and cofactor normals this way.

use glam::{Vec3, Vec4};

use super::palette::AffineRows;
use crate::simd::Register;

/// A register that holds `Q` groups of four vertices' lanes (`Q` = 1 for a `Vec4`, 2 for an
/// `Avx8`), built from and split into one `Vec4` per group.
pub trait VertexRegister<const Q: usize>: Register {
    /// A register of this kind (`self` says which) holding `group(0)`, ..., `group(Q - 1)`
    /// in order. (A function of the index, not an array: `array::map` can be left out of line.)
    fn with_groups(self, group: impl Fn(usize) -> Vec4) -> Self;
    fn groups(self) -> [Vec4; Q];

    /// Matrix `k` of each group of `matrices`, row `r` in register `r`.
    fn matrix_rows(self, matrices: &impl StepMatrices, k: usize) -> [Self; 3];
}

/// The 3×4 matrices of a step's vertices, as rows: `rows(g, k)` for vertex `k` of group `g`.
/// (A trait, not a closure: the compiler can keep a closure out of line, and an `Avx8`
/// operation in a function not compiled for AVX is a call.)
pub trait StepMatrices {
    fn rows(&self, g: usize, k: usize) -> AffineRows;
}

impl VertexRegister<1> for Vec4 {
    #[inline(always)]
    fn with_groups(self, group: impl Fn(usize) -> Vec4) -> Self {
        group(0)
    }

    #[inline(always)]
    fn groups(self) -> [Vec4; 1] {
        [self]
    }

    #[inline(always)]
    fn matrix_rows(self, matrices: &impl StepMatrices, k: usize) -> [Self; 3] {
        matrices.rows(0, k)
    }
}

#[cfg(target_arch = "x86_64")]
impl VertexRegister<2> for crate::simd::Avx8 {
    #[inline(always)]
    fn with_groups(self, group: impl Fn(usize) -> Vec4) -> Self {
        Self::pair(self.avx(), group(0), group(1))
    }

    #[inline(always)]
    fn groups(self) -> [Vec4; 2] {
        self.halves()
    }

    #[inline(always)]
    fn matrix_rows(self, matrices: &impl StepMatrices, k: usize) -> [Self; 3] {
        let ([a0, a1, a2], [b0, b1, b2]) = (matrices.rows(0, k), matrices.rows(1, k));
        let avx = self.avx();
        [
            Self::pair(avx, a0, b0),
            Self::pair(avx, a1, b1),
            Self::pair(avx, a2, b2),
        ]
    }
}

/// `4 × Q` vertices' 3-vectors: one register per coordinate.
#[derive(Clone, Copy)]
pub struct Vec3Registers<R> {
    x: R,
    y: R,
    z: R,
}

impl<R: Register> Vec3Registers<R> {
    /// `values[vertices[g][k]]` into lane `k` of group `g`.
    ///
    /// # Safety
    ///
    /// Every vertex is below `values.len()`.
    #[inline(always)]
    pub unsafe fn gather<const Q: usize>(kind: R, values: &[Vec3], vertices: &[[u16; 4]; Q]) -> Self
    where
        R: VertexRegister<Q>,
    {
        // SAFETY: the caller's promise.
        let value = |vertex: u16| Vec4::from((unsafe { *values.get_unchecked(usize::from(vertex)) }, 0.0));
        let vertex = |k: usize| kind.with_groups(|g| value(vertices[g][k]));
        let [x, y, z, _] = R::transpose4([vertex(0), vertex(1), vertex(2), vertex(3)]);
        Self { x, y, z }
    }

    /// `gather`'s way back: lane `k` of group `g` into `values[vertices[g][k]]`.
    ///
    /// # Safety
    ///
    /// Every vertex is below `values.len()`.
    #[inline(always)]
    pub unsafe fn scatter<const Q: usize>(self, values: &mut [Vec3], vertices: &[[u16; 4]; Q])
    where
        R: VertexRegister<Q>,
    {
        let zero = self.x.splat4(Vec4::ZERO);
        let columns = R::transpose4([self.x, self.y, self.z, zero]);
        for (k, column) in columns.into_iter().enumerate() {
            for (group, value) in vertices.iter().zip(column.groups()) {
                // SAFETY: the caller's promise.
                unsafe { *values.get_unchecked_mut(usize::from(group[k])) = value.truncate() };
            }
        }
    }

    #[inline(always)]
    fn cross(self, other: Self) -> Self {
        Self {
            x: self.y.mul_sub(other.z, self.z * other.y),
            y: self.z.mul_sub(other.x, self.x * other.z),
            z: self.x.mul_sub(other.y, self.y * other.x),
        }
    }

    #[inline(always)]
    fn dot(self, other: Self) -> R {
        self.x.mul_add(other.x, self.y.mul_add(other.y, self.z * other.z))
    }

    /// `self · lanes + plus`.
    #[inline(always)]
    fn times_plus(self, lanes: R, plus: Self) -> Self {
        Self {
            x: self.x.mul_add(lanes, plus.x),
            y: self.y.mul_add(lanes, plus.y),
            z: self.z.mul_add(lanes, plus.z),
        }
    }

    /// `self · lanes - minus`.
    #[inline(always)]
    fn times_minus(self, lanes: R, minus: Self) -> Self {
        Self {
            x: self.x.mul_sub(lanes, minus.x),
            y: self.y.mul_sub(lanes, minus.y),
            z: self.z.mul_sub(lanes, minus.z),
        }
    }

    #[inline(always)]
    fn times(self, lanes: R) -> Self {
        Self {
            x: self.x * lanes,
            y: self.y * lanes,
            z: self.z * lanes,
        }
    }
}

/// `4 × Q` vertices' 3×4 matrices as their columns in `Vec3Registers`.
pub struct AffineRegisters<R> {
    columns: [Vec3Registers<R>; 3],
    translation: Vec3Registers<R>,
}

impl<R: Register> AffineRegisters<R> {
    /// Vertex `k` of group `g` gets `matrices.rows(g, k)`.
    #[inline(always)]
    pub fn from_rows<const Q: usize>(kind: R, matrices: &impl StepMatrices) -> Self
    where
        R: VertexRegister<Q>,
    {
        let [m0, m1, m2, m3] = [
            kind.matrix_rows(matrices, 0),
            kind.matrix_rows(matrices, 1),
            kind.matrix_rows(matrices, 2),
            kind.matrix_rows(matrices, 3),
        ];
        // Row r of the matrices, transposed: element (r, c) of each, one register per c.
        let row = |r: usize| R::transpose4([m0[r], m1[r], m2[r], m3[r]]);
        let [x, y, z] = [row(0), row(1), row(2)];
        let column = |c: usize| Vec3Registers {
            x: x[c],
            y: y[c],
            z: z[c],
        };
        Self {
            columns: [column(0), column(1), column(2)],
            translation: column(3),
        }
    }

    #[inline(always)]
    pub fn transform_point(&self, p: Vec3Registers<R>) -> Vec3Registers<R> {
        let [c0, c1, c2] = self.columns;
        c0.times_plus(p.x, c1.times_plus(p.y, c2.times_plus(p.z, self.translation)))
    }

    /// The cofactor normal times `n` (see `split_linear::normal_matrix_times`).
    #[inline(always)]
    pub fn normal_times(&self, n: Vec3Registers<R>) -> Vec3Registers<R> {
        let [c0, c1, c2] = self.columns;
        let c2_c0 = c2.cross(c0);
        let normal = c2_c0.times_plus(n.y, c1.cross(c2.times_minus(n.x, c0.times(n.z))));
        let one = n.x.splat4(Vec4::ONE);
        let sign = one.unless(c1.dot(c2_c0).is_negative(), n.x.splat4(Vec4::NEG_ONE));
        normal.times(sign)
    }
}
