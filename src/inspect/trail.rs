//! One joint's motion trail: where the joint goes in model space over a clip, as a polyline
//! of timed points, some of them at the clip's keys.
//!
//! Semantics:
//! - A point's position is the joint's model-space origin (`model_matrices[joint].w_axis`)
//!   after sampling the clip alone over the rest pose (`pose = rest; clip.sample(t, pose);
//!   pose.model_matrices()`): what the viewer shows while that clip plays without fades,
//!   additive layers or IK.
//! - Times run from 0 to the clip's duration every `TRAIL_STEP` seconds (or every
//!   `duration / MAX_STEPS` seconds for clips longer than `MAX_STEPS` steps, so a trail's size
//!   is bounded), plus every key time of the channels that animate the joint or one of its
//!   ancestors: the keys that move it. Points at those key times have `key` set.
//! - A window of ±N seconds around clip time `t` keeps the points whose offset from `t` is
//!   at most N. For a looping clip offsets wrap round the clip (the point at 0.1 s is 0.2 s
//!   after 1.9 s of a 2 s loop); otherwise the offset is plain `time - t`. A negative offset
//!   is the past.

use glam::{Mat4, Vec3};

use crate::anim::{Clip, ClipCursor, Pose, Skeleton, key_times};

/// Seconds between a trail's evenly spaced points.
pub const TRAIL_STEP: f32 = 1.0 / 60.0;

/// Most evenly spaced steps in one trail (a 66 s clip at `TRAIL_STEP`).
pub const MAX_STEPS: usize = 4000;

/// Key times closer than this (seconds) to a step's time replace that step.
const SAME_TIME: f32 = 1e-5;

/// How much of the clip a trail shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrailWindow {
    WholeClip,
    /// Seconds before and after the current time.
    Around(f32),
}

/// A point of a trail: clip time (seconds), model-space position, and whether a key of the
/// joint or of an ancestor lies at that time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrailPoint {
    pub time: f32,
    pub position: Vec3,
    pub key: bool,
}

/// Where "now" is on a trail: the clip time, the clip's duration and whether it loops (then
/// offsets wrap round the clip).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrailClock {
    pub time: f32,
    pub duration: f32,
    pub looping: bool,
}

impl TrailClock {
    /// Seconds from now to clip time `time` (negative: the past), wrapped into
    /// `[-duration / 2, duration / 2)` for a looping clip.
    pub fn offset(&self, time: f32) -> f32 {
        let offset = time - self.time;
        if self.looping && self.duration > 0.0 {
            let half = self.duration * 0.5;
            (offset + half).rem_euclid(self.duration) - half
        } else {
            offset
        }
    }
}

/// Poses one clip at chosen times into buffers it keeps, so posing allocates nothing after
/// the first time.
#[derive(Clone, Debug)]
pub struct ClipPoser {
    pose: Pose,
    matrices: Vec<Mat4>,
    cursor: ClipCursor,
}

impl ClipPoser {
    pub fn new(skeleton: &Skeleton) -> Self {
        let pose = skeleton.rest_pose().clone();
        Self {
            matrices: vec![Mat4::IDENTITY; pose.len()],
            pose,
            cursor: ClipCursor::default(),
        }
    }

    /// Whether this poser was made for `skeleton`'s hierarchy.
    pub fn fits(&self, skeleton: &Skeleton) -> bool {
        self.pose.hierarchy() == skeleton.hierarchy()
    }

    /// Every joint's model matrix (joint → model space) at clip time `time` of `clip`,
    /// sampled over `skeleton`'s rest pose.
    pub fn model_matrices(&mut self, skeleton: &Skeleton, clip: &Clip, time: f32) -> &[Mat4] {
        self.pose.copy_from(skeleton.rest_pose());
        clip.sample(time, &mut self.pose, &mut self.cursor);
        self.pose.model_matrices(&mut self.matrices);
        &self.matrices
    }

    /// `joint`'s model-space position at clip time `time` (the origin for a joint the
    /// skeleton does not have).
    pub fn position(&mut self, skeleton: &Skeleton, clip: &Clip, joint: usize, time: f32) -> Vec3 {
        let matrices = self.model_matrices(skeleton, clip, time);
        matrices.get(joint).map_or(Vec3::ZERO, |m| m.w_axis.truncate())
    }
}

/// One joint's path over one clip (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointTrail {
    joint: usize,
    points: Vec<TrailPoint>,
}

impl JointTrail {
    /// `joint`'s trail over `clip`, posed by `poser`.
    pub fn new(skeleton: &Skeleton, clip: &Clip, joint: usize, poser: &mut ClipPoser) -> Self {
        let mut trail = Self::default();
        trail.compute(skeleton, clip, joint, poser);
        trail
    }

    /// Recomputes this trail for `joint` over `clip`, reusing its memory.
    pub fn compute(&mut self, skeleton: &Skeleton, clip: &Clip, joint: usize, poser: &mut ClipPoser) {
        self.joint = joint;
        self.points.clear();
        trail_times(skeleton, clip, joint, &mut self.points);
        for point in &mut self.points {
            point.position = poser.position(skeleton, clip, joint, point.time);
        }
    }

    pub fn joint(&self) -> usize {
        self.joint
    }

    /// Every point, in time order.
    #[cfg(any(test, feature = "internals"))]
    pub fn points(&self) -> &[TrailPoint] {
        &self.points
    }

    /// The polyline's pieces that `window` shows at `clock`: (from, to, in the past). A
    /// piece is in the past when its middle is.
    pub fn segments(&self, window: TrailWindow, clock: TrailClock) -> impl Iterator<Item = (Vec3, Vec3, bool)> + '_ {
        self.points.windows(2).filter_map(move |pair| {
            let [a, b] = [pair[0], pair[1]];
            match window {
                TrailWindow::WholeClip => Some((a.position, b.position, a.time + b.time < 2.0 * clock.time)),
                TrailWindow::Around(seconds) => {
                    let (from, to) = (clock.offset(a.time), clock.offset(b.time));
                    // A piece whose offsets run backwards crosses the loop's far side.
                    let shown = from.abs() <= seconds && to.abs() <= seconds && to >= from;
                    shown.then_some((a.position, b.position, from + to < 0.0))
                }
            }
        })
    }

    /// The points at keys that `window` shows at `clock`: (position, in the past).
    pub fn ticks(&self, window: TrailWindow, clock: TrailClock) -> impl Iterator<Item = (Vec3, bool)> + '_ {
        self.points.iter().filter(|p| p.key).filter_map(move |p| {
            let (offset, shown) = match window {
                TrailWindow::WholeClip => (p.time - clock.time, true),
                TrailWindow::Around(seconds) => {
                    let offset = clock.offset(p.time);
                    (offset, offset.abs() <= seconds)
                }
            };
            shown.then_some((p.position, offset < 0.0))
        })
    }
}

/// Appends to `out` (positions left at zero) the trail's times for `joint` over `clip`: the
/// even steps merged with the keys that move the joint, in order.
fn trail_times(skeleton: &Skeleton, clip: &Clip, joint: usize, out: &mut Vec<TrailPoint>) {
    let duration = clip.duration().max(0.0);
    let step = TRAIL_STEP.max(duration / MAX_STEPS as f32);
    // At most MAX_STEPS + 1 (the division is by at least duration / MAX_STEPS).
    let steps = ((duration / step).ceil() as usize).min(MAX_STEPS);
    let mut keys: Vec<f32> = std::iter::once(joint)
        .chain(skeleton.hierarchy().ancestors(joint))
        .flat_map(|j| key_times(clip, Some(j)))
        .filter(|t| (0.0..=duration).contains(t))
        .collect();
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mut keys = keys.into_iter().peekable();
    let point = |time: f32, key: bool| TrailPoint {
        time,
        position: Vec3::ZERO,
        key,
    };
    for i in 0..=steps {
        let time = (i as f32 * step).min(duration);
        while let Some(key) = keys.next_if(|&k| k < time - SAME_TIME) {
            out.push(point(key, true));
        }
        let on_key = keys.next_if(|&k| k <= time + SAME_TIME);
        out.push(point(on_key.unwrap_or(time), on_key.is_some()));
    }
    out.extend(keys.map(|k| point(k, true)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn points_are_the_joints_world_positions_at_their_times() {
        let model = demo_model();
        let skeleton = &model.skeleton;
        let wrist = skeleton.find("wrist.L").unwrap();
        let clip = &model.clips[1];
        let trail = JointTrail::new(skeleton, clip, wrist, &mut ClipPoser::new(skeleton));
        assert!(trail.points().len() as f32 >= clip.duration() / TRAIL_STEP);
        for point in trail.points() {
            // Posed independently: a fresh pose, the clip, then the chain of local matrices.
            let mut pose = skeleton.rest_pose().clone();
            clip.sample(point.time, &mut pose, &mut clip.cursor());
            let mut world = pose.local()[wrist].to_mat4();
            for ancestor in skeleton.hierarchy().ancestors(wrist) {
                world = pose.local()[ancestor].to_mat4() * world;
            }
            let expected = world.w_axis.truncate();
            assert!(
                point.position.distance(expected) < 1e-5,
                "at {} s: {} vs {expected}",
                point.time,
                point.position
            );
        }
    }

    #[test]
    fn times_cover_the_clip_in_order_with_every_key_that_moves_the_joint() {
        let model = demo_model();
        let skeleton = &model.skeleton;
        let wrist = skeleton.find("wrist.L").unwrap();
        let clip = &model.clips[3];
        let trail = JointTrail::new(skeleton, clip, wrist, &mut ClipPoser::new(skeleton));
        let times: Vec<f32> = trail.points().iter().map(|p| p.time).collect();
        assert_eq!(times.first(), Some(&0.0));
        assert_eq!(times.last(), Some(&clip.duration()));
        assert!(times.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
        let mut moving_keys: Vec<f32> = std::iter::once(wrist)
            .chain(skeleton.hierarchy().ancestors(wrist))
            .flat_map(|j| key_times(clip, Some(j)))
            .collect();
        moving_keys.sort_by(f32::total_cmp);
        moving_keys.dedup();
        let marked: Vec<f32> = trail.points().iter().filter(|p| p.key).map(|p| p.time).collect();
        assert_eq!(marked, moving_keys);
        assert!(!marked.is_empty());
    }

    #[test]
    fn a_window_keeps_the_points_near_now_and_wraps_round_a_loop() {
        let looping = TrailClock {
            time: 1.9,
            duration: 2.0,
            looping: true,
        };
        assert!((looping.offset(0.1) - 0.2).abs() < 1e-5, "just after the seam");
        assert!((looping.offset(1.5) + 0.4).abs() < 1e-5);
        let once = TrailClock {
            looping: false,
            ..looping
        };
        assert!((once.offset(0.1) + 1.8).abs() < 1e-5, "no wrap without a loop");

        let model = demo_model();
        let skeleton = &model.skeleton;
        let clip = &model.clips[1];
        let trail = JointTrail::new(skeleton, clip, 0, &mut ClipPoser::new(skeleton));
        let clock = TrailClock {
            time: clip.duration() * 0.5,
            duration: clip.duration(),
            looping: true,
        };
        let all = trail.segments(TrailWindow::WholeClip, clock).count();
        assert_eq!(all, trail.points().len() - 1);
        let near: Vec<_> = trail.segments(TrailWindow::Around(0.1), clock).collect();
        assert!(!near.is_empty() && near.len() < all / 2, "{} of {all}", near.len());
        let past = near.iter().filter(|s| s.2).count();
        assert!(past > 0 && past < near.len(), "some past, some future");
        let at_start = TrailClock { time: 0.0, ..clock };
        let wrapped = trail
            .segments(TrailWindow::Around(0.1), at_start)
            .filter(|s| s.2)
            .count();
        assert!(wrapped > 0, "the past of a loop's start is its end");
    }
}
