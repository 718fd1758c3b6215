//! Clip sampling's fast path. When a clip is first sampled, the LINEAR and STEP translation,
//! rotation and scale channels that share a key timeline are copied into one key-major block of
//! four-wide lanes (`lanes`): sampling a frame then finds the key span once per timeline, reads
//! two contiguous rows of keys, interpolates four channels per SIMD instruction and writes each
//! result to its joint. Baked clips (one timeline for every channel) become one block.
//!
//! The values are the tracks' own keys, interpolated by the same formulas as `Track::sample`
//! (lerp; shortest-arc Eberly slerp, with at least as many terms): only the evaluation order
//! changes. Everything else (cubic splines, weights, properties, and channels that write the
//! same joint property as another channel, whose order matters) stays on the general path.

use std::collections::HashSet;
use std::sync::Arc;

use glam::{Quat, Vec3, Vec4};

use super::channel::{Channel, ChannelTrack};
use super::keys::{Interpolation, KeySpan};
use super::lanes::{lerp3, slerp_shortest4};
use super::transform::Transform;
use crate::simd::transpose;

/// The channels sampled in blocks, and those left to the general path.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct FastChannels {
    blocks: Vec<KeyBlock>,
    /// Indices of the channels the blocks do not hold, in clip order.
    general: Vec<usize>,
    /// One more than the largest joint a block writes: the blocks need a pose this long.
    joints_needed: usize,
}

/// The channels of one timeline with one interpolation (LINEAR or STEP).
#[derive(Clone, Debug, PartialEq)]
struct KeyBlock {
    timeline: usize,
    step: bool,
    translations: ChannelGroups<3>,
    rotations: ChannelGroups<4>,
    scales: ChannelGroups<3>,
}

/// Groups of four channels: for each key, for each group, `N` lane vectors (one per component).
#[derive(Clone, Debug, Default, PartialEq)]
struct ChannelGroups<const N: usize> {
    joints: Vec<[u32; 4]>,
    keys: Vec<[Vec4; N]>,
}

/// A channel's joint and its value (`N` components) at every key.
type KeyedChannel<const N: usize> = (u32, Vec<[f32; N]>);

/// The property a block channel writes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Property {
    Translation,
    Rotation,
    Scale,
}

impl FastChannels {
    pub(super) fn new(channels: &[Channel], channel_timeline: &[usize], timelines: &[Arc<[f32]>]) -> Self {
        let mut seen = HashSet::new();
        let repeated: HashSet<(usize, Property)> = channels
            .iter()
            .filter_map(target)
            .filter(|key| !seen.insert(*key))
            .collect();
        let mut fast = FastChannels::default();
        // (timeline, step) → the channels of that block.
        let mut groups: Vec<((usize, bool), Vec<&Channel>)> = Vec::new();
        for (index, (channel, &timeline)) in channels.iter().zip(channel_timeline).enumerate() {
            let interpolation = channel.track.interpolation();
            let eligible = interpolation != Interpolation::CubicSpline
                && u32::try_from(channel.joint).is_ok()
                && target(channel).is_some_and(|key| !repeated.contains(&key));
            if !eligible {
                fast.general.push(index);
                continue;
            }
            let key = (timeline, interpolation == Interpolation::Step);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(channel),
                None => groups.push((key, vec![channel])),
            }
            fast.joints_needed = fast.joints_needed.max(channel.joint + 1);
        }
        for ((timeline, step), members) in groups {
            let keys = timelines[timeline].len();
            fast.blocks.push(KeyBlock::new(timeline, step, keys, &members));
        }
        fast
    }

    /// Indices of the channels the blocks do not sample, in clip order.
    pub(super) fn general(&self) -> &[usize] {
        &self.general
    }

    /// Whether the blocks can write into a pose of `joints` joints.
    pub(super) fn fits(&self, joints: usize) -> bool {
        self.joints_needed <= joints
    }

    /// Writes every block channel's value at the spans found for each timeline.
    pub(super) fn sample(&self, spans: &[KeySpan], local: &mut [Transform]) {
        for block in &self.blocks {
            block.sample(spans[block.timeline], local);
        }
    }
}

fn target(channel: &Channel) -> Option<(usize, Property)> {
    let property = match channel.track {
        ChannelTrack::Translation(_) => Property::Translation,
        ChannelTrack::Rotation(_) => Property::Rotation,
        ChannelTrack::Scale(_) => Property::Scale,
        ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => return None,
    };
    Some((channel.joint, property))
}

impl KeyBlock {
    fn new(timeline: usize, step: bool, keys: usize, members: &[&Channel]) -> Self {
        let (mut translations, mut rotations, mut scales) = (Vec::new(), Vec::new(), Vec::new());
        for channel in members {
            let joint = channel.joint as u32;
            match &channel.track {
                ChannelTrack::Translation(track) => {
                    translations.push((joint, track.key_values().map(vec3_array).collect()))
                }
                ChannelTrack::Rotation(track) => {
                    rotations.push((joint, track.key_values().map(|q| q.to_array()).collect()))
                }
                ChannelTrack::Scale(track) => scales.push((joint, track.key_values().map(vec3_array).collect())),
                ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => {}
            }
        }
        Self {
            timeline,
            step,
            translations: ChannelGroups::new(keys, &translations),
            rotations: ChannelGroups::new(keys, &rotations),
            scales: ChannelGroups::new(keys, &scales),
        }
    }

    #[inline]
    fn sample(&self, span: KeySpan, local: &mut [Transform]) {
        let (from, to, t) = match span {
            KeySpan::Clamped(key) => (key, key, 0.0),
            KeySpan::Between { index, .. } if self.step => (index, index, 0.0),
            KeySpan::Between { index, t, .. } => (index, index + 1, t),
        };
        if from == to {
            self.translations
                .write(from, local, |joint, v| joint.translation = v.truncate());
            self.rotations
                .write(from, local, |joint, v| joint.rotation = Quat::from_vec4(v));
            self.scales.write(from, local, |joint, v| joint.scale = v.truncate());
            return;
        }
        let t = Vec4::splat(t);
        let (a, b) = (self.translations.row(from), self.translations.row(to));
        self.translations
            .scatter(a.iter().zip(b).map(|(a, b)| pad(lerp3(a, b, t))), local, |joint, v| {
                joint.translation = v.truncate();
            });
        let (a, b) = (self.rotations.row(from), self.rotations.row(to));
        self.rotations.scatter(
            a.iter().zip(b).map(|(a, b)| slerp_shortest4(a, b, t)),
            local,
            |joint, v| {
                joint.rotation = Quat::from_vec4(v);
            },
        );
        let (a, b) = (self.scales.row(from), self.scales.row(to));
        self.scales
            .scatter(a.iter().zip(b).map(|(a, b)| pad(lerp3(a, b, t))), local, |joint, v| {
                joint.scale = v.truncate();
            });
    }
}

fn vec3_array(v: Vec3) -> [f32; 3] {
    v.to_array()
}

/// Three component lanes and a zero fourth, ready to transpose.
#[inline(always)]
fn pad([x, y, z]: [Vec4; 3]) -> [Vec4; 4] {
    [x, y, z, Vec4::ZERO]
}

impl<const N: usize> ChannelGroups<N> {
    /// `channels`: each channel's joint and its value at every key. A last group with fewer
    /// than four channels repeats its last channel, which writes the same value twice.
    fn new(keys: usize, channels: &[KeyedChannel<N>]) -> Self {
        let groups: Vec<Vec<&KeyedChannel<N>>> = channels
            .chunks(4)
            .map(|chunk| (0..4).map(|lane| &chunk[lane.min(chunk.len() - 1)]).collect())
            .collect();
        let joints = groups
            .iter()
            .map(|group| std::array::from_fn(|lane| group[lane].0))
            .collect();
        let mut values = Vec::with_capacity(keys * groups.len());
        for key in 0..keys {
            for group in &groups {
                values.push(std::array::from_fn(|component| {
                    Vec4::from_array(std::array::from_fn(|lane| group[lane].1[key][component]))
                }));
            }
        }
        Self { joints, keys: values }
    }

    #[inline(always)]
    fn row(&self, key: usize) -> &[[Vec4; N]] {
        let groups = self.joints.len();
        &self.keys[key * groups..(key + 1) * groups]
    }

    /// Writes key `key`'s values.
    #[inline(always)]
    fn write(&self, key: usize, local: &mut [Transform], set: impl Fn(&mut Transform, Vec4)) {
        let rows =
            (self.row(key).iter()).map(|lanes| std::array::from_fn(|i| lanes.get(i).copied().unwrap_or(Vec4::ZERO)));
        self.scatter(rows, local, set);
    }

    /// Writes each group's four values (component lanes, transposed here) to their joints.
    #[inline(always)]
    fn scatter(
        &self,
        groups: impl Iterator<Item = [Vec4; 4]>,
        local: &mut [Transform],
        set: impl Fn(&mut Transform, Vec4),
    ) {
        for (joints, lanes) in self.joints.iter().zip(groups) {
            let values = transpose(lanes);
            for (&joint, value) in joints.iter().zip(values) {
                set(&mut local[joint as usize], value);
            }
        }
    }
}
