//! Fast quality's simplified copies of dense meshes. A software rasteriser (llvmpipe) sets up
//! every triangle on one thread whatever its size on screen, about a microsecond each per pass:
//! Xbot's 49k triangles cost it ~70 ms a frame in the shadow and lit passes, against ~30 ms for
//! everything else. At Fast quality (half resolution) a copy simplified by meshoptimizer
//! within a quarter of a percent of the mesh's size, under a pixel of the half-resolution view
//! for a model filling it, draws in its place. The copy reuses the mesh's vertices (only the
//! index list is new), so skinning, morphing and the vertex views work on it unchanged.

use glam::Vec3;

/// Meshes with fewer triangles cost little even on a software rasteriser; they stay whole.
pub const DENSE_TRIANGLES: usize = 8192;
/// The largest deviation allowed, as a fraction of the mesh's extent (meshoptimizer's
/// relative error).
pub const SIMPLIFY_ERROR: f32 = 0.0025;
/// A copy that keeps more than this share of the triangles is not worth a second index list.
const WORTHWHILE_SHARE: f32 = 0.75;

/// The triangle list `indices` over `positions`, simplified, or `None` when the mesh is not
/// dense, its indices do not all name a vertex, or simplifying saves too little.
pub fn simplified_triangles(positions: &[Vec3], indices: &[u32]) -> Option<Vec<u32>> {
    let triangles = indices.len() / 3;
    if triangles < DENSE_TRIANGLES || !indices.len().is_multiple_of(3) {
        return None;
    }
    // meshoptimizer asserts on an index past the vertices: never hand it one.
    if indices.iter().any(|&i| i as usize >= positions.len()) {
        return None;
    }
    let bytes: &[u8] = bytemuck::cast_slice(positions);
    let vertices = meshopt::VertexDataAdapter::new(bytes, std::mem::size_of::<Vec3>(), 0).ok()?;
    let simplified = meshopt::simplify(
        indices,
        &vertices,
        0,
        SIMPLIFY_ERROR,
        // Open edges stay where they are: where two primitives meet, or a seam's vertices are
        // only nearly equal, moving them would open a crack.
        meshopt::SimplifyOptions::LockBorder,
        None,
    );
    let kept = simplified.len() as f32 / indices.len() as f32;
    (kept <= WORTHWHILE_SHARE && !simplified.is_empty()).then_some(simplified)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shapes::sphere;

    #[test]
    fn a_dense_sphere_keeps_its_shape_with_far_fewer_triangles() {
        let (positions, indices) = sphere(96, 192);
        let simplified = simplified_triangles(&positions, &indices).expect("a dense sphere is simplified");
        assert!(
            simplified.len() * 4 < indices.len(),
            "{} of {} indices kept",
            simplified.len(),
            indices.len()
        );
        assert_eq!(simplified.len() % 3, 0);
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
        let (positions, indices) = sphere(8, 16);
        assert_eq!(simplified_triangles(&positions, &indices), None);
        let (positions, mut indices) = sphere(96, 192);
        indices[7] = positions.len() as u32;
        assert_eq!(simplified_triangles(&positions, &indices), None);
    }
}
