//! The lighting options of the viewer, `render`, `thumbnail` and `sheet`: which lights, the
//! environment and its strength, turn and background, exposure and the tone curve (the
//! panel's lighting section, from the command line).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::asset::Model;
use crate::render::EnvironmentImage;
use crate::view::{Lighting, Lights, ToneMapping};

#[derive(Args, Debug, Clone)]
pub struct LightingArgs {
    /// Light the model with the studio key light (with its shadow) or with the file's
    /// KHR_lights_punctual lights (the two that light the model most cast shadows) [default:
    /// the file's when it has any].
    #[arg(long, value_enum)]
    pub lights: Option<LightsArg>,
    /// An equirectangular Radiance .hdr image to light the scene with, instead of the
    /// built-in studio.
    #[arg(long, value_name = "FILE")]
    pub environment: Option<PathBuf>,
    /// Multiplies the environment's light (0 turns image-based lighting off).
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_intensity)]
    pub environment_intensity: f32,
    /// Turns the environment about the vertical axis, in degrees.
    #[arg(long, value_name = "DEGREES", default_value_t = 0.0, allow_hyphen_values = true, value_parser = parse_angle)]
    pub environment_rotation: f32,
    /// Show the environment behind the model instead of the plain background.
    #[arg(long)]
    pub environment_background: bool,
    /// Exposure in stops (EV): +1 doubles the light, -1 halves it.
    #[arg(long, value_name = "EV", default_value_t = 0.0, allow_hyphen_values = true, value_parser = parse_exposure)]
    pub exposure: f32,
    /// The curve from the scene's light to the picture.
    #[arg(long, value_enum, default_value_t = ToneMappingArg::PbrNeutral)]
    pub tone_mapping: ToneMappingArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LightsArg {
    Studio,
    File,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum ToneMappingArg {
    /// Khronos PBR Neutral: base colours as authored, highlights rolled off.
    #[default]
    PbrNeutral,
    /// ACES filmic (Hill's fit): more contrast.
    Aces,
    /// No curve: clipped at 1.
    None,
}

impl LightingArgs {
    /// The lighting these options ask for, for `model`.
    pub fn lighting(&self, model: &Model) -> Lighting {
        Lighting {
            lights: self.lights().unwrap_or_else(|| Lights::default_for(model)),
            ..self.lighting_of_any_model()
        }
    }

    /// The lights asked for, if `--lights` was given.
    pub fn lights(&self) -> Option<Lights> {
        self.lights.map(|lights| match lights {
            LightsArg::Studio => Lights::Studio,
            LightsArg::File => Lights::File,
        })
    }

    /// The lighting asked for, with the studio's lights (for when the model is not known
    /// yet: see `lights`).
    pub fn lighting_of_any_model(&self) -> Lighting {
        Lighting {
            lights: Lights::Studio,
            environment_intensity: self.environment_intensity,
            environment_rotation: self.environment_rotation,
            environment_background: self.environment_background,
            exposure: self.exposure,
            tone_mapping: match self.tone_mapping {
                ToneMappingArg::PbrNeutral => ToneMapping::PbrNeutral,
                ToneMappingArg::Aces => ToneMapping::AcesFilmic,
                ToneMappingArg::None => ToneMapping::None,
            },
        }
    }

    /// `--environment`'s image, when given, read and decoded once for every renderer it
    /// lights.
    pub fn environment_image(&self) -> anyhow::Result<Option<EnvironmentImage>> {
        self.environment.as_deref().map(EnvironmentImage::read).transpose()
    }
}

fn parse_number(text: &str, range: std::ops::RangeInclusive<f32>, what: &str) -> Result<f32, String> {
    let value: f32 = text.trim().parse().map_err(|_| format!("'{text}' is not a number"))?;
    if !range.contains(&value) {
        return Err(format!("{what} runs from {} to {}", range.start(), range.end()));
    }
    Ok(value)
}

fn parse_intensity(text: &str) -> Result<f32, String> {
    parse_number(text, 0.0..=100.0, "the intensity")
}

fn parse_angle(text: &str) -> Result<f32, String> {
    parse_number(text, -360.0..=360.0, "the angle")
}

fn parse_exposure(text: &str) -> Result<f32, String> {
    parse_number(text, -20.0..=20.0, "the exposure")
}
