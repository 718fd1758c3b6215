//! Moving between four values per `Vec4` (one value a register) and one component of four
//! values per `Vec4` (one lane a value). SSE2 on x86-64, portable elsewhere.

use glam::{Vec4, Vec4Swizzles};

/// Rows become columns: lane `j` of output `i` is lane `i` of input `j`.
#[inline(always)]
pub fn transpose([a, b, c, d]: [Vec4; 4]) -> [Vec4; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        // SAFETY: these SSE intrinsics only shuffle registers, and SSE is part of every x86-64
        // CPU (the target's baseline), so they are always available.
        unsafe {
            let (ab_lo, ab_hi) = (_mm_unpacklo_ps(a.into(), b.into()), _mm_unpackhi_ps(a.into(), b.into()));
            let (cd_lo, cd_hi) = (_mm_unpacklo_ps(c.into(), d.into()), _mm_unpackhi_ps(c.into(), d.into()));
            [
                _mm_movelh_ps(ab_lo, cd_lo).into(),
                _mm_movehl_ps(cd_lo, ab_lo).into(),
                _mm_movelh_ps(ab_hi, cd_hi).into(),
                _mm_movehl_ps(cd_hi, ab_hi).into(),
            ]
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        transpose_portable([a, b, c, d])
    }
}

/// `transpose` without intrinsics (the fallback, and the reference its test checks against).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn transpose_portable(rows: [Vec4; 4]) -> [Vec4; 4] {
    let [a, b, c, d] = rows.map(|row| row.to_array());
    std::array::from_fn(|i| Vec4::new(a[i], b[i], c[i], d[i]))
}

/// Each lane of `v` broadcast to a whole vector: `[x x x x]`, `[y y y y]`, ...
#[inline(always)]
pub fn splat_lanes(v: Vec4) -> [Vec4; 4] {
    [v.xxxx(), v.yyyy(), v.zzzz(), v.wwww()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let rows = [0.0, 4.0, 8.0, 12.0].map(|first| Vec4::new(first, first + 1.0, first + 2.0, first + 3.0));
        let columns = transpose(rows);
        assert_eq!(columns[1], Vec4::new(1.0, 5.0, 9.0, 13.0));
        assert_eq!(columns, transpose_portable(rows));
        assert_eq!(transpose(columns), rows);
    }

    #[test]
    fn splat_lanes_broadcasts_each_lane() {
        assert_eq!(splat_lanes(Vec4::new(1.0, 2.0, 3.0, 4.0))[2], Vec4::splat(3.0));
    }
}
