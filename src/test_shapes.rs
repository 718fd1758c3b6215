//! Shapes the unit tests of several modules build meshes from.

use glam::Vec3;

/// A UV sphere of radius 1: `(stacks + 1) * (slices + 1)` vertices (the seam's doubled, as a
/// glTF exporter writes it), `2 * stacks * slices` triangles (those at the poles of zero area).
pub fn sphere(stacks: u32, slices: u32) -> (Vec<Vec3>, Vec<u32>) {
    let mut positions = Vec::new();
    for stack in 0..=stacks {
        let polar = stack as f32 / stacks as f32 * std::f32::consts::PI;
        for slice in 0..=slices {
            let azimuth = slice as f32 / slices as f32 * std::f32::consts::TAU;
            positions.push(Vec3::new(
                polar.sin() * azimuth.cos(),
                polar.cos(),
                polar.sin() * azimuth.sin(),
            ));
        }
    }
    let row = slices + 1;
    let mut indices = Vec::new();
    for stack in 0..stacks {
        for slice in 0..slices {
            let a = stack * row + slice;
            indices.extend([a, a + 1, a + row, a + 1, a + row + 1, a + row]);
        }
    }
    (positions, indices)
}
