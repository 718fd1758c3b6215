//! `--expression NAME=WEIGHT` and `--look-at X,Y,Z`, shared by `render`, `pose` and the
//! viewer: a VRM avatar's expressions (presets such as happy, blink, aa, and the file's own)
//! set to a weight, and where its eyes look.

use anyhow::{Context, bail};
use clap::Args;
use glam::Vec3;

use crate::anim::Pose;
use crate::anim::avatar::Face;
use crate::asset::Model;
use crate::inspect::expression_lookup::expression_weights;
use crate::inspect::lookup::vector;

#[derive(Args, Debug, Clone, Default)]
pub struct ExpressionArgs {
    /// Set a VRM avatar's expression (as `inspect` lists them: happy, blink, aa, ..., and the
    /// file's own) to a weight from 0 to 1. Repeat for several.
    #[arg(long, value_name = "NAME=WEIGHT")]
    pub expression: Vec<String>,
    /// Turn a VRM avatar's eyes (or its look expressions) towards this model-space point.
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub look_at: Option<String>,
}

impl ExpressionArgs {
    /// Turns the eyes and adds the expressions these options set to `pose`.
    pub fn apply(&self, model: &Model, pose: &mut Pose) -> anyhow::Result<()> {
        let weights = expression_weights(model, &self.expression)?;
        let target = self.target(model)?;
        if let Some(avatar) = &model.avatar {
            Face::default().apply(avatar.look_at.as_ref(), &avatar.expressions, &weights, target, pose);
        }
        Ok(())
    }

    /// The `--look-at` point, if given; fails on a model whose eyes cannot look.
    pub fn target(&self, model: &Model) -> anyhow::Result<Option<Vec3>> {
        let Some(text) = &self.look_at else { return Ok(None) };
        let point = vector(text, "X,Y,Z").with_context(|| format!("--look-at {text}"))?;
        if model.avatar.as_ref().is_none_or(|a| a.look_at.is_none()) {
            bail!(
                "--look-at {text}: {} is not a VRM avatar with a look-at",
                model.path.display()
            );
        }
        Ok(Some(point))
    }
}
