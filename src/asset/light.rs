//! KHR_lights_punctual: point, spot and directional lights placed on nodes.

use glam::Vec3;

#[derive(Clone, Debug, PartialEq)]
pub struct PunctualLight {
    pub name: String,
    pub kind: LightKind,
    /// Linear RGB.
    pub color: Vec3,
    /// Candela for point and spot lights, lux for directional ones.
    pub intensity: f32,
    /// Where the light's influence ends (point and spot); None: unlimited.
    pub range: Option<f32>,
    /// The joint of the node that holds it: the light sits at its origin and shines down
    /// its −Z.
    pub joint: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LightKind {
    Directional,
    Point,
    /// Cone angles from the axis, radians: full intensity inside `inner`, none past `outer`.
    Spot {
        inner: f32,
        outer: f32,
    },
}

impl LightKind {
    pub fn name(&self) -> &'static str {
        match self {
            Self::Directional => "directional",
            Self::Point => "point",
            Self::Spot { .. } => "spot",
        }
    }
}
