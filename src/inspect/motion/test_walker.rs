//! A stick figure that walks, for the motion checks' tests: a root, the hips 0.9 m above it,
//! a spine and head up to 1.8 m, and two legs whose feet stand 0.1 m up at rest.
//!
//! The walk lasts 2 s at `speed` along +Z, keyed 60 times a second. The left foot stands from
//! 0 to 0.5 s, swings to 1 s (rising 15 cm), stands to 1.5 s, swings to 2 s; the right foot
//! does the same half a second later. A standing foot stays where it stands in model space;
//! `left_slide` moves the left foot sideways by that much over its stance from 1 to 1.5 s.
//! The spine and head sway 5° about +Z once a second, so the walk loops once its travel is
//! taken out; `open_loop` turns the spine that many degrees more over the walk, so it does not.

use std::f32::consts::{PI, TAU};
use std::path::PathBuf;

use glam::{Quat, Vec3};

use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, JointDesc, Skeleton, Track, Transform};
use crate::asset::Model;

/// Which joint the walk's travel is keyed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrier {
    /// A root joint under the hips (a game rig).
    Root,
    /// The hips (a Mixamo rig).
    Hips,
}

#[derive(Clone, Copy, Debug)]
pub struct Walk {
    /// Metres a second.
    pub speed: f32,
    pub carrier: Carrier,
    /// Metres.
    pub left_slide: f32,
    /// Whole turns about +Y the root makes over the walk.
    pub turns: f32,
    /// Degrees the spine turns about +Y over the walk, besides its sway.
    pub open_loop: f32,
}

impl Default for Walk {
    fn default() -> Self {
        Self {
            speed: 1.5,
            carrier: Carrier::Root,
            left_slide: 0.0,
            turns: 0.0,
            open_loop: 0.0,
        }
    }
}

const DURATION: f32 = 2.0;
const KEYS_PER_SECOND: f32 = 60.0;
const HIPS_HEIGHT: f32 = 0.9;
const LEG: f32 = 0.8;

/// The walker with its one clip, "walk".
pub fn walker(walk: Walk) -> Model {
    let joints: [(&str, Option<u32>, Vec3); 8] = [
        ("root", None, Vec3::ZERO),
        ("mixamorig:Hips", Some(0), Vec3::new(0.0, HIPS_HEIGHT, 0.0)),
        ("spine", Some(1), Vec3::new(0.0, 0.3, 0.0)),
        ("head", Some(2), Vec3::new(0.0, 0.6, 0.0)),
        ("leftUpLeg", Some(1), Vec3::new(0.1, 0.0, 0.0)),
        ("mixamorig:LeftFoot", Some(4), Vec3::new(0.0, -LEG, 0.0)),
        ("rightUpLeg", Some(1), Vec3::new(-0.1, 0.0, 0.0)),
        ("mixamorig:RightFoot", Some(6), Vec3::new(0.0, -LEG, 0.0)),
    ];
    let mut model = rig(&joints);
    model.clips = vec![walk_clip(walk)];
    model
}

/// A model of these joints alone (name, parent, place at rest), made in memory.
pub fn rig(joints: &[(&str, Option<u32>, Vec3)]) -> Model {
    let descs = joints.iter().map(|&(name, parent, at)| JointDesc {
        name: name.into(),
        parent,
        rest: Transform::new(at, Quat::IDENTITY, Vec3::ONE),
        bind_model: None,
        morph_weights: Vec::new(),
    });
    Model::new(PathBuf::new(), None, Skeleton::new(descs.collect()).unwrap())
}

fn walk_clip(walk: Walk) -> Clip {
    let count = (DURATION * KEYS_PER_SECOND) as usize;
    let times: Vec<f32> = (0..=count).map(|i| i as f32 / KEYS_PER_SECOND).collect();
    let body = |t: f32| walk.speed * t;
    // The feet's places relative to their upper legs, which ride on the body.
    let foot = |t: f32, right: bool| {
        let (u, shift) = if right { (t - 0.5, 0.5 * walk.speed) } else { (t, 0.0) };
        let slide = if right {
            0.0
        } else {
            walk.left_slide * ((u - 1.0) / 0.5).clamp(0.0, 1.0)
        };
        let (z, lift) = foot_path(u, walk.speed);
        Vec3::new(slide, 0.1 + lift - HIPS_HEIGHT, z + shift - body(t))
    };
    let track = |values: Vec<Vec3>| Track::new(Interpolation::Linear, times.clone(), values).unwrap();
    let carried = |t: f32| match walk.carrier {
        Carrier::Root => Vec3::new(0.0, 0.0, body(t)),
        Carrier::Hips => Vec3::new(0.0, HIPS_HEIGHT, body(t)),
    };
    let carrier = match walk.carrier {
        Carrier::Root => 0,
        Carrier::Hips => 1,
    };
    let turn = |t: f32| Quat::from_rotation_y(walk.turns * TAU * t / DURATION);
    let rotations = |turn: &dyn Fn(f32) -> Quat| {
        let values = times.iter().map(|&t| turn(t)).collect();
        ChannelTrack::Rotation(Track::new(Interpolation::Linear, times.clone(), values).unwrap())
    };
    let sway = |t: f32| Quat::from_rotation_z(5f32.to_radians() * (TAU * t).sin());
    let spine = |t: f32| Quat::from_rotation_y((walk.open_loop * t / DURATION).to_radians()) * sway(t);
    let channels = vec![
        Channel {
            joint: carrier,
            track: ChannelTrack::Translation(track(times.iter().map(|&t| carried(t)).collect())),
        },
        Channel {
            joint: 0,
            track: rotations(&turn),
        },
        Channel {
            joint: 2,
            track: rotations(&spine),
        },
        Channel {
            joint: 3,
            track: rotations(&sway),
        },
        Channel {
            joint: 5,
            track: ChannelTrack::Translation(track(times.iter().map(|&t| foot(t, false)).collect())),
        },
        Channel {
            joint: 7,
            track: ChannelTrack::Translation(track(times.iter().map(|&t| foot(t, true)).collect())),
        },
    ];
    Clip::new("walk".into(), channels)
}

/// A left foot's place along +Z and its lift at time `u`: standing from `k` to `k + 0.5`
/// at `speed · (k + 0.25)`, then swinging one stride ahead.
fn foot_path(u: f32, speed: f32) -> (f32, f32) {
    let k = u.floor();
    let stand = speed * (k + 0.25);
    let swing = u - k - 0.5;
    if swing <= 0.0 {
        (stand, 0.0)
    } else {
        (stand + 2.0 * speed * swing, 0.15 * (PI * swing / 0.5).sin())
    }
}
