//! A crowd's level of detail: coarser copies of each mesh, and which instances may draw which.
//!
//! A copy far away covers a few pixels, but its vertices and triangles cost the same as up
//! close, and on some GPUs (the datacentre ones, software rasterisers) vertex work and triangle
//! setup are what a crowd is bound by. So each triangle mesh gets a chain of coarser index
//! lists over its own vertices (meshoptimizer, each about half the last), with the deviation
//! each one allows. Every frame the instances are sorted by how many pixels a unit of length
//! covers at their distance, nearest first; level `l` then serves a contiguous run of that
//! order: the instances where its deviation projects to at most `MAX_ERROR_PIXELS`. The
//! renderer writes the instances' matrices in that order and draws each run with its level.

use glam::Vec3;

use super::Bounds;
use super::camera_view::CameraView;

/// The largest deviation a coarser copy may show, in pixels: under half a pixel, the picture
/// is the full mesh's up to a sample's coverage along silhouettes.
pub const MAX_ERROR_PIXELS: f32 = 0.5;
/// Coarser copies made per mesh at most.
const MAX_LEVELS: usize = 6;
/// Meshes with fewer triangles are not simplified (they cost nothing worth saving), nor are
/// copies made below it.
const MIN_TRIANGLES: usize = 16;
/// Meshes with more triangles are drawn whole: simplifying them would hold up showing the crowd
/// (meshoptimizer does about a million triangles a second).
const MAX_TRIANGLES: usize = 1 << 20;
/// A copy must keep at most this share of the previous level's triangles to be worth a draw.
const WORTHWHILE_SHARE: f32 = 0.8;

/// A coarser copy of a mesh: its triangle list over the mesh's own vertices, and how far it may
/// lie from the mesh, as a fraction of the mesh's extent (its bounding box's longest side).
#[derive(Clone, Debug, PartialEq)]
pub struct DetailLevel {
    pub indices: Vec<u32>,
    pub relative_error: f32,
}

/// Coarser and coarser copies of the triangle list `indices` over `positions` (empty when the
/// mesh is too small or too large to gain, or an index names no vertex). Vertices at the same
/// position are treated as one (a mesh split at its UV or normal seams still collapses across
/// them); each corner of a copy's triangle then takes, of the vertices at its position, the
/// one whose normal (`normals`, per vertex) is nearest the triangle's own, so that a
/// flat-shaded mesh stays flat-shaded.
pub fn detail_levels(positions: &[Vec3], normals: &[Vec3], indices: &[u32]) -> Vec<DetailLevel> {
    let triangles = indices.len() / 3;
    let usable = indices.len().is_multiple_of(3) && (MIN_TRIANGLES * 2..=MAX_TRIANGLES).contains(&triangles);
    // meshoptimizer asserts on an index past the vertices: never hand it one.
    if !usable || indices.iter().any(|&i| i as usize >= positions.len()) {
        return Vec::new();
    }
    let bytes: &[u8] = bytemuck::cast_slice(positions);
    let Ok(vertices) = meshopt::VertexDataAdapter::new(bytes, std::mem::size_of::<Vec3>(), 0) else {
        return Vec::new();
    };
    let welded = meshopt::generate_shadow_indices(indices, &vertices);
    let same_place = SamePlace::new(indices, &welded, positions.len());
    let mut levels: Vec<DetailLevel> = Vec::new();
    let mut previous = welded.len();
    let mut worst = 0.0f32;
    while levels.len() < MAX_LEVELS {
        let target = (previous / 2 / 3 * 3).max(MIN_TRIANGLES * 3);
        let mut error = 0.0;
        // Each copy starts from the whole mesh, so errors do not compound.
        let mut copy = meshopt::simplify(
            &welded,
            &vertices,
            target,
            f32::MAX,
            // Permissive: the welded mesh has no attribute seams to keep, and without it a mesh
            // whose welded topology is not a clean manifold (Fox's) does not simplify at all.
            meshopt::SimplifyOptions::Permissive,
            Some(&mut error),
        );
        if copy.is_empty() || copy.len() as f32 > previous as f32 * WORTHWHILE_SHARE {
            break;
        }
        // meshoptimizer's result has room for every index it was given.
        copy.shrink_to_fit();
        // A coarser copy never claims less deviation than a finer one.
        worst = worst.max(error);
        previous = copy.len();
        levels.push(DetailLevel {
            indices: same_place.nearest_normals(copy, positions, normals),
            relative_error: worst,
        });
        if previous <= MIN_TRIANGLES * 3 {
            break;
        }
    }
    levels
}

/// The vertices at each welded vertex's position (the welded vertex is the first of them).
pub struct SamePlace {
    /// Per vertex: where its group starts in `members` (welded vertices only; `len + 1` long).
    starts: Vec<u32>,
    members: Vec<u32>,
}

impl SamePlace {
    /// `welded`: `indices` with each vertex replaced by the first at its position.
    pub fn new(indices: &[u32], welded: &[u32], vertices: usize) -> Self {
        let mut seen = vec![false; vertices];
        let mut counts = vec![0u32; vertices + 1];
        for (&vertex, &place) in indices.iter().zip(welded) {
            if !std::mem::replace(&mut seen[vertex as usize], true) {
                counts[place as usize + 1] += 1;
            }
        }
        let starts: Vec<u32> = counts
            .iter()
            .scan(0, |sum, &count| {
                *sum += count;
                Some(*sum)
            })
            .collect();
        let mut next = starts.clone();
        let mut members = vec![0; *starts.last().unwrap_or(&0) as usize];
        seen.fill(false);
        for (&vertex, &place) in indices.iter().zip(welded) {
            if !std::mem::replace(&mut seen[vertex as usize], true) {
                members[next[place as usize] as usize] = vertex;
                next[place as usize] += 1;
            }
        }
        Self { starts, members }
    }

    /// `triangles` (over welded vertices) with each corner moved to the vertex at its place
    /// whose normal is nearest the triangle's.
    pub fn nearest_normals(&self, mut triangles: Vec<u32>, positions: &[Vec3], normals: &[Vec3]) -> Vec<u32> {
        if normals.len() != positions.len() {
            return triangles;
        }
        for triangle in triangles.chunks_exact_mut(3) {
            let [a, b, c] = [0, 1, 2].map(|corner| positions[triangle[corner] as usize]);
            let facing = (b - a).cross(c - a);
            for corner in triangle.iter_mut() {
                let place = *corner as usize;
                let group = &self.members[self.starts[place] as usize..self.starts[place + 1] as usize];
                let nearest = group.iter().max_by(|&&p, &&q| {
                    normals[p as usize]
                        .dot(facing)
                        .total_cmp(&normals[q as usize].dot(facing))
                });
                *corner = nearest.copied().unwrap_or(*corner);
            }
        }
        triangles
    }
}

/// The crowd's instances, nearest (most pixels per unit) first, for one frame's camera.
#[derive(Default)]
pub struct DetailOrder {
    /// (pixels per world unit, instance), most pixels first.
    sorted: Vec<(f32, u32)>,
    /// The extent that a level's relative error is a fraction of, in world units.
    extent: f32,
}

impl DetailOrder {
    /// Sorts the instances standing at `offsets` (each a copy of a model within `bounds`) by
    /// how large they look through `camera` in a picture `height` pixels tall. Allocates only
    /// when the crowd grows.
    pub fn update(
        &mut self,
        bounds: &Bounds,
        offsets: impl ExactSizeIterator<Item = Vec3>,
        camera: &CameraView,
        height: f32,
    ) {
        let (center, radius) = if bounds.is_empty() {
            (Vec3::ZERO, 0.0)
        } else {
            (bounds.center(), bounds.radius())
        };
        // A copy's meshes are no larger than the model: its bounding sphere's diameter bounds
        // every mesh's extent, whatever way the mesh is turned or scaled.
        self.extent = radius * 2.0;
        self.sorted.clear();
        for (instance, offset) in offsets.enumerate() {
            // The nearest point of the copy's bounding sphere: a copy the camera is inside
            // of is as near as can be.
            let pixels = camera.pixels_per_unit(center + offset, radius, height);
            self.sorted.push((pixels, instance as u32));
        }
        self.sorted.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    }

    /// The instances at places `range` of the order (places past its end are left out).
    pub fn instances(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = usize> + '_ {
        let end = range.end.min(self.sorted.len());
        self.sorted[range.start.min(end)..end]
            .iter()
            .map(|&(_, instance)| instance as usize)
    }

    /// Where each level's run of the order starts: `starts[0] = 0` (the whole mesh), then for
    /// each coarser level (by its `relative_errors`, non-decreasing) the first instance (in
    /// order) it may serve; a level serves up to where the next starts (the last, to the end).
    pub fn level_starts(&self, relative_errors: impl Iterator<Item = f32>, starts: &mut Vec<u32>) {
        starts.clear();
        starts.push(0);
        for relative_error in relative_errors {
            let error = relative_error * self.extent;
            let first = self
                .sorted
                .partition_point(|&(pixels, _)| error * pixels > MAX_ERROR_PIXELS);
            starts.push(first as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_shapes::sphere;
    use glam::Mat4;

    #[test]
    fn levels_halve_the_triangles_and_their_errors_grow() {
        let (positions, indices) = sphere(32, 64);
        let levels = detail_levels(&positions, &positions, &indices);
        assert!(levels.len() >= 4, "{} levels", levels.len());
        let mut previous = (indices.len(), 0.0);
        for level in &levels {
            assert!(level.indices.len() as f32 <= previous.0 as f32 * WORTHWHILE_SHARE);
            assert!(level.relative_error >= previous.1);
            assert!(level.indices.iter().all(|&i| (i as usize) < positions.len()));
            previous = (level.indices.len(), level.relative_error);
        }
        // A sphere of 4,096 triangles at a sixteenth of them is still within a few percent.
        assert!(levels[3].relative_error < 0.05, "{}", levels[3].relative_error);
    }

    #[test]
    fn a_flat_shaded_mesh_simplifies_and_stays_flat_shaded() {
        // Every triangle its own three vertices with its face's normal, as Fox's mesh is.
        let (shared, shared_indices) = sphere(16, 32);
        let positions: Vec<Vec3> = shared_indices.iter().map(|&i| shared[i as usize]).collect();
        let normals: Vec<Vec3> = (positions.chunks_exact(3))
            .flat_map(|t| [(t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero(); 3])
            .collect();
        let indices: Vec<u32> = (0..positions.len() as u32).collect();
        let levels = detail_levels(&positions, &normals, &indices);
        assert!(levels.len() >= 3, "the seams between faces do not stop simplification");
        for (number, level) in levels.iter().enumerate() {
            let (mut worst, mut sum, mut corners) = (1.0f32, 0.0, 0);
            for triangle in level.indices.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| positions[triangle[k] as usize]);
                let facing = (b - a).cross(c - a);
                // The sphere's poles are rows of zero-area triangles, which face nowhere.
                if facing.length() < 1e-6 {
                    continue;
                }
                for &corner in triangle {
                    let dot = normals[corner as usize].dot(facing.normalize());
                    (worst, sum, corners) = (worst.min(dot), sum + dot, corners + 1);
                }
            }
            // Each corner takes a face's normal within 40° of the copy's face on the finer
            // copies (the coarsest, a few dozen triangles for a sphere, are for a few pixels).
            let mean = sum / corners as f32;
            assert!(mean > 0.5, "level {number}: corners face {mean} on average");
            if number < 2 {
                assert!(
                    worst > 0.75 && mean > 0.95,
                    "level {number}: worst {worst}, mean {mean}"
                );
            }
        }
    }

    #[test]
    fn small_meshes_and_bad_indices_get_no_levels() {
        let (positions, indices) = sphere(2, 4);
        assert!(detail_levels(&positions, &positions, &indices).is_empty());
        let (positions, mut indices) = sphere(32, 64);
        indices[7] = positions.len() as u32;
        assert!(detail_levels(&positions, &positions, &indices).is_empty());
    }

    /// A camera at the origin looking down −Z, 60° tall, 100 pixels tall.
    fn camera() -> CameraView {
        CameraView {
            view: Mat4::IDENTITY,
            projection: glam::camera::rh::proj::directx::perspective(60f32.to_radians(), 1.0, 0.1, 1000.0),
            eye: Vec3::ZERO,
        }
    }

    #[test]
    fn nearer_instances_come_first_and_levels_serve_runs_by_distance() {
        let bounds = Bounds {
            min: Vec3::splat(-0.5),
            max: Vec3::splat(0.5),
        };
        // Distances 40, 5, 320, 10 (and the camera inside the fifth).
        let offsets = [40.0, 5.0, 320.0, 10.0, 0.0].map(|d| Vec3::new(0.0, 0.0, -d));
        let mut order = DetailOrder::default();
        order.update(&bounds, offsets.into_iter(), &camera(), 100.0);
        assert_eq!(order.instances(0..5).collect::<Vec<_>>(), [4, 1, 3, 0, 2]);
        // The copies span √3 units; 100 px over 60° is 86.6 px per unit at distance 1.
        let pixels_at = |distance: f32| 86.6 / (distance - 3f32.sqrt() / 2.0);
        let error_at = |distance: f32| MAX_ERROR_PIXELS / pixels_at(distance) / 3f32.sqrt();
        let errors = [error_at(8.0), error_at(100.0), error_at(1000.0)];
        let mut starts = Vec::new();
        order.level_starts(errors.into_iter(), &mut starts);
        // Level 1 from distance 8 on (instances at 10, 40, 320), level 2 from 100 (320), level
        // 3 from 1000 (none).
        assert_eq!(starts, [0, 2, 4, 5]);
    }
}
