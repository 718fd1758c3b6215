//! Fast quality's simplified copies of the meshes: per mesh, a chain of coarser and coarser
//! index lists over its own vertices (meshoptimizer, each allowed twice the last one's error),
//! with how far each may lie from the mesh. Every frame the triangle budget
//! (view/triangle_budget.rs) picks one per mesh. The copies reuse the mesh's vertices (only
//! the index list is new), so skinning, morphing and the vertex views work on them unchanged.

use std::collections::HashMap;

use glam::{Mat4, Vec2, Vec3};

use crate::view::crowd_detail::SamePlace;

/// Meshes with fewer triangles are drawn whole, and no copy is made with fewer.
pub const FEWEST_TRIANGLES: usize = 16;
/// How far each copy may lie from its mesh, as a fraction of the mesh's extent: each is as
/// coarse as that allows (and is kept only when it sheds enough). Doubling steps give the
/// budget fine choices on meshes that shed little at each (hard surfaces) and coarse ones on
/// meshes that shed much; past 5% a mesh loses its shape, whatever the budget.
const LEVEL_ERRORS: [f32; 7] = [0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.05];
/// A copy that keeps more than this share of the last one's triangles is not worth a level.
const WORTHWHILE_SHARE: f32 = 0.75;

/// A triangle mesh as the simplifier reads it: positions, unit normals and indices.
pub struct SimplifyInput<'a> {
    pub positions: &'a [Vec3],
    pub normals: &'a [Vec3],
    /// Texture coordinates (TEXCOORD_0; empty without).
    pub uvs: &'a [Vec2],
    pub indices: &'a [u32],
}

/// A coarser copy of a mesh: its triangle list, and how far it may lie from the mesh as a
/// fraction of the mesh's extent.
#[derive(Clone, Debug, PartialEq)]
pub struct SimplifiedLevel {
    pub indices: Vec<u32>,
    pub relative_error: f32,
}

/// How far the back of a two-sided sheet is moved for the simplifier, as a fraction of the
/// mesh's extent: far under any error allowed, far over float rounding.
const SHEET_NUDGE: f32 = 1e-4;

/// Coarser and coarser copies of `mesh`, each as coarse as `LEVEL_ERRORS` allows and
/// simplified from the last (their errors add up), finest first; none when the mesh has few
/// triangles or its indices do not all name a vertex.
///
/// meshoptimizer takes vertices at one position for one point of the surface with a seam in its
/// attributes, and collapses seams only along themselves, so textures stay where they were.
/// Hard-surface models often draw both sides of a sheet, the back a copy of the front with the
/// normals reversed, so every vertex looks like a seam and almost nothing was simplified
/// (three.js's ferrari kept 340,000 of 345,000 triangles). So where a mesh has such sheets, its
/// first copy is also made with the back apart from the front (`sheets_apart`), and the chain
/// goes on from whichever has fewer triangles: on other meshes (an engine's thin plates)
/// parting them locks more borders than it frees.
pub fn simplified_levels(mesh: &SimplifyInput) -> Vec<SimplifiedLevel> {
    let SimplifyInput {
        positions,
        normals,
        uvs,
        indices,
    } = *mesh;
    let triangles = indices.len() / 3;
    let usable =
        triangles >= 2 * FEWEST_TRIANGLES && indices.len().is_multiple_of(3) && normals.len() == positions.len();
    // meshoptimizer asserts on an index past the vertices: never hand it one.
    if !usable || indices.iter().any(|&i| i as usize >= positions.len()) {
        return Vec::new();
    }
    let first = first_at_position(positions);
    let apart = sheets_apart(positions, normals, &first);
    let mut chain: Vec<SimplifiedLevel> = Vec::new();
    let mut surface = positions;
    let mut error = 0.0;
    let mut borders = Borders::Locked;
    // Once welded: the weld, and the last copy over the welded vertices.
    let mut welded: Option<(Weld, Vec<u32>)> = None;
    let mut limits = LEVEL_ERRORS.iter().peekable();
    while let Some(&limit) = limits.peek() {
        // The last copy, as the simplifier sees it.
        let from = match (&welded, chain.last()) {
            (Some((_, welded_copy)), _) => welded_copy,
            (None, Some(level)) => &level.indices,
            (None, None) => indices,
        };
        let most = (limit - error).max(0.0);
        let simplify = |positions: &[Vec3]| simplified_once(positions, from, FEWEST_TRIANGLES * 3, most, borders);
        let seen = welded.as_ref().map_or(surface, |(weld, _)| &weld.positions);
        let Some((mut copy, mut added)) = simplify(seen) else {
            break;
        };
        if chain.is_empty()
            && let Some(apart) = &apart
            && let Some((parted, parted_error)) = simplify(apart)
            && parted.len() < copy.len()
        {
            (copy, added) = (parted, parted_error);
            surface = apart;
        }
        let kept = copy.len();
        if kept == 0 || kept as f32 > from.len() as f32 * WORTHWHILE_SHARE {
            if borders == Borders::Locked {
                borders = Borders::Free;
            } else if welded.is_none() && chain.is_empty() && seams_only_in_normals(&first, uvs, indices) {
                welded = Some(Weld::new(positions, indices, &first));
            } else {
                // Too little shed within this error: a larger one may shed more.
                limits.next();
            }
            continue;
        }
        limits.next();
        // meshoptimizer's result has room for every index it was given.
        copy.shrink_to_fit();
        error += added;
        let indices = match &mut welded {
            Some((weld, welded_copy)) => {
                let on_mesh = weld.unwelded(&copy, positions, normals);
                *welded_copy = copy;
                on_mesh
            }
            None => copy,
        };
        chain.push(SimplifiedLevel {
            indices,
            relative_error: error,
        });
        if kept <= FEWEST_TRIANGLES * 3 {
            break;
        }
    }
    chain
}

/// Per vertex, the first vertex at its position (itself when none before it is there).
fn first_at_position(positions: &[Vec3]) -> Vec<u32> {
    let mut first_at: HashMap<[u32; 3], u32> = HashMap::with_capacity(positions.len());
    (positions.iter().enumerate())
        .map(|(vertex, p)| *first_at.entry(p.to_array().map(f32::to_bits)).or_insert(vertex as u32))
        .collect()
}

/// Whether the vertices of `indices` that share a position (`first`: per vertex, the first at
/// its position) differ only in their normals (hard edges), not in their texture coordinates.
fn seams_only_in_normals(first: &[u32], uvs: &[Vec2], indices: &[u32]) -> bool {
    uvs.len() != first.len()
        || (indices.iter()).all(|&vertex| uvs[first[vertex as usize] as usize] == uvs[vertex as usize])
}

/// A mesh whose hard edges split every vertex (CAD models) welded into one surface, so that
/// its seams collapse like the rest: one vertex per position. A copy's corners then go back
/// to the vertex at their place whose normal is nearest the triangle's, so hard edges stay
/// hard. The welded vertices are a list of their own: meshoptimizer locks a vertex whose
/// position other, unused vertices share.
struct Weld {
    positions: Vec<Vec3>,
    /// Per welded vertex, the first of the mesh's vertices at its position.
    first: Vec<u32>,
    places: SamePlace,
}

impl Weld {
    /// The weld of `indices` over `positions` (`first`: per vertex, the first at its
    /// position), and the indices over the welded vertices.
    fn new(positions: &[Vec3], indices: &[u32], first: &[u32]) -> (Self, Vec<u32>) {
        // Per vertex that is the first at its position, its welded vertex.
        let mut welded_of = vec![u32::MAX; positions.len()];
        let (mut welded_positions, mut firsts) = (Vec::new(), Vec::new());
        let welded: Vec<u32> = (indices.iter())
            .map(|&vertex| {
                let place = first[vertex as usize];
                if welded_of[place as usize] == u32::MAX {
                    welded_of[place as usize] = firsts.len() as u32;
                    welded_positions.push(positions[place as usize]);
                    firsts.push(place);
                }
                welded_of[place as usize]
            })
            .collect();
        let on_mesh: Vec<u32> = indices.iter().map(|&vertex| first[vertex as usize]).collect();
        let places = SamePlace::new(indices, &on_mesh, positions.len());
        let weld = Self {
            positions: welded_positions,
            first: firsts,
            places,
        };
        (weld, welded)
    }

    /// A copy over the welded vertices as a copy over the mesh's.
    fn unwelded(&self, copy: &[u32], positions: &[Vec3], normals: &[Vec3]) -> Vec<u32> {
        let on_mesh = copy.iter().map(|&w| self.first[w as usize]).collect();
        self.places.nearest_normals(on_mesh, positions, normals)
    }
}

/// Whether a mesh's open edges may move as it is simplified.
#[derive(Clone, Copy, PartialEq)]
enum Borders {
    /// They stay where they are: where two primitives meet, or a seam's vertices are only
    /// nearly equal, moving them opens a crack. The first copies are made so.
    Locked,
    /// They move, within the copy's error: once locked borders stop the copies shedding (a
    /// model of many open parts), a crack under the deviation the budget allows is the
    /// lesser loss.
    Free,
}

/// `indices` simplified towards `target` indices within `most_error` of the mesh's extent, and
/// the error it made (None when meshoptimizer cannot read the positions). Small parts are kept
/// however small they get (meshoptimizer's pruning took BrainStem's horns off).
fn simplified_once(
    positions: &[Vec3],
    indices: &[u32],
    target: usize,
    most_error: f32,
    borders: Borders,
) -> Option<(Vec<u32>, f32)> {
    let bytes: &[u8] = bytemuck::cast_slice(positions);
    let vertices = meshopt::VertexDataAdapter::new(bytes, std::mem::size_of::<Vec3>(), 0).ok()?;
    let mut error = 0.0;
    let copy = meshopt::simplify(
        indices,
        &vertices,
        target,
        most_error.max(0.0),
        match borders {
            Borders::Locked => meshopt::SimplifyOptions::LockBorder,
            Borders::Free => meshopt::SimplifyOptions::None,
        },
        Some(&mut error),
    );
    Some((copy, error))
}

/// `positions` with the back of every two-sided sheet moved behind the front by `SHEET_NUDGE`,
/// or None when the mesh has no such sheet: a vertex whose normal faces away from that of the
/// first vertex at its position (`first`) goes back along the first's normal. The faces either side of a
/// hard edge (normals apart, not opposed) still meet, as their seam.
fn sheets_apart(positions: &[Vec3], normals: &[Vec3], first: &[u32]) -> Option<Vec<Vec3>> {
    let nudge = SHEET_NUDGE * placed_bounds(positions, &Mat4::IDENTITY).map_or(0.0, |(min, max)| (max - min).length());
    let mut parted = false;
    let apart = (positions.iter().zip(normals).zip(first))
        .map(|((&position, normal), &first)| {
            let first_normal = normals[first as usize];
            let behind = first_normal.dot(*normal) < 0.0;
            parted |= behind;
            if behind {
                position - first_normal * nudge
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
            uvs: &[],
            indices,
        }
    }

    #[test]
    fn a_dense_sphere_keeps_its_shape_in_coarser_and_coarser_copies() {
        let (positions, indices) = sphere(96, 192);
        let levels = simplified_levels(&input(&positions, &indices));
        assert!(levels.len() >= 4, "{} levels", levels.len());
        let mut last = (indices.len(), 0.0);
        for level in &levels {
            let kept = level.indices.len();
            assert_eq!(kept % 3, 0);
            assert!(kept as f32 <= last.0 as f32 * 0.75, "{kept} of {} indices kept", last.0);
            assert!(level.relative_error >= last.1 && level.relative_error <= LEVEL_ERRORS[6] + 1e-6);
            assert_eq!(level.indices.capacity(), kept, "no room kept for the shed indices");
            // Every kept triangle's centre lies within the copy's error of the sphere (its
            // extent, as meshoptimizer measures it, is 2), less the centre's own sag.
            for triangle in level.indices.chunks_exact(3) {
                let centre = triangle.iter().map(|&i| positions[i as usize]).sum::<Vec3>() / 3.0;
                let off = (1.0 - centre.length()).abs();
                let sag = 0.02;
                assert!(off <= 2.0 * level.relative_error + sag, "a centre {off} off the sphere");
            }
            last = (kept, level.relative_error);
        }
    }

    #[test]
    fn small_meshes_and_bad_indices_get_no_copies() {
        let (positions, indices) = sphere(2, 4);
        assert_eq!(simplified_levels(&input(&positions, &indices)), Vec::new());
        let (positions, mut indices) = sphere(96, 192);
        indices[7] = positions.len() as u32;
        assert_eq!(simplified_levels(&input(&positions, &indices)), Vec::new());
    }

    /// A sphere drawn flat: every triangle has three vertices of its own, with its normal.
    fn faceted_sphere() -> (Vec<Vec3>, Vec<Vec3>, Vec<u32>) {
        let (positions, indices) = sphere(24, 48);
        let corners: Vec<Vec3> = indices.iter().map(|&i| positions[i as usize]).collect();
        let normals = (corners.chunks_exact(3))
            .flat_map(|t| [(t[1] - t[0]).cross(t[2] - t[0]).normalize(); 3])
            .collect();
        (corners, normals, (0..indices.len() as u32).collect())
    }

    #[test]
    fn a_mesh_split_at_every_hard_edge_simplifies_and_stays_flat() {
        let (positions, normals, indices) = faceted_sphere();
        let input = SimplifyInput {
            positions: &positions,
            normals: &normals,
            uvs: &[],
            indices: &indices,
        };
        let levels = simplified_levels(&input);
        assert!(!levels.is_empty(), "welded, the faceted sphere simplifies");
        assert!(levels[0].indices.len() * 4 <= indices.len() * 3);
        // Each corner of the first copy takes the normal of a face at its place near the
        // triangle's own (but at the poles, whose faces are slivers).
        for triangle in levels[0].indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|corner| positions[triangle[corner] as usize]);
            let across = (b - a).cross(c - a);
            if across.length() < 1e-3 {
                continue;
            }
            for normal in triangle.iter().map(|&corner| normals[corner as usize]) {
                let dot = normal.dot(across.normalize());
                assert!(dot > 0.8, "a corner's normal is {dot} from the face's");
            }
        }
    }

    #[test]
    fn only_seams_in_the_normals_are_welded() {
        let (positions, _, indices) = faceted_sphere();
        let same: Vec<Vec2> = positions.iter().map(|p| Vec2::new(p.x, p.y)).collect();
        let first = first_at_position(&positions);
        assert!(seams_only_in_normals(&first, &same, &indices));
        assert!(seams_only_in_normals(&first, &[], &indices));
        let split: Vec<Vec2> = (0..positions.len()).map(|i| Vec2::splat(i as f32)).collect();
        assert!(!seams_only_in_normals(&first, &split, &indices));
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
