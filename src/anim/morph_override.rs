//! Morph-target weights set by hand over the animation (the viewer's sliders, `--morph`).
//!
//! Each entry of `Pose::morph_weights` is either untouched, and keeps what the animation
//! wrote, or set to a value `v`. With `MorphMode::Override` the pose's weight becomes `v`;
//! with `MorphMode::Add` it becomes `animated + v`. The mode applies to every set weight.
//! Applying is one pass over the weights and allocates nothing.

use super::Pose;

/// How a weight set by hand combines with the animated one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MorphMode {
    /// The set value replaces the animated weight.
    #[default]
    Override,
    /// The set value is added to the animated weight.
    Add,
}

/// Hand-set values for some of a pose's morph weights.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphOverride {
    pub mode: MorphMode,
    /// One entry per `Pose::morph_weights` entry: the value set, or none (untouched).
    set: Vec<Option<f32>>,
}

impl MorphOverride {
    /// Nothing set, for poses with `weight_count` morph weights.
    pub fn new(weight_count: usize) -> Self {
        Self {
            mode: MorphMode::default(),
            set: vec![None; weight_count],
        }
    }

    /// The value set for morph weight `index`, if it was touched.
    pub fn get(&self, index: usize) -> Option<f32> {
        self.set.get(index).copied().flatten()
    }

    /// Sets morph weight `index` (ignored past the end, and for values that are not finite).
    pub fn set(&mut self, index: usize, value: f32) {
        if let Some(slot) = self.set.get_mut(index)
            && value.is_finite()
        {
            *slot = Some(value);
        }
    }

    /// How many morph weights this is for.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether any weight is set.
    pub fn is_active(&self) -> bool {
        self.set.iter().any(Option::is_some)
    }

    /// Forgets every value set: the animation drives all weights again.
    pub fn reset(&mut self) {
        self.set.fill(None);
    }

    /// Writes the set values into `pose`'s morph weights, by `mode`.
    pub fn apply(&self, pose: &mut Pose) {
        for (weight, set) in pose.morph_weights_mut().iter_mut().zip(&self.set) {
            match (set, self.mode) {
                (None, _) => {}
                (Some(value), MorphMode::Override) => *weight = *value,
                (Some(value), MorphMode::Add) => *weight += *value,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::{Hierarchy, Transform};

    fn pose(weights: &[f32]) -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None]).unwrap());
        Pose::new(hierarchy, vec![Transform::IDENTITY], weights.to_vec()).unwrap()
    }

    #[test]
    fn untouched_weights_keep_the_animation() {
        let mut animated = pose(&[0.25, 0.5, 0.75]);
        let overrides = MorphOverride::new(3);
        overrides.apply(&mut animated);
        assert_eq!(animated.morph_weights(), [0.25, 0.5, 0.75]);
        assert!(!overrides.is_active());
    }

    #[test]
    fn override_replaces_and_add_adds() {
        let mut overrides = MorphOverride::new(3);
        overrides.set(1, 0.9);
        overrides.set(2, -0.5);
        let mut replaced = pose(&[0.25, 0.5, 0.75]);
        overrides.apply(&mut replaced);
        assert_eq!(replaced.morph_weights(), [0.25, 0.9, -0.5]);
        overrides.mode = MorphMode::Add;
        let mut added = pose(&[0.25, 0.5, 0.75]);
        overrides.apply(&mut added);
        assert_eq!(added.morph_weights(), [0.25, 1.4, 0.25]);
    }

    #[test]
    fn reset_forgets_every_value_and_bad_values_are_ignored() {
        let mut overrides = MorphOverride::new(2);
        overrides.set(0, 1.0);
        overrides.set(1, f32::NAN);
        overrides.set(7, 1.0);
        assert_eq!(
            (overrides.get(0), overrides.get(1), overrides.get(7)),
            (Some(1.0), None, None)
        );
        overrides.reset();
        assert!(!overrides.is_active());
        let mut animated = pose(&[0.5, 0.5]);
        overrides.apply(&mut animated);
        assert_eq!(animated.morph_weights(), [0.5, 0.5]);
    }
}
