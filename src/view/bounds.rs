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
