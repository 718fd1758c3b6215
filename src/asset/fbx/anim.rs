//! FBX animation stacks → clips, one per stack, baked by ufbx.
//!
//! FBX curves have tangent forms glTF lacks (Maya's and 3ds Max's auto, user and broken
//! tangents, weighted tangents), and a node's transform is composed from several of them
//! (rotation orders, pre- and post-rotation, pivots, layers blended or added). ufbx evaluates
//! all of it exactly and bakes each animated node's translation, rotation and scale: a key at
//! every key time of the file's curves, and where a curve is not linear, more keys at the
//! file's frame rate (ufbx leaves curves keyed at 19.5 fps or faster as they are). The clip
//! interpolates linearly between keys (rotations by slerp), so it is exact at the keys and
//! between them off by about `|f''| · h² / 8` (h: the span), the error of linear
//! interpolation: a character's limb keyed on every frame strays by up to a tenth of its size
//! half-way between frames. So each span is refined against ufbx's own evaluation: where the
//! clip strays from it by more than `Tolerance` a quarter or three quarters of the way
//! through the span, it is halved and each half refined alike, at most `MAX_HALVINGS` times (at most
//! 15 keys added to a span, so the keys stay bounded by the bake's, which the file's keys and
//! the clip's length bound). Spans of a step (a constant key's jump) are left alone, and so are
//! nodes among scale helpers (inherit modes: ufbx bakes them by the helpers' baked scales, which
//! play linearly, so its evaluation is not their curve). Blend shape channel weights are baked
//! at the frame rate, and node visibility steps (`visibility`). Times start at the stack's
//! start; the clip steps at the file's frame rate (`key_rate`).

use glam::{Quat, Vec3};

use super::mesh::{MorphChannel, shape_weights};
use super::nodes::Nodes;
use super::visibility::VisibilitySlots;
use super::{quat, vec3};
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, Skeleton, Track, WeightsTrack};

/// The frame rate clips are baked at when the file does not say.
const DEFAULT_RATE: f64 = 30.0;

/// How many times a span between baked keys may be halved where the clip strays from the
/// curves (see the module docs).
const MAX_HALVINGS: u32 = 4;

/// How far the clip may stray from ufbx's evaluation between baked keys before a span is
/// halved: 1 mm, 0.06° and a relative scale of 1e-3 (a metre-long limb moves 1 mm). A tenth
/// of that gave a Mixamo dancer 7x its keys and 7x its load time for changes no one sees.
struct Tolerance;

impl Tolerance {
    /// Metres.
    const TRANSLATION: f32 = 1e-3;
    /// Radians.
    const ROTATION: f32 = 1e-3;
    /// Relative to the scale (per axis).
    const SCALE: f32 = 1e-3;
}

/// Every animation stack as a clip; a stack that cannot be baked is left out with a warning.
/// `memory_limit` bounds what baking may allocate; `visibility` gets a slot per node whose
/// visibility some stack animates.
pub fn load_clips(
    scene: &ufbx::Scene,
    nodes: &Nodes,
    skeleton: &Skeleton,
    morph_channels: &[MorphChannel],
    memory_limit: usize,
    visibility: &mut VisibilitySlots,
    warnings: &mut Vec<String>,
) -> Vec<Clip> {
    let rate = match scene.settings.frames_per_second {
        fps if fps.is_finite() && fps > 0.0 => fps,
        _ => DEFAULT_RATE,
    };
    let allocator = || ufbx::AllocatorOpts {
        memory_limit,
        ..Default::default()
    };
    let mut clips = Vec::with_capacity(scene.anim_stacks.len());
    for stack in &scene.anim_stacks {
        let options = ufbx::BakeOpts {
            temp_allocator: allocator(),
            result_allocator: allocator(),
            resample_rate: rate,
            trim_start_time: true,
            ..Default::default()
        };
        let name = stack.element.name.to_string();
        match ufbx::bake_anim(scene, &stack.anim, options) {
            // A stack that animates nothing (Mixamo's "Take 001") is no clip.
            Ok(baked) => {
                let sources = Sources {
                    scene,
                    anim: &stack.anim,
                    nodes,
                    skeleton,
                    morph_channels,
                };
                let clip = clip(&name, &baked, &sources, visibility, warnings);
                if !clip.channels().is_empty() {
                    clips.push(clip.with_key_rate(rate as f32));
                }
            }
            Err(error) => warnings.push(format!(
                "animation stack '{name}': it cannot be baked ({}) (left out)",
                error.description
            )),
        }
    }
    clips
}

/// The translation keys of a node under a parent whose scale it does not inherit (Maya's
/// segment scale compensation), where that scale is animated. ufbx keeps such a parent's scale
/// on a scale helper node and places the node by it, but its bake looks the helper's baked scale
/// up at the file's time where it is kept at the stack's (`trim_start_time`): in a stack that
/// starts after 0, the node moved by the wrong scale. Such a translation is evaluated again,
/// at its keys and the helper's. `None` for every other node.
fn compensated_translation(
    node: &ufbx::BakedNode,
    baked: &ufbx::BakedAnim,
    sources: &Sources,
) -> Option<Vec<Key<Vec3>>> {
    let scene_node = sources.scene.nodes.get(node.typed_id as usize)?;
    let helper = (scene_node.parent.as_ref())
        .filter(|_| !scene_node.is_scale_helper)
        .and_then(|parent| parent.scale_helper.as_ref());
    let helper = animated_scale(helper.map(|h| &**h), baked)?;
    Some(evaluated_again(
        scene_node,
        &node.translation_keys,
        helper,
        sources,
        |t| t.translation,
    ))
}

/// The scale keys of the scale helper of a node that takes its parent's scale per axis of its
/// own (RrSs, MotionBuilder's and the FBX SDK's `eInheritRrSs`), where an ancestor's scale it
/// takes is animated: ufbx's bake multiplies in that scale looked up at the wrong time, as in
/// `compensated_translation`, so the scale is evaluated again. `None` for every other node.
fn compensated_scale(node: &ufbx::BakedNode, baked: &ufbx::BakedAnim, sources: &Sources) -> Option<Vec<Key<Vec3>>> {
    let scene_node = sources.scene.nodes.get(node.typed_id as usize)?;
    let helper = (scene_node.parent.as_ref())
        .filter(|_| scene_node.is_scale_helper)
        .and_then(|parent| parent.inherit_scale_node.as_ref())
        .and_then(|inherited| inherited.scale_helper.as_ref());
    let helper = animated_scale(helper.map(|h| &**h), baked)?;
    Some(evaluated_again(scene_node, &node.scale_keys, helper, sources, |t| {
        t.scale
    }))
}

/// The baked scale helper `helper`, where the stack animates its scale.
fn animated_scale<'a>(helper: Option<&ufbx::Node>, baked: &'a ufbx::BakedAnim) -> Option<&'a ufbx::BakedNode> {
    let id = helper?.element.typed_id;
    // ufbx sorts baked nodes by node: a search, not a scan per node.
    let index = baked.nodes.binary_search_by_key(&id, |n| n.typed_id).ok()?;
    Some(&baked.nodes[index]).filter(|helper| !helper.constant_scale)
}

/// `node`'s `part` of its transform, as ufbx evaluates it at the times of `keys` and of
/// `helper`'s scale keys (baked times, from the stack's start).
fn evaluated_again(
    node: &ufbx::Node,
    keys: &[ufbx::BakedVec3],
    helper: &ufbx::BakedNode,
    sources: &Sources,
    part: fn(&ufbx::Transform) -> ufbx::Vec3,
) -> Vec<Key<Vec3>> {
    // Only the stack's own times: the bake also gives such a node keys shifted before it.
    let mut times: Vec<f64> = (keys.iter())
        .chain(helper.scale_keys.iter())
        .map(|k| k.time)
        .filter(|&time| time >= 0.0)
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let value = |time: f64| vec3(part(&sources.evaluate(node, time)));
    (times.into_iter())
        .map(|time| Key {
            time,
            value: value(time),
            step: false,
        })
        .collect()
}

/// One baked key: seconds from the stack's start, the value, and whether it is one end of a
/// step (a constant key's jump, baked as two keys a millisecond apart).
#[derive(Clone, Copy)]
struct Key<T> {
    time: f64,
    value: T,
    step: bool,
}

impl<T: Copy> Key<T> {
    fn baked(time: f64, value: T, flags: ufbx::BakedKeyFlags) -> Self {
        let step = flags.has_any(ufbx::BakedKeyFlags::STEP_LEFT | ufbx::BakedKeyFlags::STEP_RIGHT);
        Self { time, value, step }
    }
}

/// How a channel's values are played between keys and compared with the curves'.
#[derive(Clone, Copy)]
struct Playback<T> {
    /// The value a fraction of the way from one key's value to the next's.
    between: fn(T, T, f32) -> T,
    /// How far a played value is from the curves' (in the tolerance's units).
    stray: fn(T, T) -> f32,
    tolerance: f32,
}

const TRANSLATION: Playback<Vec3> = Playback {
    between: Vec3::lerp,
    stray: Vec3::distance,
    tolerance: Tolerance::TRANSLATION,
};

const ROTATION: Playback<Quat> = Playback {
    between: Quat::slerp,
    stray: rotation_angle,
    tolerance: Tolerance::ROTATION,
};

/// The angle of the rotation from `a` to `b`, in radians, exact for tiny angles (an arc cosine
/// of their dot product is not, in `f32`), either sign of either quaternion.
fn rotation_angle(a: Quat, b: Quat) -> f32 {
    let difference = a.conjugate() * b;
    2.0 * difference.xyz().length().atan2(difference.w.abs())
}

const SCALE: Playback<Vec3> = Playback {
    between: Vec3::lerp,
    stray: |played, curve| ((played - curve).abs() / curve.abs().max(Vec3::splat(f32::MIN_POSITIVE))).max_element(),
    tolerance: Tolerance::SCALE,
};

/// `keys` with keys added where playing them strays from `curve` (the value at a time, from
/// the stack's start) as the module docs say, as a track's times and values.
fn refined<T: Copy>(keys: &[Key<T>], curve: &dyn Fn(f64) -> T, playback: &Playback<T>) -> (Vec<f32>, Vec<T>) {
    let refinement = Refinement { curve, playback };
    let mut out = Vec::with_capacity(keys.len());
    for pair in keys.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        out.push((from.time, from.value));
        if !(from.step || to.step) && to.time > from.time {
            refinement.halve((from.time, from.value), (to.time, to.value), 1, &mut out);
        }
    }
    out.extend(keys.last().map(|key| (key.time, key.value)));
    out.into_iter().map(|(time, value)| (time as f32, value)).unzip()
}

/// One channel's curve and how it is played, for `refined`.
struct Refinement<'a, T> {
    curve: &'a dyn Fn(f64) -> T,
    playback: &'a Playback<T>,
}

impl<T: Copy> Refinement<'_, T> {
    /// Adds to `out` the keys strictly between `from` and `to` (time, value) that the span
    /// needs: none where playing it stays within the tolerance of the curve a quarter and three
    /// quarters of the way (where a cubic segment strays from its chord, at either point if at
    /// all: two looks instead of three, as loading pays for each); else the middle key, between
    /// the keys each half needs (`halving` counts the halvings so far).
    fn halve(&self, from: (f64, T), to: (f64, T), halving: u32, out: &mut Vec<(f64, T)>) {
        let Playback {
            between,
            stray,
            tolerance,
        } = *self.playback;
        let at = |fraction: f64| from.0 + (to.0 - from.0) * fraction;
        let strays = [0.25, 0.75]
            .into_iter()
            .any(|fraction| stray(between(from.1, to.1, fraction as f32), (self.curve)(at(fraction))) > tolerance);
        if !strays || halving > MAX_HALVINGS {
            return;
        }
        let centre = (at(0.5), (self.curve)(at(0.5)));
        self.halve(from, centre, halving + 1, out);
        out.push(centre);
        self.halve(centre, to, halving + 1, out);
    }
}

/// What a baked stack's nodes and elements are looked up in.
struct Sources<'a> {
    scene: &'a ufbx::Scene,
    anim: &'a ufbx::Anim,
    nodes: &'a Nodes,
    skeleton: &'a Skeleton,
    morph_channels: &'a [MorphChannel],
}

impl Sources<'_> {
    /// `node`'s local transform as ufbx evaluates the stack's curves at `time`, in baked time
    /// (seconds from the stack's start, `trim_start_time`).
    fn evaluate(&self, node: &ufbx::Node, time: f64) -> ufbx::Transform {
        ufbx::evaluate_transform(self.anim, node, time + self.anim.time_begin.max(0.0))
    }
}

fn clip(
    name: &str,
    baked: &ufbx::BakedAnim,
    sources: &Sources,
    visibility: &mut VisibilitySlots,
    warnings: &mut Vec<String>,
) -> Clip {
    let Sources {
        scene,
        nodes,
        skeleton,
        morph_channels,
        ..
    } = *sources;
    let mut channels = Vec::new();
    let mut problems = 0;
    for node in &baked.nodes {
        let Some(scene_node) = scene.nodes.get(node.typed_id as usize) else {
            continue;
        };
        let Some(joint) = nodes.joint(scene_node) else {
            continue;
        };
        let curve =
            |part: fn(&ufbx::Transform) -> ufbx::Vec3| move |time| vec3(part(&sources.evaluate(scene_node, time)));
        let baked_keys = |keys: &[ufbx::BakedVec3]| -> Vec<Key<Vec3>> {
            keys.iter()
                .map(|k| Key::baked(k.time, vec3(k.value), k.flags))
                .collect()
        };
        // ufbx bakes a node among scale helpers (inherit modes) by the helpers' baked scales,
        // where `evaluate` applies its own, and the helpers' scales are played linearly: such
        // channels stay as baked (or as `compensated_*` evaluates them, at the same keys).
        let helped = |n: &ufbx::Node| n.is_scale_helper || n.scale_helper.is_some() || n.inherit_scale_node.is_some();
        let under_helper = helped(scene_node) || scene_node.parent.as_ref().is_some_and(|p| helped(p));
        let vec3_track = |compensated: Option<Vec<Key<Vec3>>>,
                          baked: &[ufbx::BakedVec3],
                          part: fn(&ufbx::Transform) -> ufbx::Vec3,
                          playback: &Playback<Vec3>| {
            let keys = compensated.unwrap_or_else(|| baked_keys(baked));
            let (times, values) = match under_helper {
                false => refined(&keys, &curve(part), playback),
                true => keys.iter().map(|k| (k.time as f32, k.value)).unzip(),
            };
            Track::new(Interpolation::Linear, times, values)
        };
        let translation = vec3_track(
            compensated_translation(node, baked, sources),
            &node.translation_keys,
            |t| t.translation,
            &TRANSLATION,
        )
        .map(ChannelTrack::Translation);
        let rotations: Vec<Key<Quat>> = (node.rotation_keys.iter())
            .map(|k| Key::baked(k.time, quat(k.value).normalize(), k.flags))
            .collect();
        let rotation_curve = |time| quat(sources.evaluate(scene_node, time).rotation).normalize();
        let (times, values) = match under_helper {
            false => refined(&rotations, &rotation_curve, &ROTATION),
            true => rotations.iter().map(|k| (k.time as f32, k.value)).unzip(),
        };
        let rotation = Track::new(Interpolation::Linear, times, values).map(ChannelTrack::Rotation);
        let scale = vec3_track(
            compensated_scale(node, baked, sources),
            &node.scale_keys,
            |t| t.scale,
            &SCALE,
        )
        .map(ChannelTrack::Scale);
        let tracks = [translation, rotation, scale];
        for track in tracks {
            match track {
                Ok(track) => channels.push(Channel { joint, track }),
                Err(_) => problems += 1,
            }
        }
    }
    for channel in morph_channels {
        let element = baked.elements.iter().find(|e| e.element_id == channel.element);
        let percent = element.and_then(|e| e.props.iter().find(|p| p.name == "DeformPercent"));
        let Some(keys) = percent.map(|p| &p.keys) else { continue };
        let times: Vec<f32> = keys.iter().map(|k| k.time as f32).collect();
        // FBX keys the channel in percent; each key spreads over the channel's shapes.
        let values: Vec<f32> = (keys.iter())
            .flat_map(|k| shape_weights(&channel.shapes, k.value.x as f32 / 100.0))
            .collect();
        for &(joint, first) in &channel.weights {
            let offset = skeleton.morph_weight_range(joint).start + first;
            let track = WeightsTrack::new(
                Interpolation::Linear,
                times.clone(),
                channel.shapes.len(),
                values.clone(),
            );
            match track {
                Ok(track) => channels.push(Channel {
                    joint,
                    track: ChannelTrack::MorphWeights { offset, track },
                }),
                Err(_) => problems += 1,
            }
        }
    }
    for element in &baked.elements {
        let node = scene
            .elements
            .get(element.element_id as usize)
            .and_then(|e| ufbx::as_node(e));
        let Some(joint) = node.and_then(|n| nodes.joint(n)) else {
            continue;
        };
        for prop in element.props.iter().filter(|p| p.name == "Visibility") {
            match visibility.channel(joint, &prop.keys) {
                Ok(channel) => channels.push(channel),
                Err(_) => problems += 1,
            }
        }
    }
    if problems > 0 {
        warnings.push(format!(
            "animation stack '{name}': {problems} curves baked to values that are not numbers (left out)"
        ));
    }
    Clip::new(name.to_string(), channels)
}
