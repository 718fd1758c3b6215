//! Still images of meshes far denser than the image. A million-triangle mesh drawn into a
//! 64x64 thumbnail puts hundreds of triangles on every pixel: a software rasteriser (llvmpipe)
//! shades and sets up each of them (about a microsecond a triangle a pass), and the GPU copy of
//! every vertex costs memory that no pixel shows. Before such an image, each dense mesh is
//! replaced by a copy that meshoptimizer's sloppy simplifier (a vertex grid, linear in the
//! triangles: a tenth of a second for two million, where the careful simplifier takes seconds)
//! reduces within half a pixel of the image, keeping only the vertices it still uses. Skinning,
//! morphing, materials and the framing work on the copy unchanged; the vertices kept are the
//! file's own, with their own attributes and weights.

use super::ViewOptions;
use crate::asset::{Model, Primitive, Topology};

/// Meshes with fewer triangles cost little even on a software rasteriser; they stay whole.
pub const DENSE_FOR_IMAGE: usize = 65_536;
/// A copy that keeps more than this share of the triangles is not worth making.
const WORTHWHILE_SHARE: f32 = 0.75;

/// What simplifying one mesh did, for the command to report.
#[derive(Clone, Debug, PartialEq)]
pub struct Simplified {
    pub mesh: usize,
    pub primitive: usize,
    pub triangles_before: usize,
    pub triangles_after: usize,
}

/// `simplify_for_image` where the image shows only what a simplified mesh looks the same in:
/// not where it shows the mesh's own structure (the wireframe, a vertex view, the bind-pose
/// ghost), nor through a file's camera, which may come closer than the framing.
pub fn simplify_for_still(
    model: &mut Model,
    size: (u32, u32),
    view: &ViewOptions,
    framed_on_model: bool,
) -> Vec<Simplified> {
    let shows_structure = view.wireframe || view.vertex_view.is_some() || view.bind_ghost;
    if shows_structure || !framed_on_model {
        return Vec::new();
    }
    simplify_for_image(model, size)
}

impl Simplified {
    /// E.g. "mesh 'grid' primitive 0: 1996002 triangles drawn as 3996 (within half a pixel at
    /// 64x64)".
    pub fn describe(&self, model: &Model, (width, height): (u32, u32)) -> String {
        format!(
            "mesh '{}' primitive {}: {} triangles drawn as {} (within half a pixel at {width}x{height})",
            model.meshes[self.mesh].name, self.primitive, self.triangles_before, self.triangles_after
        )
    }
}

/// Simplifies, in place, every triangle mesh of `model` with more triangles than an image of
/// `width` x `height` pixels has pixels (and at least `DENSE_FOR_IMAGE`), within half a pixel
/// for a model framed to fill the image's shorter side. Each mesh is simplified once, however
/// many instances draw it.
pub fn simplify_for_image(model: &mut Model, (width, height): (u32, u32)) -> Vec<Simplified> {
    let pixels = width as usize * height as usize;
    // meshoptimizer's error is relative to the mesh's extent, which is at most the framed
    // region's: half a pixel of the shorter side.
    let error = 0.5 / width.min(height).max(1) as f32;
    let mut simplified = Vec::new();
    for (mesh_index, mesh) in model.meshes.iter_mut().enumerate() {
        for (primitive_index, primitive) in mesh.primitives.iter_mut().enumerate() {
            let before = primitive.triangle_count();
            if primitive.topology != Topology::Triangles || before < DENSE_FOR_IMAGE.max(pixels) {
                continue;
            }
            if let Some(after) = simplify_primitive(primitive, error) {
                simplified.push(Simplified {
                    mesh: mesh_index,
                    primitive: primitive_index,
                    triangles_before: before,
                    triangles_after: after,
                });
            }
        }
    }
    simplified
}

/// Replaces `primitive` by its sloppy simplification within `error` (relative to its extent),
/// keeping only the vertices the new triangles use; returns the new triangle count, or `None`
/// (the primitive left whole) when simplifying saves too little or an index names no vertex.
fn simplify_primitive(primitive: &mut Primitive, error: f32) -> Option<usize> {
    let vertex_count = primitive.positions.len();
    // meshoptimizer asserts on an index past the vertices: never hand it one.
    if primitive.indices.iter().any(|&i| i as usize >= vertex_count) {
        return None;
    }
    let bytes: &[u8] = bytemuck::cast_slice(&primitive.positions);
    let vertices = meshopt::VertexDataAdapter::new(bytes, std::mem::size_of::<glam::Vec3>(), 0).ok()?;
    let mut indices = meshopt::simplify_sloppy(&primitive.indices, &vertices, 0, error, None);
    let kept = indices.len() as f32 / primitive.indices.len() as f32;
    if indices.is_empty() || kept > WORTHWHILE_SHARE {
        return None;
    }
    let used = compact_indices(&mut indices, vertex_count);
    // meshoptimizer's result has room for every index it was given (24 MB for a million
    // vertices); the copy keeps only what it uses.
    indices.shrink_to_fit();
    primitive.indices = indices;
    keep_vertices(primitive, &used);
    Some(primitive.indices.len() / 3)
}

/// Renumbers `indices` to count up from 0 in order of first use, and returns the old index of
/// each new one.
fn compact_indices(indices: &mut [u32], vertex_count: usize) -> Vec<u32> {
    const UNUSED: u32 = u32::MAX;
    let mut new_index = vec![UNUSED; vertex_count];
    let mut used = Vec::new();
    for index in indices {
        let slot = &mut new_index[*index as usize];
        if *slot == UNUSED {
            *slot = used.len() as u32;
            used.push(*index);
        }
        *index = *slot;
    }
    used
}

/// Keeps, of every per-vertex array of `primitive`, the entries of the vertices `used`, in
/// that order.
fn keep_vertices(primitive: &mut Primitive, used: &[u32]) {
    gather(&mut primitive.positions, used);
    gather(&mut primitive.normals, used);
    gather(&mut primitive.tangents, used);
    gather(&mut primitive.uvs, used);
    gather(&mut primitive.uvs1, used);
    gather(&mut primitive.colors, used);
    if let Some(weights) = &mut primitive.skin_weights {
        gather(&mut weights.joints, used);
        gather(&mut weights.weights, used);
        gather(&mut weights.joints_extra, used);
        gather(&mut weights.weights_extra, used);
        gather(&mut weights.dual_quat_weights, used);
        gather(&mut weights.repairs, used);
    }
    for target in &mut primitive.morph_targets {
        gather(&mut target.positions, used);
        gather(&mut target.normals, used);
        gather(&mut target.tangents, used);
    }
}

/// `values[used[0]], values[used[1]], ...` in place of `values` (an empty array stays empty:
/// the attribute is absent).
fn gather<T: Copy>(values: &mut Vec<T>, used: &[u32]) {
    if values.is_empty() {
        return;
    }
    *values = used.iter().map(|&v| values[v as usize]).collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::SkinWeights;
    use glam::{Vec2, Vec3};

    /// A flat `side` x `side` grid of quads in the unit square, with a UV and a weight per vertex
    /// that record where the vertex came from.
    fn grid(side: u32) -> Primitive {
        let row = side + 1;
        let mut primitive = Primitive::default();
        for y in 0..row {
            for x in 0..row {
                let at = Vec2::new(x as f32, y as f32) / side as f32;
                primitive.positions.push(at.extend(0.0));
                primitive.normals.push(Vec3::Z);
                primitive.uvs.push(at);
            }
        }
        for y in 0..side {
            for x in 0..side {
                let a = y * row + x;
                primitive
                    .indices
                    .extend([a, a + 1, a + row, a + 1, a + row + 1, a + row]);
            }
        }
        let vertices = primitive.positions.len();
        primitive.skin_weights = Some(SkinWeights {
            joints: (0..vertices).map(|v| [v as u16, 0, 0, 0]).collect(),
            weights: vec![[1.0, 0.0, 0.0, 0.0]; vertices],
            repairs: vec![0; vertices],
            ..SkinWeights::default()
        });
        primitive
    }

    #[test]
    fn a_dense_grid_keeps_its_extent_and_each_kept_vertex_its_own_attributes() {
        let mut primitive = grid(255);
        let before = primitive.triangle_count();
        let after = simplify_primitive(&mut primitive, 0.5 / 64.0).expect("a dense grid is simplified");
        // Grid lines 1/255 apart, half a pixel of 64 is 1/128: about every other line goes.
        assert!(after * 3 < before, "{before} → {after} triangles");
        assert_eq!(primitive.indices.len(), after * 3);
        // The copy holds no room for the indices it shed.
        assert_eq!(primitive.indices.capacity(), primitive.indices.len());
        let vertices = primitive.positions.len();
        assert!(primitive.indices.iter().all(|&i| (i as usize) < vertices));
        // Every vertex kept is used, and carries its own UV (the UVs were its position).
        let mut used = vec![false; vertices];
        primitive.indices.iter().for_each(|&i| used[i as usize] = true);
        assert!(used.iter().all(|&u| u));
        for (position, uv) in primitive.positions.iter().zip(&primitive.uvs) {
            assert_eq!(position.truncate(), *uv);
        }
        let weights = primitive.skin_weights.as_ref().unwrap();
        assert_eq!(weights.joints.len(), vertices);
        assert_eq!(weights.repairs.len(), vertices);
        // The corners are within the error of the square's.
        let (min, max) = primitive
            .positions
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        assert!(min.abs_diff_eq(Vec3::ZERO, 0.5 / 64.0) && max.abs_diff_eq(Vec3::new(1.0, 1.0, 0.0), 0.5 / 64.0));
    }

    #[test]
    fn meshes_are_simplified_only_when_denser_than_the_image() {
        let mut model = crate::asset::demo::demo_model();
        let mesh = model.meshes.len();
        model.meshes.push(crate::asset::Mesh {
            name: "grid".into(),
            primitives: vec![grid(256)],
            attributes: Vec::new(),
            target_names: Vec::new(),
        });
        // 131,072 triangles: fewer than a 512x512 image's pixels, more than a 64x64's.
        assert!(simplify_for_image(&mut model, (512, 512)).is_empty());
        let simplified = simplify_for_image(&mut model, (64, 64));
        assert_eq!(simplified.len(), 1, "only the grid is dense: {simplified:?}");
        assert_eq!((simplified[0].mesh, simplified[0].triangles_before), (mesh, 131_072));
        assert_eq!(
            model.meshes[mesh].primitives[0].triangle_count(),
            simplified[0].triangles_after
        );
    }

    #[test]
    fn an_index_past_the_vertices_leaves_the_mesh_whole() {
        let mut primitive = grid(255);
        primitive.indices[7] = primitive.positions.len() as u32;
        assert_eq!(simplify_primitive(&mut primitive, 0.01), None);
        assert_eq!(primitive.triangle_count(), 2 * 255 * 255);
    }
}
