//! Scene shapes the samples do not cover: several skins in one file, a prop parented to a
//! joint, a node animating an unskinned mesh, and a file with a skeleton and no mesh.

use crate::common;

use std::path::Path;

use glam::Vec3;
use rigscope::anim::Playback;
use rigscope::asset;
use rigscope::skin::{Deformer, SkinningMethod};

/// Joint A (node 1, at x = 1) and joint B (node 3, at x = -1) under a root; a prop mesh on a
/// child of A; one single-vertex mesh drawn twice, bound to A by skin 0 and to B by skin 1;
/// a clip that raises the root by 2 over one second.
fn two_skins_gltf() -> String {
    let mut bin = common::f32_bytes(&[0.0, 0.0, 0.0]); // POSITION, one vertex at the origin
    bin.extend_from_slice(&[0, 0, 0, 0]); // JOINTS_0 (u8)
    bin.extend(common::f32_bytes(&[1.0, 0.0, 0.0, 0.0])); // WEIGHTS_0
    bin.extend(common::f32_bytes(&[0.0, 1.0])); // key times
    bin.extend(common::f32_bytes(&[0.0, 0.0, 0.0, 0.0, 2.0, 0.0])); // root translations
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "buffers":[{{"byteLength":{length},"uri":"{uri}"}}],
        "bufferViews":[{{"buffer":0,"byteLength":12}},{{"buffer":0,"byteOffset":12,"byteLength":4}},
                       {{"buffer":0,"byteOffset":16,"byteLength":16}},{{"buffer":0,"byteOffset":32,"byteLength":8}},
                       {{"buffer":0,"byteOffset":40,"byteLength":24}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}},
                     {{"bufferView":1,"componentType":5121,"count":1,"type":"VEC4"}},
                     {{"bufferView":2,"componentType":5126,"count":1,"type":"VEC4"}},
                     {{"bufferView":3,"componentType":5126,"count":2,"type":"SCALAR"}},
                     {{"bufferView":4,"componentType":5126,"count":2,"type":"VEC3"}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}}}]}},
                  {{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
        "skins":[{{"joints":[1]}},{{"joints":[3]}}],
        "animations":[{{"channels":[{{"sampler":0,"target":{{"node":0,"path":"translation"}}}}],
                        "samplers":[{{"input":3,"output":4}}]}}],
        "nodes":[{{"name":"root","children":[1,3]}},
                 {{"name":"A","translation":[1,0,0],"children":[2]}},
                 {{"name":"prop","translation":[0,0.5,0],"mesh":1}},
                 {{"name":"B","translation":[-1,0,0]}},
                 {{"name":"skinned on A","mesh":0,"skin":0}},
                 {{"name":"skinned on B","mesh":0,"skin":1}}]}}"#,
        length = bin.len(),
        uri = common::data_uri(&bin)
    )
}

/// Posed position of the single vertex of each instance, by node name.
fn posed(model: &asset::Model, time: f32) -> Vec<(String, Vec3)> {
    let mut pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[0];
    clip.sample(
        Playback::Once.clip_time(time, clip.duration()),
        &mut pose,
        &mut clip.cursor(),
    );
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, SkinningMethod::Linear);
    deformer
        .primitives()
        .iter()
        .map(|p| {
            (
                model.skeleton.name(model.instances[p.instance].joint).to_string(),
                p.positions[0],
            )
        })
        .collect()
}

#[test]
fn two_skins_and_a_prop_follow_their_joints() {
    let model = asset::load_bytes(Path::new("two-skins.gltf"), two_skins_gltf().as_bytes()).unwrap();
    assert_eq!(model.skins.len(), 2);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    // The skins' inverse bind matrices are identity (absent), so each vertex lands on its joint.
    let at = |time, name: &str| posed(&model, time).into_iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(at(0.0, "skinned on A"), Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(at(0.0, "skinned on B"), Vec3::new(-1.0, 0.0, 0.0));
    assert_eq!(at(0.0, "prop"), Vec3::new(1.0, 0.5, 0.0));
    // Animating the root carries all three.
    assert_eq!(at(0.5, "skinned on A"), Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(at(0.5, "skinned on B"), Vec3::new(-1.0, 1.0, 0.0));
    assert_eq!(at(1.0, "prop"), Vec3::new(1.0, 2.5, 0.0));
}

#[test]
fn a_skeleton_without_meshes_loads_and_poses() {
    let json = br#"{"asset":{"version":"2.0"},
        "nodes":[{"name":"hips","children":[1]},{"name":"spine","translation":[0,1,0],"children":[2]},{"name":"head","translation":[0,0.5,0]}]}"#;
    let model = asset::load_bytes(Path::new("skeleton.gltf"), json).unwrap();
    assert!(model.instances.is_empty());
    assert_eq!(model.skeleton.len(), 3);
    let world = model.skeleton.rest_pose().to_model_matrices();
    assert_eq!(world[2].w_axis.truncate(), Vec3::new(0.0, 1.5, 0.0));
}
