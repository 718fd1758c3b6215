//! FBX animation stacks → clips, one per stack, baked by ufbx.
//!
//! FBX curves have tangent forms glTF lacks (Maya's and 3ds Max's auto, user and broken
//! tangents, weighted tangents), and a node's transform is composed from several of them
//! (rotation orders, pre- and post-rotation, pivots, layers blended or added). ufbx evaluates
//! all of it exactly and bakes each animated node's translation, rotation and scale: a key at
//! every key time of the file's curves, and where a curve is not linear, more keys at the
//! file's frame rate. The clip interpolates linearly between them (rotations by slerp), so a
//! curve is exact at the keys and at every frame, and between frames off by at most
//! `|f''| · h² / 8` (h: one frame), the error of linear interpolation. Blend shape channel
//! weights are baked the same way, and node visibility steps (`visibility`). Times start at
//! the stack's start.

use glam::Vec3;

use super::mesh::{MorphChannel, shape_weights};
use super::nodes::Nodes;
use super::visibility::VisibilitySlots;
use super::{quat, vec3};
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, Skeleton, Track, WeightsTrack};

/// The frame rate clips are baked at when the file does not say.
const DEFAULT_RATE: f64 = 30.0;

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
                    clips.push(clip);
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
) -> Option<Vec<(f64, Vec3)>> {
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
fn compensated_scale(node: &ufbx::BakedNode, baked: &ufbx::BakedAnim, sources: &Sources) -> Option<Vec<(f64, Vec3)>> {
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
) -> Vec<(f64, Vec3)> {
    // Only the stack's own times: the bake also gives such a node keys shifted before it.
    let mut times: Vec<f64> = (keys.iter())
        .chain(helper.scale_keys.iter())
        .map(|k| k.time)
        .filter(|&time| time >= 0.0)
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    // Baked times start at the stack's start (`trim_start_time`).
    let start = sources.anim.time_begin.max(0.0);
    let value = |time: f64| vec3(part(&ufbx::evaluate_transform(sources.anim, node, time + start)));
    times.into_iter().map(|time| (time, value(time))).collect()
}

/// What a baked stack's nodes and elements are looked up in.
struct Sources<'a> {
    scene: &'a ufbx::Scene,
    anim: &'a ufbx::Anim,
    nodes: &'a Nodes,
    skeleton: &'a Skeleton,
    morph_channels: &'a [MorphChannel],
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
        let Some(joint) = scene.nodes.get(node.typed_id as usize).and_then(|n| nodes.joint(n)) else {
            continue;
        };
        let times = |keys: &mut dyn Iterator<Item = f64>| -> Vec<f32> { keys.map(|t| t as f32).collect() };
        let vec3_track = |keys: Vec<(f64, Vec3)>| {
            let (times, values): (Vec<f32>, Vec<Vec3>) = keys.into_iter().map(|(t, v)| (t as f32, v)).unzip();
            Track::new(Interpolation::Linear, times, values)
        };
        let baked_keys = |keys: &[ufbx::BakedVec3]| keys.iter().map(|k| (k.time, vec3(k.value))).collect();
        let rotations = &node.rotation_keys;
        let rotation_values = rotations.iter().map(|k| quat(k.value).normalize()).collect();
        let tracks = [
            vec3_track(
                compensated_translation(node, baked, sources).unwrap_or_else(|| baked_keys(&node.translation_keys)),
            )
            .map(ChannelTrack::Translation),
            Track::new(
                Interpolation::Linear,
                times(&mut rotations.iter().map(|k| k.time)),
                rotation_values,
            )
            .map(ChannelTrack::Rotation),
            vec3_track(compensated_scale(node, baked, sources).unwrap_or_else(|| baked_keys(&node.scale_keys)))
                .map(ChannelTrack::Scale),
        ];
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
