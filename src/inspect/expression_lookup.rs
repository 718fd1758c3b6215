//! VRM expression weights named as `NAME=WEIGHT` (`--expression`, for `render`, `pose` and the
//! viewer): one weight per expression of the avatar, or an error that lists what is there.

use anyhow::{Context, anyhow, bail};

use super::lookup::number;
use crate::asset::Model;

/// The weights `specs` set (each `NAME=WEIGHT`, WEIGHT 0 to 1), one per expression of `model`'s
/// avatar, the rest 0. Fails on a spec that is not `NAME=WEIGHT`, a weight outside 0 to 1, a
/// model that is not a VRM avatar, or a name it has no expression for (listing those it has).
pub fn expression_weights(model: &Model, specs: &[String]) -> anyhow::Result<Vec<f32>> {
    let expressions = model.avatar.as_ref().map_or(&[][..], |a| &a.expressions[..]);
    let mut weights = vec![0.0; expressions.len()];
    for spec in specs {
        let context = || format!("--expression {spec}");
        let (name, weight) = spec
            .rsplit_once('=')
            .ok_or_else(|| anyhow!("expected NAME=WEIGHT"))
            .with_context(context)?;
        let weight = number(weight, "WEIGHT").with_context(context)?;
        if !(0.0..=1.0).contains(&weight) {
            return Err(anyhow!("the weight must be 0 to 1, not {weight}")).with_context(context);
        }
        let file = model.path.display();
        let Some(avatar) = &model.avatar else {
            bail!("{}: {file} is not a VRM avatar: it has no expressions", context());
        };
        let Some(index) = avatar.expression(name.trim()) else {
            let names: Vec<&str> = expressions.iter().map(|e| e.name.as_str()).collect();
            let listed = if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            };
            bail!(
                "{}: {file} has no expression '{name}' (its expressions: {listed})",
                context()
            );
        };
        weights[index] = weight;
    }
    Ok(weights)
}
