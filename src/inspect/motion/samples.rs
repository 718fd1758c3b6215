//! A clip sampled at even steps: the model-space matrices of the joints a motion check looks
//! at, at every step.

use glam::{Mat4, Vec3};

use super::feet::find_feet;
use crate::anim::{Clip, Skeleton};
use crate::asset::Model;
use crate::inspect::trail::{ClipPoser, MAX_STEPS};

/// Seconds between samples: 60 a second, finer than any game's frame rate that matters for
/// feet.
pub const STEP: f32 = 1.0 / 60.0;

/// The model matrices (joint → model space) of some joints at `times`.
#[derive(Clone, Debug)]
pub struct MotionSamples {
    times: Vec<f32>,
    joints: Vec<usize>,
    /// `matrices[sample * joints.len() + slot]`.
    matrices: Vec<Mat4>,
}

impl MotionSamples {
    /// Samples `clip` over `skeleton`'s rest pose from 0 to its duration every `STEP` (or in
    /// `MAX_STEPS` even steps for a longer clip, so the work is bounded), keeping `joints`
    /// (those the skeleton has).
    pub fn new(skeleton: &Skeleton, clip: &Clip, joints: &[usize]) -> Self {
        let duration = clip.duration().max(0.0);
        let steps = ((duration / STEP).ceil() as usize).clamp(1, MAX_STEPS);
        let times: Vec<f32> = (0..=steps).map(|i| duration * i as f32 / steps as f32).collect();
        let mut joints: Vec<usize> = joints.iter().copied().filter(|&j| j < skeleton.len()).collect();
        joints.sort_unstable();
        joints.dedup();
        let mut poser = ClipPoser::new(skeleton);
        let mut matrices = Vec::with_capacity(times.len() * joints.len());
        for &time in &times {
            let all = poser.model_matrices(skeleton, clip, time);
            matrices.extend(joints.iter().map(|&j| all[j]));
        }
        Self {
            times,
            joints,
            matrices,
        }
    }

    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// `joint`'s model matrix at every sample; none for a joint not sampled.
    pub fn matrices(&self, joint: usize) -> Option<impl ExactSizeIterator<Item = Mat4> + '_> {
        let slot = self.joints.iter().position(|&j| j == joint)?;
        let stride = self.joints.len();
        Some((0..self.times.len()).map(move |sample| self.matrices[sample * stride + slot]))
    }

    /// `joint`'s model-space position at every sample (empty for a joint not sampled).
    pub fn positions(&self, joint: usize) -> Vec<Vec3> {
        self.matrices(joint)
            .map(|m| m.map(|m| m.w_axis.truncate()).collect())
            .unwrap_or_default()
    }
}

/// How tall the character stands at rest (model units): the vertical span of the joints
/// under the feet's nearest common ancestor (the hips, usually), else of the rig's joints (a
/// camera or light node far above is neither); what a motion check's tolerances scale with.
pub fn character_height(model: &Model) -> f32 {
    let skeleton = &model.skeleton;
    let matrices = skeleton.rest_pose().to_model_matrices();
    let mut counted = Vec::new();
    match common_ancestor(model) {
        Some(top) => {
            counted = vec![false; skeleton.len()];
            for joint in 0..skeleton.len() {
                // Parents come first, so a parent's answer is known.
                counted[joint] = joint == top || skeleton.parent(joint).is_some_and(|p| counted[p]);
            }
        }
        None => model.rig_joints(&mut counted),
    }
    let heights = matrices
        .iter()
        .zip(&counted)
        .filter(|(_, c)| **c)
        .map(|(m, _)| m.w_axis.y);
    let (low, high) = heights.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
    if high > low { high - low } else { 0.0 }
}

/// The nearest joint above both feet, when there are two.
fn common_ancestor(model: &Model) -> Option<usize> {
    let [left, right] = find_feet(model)[..] else {
        return None;
    };
    let hierarchy = model.skeleton.hierarchy();
    let above_left: Vec<usize> = hierarchy.ancestors(left.joint).collect();
    hierarchy
        .ancestors(right.joint)
        .find(|joint| above_left.contains(joint))
}
