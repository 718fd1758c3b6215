//! How the scene is lit and how its light becomes the picture: the lights used, the
//! environment's strength and turn, exposure and the tone curve. The panel and the command
//! line set these; the renderer reads them.

use crate::asset::Model;

/// Which lights shine on the model, besides the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lights {
    /// rigscope's key light, with its shadow.
    Studio,
    /// The file's KHR_lights_punctual lights (no shadows).
    File,
}

impl Lights {
    /// A file's own lights when it has any, else the studio's.
    pub fn default_for(model: &Model) -> Self {
        if model.lights.is_empty() {
            Self::Studio
        } else {
            Self::File
        }
    }
}

/// The curve that maps the scene's linear light to the display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToneMapping {
    /// Khronos PBR Neutral: keeps base colours as authored, rolls off highlights.
    PbrNeutral,
    /// ACES filmic (Hill's fit): more contrast, hues shift towards white in highlights.
    AcesFilmic,
    /// Clipped at 1.
    None,
}

impl ToneMapping {
    pub const ALL: [ToneMapping; 3] = [Self::PbrNeutral, Self::AcesFilmic, Self::None];

    pub fn label(self) -> &'static str {
        match self {
            Self::PbrNeutral => "Khronos PBR Neutral",
            Self::AcesFilmic => "ACES filmic",
            Self::None => "None (clip)",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    pub lights: Lights,
    /// Multiplies the environment's light (0: no image-based lighting).
    pub environment_intensity: f32,
    /// The environment's turn about +Y, degrees.
    pub environment_rotation: f32,
    /// Draw the environment behind the model instead of the plain background.
    pub environment_background: bool,
    /// Exposure in stops (EV): the picture is scaled by 2^exposure before the tone curve.
    pub exposure: f32,
    pub tone_mapping: ToneMapping,
}

impl Default for Lighting {
    fn default() -> Self {
        Self {
            lights: Lights::Studio,
            environment_intensity: 1.0,
            environment_rotation: 0.0,
            environment_background: false,
            exposure: 0.0,
            tone_mapping: ToneMapping::PbrNeutral,
        }
    }
}

impl Lighting {
    /// The factor exposure scales the picture by.
    pub fn exposure_scale(&self) -> f32 {
        2f32.powf(self.exposure)
    }
}
