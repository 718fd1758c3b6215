//! ufbx's own evaluation of an FBX file as the reference for rigscope's poses: the file read
//! again with the loader's options, each node's world matrix evaluated by `ufbx::evaluate_scene`
//! at a clip's time, and every mesh vertex placed by those matrices and by rigscope's model
//! matrices for the same nodes (its skin clusters' weights and geometry→bone matrices, or its
//! node for a rigid mesh). The difference is rigscope's pose alone, measured where it shows.

use std::path::Path;

use glam::{Mat4, Vec3, Vec4};
use rigscope::asset::Model;

/// The file read as rigscope's loader reads it: glTF's axes and metres, geometry transforms
/// and space conversion applied to the geometry, inherit modes as scale helper nodes.
pub fn load(path: &Path) -> ufbx::SceneRoot {
    let options = ufbx::LoadOpts {
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        target_camera_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_light_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        geometry_transform_handling: ufbx::GeometryTransformHandling::ModifyGeometry,
        inherit_mode_handling: ufbx::InheritModeHandling::HelperNodes,
        ..Default::default()
    };
    let path = path.to_str().expect("a UTF-8 path");
    ufbx::load_file(path, options).unwrap_or_else(|e| panic!("ufbx reads {path}: {}", e.description))
}

/// The node (by `typed_id`) of each of rigscope's joints: every node under the root, depth
/// first, children in file order, as the loader numbers them.
pub fn node_of_joint(scene: &ufbx::Scene) -> Vec<usize> {
    let mut order = Vec::with_capacity(scene.nodes.len());
    let mut stack: Vec<&ufbx::Node> = scene.root_node.children.iter().rev().map(|c| &**c).collect();
    while let Some(node) = stack.pop() {
        order.push(node.element.typed_id as usize);
        stack.extend(node.children.iter().rev().map(|c| &**c));
    }
    order
}

/// ufbx's affine matrix as glam's.
pub fn mat4(m: &ufbx::Matrix) -> Mat4 {
    Mat4::from_cols(
        Vec4::new(m.m00 as f32, m.m10 as f32, m.m20 as f32, 0.0),
        Vec4::new(m.m01 as f32, m.m11 as f32, m.m21 as f32, 0.0),
        Vec4::new(m.m02 as f32, m.m12 as f32, m.m22 as f32, 0.0),
        Vec4::new(m.m03 as f32, m.m13 as f32, m.m23 as f32, 1.0),
    )
}

/// Every node's world matrix as ufbx evaluates stack `stack` at `time` seconds from the
/// stack's start (where rigscope's clip starts), by `typed_id`.
pub fn world_matrices(scene: &ufbx::Scene, stack: &ufbx::AnimStack, time: f32) -> Vec<Mat4> {
    let start = stack.anim.time_begin.max(0.0);
    let evaluated = ufbx::evaluate_scene(scene, &stack.anim, start + time as f64, ufbx::EvaluateOpts::default())
        .unwrap_or_else(|e| panic!("ufbx evaluates '{}': {}", stack.element.name, e.description));
    evaluated.nodes.iter().map(|n| mat4(&n.node_to_world)).collect()
}

/// Every mesh vertex of the file placed by `world` (per node, by `typed_id`): skinned by its
/// first skin deformer's clusters, or carried by its node.
pub fn placed_vertices(scene: &ufbx::Scene, world: &[Mat4]) -> Vec<Vec3> {
    let mut out = Vec::new();
    for mesh in &scene.meshes {
        let Some(node) = mesh.element.instances.iter().next() else {
            continue;
        };
        let rigid = world[node.element.typed_id as usize] * mat4(&node.geometry_to_node);
        match mesh.skin_deformers.first() {
            Some(skin) => {
                for (vertex, position) in mesh.vertices.iter().enumerate() {
                    let p = Vec3::new(position.x as f32, position.y as f32, position.z as f32);
                    let weights = &skin.vertices[vertex];
                    let mut sum = Vec3::ZERO;
                    let mut total = 0.0;
                    for i in weights.weight_begin..weights.weight_begin + weights.num_weights {
                        let weight = &skin.weights[i as usize];
                        let cluster = &skin.clusters[weight.cluster_index as usize];
                        let Some(bone) = cluster.bone_node.as_ref() else {
                            continue;
                        };
                        let matrix = world[bone.element.typed_id as usize] * mat4(&cluster.geometry_to_bone);
                        sum += weight.weight as f32 * matrix.transform_point3(p);
                        total += weight.weight as f32;
                    }
                    out.push(if total > 0.0 {
                        sum / total
                    } else {
                        rigid.transform_point3(p)
                    });
                }
            }
            None => out.extend(mesh.vertices.iter().map(|position| {
                rigid.transform_point3(Vec3::new(position.x as f32, position.y as f32, position.z as f32))
            })),
        }
    }
    out
}

/// The length of the box's diagonal around `points`.
pub fn diagonal(points: &[Vec3]) -> f32 {
    let min = points.iter().copied().fold(Vec3::INFINITY, Vec3::min);
    let max = points.iter().copied().fold(Vec3::NEG_INFINITY, Vec3::max);
    (max - min).length()
}

/// How far rigscope's pose of `model` in its clip `clip` (the file's stack of that name) at
/// `time` puts the file's vertices from where ufbx's evaluation does: the largest distance
/// over the diagonal of ufbx's posed vertices, and the largest difference of any joint's world
/// matrix element.
pub struct Deviation {
    pub vertex: f32,
    pub matrix: f32,
}

pub fn deviation(scene: &ufbx::Scene, model: &Model, clip: &str, time: f32) -> Deviation {
    let stack = (scene.anim_stacks.iter())
        .find(|s| s.element.name == clip)
        .unwrap_or_else(|| panic!("no stack '{clip}'"));
    let reference = world_matrices(scene, stack, time);
    let mut pose = model.skeleton.rest_pose().clone();
    let rigscope_clip = (model.clips.iter())
        .find(|c| c.name() == clip)
        .unwrap_or_else(|| panic!("no clip '{clip}'"));
    rigscope_clip.sample(time, &mut pose, &mut rigscope_clip.cursor());
    let model_matrices = pose.to_model_matrices();
    let mut posed = reference.clone();
    for (joint, node) in node_of_joint(scene).into_iter().enumerate() {
        posed[node] = model_matrices[joint];
    }
    let expected = placed_vertices(scene, &reference);
    let actual = placed_vertices(scene, &posed);
    let vertex = (expected.iter().zip(&actual))
        .map(|(e, a)| e.distance(*a))
        .fold(0.0, f32::max);
    let matrix = (reference.iter().zip(&posed))
        .map(|(e, a)| (*e - *a).abs().to_cols_array().into_iter().fold(0.0, f32::max))
        .fold(0.0, f32::max);
    Deviation {
        vertex: vertex / diagonal(&expected).max(f32::MIN_POSITIVE),
        matrix,
    }
}

/// The times half-way between a clip's consecutive key times (of all its channels together),
/// within its span: where linear playback of baked keys is furthest from the curves they were
/// baked from.
pub fn mid_key_times(clip: &rigscope::anim::Clip) -> Vec<f32> {
    use rigscope::anim::ChannelTrack;
    let mut times: Vec<f32> = (clip.channels().iter())
        .flat_map(|channel| match &channel.track {
            ChannelTrack::Translation(track) | ChannelTrack::Scale(track) => track.times().to_vec(),
            ChannelTrack::Rotation(track) => track.times().to_vec(),
            ChannelTrack::MorphWeights { track, .. } | ChannelTrack::Properties { track, .. } => track.times().to_vec(),
        })
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    // Keys closer than a millisecond are a step (a constant key's jump), not a span to play.
    (times.windows(2))
        .filter(|pair| pair[1] - pair[0] > 1e-3)
        .map(|pair| 0.5 * (pair[0] + pair[1]))
        .filter(|&time| (0.0..=clip.duration()).contains(&time))
        .collect()
}
