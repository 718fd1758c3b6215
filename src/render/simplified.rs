//! Fast quality's simplified copies of the meshes. A software rasteriser (llvmpipe) sets up
//! every triangle on one thread whatever its size on screen, about a microsecond each per pass:
//! Xbot's 49k triangles cost it ~70 ms a frame in the shadow and lit passes, against ~30 ms for
//! everything else. At Fast quality (half resolution) a copy simplified by meshoptimizer
//! draws in each mesh's place, off by at most a quarter of a percent of the *whole model's*
//! extent, under a pixel of the half-resolution view for a model filling it. So a model made of
//! many small parts (Khronos's BrainStem: 59 meshes of about a thousand triangles) sheds as
//! much detail as one dense mesh does. The copy reuses the mesh's vertices (only the index list
//! is new), so skinning, morphing and the vertex views work on it unchanged.

use std::collections::HashMap;

use glam::{Mat4, Vec3};

/// Meshes with fewer triangles cost little even on a software rasteriser; they stay whole.
pub const FEWEST_TRIANGLES: usize = 256;
/// The largest deviation allowed, as a fraction of the whole model's extent.
pub const SIMPLIFY_ERROR: f32 = 0.0025;
/// The largest deviation allowed as a fraction of a part's own extent, however small it is in
/// the model, so that a small part keeps its shape.
const MOST_PART_ERROR: f32 = 0.05;
/// A copy that keeps more than this share of the triangles is not worth a second index list.
const WORTHWHILE_SHARE: f32 = 0.75;

/// A triangle mesh as the simplifier reads it: positions, unit normals and indices.
pub struct SimplifyInput<'a> {
    pub positions: &'a [Vec3],
    pub normals: &'a [Vec3],
    pub indices: &'a [u32],
}

/// How far the back of a two-sided sheet is moved for the simplifier, as a fraction of the
/// mesh's extent: far under the error allowed, far over float rounding.
const SHEET_NUDGE: f32 = 1e-4;

/// The triangle list of `mesh`, simplified within `SIMPLIFY_ERROR` of the model for a mesh
/// whose extent is `share_of_model` of the model's (as drawn at rest), or `None` when the mesh
/// has few triangles, its indices do not all name a vertex, or simplifying saves too little.
///
/// meshoptimizer takes vertices at one position for one point of the surface with a seam in its
/// attributes, and collapses seams only along themselves. Hard-surface models often draw both
/// sides of a sheet, the back a copy of the front with the normals reversed, so every vertex
/// looks like a seam and almost nothing was simplified (three.js's ferrari kept 340,000 of
/// 345,000 triangles). So where a mesh has such sheets, it is simplified a second time with the
/// back apart from the front (`sheets_apart`), and the copy with fewer triangles is kept: on
/// other meshes (an engine's thin plates) parting them locks more borders than it frees.
pub fn simplified_triangles(mesh: &SimplifyInput, share_of_model: f32) -> Option<Vec<u32>> {
    let SimplifyInput {
        positions,
        normals,
        indices,
    } = *mesh;
    let triangles = indices.len() / 3;
    if triangles < FEWEST_TRIANGLES || !indices.len().is_multiple_of(3) || normals.len() != positions.len() {
        return None;
    }
    // meshoptimizer asserts on an index past the vertices: never hand it one.
    if indices.iter().any(|&i| i as usize >= positions.len()) {
        return None;
    }
    // meshoptimizer's error is relative to the mesh's own extent.
    let error = (SIMPLIFY_ERROR / share_of_model.max(1e-6)).min(MOST_PART_ERROR);
    let simplify = |positions: &[Vec3]| {
        let bytes: &[u8] = bytemuck::cast_slice(positions);
        let vertices = meshopt::VertexDataAdapter::new(bytes, std::mem::size_of::<Vec3>(), 0).ok()?;
        Some(meshopt::simplify(
            indices,
            &vertices,
            0,
            error,
            // Open edges stay where they are: where two primitives meet, or a seam's vertices
            // are only nearly equal, moving them would open a crack.
            meshopt::SimplifyOptions::LockBorder,
            None,
        ))
    };
    let mut simplified = simplify(positions)?;
    if let Some(apart) = sheets_apart(positions, normals) {
        simplified = simplify(&apart)
            .filter(|s| s.len() < simplified.len())
            .unwrap_or(simplified);
    }
    let kept = simplified.len() as f32 / indices.len() as f32;
    (kept <= WORTHWHILE_SHARE && !simplified.is_empty()).then(|| {
        // meshoptimizer's result has room for every index it was given; the copy lives as
        // long as the model.
        simplified.shrink_to_fit();
        simplified
    })
}

/// `positions` with the back of every two-sided sheet moved behind the front by `SHEET_NUDGE`,
/// or None when the mesh has no such sheet: a vertex whose normal faces away from that of the
/// first vertex at its position goes back along the first's normal. The faces either side of a
/// hard edge (normals apart, not opposed) still meet, as their seam.
fn sheets_apart(positions: &[Vec3], normals: &[Vec3]) -> Option<Vec<Vec3>> {
    let nudge = SHEET_NUDGE * placed_bounds(positions, &Mat4::IDENTITY).map_or(0.0, |(min, max)| (max - min).length());
    let mut first_at: HashMap<[u32; 3], usize> = HashMap::with_capacity(positions.len());
    let mut parted = false;
    let apart = (positions.iter().zip(normals).enumerate())
        .map(|(vertex, (&position, normal))| {
            let first = *first_at.entry(position.to_array().map(f32::to_bits)).or_insert(vertex);
            let behind = normals[first].dot(*normal) < 0.0;
            parted |= behind;
            if behind {
                position - normals[first] * nudge
            } else {
                position
            }
        })
        .collect();
    parted.then_some(apart)
}

/// The bounding box (min, max) of `positions` after `placement`, None for no positions.
pub fn placed_bounds(positions: &[Vec3], placement: &Mat4) -> Option<(Vec3, Vec3)> {
    let &first = positions.first()?;
    let (min, max) = (positions.iter()).fold((first, first), |(min, max), &p| (min.min(p), max.max(p)));
    // A rotation turns the box: its placed corners bound it.
    let corner = |i: usize| {
        let pick = |bit: usize, low: f32, high: f32| if i & bit == 0 { low } else { high };
        placement.transform_point3(Vec3::new(
            pick(1, min.x, max.x),
            pick(2, min.y, max.y),
            pick(4, min.z, max.z),
        ))
    };
    Some(
        (1..8)
            .map(corner)
            .fold((corner(0), corner(0)), |(low, high), p| (low.min(p), high.max(p))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shapes::sphere;

    /// A unit sphere's mesh with its normals (its positions).
    fn input<'a>(positions: &'a [Vec3], indices: &'a [u32]) -> SimplifyInput<'a> {
        SimplifyInput {
            positions,
            normals: positions,
            indices,
        }
    }

    #[test]
    fn a_dense_sphere_keeps_its_shape_with_far_fewer_triangles() {
        let (positions, indices) = sphere(96, 192);
        let simplified = simplified_triangles(&input(&positions, &indices), 1.0).expect("a dense sphere is simplified");
        assert!(
            simplified.len() * 4 < indices.len(),
            "{} of {} indices kept",
            simplified.len(),
            indices.len()
        );
        assert_eq!(simplified.len() % 3, 0);
        assert_eq!(
            simplified.capacity(),
            simplified.len(),
            "no room kept for the shed indices"
        );
        // Every kept triangle's centre stays near the sphere: the error bound holds.
        for triangle in simplified.chunks_exact(3) {
            let centre = triangle.iter().map(|&i| positions[i as usize]).sum::<Vec3>() / 3.0;
            let off = 1.0 - centre.length();
            assert!(
                (0.0..0.02).contains(&off),
                "a triangle's centre is {off} inside the sphere"
            );
        }
    }

    #[test]
    fn small_meshes_and_bad_indices_are_left_whole() {
        let (positions, indices) = sphere(4, 8);
        assert_eq!(simplified_triangles(&input(&positions, &indices), 1.0), None);
        let (positions, mut indices) = sphere(96, 192);
        indices[7] = positions.len() as u32;
        assert_eq!(simplified_triangles(&input(&positions, &indices), 1.0), None);
    }

    #[test]
    fn a_small_part_of_a_model_sheds_more_triangles_but_keeps_its_shape() {
        let (positions, indices) = sphere(24, 48);
        let whole = simplified_triangles(&input(&positions, &indices), 1.0).map_or(indices.len(), |s| s.len());
        let part = simplified_triangles(&input(&positions, &indices), 0.05).expect("a small part is simplified");
        assert!(part.len() * 2 < whole, "{} against {whole} indices", part.len());
        // However small the part, it stays within 5% of its own extent (2√3).
        for triangle in part.chunks_exact(3) {
            let centre = triangle.iter().map(|&i| positions[i as usize]).sum::<Vec3>() / 3.0;
            assert!(1.0 - centre.length() < 0.05 * 2.0 * 3f32.sqrt());
        }
    }

    #[test]
    fn the_placed_bounds_follow_scale_and_turn() {
        let positions = [Vec3::ZERO, Vec3::new(1.0, 2.0, 2.0)];
        let extent = |placement: Mat4| {
            let (min, max) = placed_bounds(&positions, &placement).unwrap();
            (max - min).length()
        };
        assert!((extent(Mat4::IDENTITY) - 3.0).abs() < 1e-6);
        assert!((extent(Mat4::from_scale(Vec3::splat(0.5))) - 1.5).abs() < 1e-6);
        let turned = Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
        assert!((extent(turned) - 3.0).abs() < 1e-5);
        let (min, _) = placed_bounds(&positions, &turned).unwrap();
        assert!(
            (min.x + 2.0).abs() < 1e-5,
            "turned a quarter about Z, y becomes −x: {min}"
        );
        assert_eq!(placed_bounds(&[], &Mat4::IDENTITY), None);
    }
}
