//! Named directions to look at a model from. glTF's forward is +Z, so "front" looks at the
//! model's +Z face, down −Z; "right" is seen from +X (the right of the front view), "left"
//! from −X, "top" from +Y with +Z towards the bottom of the picture.

use std::fmt;

/// A direction to look from: azimuth about +Y from +Z towards +X, and elevation above the
/// ground plane, both in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewAngles {
    pub azimuth: f32,
    pub elevation: f32,
}

impl ViewAngles {
    pub fn degrees(azimuth: f32, elevation: f32) -> Self {
        Self {
            azimuth: azimuth.to_radians(),
            elevation: elevation.to_radians(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewPreset {
    Front,
    Back,
    Left,
    Right,
    Top,
    /// From the front, 0.5 radians (about 29°) to the right and 0.25 radians (about 14°) up:
    /// the default view of a model.
    ThreeQuarter,
}

impl ViewPreset {
    pub const ALL: [ViewPreset; 6] = [
        ViewPreset::Front,
        ViewPreset::Back,
        ViewPreset::Left,
        ViewPreset::Right,
        ViewPreset::Top,
        ViewPreset::ThreeQuarter,
    ];

    pub fn angles(self) -> ViewAngles {
        match self {
            ViewPreset::Front => ViewAngles::degrees(0.0, 0.0),
            ViewPreset::Back => ViewAngles::degrees(180.0, 0.0),
            ViewPreset::Left => ViewAngles::degrees(-90.0, 0.0),
            ViewPreset::Right => ViewAngles::degrees(90.0, 0.0),
            // Straight down: the orbit camera's pitch limit.
            ViewPreset::Top => ViewAngles::degrees(0.0, 89.0),
            ViewPreset::ThreeQuarter => ViewAngles {
                azimuth: 0.5,
                elevation: 0.25,
            },
        }
    }

    /// The name the panel and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            ViewPreset::Front => "front",
            ViewPreset::Back => "back",
            ViewPreset::Left => "left",
            ViewPreset::Right => "right",
            ViewPreset::Top => "top",
            ViewPreset::ThreeQuarter => "three-quarter",
        }
    }

    /// The viewer's key for this view (Blender's numpad layout, on the number row too).
    pub fn key(self) -> &'static str {
        match self {
            ViewPreset::Front => "1",
            ViewPreset::Back => "Ctrl+1",
            ViewPreset::Right => "3",
            ViewPreset::Left => "Ctrl+3",
            ViewPreset::Top => "7",
            ViewPreset::ThreeQuarter => "9",
        }
    }
}

impl fmt::Display for ViewPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
