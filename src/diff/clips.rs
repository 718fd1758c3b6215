//! Clips compared: paired by name, then clips of one model only paired with a clip of the
//! other that has the same length and the same motion (renamed); length, key rate, and the
//! motion itself.
//!
//! Motion is compared where it is defined: both clips are sampled at every key time of either
//! (each model's joints reset to its own rest pose first, as the viewer plays a clip), and at
//! each time every paired joint's model matrix is compared: the distance between the joints'
//! positions and the angle between their rotations. The largest of each, with the joint and
//! the time, is the clip's difference.

use glam::Mat4;
use serde::Serialize;

use super::binds::angle_degrees;
use super::report_text::{format_angle, format_distance};
use super::{Finding, Section, Tolerance, beyond};
use crate::anim::{Clip, Pose, key_times};
use crate::asset::Model;

/// How far apart two clips' lengths (seconds) may be and still be the same.
const TIME_TOLERANCE: f32 = 1.0e-4;

/// How far apart two key rates (frames per second) may be and still be the same.
const RATE_TOLERANCE: f32 = 1.0e-3;

/// What happened to one clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClipStatus {
    Same,
    Changed,
    /// Only the name changed (same length, same motion).
    Renamed,
    Added,
    Removed,
}

/// One clip of A and its pair in B, or a clip only one of them has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipDiff {
    /// A's name (B's for a clip only in B).
    pub name: String,
    pub name_b: Option<String>,
    pub clip: Option<usize>,
    pub clip_b: Option<usize>,
    pub status: ClipStatus,
    /// Lengths in seconds and key rates in frames per second (0 where the clip is missing).
    pub duration: f32,
    pub duration_b: f32,
    pub key_rate: f32,
    pub key_rate_b: f32,
    pub motion: Motion,
}

/// The largest difference between two clips' motion (all 0 for a clip only in one model).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Motion {
    /// Between paired joints' model-space positions, in metres, and where (A's joint, seconds).
    pub largest_distance: f32,
    pub distance_joint: Option<usize>,
    pub distance_time: f32,
    /// Between paired joints' model-space rotations, in degrees, and where.
    pub largest_angle_degrees: f32,
    pub angle_joint: Option<usize>,
    pub angle_time: f32,
    /// How many times the clips were compared at.
    pub samples: usize,
}

impl Motion {
    fn beyond(&self, tolerance: &Tolerance) -> bool {
        beyond(self.largest_distance, tolerance.distance) || beyond(self.largest_angle_degrees, tolerance.angle_degrees)
    }
}

/// What sampling two models' clips needs, made once and reused for every pair of clips.
struct Sampler<'a> {
    a: &'a Model,
    b: &'a Model,
    pairs: Vec<(usize, usize)>,
    pose: Pose,
    pose_b: Pose,
    matrices: Vec<Mat4>,
    matrices_b: Vec<Mat4>,
}

impl<'a> Sampler<'a> {
    fn new(a: &'a Model, b: &'a Model, joint_pairs: &[Option<usize>]) -> Self {
        Self {
            a,
            b,
            pairs: (joint_pairs.iter().enumerate())
                .filter_map(|(j, p)| Some((j, (*p)?)))
                .collect(),
            pose: a.skeleton.rest_pose().clone(),
            pose_b: b.skeleton.rest_pose().clone(),
            matrices: vec![Mat4::IDENTITY; a.skeleton.len()],
            matrices_b: vec![Mat4::IDENTITY; b.skeleton.len()],
        }
    }

    /// The largest difference between `clip` of A and `clip_b` of B over their keys.
    fn motion(&mut self, clip: &Clip, clip_b: &Clip) -> Motion {
        let mut times = key_times(clip, None);
        times.extend(key_times(clip_b, None));
        times.sort_by(f32::total_cmp);
        times.dedup();
        if times.is_empty() {
            times.push(0.0);
        }
        let (mut cursor, mut cursor_b) = (clip.cursor(), clip_b.cursor());
        let mut motion = Motion {
            samples: times.len(),
            ..Motion::default()
        };
        for &time in &times {
            self.pose.copy_from(self.a.skeleton.rest_pose());
            self.pose_b.copy_from(self.b.skeleton.rest_pose());
            clip.sample(time, &mut self.pose, &mut cursor);
            clip_b.sample(time, &mut self.pose_b, &mut cursor_b);
            self.pose.model_matrices(&mut self.matrices);
            self.pose_b.model_matrices(&mut self.matrices_b);
            for &(joint, joint_b) in &self.pairs {
                let (_, rotation, translation) = self.matrices[joint].to_scale_rotation_translation();
                let (_, rotation_b, translation_b) = self.matrices_b[joint_b].to_scale_rotation_translation();
                let distance = translation.distance(translation_b);
                if distance > motion.largest_distance || distance.is_nan() {
                    (motion.largest_distance, motion.distance_joint, motion.distance_time) =
                        (distance, Some(joint), time);
                }
                let angle = angle_degrees(rotation, rotation_b);
                if angle > motion.largest_angle_degrees || angle.is_nan() {
                    (motion.largest_angle_degrees, motion.angle_joint, motion.angle_time) = (angle, Some(joint), time);
                }
            }
        }
        motion
    }
}

/// Pairs the clips: by name, then renamed ones by length and motion.
fn pair_clips(a: &Model, b: &Model, sampler: &mut Sampler, tolerance: &Tolerance) -> Vec<(Option<usize>, bool)> {
    let mut used = vec![false; b.clips.len()];
    let mut pairs: Vec<(Option<usize>, bool)> = (a.clips.iter())
        .map(|clip| {
            let found = (b.clips.iter().enumerate()).position(|(i, c)| !used[i] && c.name() == clip.name());
            if let Some(index) = found {
                used[index] = true;
            }
            (found, false)
        })
        .collect();
    for (index, clip) in a.clips.iter().enumerate() {
        if pairs[index].0.is_some() {
            continue;
        }
        let same_motion = (b.clips.iter().enumerate()).position(|(i, clip_b)| {
            !used[i]
                && (clip.duration() - clip_b.duration()).abs() <= TIME_TOLERANCE
                && !sampler.motion(clip, clip_b).beyond(tolerance)
        });
        if let Some(index_b) = same_motion {
            used[index_b] = true;
            pairs[index] = (Some(index_b), true);
        }
    }
    pairs
}

/// Compares the clips of `a` and `b` (see the module docs).
pub fn compare(
    a: &Model,
    b: &Model,
    joint_pairs: &[Option<usize>],
    tolerance: &Tolerance,
    findings: &mut Vec<Finding>,
) -> Vec<ClipDiff> {
    let mut sampler = Sampler::new(a, b, joint_pairs);
    let pairs = pair_clips(a, b, &mut sampler, tolerance);
    let mut diffs = Vec::new();
    for (index, clip) in a.clips.iter().enumerate() {
        let mut diff = ClipDiff {
            name: clip.name().to_owned(),
            name_b: None,
            clip: Some(index),
            clip_b: None,
            status: ClipStatus::Removed,
            duration: clip.duration(),
            duration_b: 0.0,
            key_rate: clip.key_rate(),
            key_rate_b: 0.0,
            motion: Motion::default(),
        };
        if let (Some(index_b), renamed) = pairs[index]
            && let Some(clip_b) = b.clips.get(index_b)
        {
            diff.name_b = Some(clip_b.name().to_owned());
            diff.clip_b = Some(index_b);
            diff.duration_b = clip_b.duration();
            diff.key_rate_b = clip_b.key_rate();
            diff.motion = sampler.motion(clip, clip_b);
            let changed = beyond((diff.duration - diff.duration_b).abs(), TIME_TOLERANCE)
                || beyond((diff.key_rate - diff.key_rate_b).abs(), RATE_TOLERANCE)
                || diff.motion.beyond(tolerance);
            diff.status = match (renamed, changed) {
                (true, _) => ClipStatus::Renamed,
                (false, true) => ClipStatus::Changed,
                (false, false) => ClipStatus::Same,
            };
        }
        diffs.push(diff);
    }
    let paired_b: Vec<usize> = pairs.iter().filter_map(|p| p.0).collect();
    for (index_b, clip_b) in b.clips.iter().enumerate().filter(|(i, _)| !paired_b.contains(i)) {
        diffs.push(ClipDiff {
            name: clip_b.name().to_owned(),
            name_b: Some(clip_b.name().to_owned()),
            clip: None,
            clip_b: Some(index_b),
            status: ClipStatus::Added,
            duration: 0.0,
            duration_b: clip_b.duration(),
            key_rate: 0.0,
            key_rate_b: clip_b.key_rate(),
            motion: Motion::default(),
        });
    }
    for diff in &diffs {
        clip_findings(a, diff, tolerance, findings);
    }
    diffs
}

/// The findings about one clip.
fn clip_findings(a: &Model, diff: &ClipDiff, tolerance: &Tolerance, findings: &mut Vec<Finding>) {
    let name = &diff.name;
    let mut finding = |text: String, joint: Option<usize>, time: Option<f32>| {
        findings.push(Finding {
            section: Section::Clips,
            text,
            joint,
            clip: diff.clip.is_some().then(|| name.clone()),
            time,
        })
    };
    match diff.status {
        ClipStatus::Same => {}
        ClipStatus::Removed => finding(format!("'{name}' removed ({:.2} s)", diff.duration), None, None),
        ClipStatus::Added => finding(format!("'{name}' added ({:.2} s)", diff.duration_b), None, None),
        ClipStatus::Renamed => {
            let name_b = diff.name_b.as_deref().unwrap_or_default();
            finding(
                format!("'{name}' renamed to '{name_b}' (same length and motion)"),
                None,
                None,
            );
        }
        ClipStatus::Changed => {
            if beyond((diff.duration - diff.duration_b).abs(), TIME_TOLERANCE) {
                let text = format!(
                    "'{name}': {:.3} s long in A, {:.3} s in B",
                    diff.duration, diff.duration_b
                );
                finding(text, None, None);
            }
            if beyond((diff.key_rate - diff.key_rate_b).abs(), RATE_TOLERANCE) {
                let text = format!(
                    "'{name}': keyed at {} fps in A, {} fps in B",
                    diff.key_rate, diff.key_rate_b
                );
                finding(text, None, None);
            }
            let motion = &diff.motion;
            let joint_name = |joint: Option<usize>| joint.map_or("?", |j| a.skeleton.name(j));
            if beyond(motion.largest_distance, tolerance.distance) {
                let text = format!(
                    "'{name}': joints up to {} apart ('{}' at {:.3} s)",
                    format_distance(motion.largest_distance),
                    joint_name(motion.distance_joint),
                    motion.distance_time
                );
                finding(text, motion.distance_joint, Some(motion.distance_time));
            }
            if beyond(motion.largest_angle_degrees, tolerance.angle_degrees) {
                let text = format!(
                    "'{name}': joints turned up to {} apart ('{}' at {:.3} s)",
                    format_angle(motion.largest_angle_degrees),
                    joint_name(motion.angle_joint),
                    motion.angle_time
                );
                finding(text, motion.angle_joint, Some(motion.angle_time));
            }
        }
    }
}
