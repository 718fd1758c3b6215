//! `--expression NAME=WEIGHT`, shared by `render`, `pose` and the viewer: a VRM avatar's
//! expressions (presets such as happy, blink, aa, and the file's own) set to a weight.

use clap::Args;

use crate::anim::Pose;
use crate::anim::avatar::apply_expressions;
use crate::asset::Model;
use crate::inspect::expression_lookup::expression_weights;

#[derive(Args, Debug, Clone, Default)]
pub struct ExpressionArgs {
    /// Set a VRM avatar's expression (as `inspect` lists them: happy, blink, aa, ..., and the
    /// file's own) to a weight from 0 to 1. Repeat for several.
    #[arg(long, value_name = "NAME=WEIGHT")]
    pub expression: Vec<String>,
}

impl ExpressionArgs {
    /// Adds the expressions these options set to `pose`.
    pub fn apply(&self, model: &Model, pose: &mut Pose) -> anyhow::Result<()> {
        let weights = expression_weights(model, &self.expression)?;
        if let Some(avatar) = &model.avatar {
            apply_expressions(&avatar.expressions, &weights, pose);
        }
        Ok(())
    }
}
