//! The motion trails a view shows: one per chosen joint, and the root-motion trail, over the
//! clip playing, with each joint's position now. The viewer asks for them every frame; they
//! are recomputed only when the model, the clip or the joints change, and the current
//! positions only when the time does, so steady playback allocates nothing.
//!
//! The root-motion trail follows `root_motion_joint`: the shallowest joint the clip
//! translates (the hips in most rigs, the root when the file moves the whole rig), else the
//! first root. The renderer lays it on the ground plane.

use glam::Vec3;

use super::trail::{ClipPoser, JointTrail, TrailClock};
use crate::anim::{ChannelTrack, Clip, Playback, Skeleton};
use crate::asset::Model;

/// The clip (an index into `Model::clips`; none for the rest pose), its playback time and
/// how that time maps onto it: what the trails follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrailTime {
    pub clip: Option<usize>,
    pub time: f32,
    pub mode: Playback,
}

/// What the trails were computed for: the model's generation, the clip, the joints and
/// whether the root-motion trail was asked for.
#[derive(Clone, Debug, Default, PartialEq)]
struct Computed {
    generation: u64,
    clip: Option<usize>,
    joints: Vec<usize>,
    root: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Trails {
    computed: Option<Computed>,
    joints: Vec<JointTrail>,
    root: Option<JointTrail>,
    /// Each joint trail's position now, then the root trail's.
    current: Vec<Vec3>,
    clock: Option<TrailClock>,
    poser: Option<ClipPoser>,
}

impl Trails {
    /// Brings the trails up to date for `joints` (and the root-motion trail when `root`) of
    /// `model` (whose generation, bumped when it is replaced, is `generation`) at `at`. With
    /// no clip there are no trails.
    pub fn update<I>(&mut self, model: &Model, generation: u64, at: TrailTime, joints: I, root: bool)
    where
        I: Iterator<Item = usize> + Clone,
    {
        let skeleton = &model.skeleton;
        let clip = at.clip.and_then(|c| model.clips.get(c));
        let joints = joints.filter(|&j| j < skeleton.len());
        let same = self.computed.as_ref().is_some_and(|c| {
            (c.generation, c.clip, c.root) == (generation, at.clip, root) && c.joints.iter().copied().eq(joints.clone())
        });
        if !same {
            self.recompute(skeleton, clip, joints.clone(), root);
            self.computed = Some(Computed {
                generation,
                clip: at.clip,
                joints: joints.collect(),
                root,
            });
            self.clock = None;
        }
        let Some(clip) = clip else { return };
        let clock = TrailClock {
            time: at.mode.clip_time(at.time, clip.duration()),
            duration: clip.duration(),
            looping: at.mode == Playback::Loop,
        };
        if self.clock != Some(clock) {
            self.clock = Some(clock);
            self.pose_now(skeleton, clip, clock.time);
        }
    }

    fn recompute(&mut self, skeleton: &Skeleton, clip: Option<&Clip>, joints: impl Iterator<Item = usize>, root: bool) {
        self.joints.clear();
        self.root = None;
        self.current.clear();
        let Some(clip) = clip else { return };
        let poser = match &mut self.poser {
            Some(poser) if poser.fits(skeleton) => poser,
            slot => slot.insert(ClipPoser::new(skeleton)),
        };
        self.joints
            .extend(joints.map(|joint| JointTrail::new(skeleton, clip, joint, poser)));
        self.root = root
            .then(|| root_motion_joint(skeleton, clip))
            .flatten()
            .map(|joint| JointTrail::new(skeleton, clip, joint, poser));
        self.current
            .resize(self.joints.len() + usize::from(self.root.is_some()), Vec3::ZERO);
    }

    /// The trails' positions at clip time `time`.
    fn pose_now(&mut self, skeleton: &Skeleton, clip: &Clip, time: f32) {
        // With every trail off (the viewer's default) there is nothing to pose.
        let Some(poser) = self.poser.as_mut().filter(|_| !self.current.is_empty()) else {
            return;
        };
        let matrices = poser.model_matrices(skeleton, clip, time);
        let trails = self.joints.iter().chain(&self.root);
        for (current, trail) in self.current.iter_mut().zip(trails) {
            *current = matrices.get(trail.joint()).map_or(Vec3::ZERO, |m| m.w_axis.truncate());
        }
    }

    /// Each chosen joint's trail with its position now, in the order asked for.
    pub fn joint_trails(&self) -> impl Iterator<Item = (&JointTrail, Vec3)> + '_ {
        self.joints.iter().zip(self.current.iter().copied())
    }

    /// The root-motion trail and its position now, when asked for and the clip has one.
    pub fn root_trail(&self) -> Option<(&JointTrail, Vec3)> {
        let current = self.current.get(self.joints.len()).copied()?;
        self.root.as_ref().map(|trail| (trail, current))
    }

    /// Where now is on the trails; none without a clip.
    pub fn clock(&self) -> Option<TrailClock> {
        self.clock
    }
}

/// The joint whose path is `clip`'s root motion (see the module docs); none for an empty
/// skeleton.
pub fn root_motion_joint(skeleton: &Skeleton, clip: &Clip) -> Option<usize> {
    let hierarchy = skeleton.hierarchy();
    let translated = clip
        .channels()
        .iter()
        .filter(|c| matches!(c.track, ChannelTrack::Translation(_)) && c.joint < skeleton.len())
        .map(|c| c.joint);
    translated
        .min_by_key(|&joint| (hierarchy.ancestors(joint).count(), joint))
        .or((!skeleton.is_empty()).then_some(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    fn at(clip: usize, time: f32) -> TrailTime {
        TrailTime {
            clip: Some(clip),
            time,
            mode: Playback::Loop,
        }
    }

    #[test]
    fn trails_follow_the_joints_and_the_clip_and_mark_now() {
        let model = demo_model();
        let skeleton = &model.skeleton;
        let wrist = skeleton.find("wrist.L").unwrap();
        let ankle = skeleton.find("ankle.R").unwrap();
        let mut trails = Trails::default();
        trails.update(&model, 0, at(1, 0.3), [wrist, ankle].into_iter(), true);
        let joints: Vec<usize> = trails.joint_trails().map(|(t, _)| t.joint()).collect();
        assert_eq!(joints, [wrist, ankle]);
        let clip = &model.clips[1];
        let mut poser = ClipPoser::new(skeleton);
        let (trail, now) = trails.joint_trails().next().unwrap();
        assert_eq!(*trail, JointTrail::new(skeleton, clip, wrist, &mut poser));
        assert!(now.distance(poser.position(skeleton, clip, wrist, 0.3)) < 1e-6);
        let (root, _) = trails.root_trail().expect("asked for");
        assert_eq!(Some(root.joint()), root_motion_joint(skeleton, clip));

        trails.update(&model, 0, at(1, 0.6), [wrist].into_iter(), false);
        assert_eq!(trails.joint_trails().count(), 1);
        assert!(trails.root_trail().is_none());
        let (_, now) = trails.joint_trails().next().unwrap();
        assert!(
            now.distance(poser.position(skeleton, clip, wrist, 0.6)) < 1e-6,
            "time moved"
        );

        trails.update(&model, 0, at(2, 0.6), [wrist].into_iter(), false);
        let run = JointTrail::new(skeleton, &model.clips[2], wrist, &mut poser);
        assert_eq!(*trails.joint_trails().next().unwrap().0, run, "another clip");
        let rest = TrailTime {
            clip: None,
            ..at(0, 0.0)
        };
        trails.update(&model, 0, rest, [wrist].into_iter(), true);
        assert_eq!(trails.joint_trails().count(), 0, "no clip, no trail");
        assert!(trails.clock().is_none());
    }

    #[test]
    fn the_root_motion_joint_is_the_shallowest_translated_joint() {
        let model = demo_model();
        let skeleton = &model.skeleton;
        for clip in &model.clips {
            let joint = root_motion_joint(skeleton, clip).unwrap();
            let depth = |j: usize| skeleton.hierarchy().ancestors(j).count();
            for channel in clip.channels() {
                if matches!(channel.track, ChannelTrack::Translation(_)) {
                    assert!(depth(channel.joint) >= depth(joint), "{}", clip.name());
                }
            }
        }
        let still = Clip::new("still".into(), Vec::new());
        assert_eq!(
            root_motion_joint(skeleton, &still),
            Some(0),
            "nothing translated: the root"
        );
    }
}
