//! Lines and screen-facing squares drawn over the scene, in model space: the skeleton, IK
//! targets, constraint cones. Callers fill an `Overlay` each frame; the scene renderer turns
//! it into vertices (squares need the image's aspect ratio) and draws it over the meshes.

use glam::{Quat, Vec3, Vec4};

use super::uniforms::OverlayVertex;

#[derive(Clone, Debug, Default)]
pub struct Overlay {
    lines: Vec<OverlayVertex>,
    /// Centre, colour and half size (clip units per w) of each square.
    squares: Vec<(Vec3, Vec4, f32)>,
}

impl Overlay {
    /// Empties the overlay, keeping its memory.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.squares.clear();
    }

    pub fn line(&mut self, from: Vec3, to: Vec3, color: Vec4) {
        for position in [from, to] {
            self.lines.push(OverlayVertex {
                position: position.to_array(),
                color: color.to_array(),
                offset: [0.0; 2],
            });
        }
    }

    /// A square of `half_size` clip units per w (0.01 is about 4 pixels on an 800-pixel-high
    /// image), the same size at any distance.
    pub fn square(&mut self, center: Vec3, color: Vec4, half_size: f32) {
        self.squares.push((center, color, half_size));
    }

    /// Three axis-aligned strokes of length `2 * radius` through `center`.
    pub fn cross(&mut self, center: Vec3, radius: f32, color: Vec4) {
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            self.line(center - axis * radius, center + axis * radius, color);
        }
    }

    /// An arc around `axis` (unit) through `center + start`, from `from` to `to` radians, as
    /// `segments` lines.
    pub fn arc(&mut self, center: Vec3, axis: Vec3, start: Vec3, (from, to): (f32, f32), segments: u32, color: Vec4) {
        let point = |i: u32| {
            let angle = from + (to - from) * i as f32 / segments as f32;
            center + Quat::from_axis_angle(axis, angle) * start
        };
        for i in 0..segments {
            self.line(point(i), point(i + 1), color);
        }
    }

    pub fn lines(&self) -> &[OverlayVertex] {
        &self.lines
    }

    /// Appends two triangles per square to `out`; `aspect` (width / height) keeps them square.
    pub fn square_vertices(&self, aspect: f32, out: &mut Vec<OverlayVertex>) {
        for &(center, color, half_size) in &self.squares {
            let (sx, sy) = (half_size / aspect, half_size);
            for [x, y] in [
                [-1.0, -1.0],
                [1.0, -1.0],
                [1.0, 1.0],
                [-1.0, -1.0],
                [1.0, 1.0],
                [-1.0, 1.0],
            ] {
                out.push(OverlayVertex {
                    position: center.to_array(),
                    color: color.to_array(),
                    offset: [x * sx, y * sy],
                });
            }
        }
    }
}
