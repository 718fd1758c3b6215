//! VRM expressions (facial poses: happy, blink, aa, ...) applied over a pose, as VRM 1.0 defines
//! them and three-vrm applies them. Each expression binds morph-target weights and animated
//! property values (material colours, texture offsets and scales); its weight (0 to 1) adds
//! `weight × bind` to each, summed over expressions and not clamped. A binary expression is 0
//! or 1 (above 0.5). An expression can block or blend away the blink, look-at and mouth
//! expressions (`override*`): their weights are scaled by 1 minus the sum of what every
//! expression overrides, at least 0, and a binary one held back at all is off.
//!
//! Unlike three-vrm, which first resets every bound value to zero (morphs) or its initial value
//! (properties), expressions add to what the clip wrote, so that a clip that animates the same
//! morph targets still plays when no expression is set. Applying allocates nothing.

use crate::anim::Pose;

/// The presets of VRM 1.0, in the specification's order.
pub const PRESETS: [&str; 18] = [
    "happy",
    "angry",
    "sad",
    "relaxed",
    "surprised",
    "aa",
    "ih",
    "ou",
    "ee",
    "oh",
    "blink",
    "blinkLeft",
    "blinkRight",
    "lookUp",
    "lookDown",
    "lookLeft",
    "lookRight",
    "neutral",
];

/// What the overrides act on: the presets of each group.
const BLINK: [&str; 3] = ["blink", "blinkLeft", "blinkRight"];
const LOOK_AT: [&str; 4] = ["lookUp", "lookDown", "lookLeft", "lookRight"];
const MOUTH: [&str; 5] = ["aa", "ih", "ou", "ee", "oh"];

/// How an expression overrides one group of expressions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Override {
    #[default]
    None,
    /// While the expression's weight is above 0, the group is off.
    Block,
    /// The group is scaled down by the expression's weight.
    Blend,
}

impl Override {
    /// How much of its group an expression of weight `weight` takes away.
    fn amount(self, weight: f32) -> f32 {
        match self {
            Self::None => 0.0,
            Self::Block if weight > 0.0 => 1.0,
            Self::Block => 0.0,
            Self::Blend => weight,
        }
    }
}

/// One expression: a preset (by VRM 1.0's name) or a custom one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expression {
    pub name: String,
    pub is_preset: bool,
    pub is_binary: bool,
    pub override_blink: Override,
    pub override_look_at: Override,
    pub override_mouth: Override,
    /// (entry of `Pose::morph_weights`, weight at full expression).
    pub morph_binds: Vec<(usize, f32)>,
    /// (entry of `Pose::properties`, change at full expression).
    pub property_binds: Vec<(usize, f32)>,
    /// The entry of `Pose::properties` through which clips (VRM animations) set its weight.
    pub weight_entry: Option<usize>,
}

impl Expression {
    /// The weight the expression acts with when set to `weight`.
    pub fn output_weight(&self, weight: f32) -> f32 {
        let weight = weight.clamp(0.0, 1.0);
        match self.is_binary {
            true if weight > 0.5 => 1.0,
            true => 0.0,
            false => weight,
        }
    }

    /// Whether it is one of the look presets (lookUp, lookDown, lookLeft, lookRight), which an
    /// expression-type look-at sets.
    pub fn is_look_preset(&self) -> bool {
        self.in_group(&LOOK_AT)
    }

    fn in_group(&self, group: &[&str]) -> bool {
        self.is_preset && group.contains(&self.name.as_str())
    }
}

/// Adds the expressions at `weights` (one per expression, 0 to 1) to `pose`.
pub fn apply_expressions(expressions: &[Expression], weights: &[f32], pose: &mut Pose) {
    let (mut blink, mut look_at, mut mouth) = (1.0_f32, 1.0_f32, 1.0_f32);
    for (expression, weight) in outputs(expressions, weights) {
        blink -= expression.override_blink.amount(weight);
        look_at -= expression.override_look_at.amount(weight);
        mouth -= expression.override_mouth.amount(weight);
    }
    for (expression, mut weight) in outputs(expressions, weights) {
        for (group, left) in [(&BLINK[..], blink), (&LOOK_AT[..], look_at), (&MOUTH[..], mouth)] {
            if expression.in_group(group) {
                weight *= left.max(0.0);
            }
        }
        // A binary expression held back at all is off.
        if weight == 0.0 || (expression.is_binary && weight < 1.0) {
            continue;
        }
        for &(entry, bind) in &expression.morph_binds {
            if let Some(value) = pose.morph_weights_mut().get_mut(entry) {
                *value += bind * weight;
            }
        }
        for &(entry, change) in &expression.property_binds {
            if let Some(value) = pose.properties_mut().get_mut(entry) {
                *value += change * weight;
            }
        }
    }
}

/// Each expression with the weight it acts with.
fn outputs<'a>(expressions: &'a [Expression], weights: &'a [f32]) -> impl Iterator<Item = (&'a Expression, f32)> {
    (expressions.iter().zip(weights)).map(|(expression, &weight)| (expression, expression.output_weight(weight)))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::Transform;
    use crate::anim::pose::Hierarchy;

    fn pose() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None]).unwrap());
        Pose::new(hierarchy, vec![Transform::IDENTITY], vec![0.0; 3])
            .unwrap()
            .with_properties(vec![0.5, 1.0])
    }

    fn expression(name: &str, morph: usize) -> Expression {
        Expression {
            name: name.into(),
            is_preset: PRESETS.contains(&name),
            morph_binds: vec![(morph, 1.0)],
            ..Default::default()
        }
    }

    #[test]
    fn binds_add_their_weighted_values_and_overrides_hold_back_their_group() {
        let mut happy = expression("happy", 0);
        happy.property_binds = vec![(1, -0.5)];
        happy.override_blink = Override::Blend;
        let blink = expression("blink", 1);
        let mut aa = expression("aa", 2);
        aa.is_binary = true;
        let expressions = [happy, blink, aa];

        let mut out = pose();
        apply_expressions(&expressions, &[0.4, 1.0, 0.6], &mut out);
        assert_eq!(
            out.morph_weights(),
            [0.4, 0.6, 1.0],
            "blink blended to 1 - 0.4; aa binary"
        );
        assert_eq!(out.properties(), [0.5, 0.8]);

        // Blocking: any weight above 0 turns the group off; a binary expression under 0.5 is 0.
        let mut blocking = expressions.clone();
        blocking[0].override_blink = Override::Block;
        let mut out = pose();
        apply_expressions(&blocking, &[0.1, 1.0, 0.4], &mut out);
        assert_eq!(out.morph_weights(), [0.1, 0.0, 0.0]);

        // A binary blink blended back by a fraction is off altogether (three-vrm's rule).
        let mut binary = expressions.clone();
        binary[1].is_binary = true;
        let mut out = pose();
        apply_expressions(&binary, &[0.3, 1.0, 0.0], &mut out);
        assert_eq!(out.morph_weights(), [0.3, 0.0, 0.0]);

        // Nothing set: the pose is untouched.
        let mut out = pose();
        apply_expressions(&expressions, &[0.0; 3], &mut out);
        assert_eq!(out, pose());
    }
}
