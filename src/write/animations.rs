//! The model's clips as glTF animations: every channel at its own keys with its own
//! interpolation (STEP, LINEAR, CUBICSPLINE with its tangents), channels that share key times
//! sharing one input accessor. A joint's morph weights go to every node holding a mesh it
//! places (see `nodes`). A clip that lasts past its last key
//! (constant channels were reduced to one key) keeps its length through a last key on its
//! first channel. Animated material, camera, light and visibility properties are
//! KHR_animation_pointer channels (`pointers`). Key times are written strictly increasing, as
//! glTF asks: two keys at one time (a jump) move one step of `f32` apart.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use gltf_json as json;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked;

use super::document::{Document, Element, Usage};
use super::morph_channels::whole_weight_tracks;
use super::pointers::{POINTER_EXTENSION, VISIBILITY_EXTENSION, WrittenPointers, pointer_channel};
use super::skins::node;
use crate::anim::track::Keyframe;
use crate::anim::{ChannelTrack, Interpolation, Track, WeightsTrack};
use crate::asset::Model;
use glam::{Vec2, Vec3, Vec4};

/// Writes every clip that animates something; `mesh_nodes` lists the nodes holding meshes
/// as (joint, node), whose morph weights follow the joint's; `cameras`: per joint, the
/// written camera its node holds.
pub fn write_animations(
    document: &mut Document,
    model: &Model,
    mesh_nodes: &[(usize, usize)],
    cameras: &[Option<json::Index<json::Camera>>],
) {
    let written_pointers = WrittenPointers::new(document, model, cameras, mesh_nodes);
    let (mut animates_pointers, mut animates_visibility) = (false, false);
    for clip in &model.clips {
        let mut writer = ClipWriter {
            document: &mut *document,
            inputs: HashMap::new(),
            channels: Vec::new(),
            pointer_channels: Vec::new(),
            samplers: Vec::new(),
        };
        for (index, channel) in clip.channels().iter().enumerate() {
            let node = channel.joint;
            // Only the first channel may need a last key to keep the clip's length.
            let lasting = (index == 0).then(|| clip.duration());
            match &channel.track {
                ChannelTrack::Translation(track) => writer.trs(node, Property::Translation, track, lasting),
                ChannelTrack::Rotation(track) => writer.trs(node, Property::Rotation, track, lasting),
                ChannelTrack::Scale(track) => writer.trs(node, Property::Scale, track, lasting),
                // Written below, a node's targets together.
                ChannelTrack::MorphWeights { .. } => {}
                ChannelTrack::Properties { offset, track } => match written_pointers.at(model, *offset) {
                    Ok((pointers, boolean)) => {
                        writer.pointers(pointers, boolean, track, lasting);
                        animates_visibility |= boolean;
                    }
                    Err(property) => writer.document.warn(format!(
                        "clip '{}': {property} has no place in the written file, left out",
                        clip.name()
                    )),
                },
            }
        }
        let whole_weights = whole_weight_tracks(clip, &model.skeleton);
        let weight_channels = clip
            .channels()
            .iter()
            .filter(|c| matches!(c.track, ChannelTrack::MorphWeights { .. }));
        if weight_channels.map(|c| c.joint).collect::<BTreeSet<_>>().len() > whole_weights.len() {
            writer.document.warn(format!(
                "clip '{}': morph weights that name targets beyond their node's, left out",
                clip.name()
            ));
        }
        for weights in &whole_weights {
            let name = model.skeleton.name(weights.joint);
            if weights.resampled {
                writer.document.warn(format!(
                    "clip '{}': the morph weights of '{name}', keyed per target as cubic splines, written linear at their keys",
                    clip.name()
                ));
            }
            let mut holders = mesh_nodes
                .iter()
                .filter(|(joint, _)| *joint == weights.joint)
                .peekable();
            if holders.peek().is_none() {
                writer.document.warn(format!(
                    "clip '{}': the morph weights of '{name}' move no mesh, left out",
                    clip.name()
                ));
            }
            let lasting = Some(clip.duration());
            for &(_, target) in holders {
                writer.weights(target, &weights.track, lasting);
            }
        }
        if writer.channels.is_empty() && writer.pointer_channels.is_empty() {
            document.warn(format!(
                "clip '{}' animates nothing glTF's node channels can hold, left out",
                clip.name()
            ));
            continue;
        }
        let (channels, samplers, pointer_channels) = (writer.channels, writer.samplers, writer.pointer_channels);
        animates_pointers |= !pointer_channels.is_empty();
        let animation = document.root.animations.len();
        (document.pointer_channels).extend(pointer_channels.into_iter().map(|channel| (animation, channel)));
        document.root.push(json::Animation {
            extensions: None,
            extras: None,
            channels,
            name: Some(clip.name().to_owned()),
            samplers,
        });
    }
    if animates_pointers {
        document.use_extension(POINTER_EXTENSION, false);
    }
    if animates_visibility {
        document.use_extension(VISIBILITY_EXTENSION, false);
    }
}

struct ClipWriter<'a> {
    document: &'a mut Document,
    /// Input accessors by the key times they hold (channels share timelines).
    inputs: HashMap<*const [f32], json::Index<json::Accessor>>,
    channels: Vec<json::animation::Channel>,
    /// KHR_animation_pointer channels, which gltf_json cannot hold (see `Document`).
    pointer_channels: Vec<serde_json::Value>,
    samplers: Vec<json::animation::Sampler>,
}

impl ClipWriter<'_> {
    /// A translation, rotation or scale channel; `lasting`: the clip's length, which the keys
    /// must reach.
    fn trs<T: Keyframe + Element>(&mut self, node: usize, property: Property, track: &Track<T>, lasting: Option<f32>) {
        let interpolation = track.interpolation();
        match extension_key(track.times(), lasting) {
            Some(end) => {
                let last = track.key_values().last().unwrap_or(T::ZERO);
                let times = extended(track.times(), end);
                let values = extended_values(track.values(), &[last], interpolation, T::ZERO);
                let input = self.document.accessor(&times, Usage::Other, true);
                let output = self.document.accessor(&values, Usage::Other, false);
                self.push(node, property, input, output, interpolation);
            }
            None => {
                let input = self.input(track.times());
                let output = self.document.accessor(track.values(), Usage::Other, false);
                self.push(node, property, input, output, interpolation);
            }
        }
    }

    /// A morph-weights channel on `node`.
    fn weights(&mut self, node: usize, track: &WeightsTrack, lasting: Option<f32>) {
        let (input, values) = self.flat_keys(track, lasting);
        let output = self.document.accessor(&values, Usage::Other, false);
        self.push(node, Property::MorphTargetWeights, input, output, track.interpolation());
    }

    /// A property channel as a KHR_animation_pointer channel per pointer, each with a sampler
    /// of its own over the same keys: the property's type (a float, vec2, vec3 or vec4), or
    /// for a boolean, unsigned bytes 0 and 1 that step.
    fn pointers(&mut self, pointers: &[String], boolean: bool, track: &WeightsTrack, lasting: Option<f32>) {
        let width = track.width();
        let (input, values) = self.flat_keys(track, lasting);
        let (output, interpolation) = if boolean {
            let per_key = track.interpolation().values_per_key();
            let keys: Vec<u8> = (values.chunks_exact(per_key * width))
                .map(|key| u8::from(key[(per_key / 2) * width] >= 0.5))
                .collect();
            (self.document.accessor(&keys, Usage::Other, false), Interpolation::Step)
        } else {
            let output = property_output(self.document, &values, width);
            (output, track.interpolation())
        };
        for pointer in pointers {
            let sampler = self.sampler(input, output, interpolation);
            self.pointer_channels.push(pointer_channel(sampler.value(), pointer));
        }
    }

    /// The input accessor of `track`'s key times and its values as glTF stores them, with a
    /// last key where the clip lasts past them (`lasting`).
    fn flat_keys<'t>(
        &mut self,
        track: &'t WeightsTrack,
        lasting: Option<f32>,
    ) -> (json::Index<json::Accessor>, Cow<'t, [f32]>) {
        let interpolation = track.interpolation();
        let width = track.width();
        match extension_key(track.times(), lasting) {
            Some(end) => {
                let per_key = interpolation.values_per_key() * width;
                let values = track.values();
                let last_key = &values[values.len() - per_key..];
                let last = &last_key[(interpolation.values_per_key() / 2) * width..][..width];
                let times = extended(track.times(), end);
                let input = self.document.accessor(&times, Usage::Other, true);
                (input, Cow::Owned(extended_values(values, last, interpolation, 0.0)))
            }
            None => (self.input(track.times()), Cow::Borrowed(track.values())),
        }
    }

    /// The input accessor of `times`, written once per timeline.
    fn input(&mut self, times: &Arc<[f32]>) -> json::Index<json::Accessor> {
        let document = &mut *self.document;
        *(self.inputs)
            .entry(Arc::as_ptr(times))
            .or_insert_with(|| document.accessor(&increasing(times), Usage::Other, true))
    }

    fn push(
        &mut self,
        target: usize,
        path: Property,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        interpolation: Interpolation,
    ) {
        let sampler = self.sampler(input, output, interpolation);
        self.channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: None,
                node: node(target),
                path: Checked::Valid(path),
            },
            extensions: None,
            extras: None,
        });
    }

    /// A sampler of `output` at `input`'s times.
    fn sampler(
        &mut self,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        interpolation: Interpolation,
    ) -> json::Index<json::animation::Sampler> {
        let sampler = json::Index::new(self.samplers.len() as u32);
        self.samplers.push(json::animation::Sampler {
            extensions: None,
            extras: None,
            input,
            interpolation: Checked::Valid(match interpolation {
                Interpolation::Step => GltfInterpolation::Step,
                Interpolation::Linear => GltfInterpolation::Linear,
                Interpolation::CubicSpline => GltfInterpolation::CubicSpline,
            }),
            output,
        });
        sampler
    }
}

/// An output accessor of `values` in their property's type: vectors of `width` floats, or
/// floats.
fn property_output(document: &mut Document, values: &[f32], width: usize) -> json::Index<json::Accessor> {
    match width {
        2 => document.accessor(&vectors(values, 2, Vec2::from_slice), Usage::Other, false),
        3 => document.accessor(&vectors(values, 3, Vec3::from_slice), Usage::Other, false),
        4 => document.accessor(&vectors(values, 4, Vec4::from_slice), Usage::Other, false),
        _ => document.accessor(values, Usage::Other, false),
    }
}

/// `values` as vectors of `width` floats.
fn vectors<T>(values: &[f32], width: usize, from_slice: fn(&[f32]) -> T) -> Vec<T> {
    values.chunks_exact(width).map(from_slice).collect()
}

/// The time of the key to add so that `times` reach `lasting` (none when they do).
fn extension_key(times: &[f32], lasting: Option<f32>) -> Option<f32> {
    let end = lasting?;
    (end > *times.last()?).then_some(end)
}

/// `times` with `end` after them, strictly increasing.
fn extended(times: &[f32], end: f32) -> Vec<f32> {
    let mut extended = times.to_vec();
    extended.push(end);
    make_increasing(&mut extended);
    extended
}

/// `times` strictly increasing (see `make_increasing`); themselves when they are.
fn increasing(times: &[f32]) -> Cow<'_, [f32]> {
    if times.windows(2).all(|pair| pair[0] < pair[1]) {
        return Cow::Borrowed(times);
    }
    let mut times = times.to_vec();
    make_increasing(&mut times);
    Cow::Owned(times)
}

/// `values` (as glTF stores them) with one more key holding `last`, with flat tangents for a
/// cubic spline.
fn extended_values<T: Copy>(values: &[T], last: &[T], interpolation: Interpolation, zero: T) -> Vec<T> {
    let mut extended = values.to_vec();
    if interpolation == Interpolation::CubicSpline {
        extended.extend(last.iter().map(|_| zero));
        extended.extend_from_slice(last);
        extended.extend(last.iter().map(|_| zero));
    } else {
        extended.extend_from_slice(last);
    }
    extended
}

/// Spreads every run of key times that do not increase (rigscope's tracks may hold two keys at
/// one time, a jump; glTF's may not) over the neighbouring steps of `f32`, so that every time
/// rigscope can sample plays as before: a run at the first key keeps its first time and moves
/// the rest later (rigscope plays the first key there), any other run keeps its last time and
/// moves the rest earlier (rigscope plays the last key there).
fn make_increasing(times: &mut [f32]) {
    let mut start = 0;
    while start < times.len() {
        let run = times[start..].iter().take_while(|&&time| time == times[start]).count();
        let end = start + run - 1;
        if start == 0 {
            for key in start + 1..=end {
                times[key] = times[key - 1].next_up();
            }
        } else {
            for key in (start..end).rev() {
                times[key] = times[key + 1].next_down();
            }
        }
        start = end + 1;
    }
    // Runs a step of `f32` apart may meet; then the later keys move on.
    for key in 1..times.len() {
        if times[key] <= times[key - 1] {
            times[key] = times[key - 1].next_up();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_times_at_one_instant_are_spread_over_neighbouring_steps_of_f32() {
        let (half, two) = (0.5f32, 2.0f32);
        let spread = increasing(&[0.0, 0.5, 0.5, 0.5, 1.0]);
        assert_eq!(
            &spread[..],
            &[0.0, half.next_down().next_down(), half.next_down(), 0.5, 1.0]
        );
        let at_start = increasing(&[0.0, 0.0, 1.0]);
        assert_eq!(
            &at_start[..],
            &[0.0, 0.0f32.next_up(), 1.0],
            "the first key keeps its time"
        );
        assert!(
            matches!(increasing(&[0.0, 1.0]), Cow::Borrowed(_)),
            "increasing already"
        );
        assert_eq!(extended(&[0.0, 2.0, 2.0], 2.5), [0.0, two.next_down(), 2.0, 2.5]);
        let mut crowded = [0.0, 0.0, 0.0f32.next_up(), 1.0];
        make_increasing(&mut crowded);
        assert!(crowded.windows(2).all(|pair| pair[0] < pair[1]), "{crowded:?}");
    }
}
