//! Several clips at once with weights, their cycles kept in step: a locomotion blend (walk and
//! run mixed by speed, say).
//!
//! Semantics:
//! - Each clip has a weight ≥ 0; the blend is active while any weight is above 0. Weights are
//!   normalised: only their ratios matter.
//! - All clips share one normalised phase `p` in [0, 1): clip `k` is sampled at `p · d_k`, so
//!   cycles of different lengths stay in step (time warping). The phase advances at the
//!   weight-averaged rate `Σ w_k / d_k ÷ Σ w_k` per second of playback, so the blend's cycle
//!   length moves smoothly between the clips' as the weights change.
//! - The pose is the normalised weighted average in local space, accumulated as
//!   `out ← blend(out, clip_k, w_k / (w_1 + … + w_k))` in clip order (exact for translation
//!   and scale; the usual incremental slerp for rotations).

use super::blend::blend;
use super::clip::{Clip, ClipCursor};
use super::pose::Pose;

#[derive(Clone, Debug, Default)]
pub struct SyncBlend {
    weights: Vec<f32>,
    phase: f32,
    cursors: Vec<ClipCursor>,
    scratch: Option<Pose>,
}

impl SyncBlend {
    /// Clip `clip`'s weight (0 unless set).
    pub fn weight(&self, clip: usize) -> f32 {
        self.weights.get(clip).copied().unwrap_or(0.0)
    }

    /// Sets clip `clip`'s weight (negative and NaN count as 0).
    pub fn set_weight(&mut self, clip: usize, weight: f32) {
        if clip >= self.weights.len() {
            self.weights.resize(clip + 1, 0.0);
            self.cursors.resize(clip + 1, ClipCursor::default());
        }
        self.weights[clip] = if weight > 0.0 { weight } else { 0.0 };
    }

    /// Every weight back to 0: the blend ends.
    pub fn clear(&mut self) {
        self.weights.fill(0.0);
    }

    pub fn is_active(&self) -> bool {
        self.weights.iter().any(|&w| w > 0.0)
    }

    /// The shared normalised phase, in [0, 1).
    pub fn phase(&self) -> f32 {
        self.phase
    }

    /// Advances the phase by `clip_dt` seconds of playback at the weight-averaged rate.
    pub fn advance(&mut self, clips: &[Clip], clip_dt: f32) {
        let (mut total, mut rate) = (0.0, 0.0);
        for (&weight, clip) in self.weights.iter().zip(clips) {
            if weight > 0.0 && clip.duration() > 0.0 {
                total += weight;
                rate += weight / clip.duration();
            }
        }
        if total > 0.0 {
            self.phase = (self.phase + clip_dt * rate / total).rem_euclid(1.0);
        }
    }

    /// Writes the blended pose into `out`, which starts as `rest`.
    pub fn pose(&mut self, clips: &[Clip], rest: &Pose, out: &mut Pose) {
        out.copy_from(rest);
        let scratch = self.scratch.get_or_insert_with(|| rest.clone());
        let mut accumulated = 0.0;
        for ((&weight, clip), cursor) in self.weights.iter().zip(clips).zip(&mut self.cursors) {
            if weight <= 0.0 {
                continue;
            }
            accumulated += weight;
            scratch.copy_from(rest);
            clip.sample(self.phase * clip.duration(), scratch, cursor);
            blend(out, scratch, weight / accumulated, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::fixtures::{moving_clip, one_joint_rest};
    use glam::Vec3;

    /// Clip k lasts k + 1 seconds and moves joint 0 along x from 0 to 10 (k + 1).
    fn clips() -> Vec<Clip> {
        (0..2)
            .map(|k| {
                let d = (k + 1) as f32;
                moving_clip(&format!("clip {k}"), Vec3::ZERO, Vec3::new(10.0 * d, 0.0, 0.0), d)
            })
            .collect()
    }

    fn x(blend: &mut SyncBlend, clips: &[Clip]) -> f32 {
        let rest = one_joint_rest();
        let mut out = rest.clone();
        blend.pose(clips, &rest, &mut out);
        out.local()[0].translation.x
    }

    #[test]
    fn one_weight_plays_that_clip_in_its_own_time() {
        let clips = clips();
        let mut blend = SyncBlend::default();
        assert!(!blend.is_active());
        blend.set_weight(1, 3.0);
        blend.advance(&clips, 0.5);
        assert!((blend.phase() - 0.25).abs() < 1e-6, "0.5 s of a 2 s clip");
        assert!((x(&mut blend, &clips) - 5.0).abs() < 1e-4);
    }

    #[test]
    fn weights_average_the_poses_and_the_cycle_rates() {
        let clips = clips();
        let mut blend = SyncBlend::default();
        blend.set_weight(0, 1.0);
        blend.set_weight(1, 1.0);
        // Rate (1/1 + 1/2) / 2 = 0.75 cycles per second.
        blend.advance(&clips, 0.4);
        assert!((blend.phase() - 0.3).abs() < 1e-6);
        // Both clips at phase 0.3: x = 3 and 6; the average is 4.5.
        assert!((x(&mut blend, &clips) - 4.5).abs() < 1e-4);
        blend.set_weight(0, -2.0);
        assert_eq!(blend.weight(0), 0.0, "negative weights count as 0");
    }
}
