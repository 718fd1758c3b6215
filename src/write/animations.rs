//! The model's clips as glTF animations: every channel at its own keys with its own
//! interpolation (STEP, LINEAR, CUBICSPLINE with its tangents), channels that share key times
//! sharing one input accessor. A joint's morph weights go to every node holding a mesh it
//! places (see `nodes`). A clip that lasts past its last key
//! (constant channels were reduced to one key) keeps its length through a last key on its
//! first channel.

use std::collections::HashMap;
use std::sync::Arc;

use gltf_json as json;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked;

use super::document::{Document, Element, Usage};
use super::skins::node;
use crate::anim::track::Keyframe;
use crate::anim::{ChannelTrack, Interpolation, Track, WeightsTrack};
use crate::asset::Model;

/// Writes every clip that animates something; `mesh_nodes` lists the nodes holding meshes
/// as (joint, node), whose morph weights follow the joint's.
pub fn write_animations(document: &mut Document, model: &Model, mesh_nodes: &[(usize, usize)]) {
    let mut pointers = 0;
    for clip in &model.clips {
        let mut writer = ClipWriter {
            document: &mut *document,
            inputs: HashMap::new(),
            channels: Vec::new(),
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
                ChannelTrack::MorphWeights { offset, track } => {
                    let range = model.skeleton.morph_weight_range(node);
                    if range.start != *offset || range.len() != track.width() {
                        let name = model.skeleton.name(node);
                        writer.document.warn(format!(
                            "clip '{}': the morph weights of '{name}' animate only some of its targets, left out",
                            clip.name()
                        ));
                        continue;
                    }
                    let mut holders = mesh_nodes.iter().filter(|(joint, _)| *joint == node).peekable();
                    if holders.peek().is_none() {
                        let name = model.skeleton.name(node);
                        writer.document.warn(format!(
                            "clip '{}': the morph weights of '{name}' move no mesh, left out",
                            clip.name()
                        ));
                    }
                    for &(_, target) in holders {
                        writer.weights(target, track, lasting);
                    }
                }
                ChannelTrack::Properties { .. } => pointers += 1,
            }
        }
        if writer.channels.is_empty() {
            document.warn(format!(
                "clip '{}' animates nothing glTF's node channels can hold, left out",
                clip.name()
            ));
            continue;
        }
        let (channels, samplers) = (writer.channels, writer.samplers);
        document.root.push(json::Animation {
            extensions: None,
            extras: None,
            channels,
            name: Some(clip.name().to_owned()),
            samplers,
        });
    }
    if pointers > 0 {
        document.warn(format!(
            "{pointers} channels animating materials, cameras, lights or visibility (KHR_animation_pointer) are not written yet"
        ));
    }
}

struct ClipWriter<'a> {
    document: &'a mut Document,
    /// Input accessors by the key times they hold (channels share timelines).
    inputs: HashMap<*const [f32], json::Index<json::Accessor>>,
    channels: Vec<json::animation::Channel>,
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
        let interpolation = track.interpolation();
        let width = track.width();
        let (input, output) = match extension_key(track.times(), lasting) {
            Some(end) => {
                let per_key = interpolation.values_per_key() * width;
                let values = track.values();
                let last_key = &values[values.len() - per_key..];
                let last = &last_key[(interpolation.values_per_key() / 2) * width..][..width];
                let times = extended(track.times(), end);
                let values = extended_values(values, last, interpolation, 0.0);
                let input = self.document.accessor(&times, Usage::Other, true);
                (input, self.document.accessor(&values, Usage::Other, false))
            }
            None => {
                let input = self.input(track.times());
                (input, self.document.accessor(track.values(), Usage::Other, false))
            }
        };
        self.push(node, Property::MorphTargetWeights, input, output, interpolation);
    }

    /// The input accessor of `times`, written once per timeline.
    fn input(&mut self, times: &Arc<[f32]>) -> json::Index<json::Accessor> {
        let document = &mut *self.document;
        *(self.inputs)
            .entry(Arc::as_ptr(times))
            .or_insert_with(|| document.accessor(times, Usage::Other, true))
    }

    fn push(
        &mut self,
        target: usize,
        path: Property,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        interpolation: Interpolation,
    ) {
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
}

/// The time of the key to add so that `times` reach `lasting` (none when they do).
fn extension_key(times: &[f32], lasting: Option<f32>) -> Option<f32> {
    let end = lasting?;
    (end > *times.last()?).then_some(end)
}

/// `times` with `end` after them.
fn extended(times: &[f32], end: f32) -> Vec<f32> {
    let mut extended = times.to_vec();
    extended.push(end);
    extended
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
