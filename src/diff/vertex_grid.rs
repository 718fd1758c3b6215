//! A uniform grid over points, to find every point within a radius of a position in about
//! constant time: the points are sorted by cell, and a map gives each occupied cell's run.
//! A query reads the 27 cells around the position's own, so a cell is never smaller than the
//! radius.

use std::collections::HashMap;

use glam::{IVec3, Vec3};

/// The most cells along one axis: cells are made larger than the radius where the points
/// spread wider than this many radii, so cell coordinates stay small integers.
const MAX_CELLS_ACROSS: f32 = 1.0e6;

pub struct VertexGrid<'a> {
    points: &'a [Vec3],
    /// 1 / the cell's edge length.
    per_cell: f32,
    radius: f32,
    /// Point indices sorted by cell.
    order: Vec<u32>,
    /// Each occupied cell's run in `order`.
    runs: HashMap<IVec3, (u32, u32)>,
}

impl<'a> VertexGrid<'a> {
    /// A grid over `points` for queries within `radius` (points that are not finite are left
    /// out; they are within no distance of anything).
    pub fn new(points: &'a [Vec3], radius: f32) -> Self {
        let finite = || points.iter().filter(|p| p.is_finite());
        let (low, high) = finite().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
        let spread = if low.is_finite() {
            (high - low).max_element()
        } else {
            0.0
        };
        let edge = radius.max(spread / MAX_CELLS_ACROSS).max(f32::MIN_POSITIVE);
        let per_cell = 1.0 / edge;
        let mut keyed: Vec<(IVec3, u32)> = (points.iter().enumerate())
            .filter(|(_, p)| p.is_finite())
            .map(|(index, p)| (cell_of(*p, per_cell), index as u32))
            .collect();
        keyed.sort_unstable_by_key(|&(cell, index)| (cell.x, cell.y, cell.z, index));
        let mut runs = HashMap::new();
        let mut start = 0;
        for end in 1..=keyed.len() {
            if end == keyed.len() || keyed[end].0 != keyed[start].0 {
                runs.insert(keyed[start].0, (start as u32, end as u32));
                start = end;
            }
        }
        Self {
            points,
            per_cell,
            radius,
            order: keyed.into_iter().map(|(_, index)| index).collect(),
            runs,
        }
    }

    /// Calls `visit(index, distance)` for every point within the radius of `position`.
    pub fn for_each_near(&self, position: Vec3, mut visit: impl FnMut(usize, f32)) {
        if !position.is_finite() {
            return;
        }
        // Far outside the grid, cells saturate: wrapping keeps the neighbours' keys defined,
        // and the distance test rejects whatever they hold.
        let centre = cell_of(position, self.per_cell);
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let Some(&(start, end)) = self.runs.get(&centre.wrapping_add(IVec3::new(dx, dy, dz))) else {
                        continue;
                    };
                    for &index in &self.order[start as usize..end as usize] {
                        let distance = self.points[index as usize].distance(position);
                        if distance <= self.radius {
                            visit(index as usize, distance);
                        }
                    }
                }
            }
        }
    }

    /// Whether some point lies within the radius of `position`.
    pub fn any_near(&self, position: Vec3) -> bool {
        let mut found = false;
        self.for_each_near(position, |_, _| found = true);
        found
    }
}

fn cell_of(position: Vec3, per_cell: f32) -> IVec3 {
    (position * per_cell).floor().as_ivec3()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_point_within_the_radius_and_no_other() {
        let points: Vec<Vec3> = (0..1000)
            .map(|i| Vec3::new((i % 10) as f32, (i / 10 % 10) as f32, (i / 100) as f32) * 0.3)
            .collect();
        let grid = VertexGrid::new(&points, 0.45);
        let probe = Vec3::new(1.2, 1.25, 0.61);
        let mut found = Vec::new();
        grid.for_each_near(probe, |index, distance| {
            assert!((distance - points[index].distance(probe)).abs() < 1e-6);
            found.push(index);
        });
        found.sort_unstable();
        let expected: Vec<usize> = (0..points.len())
            .filter(|&i| points[i].distance(probe) <= 0.45)
            .collect();
        assert_eq!(found, expected);
        assert!(!expected.is_empty());
    }

    #[test]
    fn a_tiny_radius_over_a_wide_spread_still_finds_exact_matches() {
        let points = [Vec3::ZERO, Vec3::splat(1.0e5), Vec3::new(-3.0e4, 2.0, 1.0)];
        let grid = VertexGrid::new(&points, 0.0);
        assert!(grid.any_near(Vec3::new(-3.0e4, 2.0, 1.0)));
        assert!(!grid.any_near(Vec3::new(-3.0e4, 2.0, 1.001)));
    }

    #[test]
    fn points_that_are_not_finite_are_never_near() {
        let points = [Vec3::NAN, Vec3::ONE];
        let grid = VertexGrid::new(&points, 1.0);
        assert!(!grid.any_near(Vec3::NAN));
        let mut found = Vec::new();
        grid.for_each_near(Vec3::splat(1.5), |index, _| found.push(index));
        assert_eq!(found, [1]);
    }
}
