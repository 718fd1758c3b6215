//! glTF animations → `Clip`s: node channels, and the pointer channels `pointer` gave slots
//! (animated properties, written to `Pose::properties`).

use glam::{Quat, Vec3};
use gltf_json::animation::{Interpolation as JsonInterpolation, Property};
use gltf_json::validation::Checked;

use super::accessor::Accessors;
use super::pointer::{ChannelSlot, PointerChannel};
use super::scenes::NodeJoints;
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, Skeleton, Track, WeightsTrack};
use crate::asset::LoadErrorKind;
use crate::asset::model::KeyRepair;

/// Rotation keys further than this from unit length are reported (they are normalised).
const UNIT_TOLERANCE: f32 = 1e-3;

/// Animation `index` of the file, and the file's index of each of its channels (some may
/// have been taken out, see `json`).
pub struct FileAnimation<'a> {
    pub index: usize,
    pub json: &'a gltf_json::Animation,
    pub channel_numbers: &'a [usize],
    /// Its channels that point at other properties, and the slot of each (none: not played).
    pub pointer_channels: &'a [PointerChannel],
    pub pointer_slots: &'a [Option<ChannelSlot>],
}

/// A sampler's interpolation, key times and output accessor.
struct SamplerKeys {
    interpolation: Interpolation,
    times: Vec<f32>,
    output: usize,
}

/// Loads an animation as a clip. `joint_of_node` maps file node indices to skeleton joints;
/// channels on nodes outside the scene shown are left out.
pub fn load_clip(
    accessors: &Accessors,
    file: FileAnimation,
    joint_of_node: &NodeJoints,
    skeleton: &Skeleton,
    warnings: &mut Vec<String>,
    key_repairs: &mut Vec<KeyRepair>,
) -> Result<Clip, LoadErrorKind> {
    let FileAnimation {
        index,
        json: animation,
        channel_numbers,
        pointer_channels,
        pointer_slots,
    } = file;
    let name = animation.name.clone().unwrap_or_else(|| format!("Animation {index}"));
    let mut channels = Vec::with_capacity(animation.channels.len());
    for (position, channel) in animation.channels.iter().enumerate() {
        let number = channel_numbers.get(position).copied().unwrap_or(position);
        let object = format!("/animations/{index}/channels/{number}");
        let file = FileChannel {
            animation: index,
            json: animation,
            channel,
            object: &object,
        };
        // A channel that cannot be read does not keep the rest of the clip from playing.
        match node_channel(accessors, file, joint_of_node, skeleton, warnings, key_repairs) {
            Ok(Some(channel)) => channels.push(channel),
            Ok(None) => {}
            Err(error) => warnings.push(format!("{error} (channel not played)")),
        }
    }
    for (channel, slot) in pointer_channels.iter().zip(pointer_slots) {
        let Some(slot) = slot else { continue };
        let object = format!("/animations/{index}/channels/{}", channel.number);
        match pointer_channel(accessors, animation, index, channel, *slot, warnings) {
            Ok(Some(channel)) => channels.push(channel),
            Ok(None) => {}
            Err(error) => warnings.push(format!("{object}: {error} (not played)")),
        }
    }
    Ok(Clip::new(name, channels))
}

/// One channel of an animation as the file has it, and its JSON pointer.
struct FileChannel<'a> {
    animation: usize,
    json: &'a gltf_json::Animation,
    channel: &'a gltf_json::animation::Channel,
    object: &'a str,
}

/// A channel targeting a node's transform or morph weights; none (with a warning where it is
/// worth one) when there is nothing to play.
fn node_channel(
    accessors: &Accessors,
    file: FileChannel,
    joint_of_node: &NodeJoints,
    skeleton: &Skeleton,
    warnings: &mut Vec<String>,
    key_repairs: &mut Vec<KeyRepair>,
) -> Result<Option<Channel>, LoadErrorKind> {
    let FileChannel {
        animation: index,
        json: animation,
        channel,
        object,
    } = file;
    let context = |problem: String| LoadErrorKind::invalid(object, problem);
    let sampler_index = channel.sampler.value();
    let keys = sampler_keys(accessors, animation, index, sampler_index, object, warnings)?;
    let node = channel.target.node.value();
    if node >= joint_of_node.node_count() {
        return Err(context(format!("node {node} does not exist")));
    }
    let Some(joint) = joint_of_node.get(node) else {
        return Ok(None);
    };
    let Some(SamplerKeys {
        interpolation,
        times,
        output,
    }) = keys
    else {
        return Ok(None);
    };
    let sampler_object = format!("/animations/{index}/samplers/{sampler_index}");
    let output_error = |e: String| LoadErrorKind::invalid(format!("{sampler_object}/output"), e);
    let track_error = |e: crate::anim::TrackError| LoadErrorKind::invalid(&sampler_object, e.to_string());
    let vec3_track = |times: Vec<f32>| -> Result<Track<Vec3>, LoadErrorKind> {
        let values = read_vec3(accessors, output).map_err(output_error)?;
        Track::new(interpolation, times, values).map_err(track_error)
    };
    let track = match channel.target.path {
        Checked::Valid(Property::Translation) => ChannelTrack::Translation(vec3_track(times)?),
        Checked::Valid(Property::Scale) => ChannelTrack::Scale(vec3_track(times)?),
        Checked::Valid(Property::Rotation) => {
            let raw = accessors.read_f32::<4>(output).map_err(output_error)?;
            let mut not_unit = 0;
            let rotations = raw
                .into_iter()
                .enumerate()
                .map(|(i, q)| {
                    let q = Quat::from_array(q);
                    // Cubic-spline tangents are not rotations; only key values must be unit.
                    let is_value = interpolation != Interpolation::CubicSpline || i % 3 == 1;
                    if !is_value {
                        return q;
                    }
                    if (q.length() - 1.0).abs() > UNIT_TOLERANCE {
                        not_unit += 1;
                    }
                    normalize_or_identity(q)
                })
                .collect();
            if not_unit > 0 {
                key_repairs.push(KeyRepair {
                    clip: index,
                    joint,
                    not_unit,
                });
                warnings.push(format!(
                    "{object}: {not_unit} rotation keys were not unit quaternions (normalised)"
                ));
            }
            ChannelTrack::Rotation(Track::new(interpolation, times, rotations).map_err(track_error)?)
        }
        Checked::Valid(Property::MorphTargetWeights) => {
            let range = skeleton.morph_weight_range(joint);
            if range.is_empty() {
                warnings.push(format!(
                    "{object}: it animates morph weights of node {node}, which has no morph targets (ignored)"
                ));
                return Ok(None);
            }
            let values: Vec<f32> = accessors
                .read_f32::<1>(output)
                .map_err(output_error)?
                .into_iter()
                .map(|[w]| w)
                .collect();
            ChannelTrack::MorphWeights {
                offset: range.start,
                track: WeightsTrack::new(interpolation, times, range.len(), values).map_err(track_error)?,
            }
        }
        Checked::Invalid => {
            warnings.push(format!("{object}: unknown target path (ignored)"));
            return Ok(None);
        }
    };
    Ok(Some(Channel { joint, track }))
}

/// The interpolation, key times and output accessor of sampler `sampler_index`; none (with a
/// warning) when a buffer they read has no data.
fn sampler_keys(
    accessors: &Accessors,
    animation: &gltf_json::Animation,
    index: usize,
    sampler_index: usize,
    object: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<SamplerKeys>, LoadErrorKind> {
    let sampler = animation
        .samplers
        .get(sampler_index)
        .ok_or_else(|| LoadErrorKind::invalid(object, format!("sampler {sampler_index} does not exist")))?;
    let sampler_object = format!("/animations/{index}/samplers/{sampler_index}");
    let interpolation = match sampler.interpolation {
        Checked::Valid(JsonInterpolation::Step) => Interpolation::Step,
        Checked::Valid(JsonInterpolation::Linear) => Interpolation::Linear,
        Checked::Valid(JsonInterpolation::CubicSpline) => Interpolation::CubicSpline,
        Checked::Invalid => {
            return Err(LoadErrorKind::invalid(
                format!("{sampler_object}/interpolation"),
                "unknown interpolation",
            ));
        }
    };
    if let Some(why) = [sampler.input, sampler.output]
        .iter()
        .find_map(|accessor| accessors.unavailable(accessor.value()))
    {
        warnings.push(format!("{object}: {why} (not played)"));
        return Ok(None);
    }
    let times = read_times(accessors, sampler.input.value())
        .map_err(|e| LoadErrorKind::invalid(format!("{sampler_object}/input"), e))?;
    Ok(Some(SamplerKeys {
        interpolation,
        times,
        output: sampler.output.value(),
    }))
}

/// A pointer channel as a `Properties` channel writing `slot`. Its output must have the
/// property's width; booleans (visibility) step between 0 and 1 whatever the sampler says.
fn pointer_channel(
    accessors: &Accessors,
    animation: &gltf_json::Animation,
    index: usize,
    channel: &PointerChannel,
    slot: ChannelSlot,
    warnings: &mut Vec<String>,
) -> Result<Option<Channel>, String> {
    let object = format!("/animations/{index}/channels/{}", channel.number);
    let keys =
        sampler_keys(accessors, animation, index, channel.sampler, &object, warnings).map_err(|e| e.to_string())?;
    let Some(SamplerKeys {
        mut interpolation,
        times,
        output,
    }) = keys
    else {
        return Ok(None);
    };
    let mut values = match slot.width {
        1 => accessors.read_f32::<1>(output).map(|v| v.concat()),
        2 => accessors.read_f32::<2>(output).map(|v| v.concat()),
        3 => accessors.read_f32::<3>(output).map(|v| v.concat()),
        _ => accessors.read_f32::<4>(output).map(|v| v.concat()),
    }
    .map_err(|e| format!("{} takes {} numbers per key, but {e}", channel.pointer, slot.width))?;
    if slot.boolean {
        if interpolation == Interpolation::CubicSpline {
            // Keep the key values, drop the tangents.
            values = values.chunks(3).filter_map(|key| key.get(1).copied()).collect();
        }
        if interpolation != Interpolation::Step {
            warnings.push(format!("{object}: {} is a boolean, so it steps", channel.pointer));
        }
        interpolation = Interpolation::Step;
        values.iter_mut().for_each(|v| *v = if *v != 0.0 { 1.0 } else { 0.0 });
    }
    let track = WeightsTrack::new(interpolation, times, slot.width, values).map_err(|e| e.to_string())?;
    Ok(Some(Channel {
        joint: slot.joint,
        track: ChannelTrack::Properties {
            offset: slot.offset,
            track,
        },
    }))
}

/// Key times: glTF requires them to be floats (an integer accessor read as seconds would
/// make absurd clips out of small files).
fn read_times(accessors: &Accessors, accessor: usize) -> Result<Vec<f32>, String> {
    let times = accessors.read_f32::<1>(accessor)?;
    if !accessors.is_float(accessor) {
        return Err(format!(
            "accessor {accessor} does not hold floats; key times must be FLOAT (glTF 2.0 §3.11)"
        ));
    }
    Ok(times.into_iter().map(|[t]| t).collect())
}

fn read_vec3(accessors: &Accessors, index: usize) -> Result<Vec<Vec3>, String> {
    Ok(accessors.read_f32::<3>(index)?.into_iter().map(Vec3::from).collect())
}

/// `q` scaled to unit length; the identity for a zero quaternion.
pub fn normalize_or_identity(q: Quat) -> Quat {
    let length = q.length();
    if length > f32::EPSILON {
        q / length
    } else {
        Quat::IDENTITY
    }
}
