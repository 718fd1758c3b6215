//! Local-to-model: each joint's model matrix is its parent's model matrix times its local
//! TRS matrix, one forward pass over parents-first joints.
//!
//! Four joints at a time, their rotations and scales are turned into the nine entries of their
//! scaled rotation matrices in four-wide lanes (the same formula as glam's
//! `Mat4::from_scale_rotation_translation`); the parent product then broadcasts each entry
//! straight from its lane and skips the local matrix's constant bottom row (it is affine).

use glam::{Mat4, Vec4, Vec4Swizzles};

use super::lanes::transpose;
use super::transform::Transform;

/// Writes `out[j] = out[parent(j)] · local[j]` (just `local[j]` for roots). `parents[j] < j`.
pub(super) fn local_to_model(local: &[Transform], parents: &[Option<u32>], out: &mut [Mat4]) {
    assert!(local.len() == parents.len() && local.len() == out.len());
    let mut groups = local.chunks_exact(4);
    let mut first = 0;
    for group in &mut groups {
        let group: &[Transform; 4] = group.try_into().expect("chunks of four");
        write_group(group, 4, &parents[first..first + 4], first, out);
        first += 4;
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        let mut padded = [Transform::IDENTITY; 4];
        padded[..rest.len()].copy_from_slice(rest);
        write_group(&padded, rest.len(), &parents[first..], first, out);
    }
}

/// Model matrices of joints `first..first + count` (the first `count` of `group`).
#[inline(always)]
fn write_group(group: &[Transform; 4], count: usize, parents: &[Option<u32>], first: usize, out: &mut [Mat4]) {
    let columns = scaled_rotations(group);
    for lane in 0..count {
        let [x, y, z]: [[Vec4; 3]; 3] = columns.map(|column| column.map(|entries| splat_lane(entries, lane)));
        let translation = group[lane].translation;
        out[first + lane] = match parents[lane] {
            None => Mat4::from_cols(
                x[0] * Vec4::X + x[1] * Vec4::Y + x[2] * Vec4::Z,
                y[0] * Vec4::X + y[1] * Vec4::Y + y[2] * Vec4::Z,
                z[0] * Vec4::X + z[1] * Vec4::Y + z[2] * Vec4::Z,
                translation.extend(1.0),
            ),
            Some(parent) => {
                let p = out[parent as usize];
                Mat4::from_cols(
                    p.x_axis * x[0] + p.y_axis * x[1] + p.z_axis * x[2],
                    p.x_axis * y[0] + p.y_axis * y[1] + p.z_axis * y[2],
                    p.x_axis * z[0] + p.y_axis * z[1] + p.z_axis * z[2],
                    p.x_axis * translation.x + p.y_axis * translation.y + p.z_axis * translation.z + p.w_axis,
                )
            }
        };
    }
}

/// Lane `lane` of `v` in every lane (`lane` is a constant once the caller's loop unrolls).
#[inline(always)]
fn splat_lane(v: Vec4, lane: usize) -> Vec4 {
    match lane {
        0 => v.xxxx(),
        1 => v.yyyy(),
        2 => v.zzzz(),
        _ => v.wwww(),
    }
}

/// The columns of `rotation · scale` for four joints: `[column][row]`, one joint per lane.
#[inline(always)]
fn scaled_rotations(group: &[Transform; 4]) -> [[Vec4; 3]; 3] {
    let [x, y, z, w] = transpose(group.map(|joint| Vec4::from(joint.rotation)));
    let [sx, sy, sz, _] = transpose(group.map(|joint| joint.scale.extend(0.0)));
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    [
        [(Vec4::ONE - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx],
        [(xy - wz) * sy, (Vec4::ONE - (xx + zz)) * sy, (yz + wx) * sy],
        [(xz + wy) * sz, (yz - wx) * sz, (Vec4::ONE - (xx + yy)) * sz],
    ]
}
