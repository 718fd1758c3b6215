//! Rotation keys and loop seams.

use super::skin::listed;
use super::{Findings, Rest, Rule, joint_name};
use crate::anim::{ChannelTrack, Interpolation, Pose};
use crate::asset::Model;
use crate::inspect::motion::{InPlace, choose_root};

/// A clip counts as made to loop when at least this share of the joints it animates end where
/// they start.
const LOOPING_SHARE: f32 = 0.8;
/// Start and end match within this fraction of the model's size and this many degrees.
const SEAM_POSITION_TOLERANCE: f32 = 0.005;
const SEAM_ANGLE_TOLERANCE_DEGREES: f32 = 1.0;
/// Steps a clip is sampled in to find how far its joints move per frame.
const FRAME: f32 = 1.0 / 30.0;
/// The most steps a clip is sampled in, so that the work stays bounded whatever a file says
/// its duration is: a longer clip is sampled in this many even steps (its motion per step then
/// stands for its motion per frame, which only makes the seam check less eager).
const MAX_SEAM_STEPS: usize = 9000;

pub(super) fn check(model: &Model, rest: &Rest, findings: &mut Findings) {
    for repair in &model.key_repairs {
        let Some(clip) = model.clips.get(repair.clip) else {
            continue;
        };
        findings.add(
            Rule::RotationKeysNotUnit,
            format!("clip '{}' joint {}", clip.name(), joint_name(model, repair.joint)),
            "rotation keys are not unit quaternions (normalised on load)",
            repair.not_unit,
        );
    }
    for clip in &model.clips {
        for channel in clip.channels() {
            let ChannelTrack::Rotation(track) = &channel.track else {
                continue;
            };
            if track.interpolation() == Interpolation::CubicSpline {
                // Cubic-spline keys carry their own tangents; a sign change there is deliberate.
                continue;
            }
            let keys: Vec<glam::Quat> = track.key_values().collect();
            let flips = keys.windows(2).filter(|pair| pair[0].dot(pair[1]) < 0.0).count();
            findings.add(
                Rule::QuaternionSignFlip,
                format!("clip '{}' joint {}", clip.name(), joint_name(model, channel.joint)),
                "consecutive rotation keys flip sign (fine here, but engines that interpolate without the shortest path spin)",
                flips,
            );
        }
        check_seam(model, clip, rest.size, findings);
    }
}

/// A clip whose joints mostly end where they start (its travel taken out) is meant to loop;
/// those of its joints that end elsewhere, by more than they move in any one frame, pop at
/// the seam.
fn check_seam(model: &Model, clip: &crate::anim::Clip, size: f32, findings: &mut Findings) {
    let duration = clip.duration();
    if duration <= FRAME {
        return;
    }
    // Animated properties (materials, lights, ...) do not move joints.
    let transforms = clip
        .channels()
        .iter()
        .filter(|c| !matches!(c.track, ChannelTrack::Properties { .. }));
    let mut joints: Vec<usize> = transforms.map(|c| c.joint).collect();
    joints.sort_unstable();
    joints.dedup();
    let rest_pose = model.skeleton.rest_pose();
    let mut cursor = clip.cursor();
    let mut sample = |time: f32, pose: &mut Pose| {
        pose.copy_from(rest_pose);
        clip.sample(time, pose, &mut cursor);
    };
    // A clip that travels loops once its travel is taken out (a walk cycle ends a stride on).
    let in_place = choose_root(model, clip).and_then(|root| InPlace::new(&model.skeleton, clip, root.joint));
    let (mut first, mut previous, mut current) = (rest_pose.clone(), rest_pose.clone(), rest_pose.clone());
    sample(0.0, &mut first);
    previous.copy_from(&first);
    // How far each joint moves in one frame at most; `previous` ends at the clip's end.
    let mut step = vec![(0.0f32, 0.0f32); joints.len()];
    let frames = (duration / FRAME).ceil() as usize;
    let (steps, step_time) = if frames <= MAX_SEAM_STEPS {
        (frames, FRAME)
    } else {
        (MAX_SEAM_STEPS, duration / MAX_SEAM_STEPS as f32)
    };
    for step_index in 1..=steps {
        sample((step_index as f32 * step_time).min(duration), &mut current);
        for (slot, &joint) in step.iter_mut().zip(&joints) {
            let (moved, turned) = difference(&previous, &current, joint, size);
            *slot = (slot.0.max(moved), slot.1.max(turned));
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let mut last = previous;
    if let Some(in_place) = in_place {
        in_place.apply(&mut last);
    }
    let mut matching = 0;
    let mut jumps = Vec::new();
    for (&(max_moved, max_turned), &joint) in step.iter().zip(&joints) {
        let (moved, turned) = difference(&first, &last, joint, size);
        if moved <= SEAM_POSITION_TOLERANCE && turned <= SEAM_ANGLE_TOLERANCE_DEGREES {
            matching += 1;
        } else if moved > 2.0 * max_moved.max(SEAM_POSITION_TOLERANCE)
            || turned > 2.0 * max_turned.max(SEAM_ANGLE_TOLERANCE_DEGREES)
        {
            jumps.push(joint);
        }
    }
    if (matching as f32) < LOOPING_SHARE * joints.len() as f32 {
        return;
    }
    findings.add(
        Rule::LoopSeamJump,
        format!("clip '{}'", clip.name()),
        format!(
            "ends away from where it starts, so looping pops: {}",
            listed(model, &jumps)
        ),
        jumps.len(),
    );
}

/// How far `joint` is apart between two poses: local translation over the model's size, and
/// local rotation in degrees.
fn difference(a: &Pose, b: &Pose, joint: usize, size: f32) -> (f32, f32) {
    let (a, b) = (&a.local()[joint], &b.local()[joint]);
    (
        a.translation.distance(b.translation) / size,
        a.rotation.angle_between(b.rotation).to_degrees(),
    )
}
