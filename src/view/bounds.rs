//! An axis-aligned box in world space: what the camera frames and the ground is sized by.

use glam::Vec3;

/// An axis-aligned box in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: Vec3,
    pub max: Vec3,
}

impl Bounds {
    pub const EMPTY: Bounds = Bounds {
        min: Vec3::INFINITY,
        max: Vec3::NEG_INFINITY,
    };

    pub fn include(&mut self, point: Vec3) {
        if point.is_finite() {
            self.min = self.min.min(point);
            self.max = self.max.max(point);
        }
    }

    /// The box's eight corners (meaningless for an empty box).
    pub fn corners(&self) -> [Vec3; 8] {
        let (a, b) = (self.min, self.max);
        [0, 1, 2, 3, 4, 5, 6, 7].map(|i| {
            Vec3::new(
                if i & 1 == 0 { a.x } else { b.x },
                if i & 2 == 0 { a.y } else { b.y },
                if i & 4 == 0 { a.z } else { b.z },
            )
        })
    }

    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x
    }

    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// The height (y) of the ground plane the model stands on: the box's bottom, 0 for an
    /// empty box.
    pub fn ground_height(&self) -> f32 {
        if self.is_empty() { 0.0 } else { self.min.y }
    }

    /// Radius of the sphere around the box.
    pub fn radius(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
}
