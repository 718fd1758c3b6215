//! `render`'s viewpoint options: a named view, any direction in degrees, or one of the file's
//! cameras.

use anyhow::anyhow;
use clap::{Args, ValueEnum};

use crate::asset::Model;
use crate::inspect::lookup::find_camera;
use crate::render::still::Viewpoint;
use crate::view::ViewPreset;

#[derive(Args, Debug, Default)]
pub struct CameraArgs {
    /// Look from a named direction (front looks at the model's +Z face, as glTF's forward is
    /// +Z; right is seen from +X). The default is three-quarter: about 29° right of front, 14° up.
    #[arg(long, value_enum)]
    pub view: Option<ViewArg>,
    /// Degrees about the vertical axis from the front (+Z) towards the right (+X); replaces the
    /// view's azimuth.
    #[arg(long, value_name = "DEG", allow_hyphen_values = true, value_parser = degrees)]
    pub azimuth: Option<f32>,
    /// Degrees above the ground plane (−89 to 89); replaces the view's elevation.
    #[arg(long, value_name = "DEG", allow_hyphen_values = true, value_parser = degrees)]
    pub elevation: Option<f32>,
    /// Look through one of the file's cameras, by name or index (as `inspect` lists them),
    /// following its animation.
    #[arg(long, value_name = "CAMERA", conflicts_with_all = ["view", "azimuth", "elevation"])]
    pub camera: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ViewArg {
    Front,
    Back,
    Left,
    Right,
    Top,
    ThreeQuarter,
}

impl From<ViewArg> for ViewPreset {
    fn from(arg: ViewArg) -> Self {
        match arg {
            ViewArg::Front => ViewPreset::Front,
            ViewArg::Back => ViewPreset::Back,
            ViewArg::Left => ViewPreset::Left,
            ViewArg::Right => ViewPreset::Right,
            ViewArg::Top => ViewPreset::Top,
            ViewArg::ThreeQuarter => ViewPreset::ThreeQuarter,
        }
    }
}

fn degrees(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("'{text}' is not a finite number of degrees"))
}

impl CameraArgs {
    /// Where to look from, checked against `model`'s cameras.
    pub fn viewpoint(&self, model: &Model) -> anyhow::Result<Viewpoint> {
        if let Some(wanted) = &self.camera {
            return find_camera(model, wanted)
                .map(Viewpoint::FileCamera)
                .map_err(|e| anyhow!("--camera: {e}"));
        }
        let preset = self.view.map_or(ViewPreset::ThreeQuarter, ViewPreset::from);
        let mut angles = preset.angles();
        if let Some(azimuth) = self.azimuth {
            angles.azimuth = azimuth.to_radians();
        }
        if let Some(elevation) = self.elevation {
            angles.elevation = elevation.clamp(-89.0, 89.0).to_radians();
        }
        Ok(Viewpoint::Orbit(angles))
    }
}
