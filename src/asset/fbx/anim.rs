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
//! clip strays from it by more than `Tolerance` (relative to the model's size) a quarter or
//! three quarters of the way through the span, it is halved and each half refined alike, at
//! most `MAX_HALVINGS` times (at most 15 keys added to a span, so the keys stay bounded by the
//! bake's, which the file's keys and the clip's length bound). A constant (stepped) key's jump
//! is two keys at one time, the value arriving and the value leaving, as the clip plays a
//! jump: exact on either side, with no span to refine. Outside its curves' keys ufbx keys
//! nothing and the clip holds the first and last keys, as a curve's default (constant)
//! extrapolation does; where a curve repeats, mirrors or extends its slope there
//! (`Extrapolation`), the node is keyed there too, to the stack's end (so the clip lasts to
//! it; elsewhere the clip ends at its last key). Nodes among scale helpers keep ufbx's keys
//! (inherit modes: ufbx bakes them by the helpers' baked scales, which play linearly, so its
//! evaluation is not their curve). Blend shape channel weights are baked at the frame rate, and
//! node visibility steps (`visibility`). Times start at the stack's start; the clip steps at
//! the file's frame rate (`key_rate`).

use glam::{Quat, Vec3};

use super::mesh::{MorphChannel, shape_weights};
use super::nodes::Nodes;
use super::rotation_steps::RotationSteps;
use super::visibility::VisibilitySlots;
use super::{quat, vec3};
use crate::anim::track::Keyframe;
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, Skeleton, Track, TrackError, WeightsTrack};
use crate::in_order;

/// The frame rate clips are baked at when the file does not say.
const DEFAULT_RATE: f64 = 30.0;

/// How many times a span between baked keys may be halved where the clip strays from the
/// curves (see the module docs).
const MAX_HALVINGS: u32 = 4;

/// How many keys a node's extrapolated stretch before or after its keys may take, per key of
/// the curves that go on there: as many as ufbx's bake gives one span of a curve at most (its
/// `max_keyframe_segments`), so that the file's keys bound them whatever the stack's length.
const EXTRAPOLATED_KEYS_PER_KEY: usize = 32;

/// How far the clip may stray from ufbx's evaluation between baked keys before a span is
/// halved. A rotation or scale strays at a vertex by its error times the vertex's distance
/// from the joint, so 0.06° and a relative scale of 1e-3 are relative to the model already; a
/// translation is held to a fraction of the model's size (`model_size`): 1 mm was 4e-4 of a
/// character's diagonal but 2e-2 of Maya's test scenes a few centimetres across.
struct Tolerance;

impl Tolerance {
    /// Of the model's size.
    const TRANSLATION: f32 = 1e-4;
    /// Metres, for a model without a size (one node and no mesh).
    const TRANSLATION_WITHOUT_SIZE: f32 = 1e-3;
    /// Radians.
    const ROTATION: f32 = 1e-3;
    /// Relative to the scale (per axis).
    const SCALE: f32 = 1e-3;

    /// The translation tolerance for a model `model_size` across, in metres.
    fn translation(model_size: f32) -> f32 {
        match model_size * Self::TRANSLATION {
            tolerance if tolerance.is_finite() && tolerance > 0.0 => tolerance,
            _ => Self::TRANSLATION_WITHOUT_SIZE,
        }
    }
}

/// The model's size: the diagonal of the box around its meshes' vertices at rest (each mesh's
/// box placed by each node it is on), or, in a file without meshes (a motion-only rig), around
/// its nodes; in the loader's metres.
fn model_size(scene: &ufbx::Scene) -> f32 {
    let (mut low, mut high) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for mesh in scene.meshes.iter().filter(|mesh| !mesh.vertices.is_empty()) {
        let vertices = mesh.vertices.iter().map(|&v| vec3(v));
        let (mesh_low, mesh_high) = vertices.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(low, high), v| {
            (low.min(v), high.max(v))
        });
        for node in mesh.element.instances.iter() {
            for corner in 0..8 {
                let pick = |axis: usize| {
                    if corner & (1 << axis) == 0 {
                        mesh_low[axis]
                    } else {
                        mesh_high[axis]
                    }
                };
                let local = ufbx::Vec3 {
                    x: pick(0) as f64,
                    y: pick(1) as f64,
                    z: pick(2) as f64,
                };
                let placed = vec3(ufbx::transform_position(&node.geometry_to_world, local));
                (low, high) = (low.min(placed), high.max(placed));
            }
        }
    }
    if low.cmpgt(high).any() {
        for node in &scene.nodes {
            let m = &node.node_to_world;
            let origin = Vec3::new(m.m03 as f32, m.m13 as f32, m.m23 as f32);
            (low, high) = (low.min(origin), high.max(origin));
        }
    }
    if low.cmpgt(high).any() {
        0.0
    } else {
        (high - low).length()
    }
}

/// Every animation stack as a clip; a stack that cannot be baked is left out with a warning.
/// `memory_limit` bounds what baking may allocate; `visibility` gets a slot per node whose
/// visibility some stack animates. `scene` is the root ufbx loaded it into, which threads may
/// share (`node_tracks`).
pub fn load_clips(
    scene: &ufbx::SceneRoot,
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
    let translation_tolerance = match scene.anim_stacks.is_empty() {
        true => Tolerance::TRANSLATION_WITHOUT_SIZE,
        false => Tolerance::translation(model_size(scene)),
    };
    let tick = match scene.metadata.ktime_second {
        ticks if ticks > 0 => 1.0 / ticks as f64,
        _ => 0.0,
    };
    let mut clips = Vec::with_capacity(scene.anim_stacks.len());
    for (stack_index, stack) in scene.anim_stacks.iter().enumerate() {
        let options = ufbx::BakeOpts {
            temp_allocator: allocator(),
            result_allocator: allocator(),
            resample_rate: rate,
            trim_start_time: true,
            // A jump as two keys at one time (see `Side`), not a millisecond's ramp.
            step_handling: ufbx::BakeStepHandling::IdenticalTime,
            ..Default::default()
        };
        let name = stack.element.name.to_string();
        match ufbx::bake_anim(scene, &stack.anim, options) {
            // A stack that animates nothing (Mixamo's "Take 001") is no clip.
            Ok(baked) => {
                let stack_end = stack.anim.time_end - stack.anim.time_begin.max(0.0);
                let sources = Sources {
                    scene,
                    stack: stack_index,
                    nodes,
                    skeleton,
                    morph_channels,
                    rate,
                    end: if stack_end.is_finite() && stack_end > 0.0 {
                        stack_end
                    } else {
                        0.0
                    },
                    tick,
                    translation_tolerance,
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
/// `helper`'s scale keys (baked times, from the stack's start), each jump's two sides apart.
fn evaluated_again(
    node: &ufbx::Node,
    keys: &[ufbx::BakedVec3],
    helper: &ufbx::BakedNode,
    sources: &Sources,
    part: fn(&ufbx::Transform) -> ufbx::Vec3,
) -> Vec<Key<Vec3>> {
    // Only the stack's own times: the bake also gives such a node keys shifted before it.
    let mut times: Vec<(f64, Side)> = (keys.iter())
        .chain(helper.scale_keys.iter())
        .map(|k| (k.time, Side::of(k.flags)))
        .filter(|&(time, _)| time >= 0.0)
        .collect();
    times.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    times.dedup();
    (times.into_iter())
        .map(|(time, side)| Key {
            time,
            value: vec3(part(&sources.evaluate(node, sources.side_time(time, side), Parts::ALL))),
        })
        .collect()
}

/// One baked key: seconds from the stack's start, and the value.
#[derive(Clone, Copy)]
struct Key<T> {
    time: f64,
    value: T,
}

/// Which side of its time a key's value is from. A jump (a constant key's step, or where a
/// repeating curve starts over) is two keys at one time, the value arriving (`Before`) and the
/// value leaving (`After`); the clip plays the last of them at that time and each on its side.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Before,
    At,
    After,
}

impl Side {
    /// The side of a key ufbx baked with `flags`.
    fn of(flags: ufbx::BakedKeyFlags) -> Self {
        if flags.has_any(ufbx::BakedKeyFlags::STEP_LEFT) {
            Side::Before
        } else if flags.has_any(ufbx::BakedKeyFlags::STEP_RIGHT) {
            Side::After
        } else {
            Side::At
        }
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

/// Translations, held to `tolerance` metres (see `Tolerance`).
fn translation_playback(tolerance: f32) -> Playback<Vec3> {
    Playback {
        between: Vec3::lerp,
        stray: Vec3::distance,
        tolerance,
    }
}

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
        // Two keys at one time (in the track's `f32`) have no span between them.
        if (to.time as f32) > (from.time as f32) {
            refinement.halve((from.time, from.value), (to.time, to.value), 1, None, &mut out);
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
    /// the keys each half needs (`halving` counts the halvings so far). `looked` is the curve's
    /// value at a time the span that was halved into this one looked at: a half's middle is
    /// mostly its quarter point to the bit, so the curve is not evaluated there again.
    fn halve(&self, from: (f64, T), to: (f64, T), halving: u32, looked: Option<(f64, T)>, out: &mut Vec<(f64, T)>) {
        if halving > MAX_HALVINGS {
            return;
        }
        let Playback {
            between,
            stray,
            tolerance,
        } = *self.playback;
        let at = |fraction: f64| from.0 + (to.0 - from.0) * fraction;
        let mut looks = [None; 2];
        let strays = ([0.25, 0.75].into_iter().zip(&mut looks)).any(|(fraction, look)| {
            let time = at(fraction);
            let value = (self.curve)(time);
            *look = Some((time, value));
            stray(between(from.1, to.1, fraction as f32), value) > tolerance
        });
        if !strays {
            return;
        }
        let middle = at(0.5);
        let centre = match looked {
            Some((time, value)) if time.to_bits() == middle.to_bits() => (middle, value),
            _ => (middle, (self.curve)(middle)),
        };
        self.halve(from, centre, halving + 1, looks[0], out);
        out.push(centre);
        self.halve(centre, to, halving + 1, looks[1], out);
    }
}

/// Where a node's curves go on past their keys within the stack (Maya's pre- and post-infinity:
/// repeat, repeat with offset, mirror, or the end key's slope); ufbx's bake keys nothing there.
/// Such a node is keyed there at the frame rate and on both sides of each repetition's start,
/// at most `EXTRAPOLATED_KEYS_PER_KEY` keys per key of those curves on either side.
struct Extrapolation {
    /// Whether some curve goes on before its first key.
    before: bool,
    /// Whether some curve goes on after its last key.
    after: bool,
    /// Where a repeating curve starts over within the stack (baked times, unsorted).
    restarts: Vec<f64>,
    /// The most keys to add on either side.
    limit: usize,
}

impl Extrapolation {
    /// `node`'s, where some curve of it in the stack goes on past its keys.
    fn of(node: &ufbx::Node, sources: &Sources) -> Option<Self> {
        let mut found = Self {
            before: false,
            after: false,
            restarts: Vec::new(),
            limit: 0,
        };
        let anim = sources.anim();
        let offset = anim.time_begin.max(0.0);
        for layer in anim.layers.iter() {
            for prop in layer.find_anim_props(&node.element) {
                for curve in prop.anim_value.curves.iter().flatten() {
                    let (Some(first), Some(last)) = (curve.keyframes.first(), curve.keyframes.last()) else {
                        continue;
                    };
                    let cycle = last.time - first.time;
                    let sides = [(&curve.pre_extrapolation, true), (&curve.post_extrapolation, false)];
                    for (extrapolation, before) in sides {
                        let repeats = match extrapolation.mode {
                            ufbx::ExtrapolationMode::Constant => continue,
                            ufbx::ExtrapolationMode::Slope => false,
                            _ if extrapolation.repeat_count == 0 => continue,
                            _ => true,
                        };
                        found.limit += curve.keyframes.len() * EXTRAPOLATED_KEYS_PER_KEY;
                        found.before |= before;
                        found.after |= !before;
                        if !repeats || cycle <= 0.0 {
                            continue;
                        }
                        // Each repetition starts over at a jump (at the curve's end keys for the
                        // first); after the last (a positive count) the curve holds still.
                        let count = match extrapolation.repeat_count {
                            count if count > 0 => count as usize,
                            _ => usize::MAX,
                        };
                        for repetition in (0..count).take(found.limit) {
                            let time = match before {
                                true => first.time - repetition as f64 * cycle,
                                false => last.time + repetition as f64 * cycle,
                            } - offset;
                            match (time >= 0.0, time <= sources.end) {
                                (true, true) => found.restarts.push(time),
                                // Past the stack's far end for good.
                                (false, _) if before => break,
                                (_, false) if !before => break,
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        (found.before || found.after).then_some(found)
    }

    /// `keys` (of one channel) with the keys added before the first and after the last that
    /// the curves need within the stack, valued by `curve` (at baked times).
    fn extended<T: Copy>(&self, keys: Vec<Key<T>>, sources: &Sources, curve: &dyn Fn(f64) -> T) -> Vec<Key<T>> {
        let (Some(first), Some(last)) = (keys.first().map(|k| k.time), keys.last().map(|k| k.time)) else {
            return keys;
        };
        let evaluated = |times: Vec<(f64, Side)>| -> Vec<Key<T>> {
            (times.into_iter())
                .map(|(time, side)| Key {
                    time,
                    value: curve(sources.side_time(time, side)),
                })
                .collect()
        };
        let mut extended = match self.before {
            true => evaluated(self.stretch(0.0, first, Side::Before, sources)),
            false => Vec::new(),
        };
        extended.extend(keys);
        if self.after {
            extended.extend(evaluated(self.stretch(last, sources.end, Side::After, sources)));
        }
        extended
    }

    /// The times to key from `from` to `to`, one of them a channel's first or last key (`Side`:
    /// the stretch comes before that key or after it), the other the stack's start or end:
    /// the frames strictly between, the stack's end, and both sides of each restart. A restart
    /// on the channel's key gives only the side away from it (the key holds the other), one on
    /// the stack's start only the side after it (nothing plays before), and a frame on a
    /// restart is left out (the two times were worked out apart and may straddle it).
    fn stretch(&self, from: f64, to: f64, towards: Side, sources: &Sources) -> Vec<(f64, Side)> {
        if !(to > from) {
            return Vec::new();
        }
        let tick = sources.tick;
        let (key, stack_end) = match towards {
            Side::Before => (to, from),
            _ => (from, to),
        };
        let frames = ((to - from) * sources.rate).ceil().clamp(1.0, self.limit.max(1) as f64) as usize;
        let step = (to - from) / frames as f64;
        let near = |a: f64, b: f64| (a - b).abs() <= tick;
        let restarts: Vec<f64> = (self.restarts.iter().copied())
            .filter(|&time| time >= from - tick && time <= to + tick)
            .collect();
        let mut times: Vec<(f64, Side)> = (1..frames)
            .map(|frame| (from + step * frame as f64, Side::At))
            .collect();
        let starts_over = restarts.iter().any(|&restart| near(restart, stack_end));
        times.push(match towards {
            Side::Before if starts_over => (stack_end, Side::After),
            _ => (stack_end, Side::At),
        });
        for &restart in &restarts {
            if near(restart, key) {
                times.push((key, towards));
            } else if !(towards == Side::Before && near(restart, stack_end)) {
                times.extend([(restart, Side::Before), (restart, Side::After)]);
            }
        }
        times.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let on_restart = |i: usize| {
            let neighbours = [i.checked_sub(1), Some(i + 1)].into_iter().flatten();
            (neighbours.filter_map(|j| times.get(j))).any(|&(time, side)| side != Side::At && near(time, times[i].0))
        };
        let kept = (0..times.len()).filter(|&i| times[i].1 != Side::At || !on_restart(i));
        kept.map(|i| times[i]).collect()
    }
}

/// What a baked stack's nodes are evaluated in, and how its clip is played. Threads share it
/// (`node_tracks`): ufbx's `Scene` and `Anim` hold raw pointers, so they are reached through
/// the scene's root, which ufbx declares safe to share (its evaluation only reads the scene).
struct Sources<'a> {
    scene: &'a ufbx::SceneRoot,
    /// The stack's index in the scene's `anim_stacks`.
    stack: usize,
    nodes: &'a Nodes,
    skeleton: &'a Skeleton,
    morph_channels: &'a [MorphChannel],
    /// The file's frame rate.
    rate: f64,
    /// The stack's end, in baked time (0 where it states no range).
    end: f64,
    /// One FBX time unit, in seconds: a key's time is a whole number of them.
    tick: f64,
    translation_tolerance: f32,
}

impl Sources<'_> {
    /// The stack's animation: its layers and time range.
    fn anim(&self) -> &ufbx::Anim {
        &self.scene.anim_stacks[self.stack].anim
    }

    /// `node`'s local transform as ufbx evaluates the stack's curves at `time`, in baked time
    /// (seconds from the stack's start, `trim_start_time`): the parts `parts` names (the others
    /// are left at rest values).
    fn evaluate(&self, node: &ufbx::Node, time: f64, parts: Parts) -> ufbx::Transform {
        ufbx::evaluate_transform_flags(self.anim(), node, self.file_time(time), parts.0)
    }

    /// The file's time at `time` in baked time.
    fn file_time(&self, time: f64) -> f64 {
        time + self.anim().time_begin.max(0.0)
    }

    /// The time to evaluate a key at `time` on `side` at: a time unit before or after it, which
    /// is inside the span next to it (keys are whole units apart).
    fn side_time(&self, time: f64, side: Side) -> f64 {
        match side {
            Side::Before => time - self.tick,
            Side::At => time,
            Side::After => time + self.tick,
        }
    }
}

/// Which parts of a node's transform `Sources::evaluate` works out, as ufbx's transform flags
/// (`UFBX_TRANSFORM_FLAG_*`). A rotation alone or a scale alone reads only the curves it
/// depends on (a whole transform reads all nine of a node's and finds its pivots and offsets:
/// most of a refined clip's loading), and ufbx works each out by the same steps as the whole
/// transform's (`ufbxi_get_rotation`, `ufbxi_get_scale`), to the bit, as its own bake does.
#[derive(Clone, Copy)]
struct Parts(u32);

impl Parts {
    /// Translation, rotation and scale: a translation depends on every curve of the node.
    const ALL: Parts = Parts(0);
    /// `UFBX_TRANSFORM_FLAG_EXPLICIT_INCLUDES | UFBX_TRANSFORM_FLAG_INCLUDE_ROTATION`.
    const ROTATION: Parts = Parts(0x4 | 0x20);
    /// `UFBX_TRANSFORM_FLAG_EXPLICIT_INCLUDES | UFBX_TRANSFORM_FLAG_INCLUDE_SCALE`.
    const SCALE: Parts = Parts(0x4 | 0x40);
}

/// How one node's channels are played from their baked keys (see `clip`).
struct Played<'a> {
    sources: &'a Sources<'a>,
    /// Where the node's curves go on past their keys.
    extrapolation: Option<&'a Extrapolation>,
    /// Whether spans are refined against the curves (not for nodes among scale helpers).
    refine: bool,
}

impl Played<'_> {
    /// The channel's track: `keys` extended where the curves go on past them and refined
    /// between them against `curve`, played linearly.
    fn track<T: Keyframe>(
        &self,
        keys: Vec<Key<T>>,
        curve: &dyn Fn(f64) -> T,
        playback: &Playback<T>,
    ) -> Result<Track<T>, TrackError> {
        let keys = match self.extrapolation {
            Some(extrapolation) => extrapolation.extended(keys, self.sources, curve),
            None => keys,
        };
        let (times, values): (Vec<f32>, Vec<T>) = match self.refine {
            true => refined(&keys, curve, playback),
            false => keys.iter().map(|k| (k.time as f32, k.value)).unzip(),
        };
        Track::new(Interpolation::Linear, times, values)
    }
}

/// A node's joint and its translation, rotation and scale tracks.
type NodeTracks = (usize, [Result<ChannelTrack, TrackError>; 3]);

/// How many threads refine a stack's nodes besides the loading one (which refines too while
/// the node it waits for is not done): one per core but its own, at least one.
fn worker_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get() - 1).max(1)
}

/// The tracks of each of `baked`'s nodes that is a joint, in `baked`'s order. Refining them is
/// most of an animated FBX file's loading (a node's curves are evaluated a quarter and three
/// quarters of the way through each span: 190,000 rotations for a Mixamo dancer), and no node's
/// tracks depend on another's, so the nodes are shared among `threads` threads and this one
/// (`in_order`): the tracks are the same whichever thread makes them. Every node's tracks are
/// kept, so any number may wait to be taken: a slow node (the hips, with their translation)
/// holds up no thread that finished later ones.
fn node_tracks(baked: &ufbx::BakedAnimRoot, sources: &Sources, threads: usize) -> Vec<NodeTracks> {
    // By index: ufbx's nodes hold raw pointers, so only the root may be shared.
    let indices: Vec<usize> = (0..baked.nodes.len()).collect();
    let costs = vec![0; indices.len()];
    let bound = in_order::Bound {
        workers: threads,
        held: usize::MAX,
        budget: u64::MAX,
    };
    let work = |&index: &usize| node_tracks_of(&baked.nodes[index], baked, sources);
    in_order::map(&indices, &costs, bound, work, |results| {
        results.filter_map(|(_, tracks)| tracks).collect()
    })
}

/// `node`'s joint and tracks: its baked keys, extended where its curves go on past them and
/// refined against ufbx's evaluation (`Played`); `None` for a node that is no joint.
fn node_tracks_of(node: &ufbx::BakedNode, baked: &ufbx::BakedAnim, sources: &Sources) -> Option<NodeTracks> {
    let scene_node = sources.scene.nodes.get(node.typed_id as usize)?;
    let joint = sources.nodes.joint(scene_node)?;
    let translation_curve = |time| vec3(sources.evaluate(scene_node, time, Parts::ALL).translation);
    let scale_curve = |time| vec3(sources.evaluate(scene_node, time, Parts::SCALE).scale);
    let baked_keys = |keys: &[ufbx::BakedVec3]| -> Vec<Key<Vec3>> {
        (keys.iter())
            .map(|k| Key {
                time: k.time,
                value: vec3(k.value),
            })
            .collect()
    };
    // ufbx bakes a node among scale helpers (inherit modes) by the helpers' baked scales,
    // where `evaluate` applies its own, and the helpers' scales are played linearly: such
    // channels stay as baked (or as `compensated_*` evaluates them, at the same keys).
    let helped = |n: &ufbx::Node| n.is_scale_helper || n.scale_helper.is_some() || n.inherit_scale_node.is_some();
    let under_helper = helped(scene_node) || scene_node.parent.as_ref().is_some_and(|p| helped(p));
    let extrapolation = match under_helper {
        false => Extrapolation::of(scene_node, sources),
        true => None,
    };
    let played = Played {
        sources,
        extrapolation: extrapolation.as_ref(),
        refine: !under_helper,
    };
    let translation_playback = translation_playback(sources.translation_tolerance);
    let translation_keys = compensated_translation(node, baked, sources);
    let translation_keys = translation_keys.unwrap_or_else(|| baked_keys(&node.translation_keys));
    let translation = played
        .track(translation_keys, &translation_curve, &translation_playback)
        .map(ChannelTrack::Translation);
    let rotation_keys = (node.rotation_keys.iter())
        .map(|k| Key {
            time: k.time,
            value: quat(k.value).normalize(),
        })
        .collect();
    let steps = RotationSteps::of(sources.anim(), scene_node);
    let rotation_curve = |time| {
        let rotation = match &steps {
            Some(steps) => steps.at(sources.file_time(time)),
            None => sources.evaluate(scene_node, time, Parts::ROTATION).rotation,
        };
        quat(rotation).normalize()
    };
    let rotation = played
        .track(rotation_keys, &rotation_curve, &ROTATION)
        .map(ChannelTrack::Rotation);
    let scale_keys = compensated_scale(node, baked, sources).unwrap_or_else(|| baked_keys(&node.scale_keys));
    let scale = played.track(scale_keys, &scale_curve, &SCALE).map(ChannelTrack::Scale);
    Some((joint, [translation, rotation, scale]))
}

/// The stack `baked` as a clip named `name`: its nodes' tracks (`node_tracks`), morph weights
/// and visibility; channels whose values are not numbers are left out with a warning.
fn clip(
    name: &str,
    baked: &ufbx::BakedAnimRoot,
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
    for (joint, tracks) in node_tracks(baked, sources, worker_threads()) {
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
