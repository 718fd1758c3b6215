//! `render`'s motion-trail options: joints' paths over the clip (the viewer's "Motion trails"
//! controls, headless), all of it or a window of seconds around `--time`, and the root-motion
//! trail on the ground.

use anyhow::{anyhow, bail};
use clap::Args;

use crate::asset::Model;
use crate::inspect::lookup::find_joint;
use crate::inspect::{TrailTime, TrailWindow, Trails};
use crate::render::overlay::Overlay;
use crate::render::trail_gizmo::draw_trails;

#[derive(Args, Debug, Default)]
pub struct TrailArgs {
    /// Draw JOINT's motion trail over the clip (a name, a joint index as `rigscope joints`
    /// numbers them, or node:N for the file's node N); repeat for several.
    #[arg(long = "trail", value_name = "JOINT")]
    pub joints: Vec<String>,
    /// Show only SECONDS of the trails either side of --time instead of the whole clip.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub trail_window: Option<f32>,
    /// Draw the root-motion trail (the path of the hips, or of the root) on the ground.
    #[arg(long)]
    pub root_trail: bool,
}

impl TrailArgs {
    /// Adds the trails asked for, of `model` at `at`, to `overlay`, the root-motion trail at
    /// height `ground`. Fails on a joint the model does not have or a bad window.
    pub fn draw(&self, overlay: &mut Overlay, model: &Model, at: TrailTime, ground: f32) -> anyhow::Result<()> {
        let window = match self.trail_window {
            None => TrailWindow::WholeClip,
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => TrailWindow::Around(seconds),
            Some(seconds) => bail!("--trail-window {seconds}: expected seconds above 0"),
        };
        let joints = (self.joints.iter())
            .map(|name| find_joint(model, name).map_err(|e| anyhow!("--trail: {e}")))
            .collect::<anyhow::Result<Vec<usize>>>()?;
        if joints.is_empty() && !self.root_trail {
            return Ok(());
        }
        if at.clip.is_none_or(|c| c >= model.clips.len()) {
            eprintln!(
                "{}: no clip is posed, so there are no motion trails to draw",
                model.path.display()
            );
            return Ok(());
        }
        let mut trails = Trails::default();
        trails.update(model, 0, at, joints.iter().copied(), self.root_trail);
        draw_trails(overlay, &trails, window, ground);
        Ok(())
    }
}
