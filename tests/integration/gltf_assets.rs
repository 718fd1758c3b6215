//! End-to-end checks of the glTF loader, clip sampling and CPU skinning on the sample assets.

use crate::common;

use glam::{Quat, Vec3};
use rigscope::anim::{ChannelTrack, Playback, Pose};
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};

fn load(relative: &str) -> Model {
    let path = common::gltf(relative);
    asset::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Samples `clip` at clip time `time` over the rest pose.
fn pose_at(model: &Model, clip: usize, time: f32) -> Pose {
    let mut pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[clip];
    clip.sample(time, &mut pose, &mut clip.cursor());
    pose
}

fn posed_positions(model: &Model, pose: &Pose) -> Vec<Vec<Vec3>> {
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, pose, SkinningMethod::Linear);
    deformer.primitives().iter().map(|p| p.positions.clone()).collect()
}

struct Expected {
    file: &'static str,
    nodes: usize,
    /// (joint count, file node of the skeleton root) per skin.
    skins: &'static [(usize, usize)],
    instances: usize,
    /// (name, duration in seconds, channels) per clip.
    clips: &'static [(&'static str, f32, usize)],
}

// Facts read from the files' JSON with an independent script (not rigscope's loader).
const EXPECTED: &[Expected] = &[
    Expected {
        file: "AnimatedCube/glTF/AnimatedCube.gltf",
        nodes: 1,
        skins: &[],
        instances: 1,
        clips: &[("animation_AnimatedCube", 2.0, 1)],
    },
    Expected {
        file: "AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
        nodes: 1,
        skins: &[],
        instances: 1,
        clips: &[("Square", 4.2, 1)],
    },
    Expected {
        file: "AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf",
        nodes: 2,
        skins: &[],
        instances: 1,
        clips: &[("Square", 4.2, 1)],
    },
    Expected {
        file: "AnimatedTriangle/glTF/AnimatedTriangle.gltf",
        nodes: 1,
        skins: &[],
        instances: 1,
        clips: &[("Animation 0", 1.0, 1)],
    },
    Expected {
        file: "BoxAnimated/glTF-Binary/BoxAnimated.glb",
        nodes: 4,
        skins: &[],
        instances: 2,
        clips: &[("Animation 0", 3.7083, 2)],
    },
    Expected {
        file: "CesiumMan/glTF-Binary/CesiumMan.glb",
        nodes: 22,
        skins: &[(19, 3)],
        instances: 1,
        clips: &[("Animation 0", 2.0, 57)],
    },
    Expected {
        file: "CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb",
        nodes: 6,
        skins: &[],
        instances: 3,
        clips: &[("Wheels", 1.25, 2)],
    },
    Expected {
        file: "Fox/glTF-Binary/Fox.glb",
        nodes: 26,
        skins: &[(24, 2)],
        instances: 1,
        clips: &[("Survey", 3.4167, 21), ("Walk", 0.7083, 21), ("Run", 1.1583, 21)],
    },
    Expected {
        file: "InterpolationTest/glTF-Binary/InterpolationTest.glb",
        nodes: 12,
        skins: &[],
        instances: 10,
        clips: &[
            ("Step Scale", 1.6667, 1),
            ("Linear Scale", 1.6667, 1),
            ("CubicSpline Scale", 1.6667, 1),
            ("Step Rotation", 1.7083, 1),
            ("CubicSpline Rotation", 1.7083, 1),
            ("Linear Rotation", 1.7083, 1),
            ("Step Translation", 1.7083, 1),
            ("CubicSpline Translation", 1.6667, 1),
            ("Linear Translation", 1.6667, 1),
        ],
    },
    Expected {
        file: "RiggedFigure/glTF-Binary/RiggedFigure.glb",
        nodes: 22,
        skins: &[(19, 2)],
        instances: 1,
        clips: &[("Animation 0", 1.25, 57)],
    },
    Expected {
        file: "RiggedSimple/glTF-Binary/RiggedSimple.glb",
        nodes: 5,
        skins: &[(2, 3)],
        instances: 1,
        clips: &[("Animation 0", 2.0833, 3)],
    },
    Expected {
        file: "SimpleMorph/glTF/SimpleMorph.gltf",
        nodes: 1,
        skins: &[],
        instances: 1,
        clips: &[("Animation 0", 4.0, 1)],
    },
    Expected {
        file: "SimpleSkin/glTF/SimpleSkin.gltf",
        nodes: 3,
        skins: &[(2, 1)],
        instances: 1,
        clips: &[("Animation 0", 5.5, 1)],
    },
    Expected {
        file: "SimpleSkin/glTF-Embedded/SimpleSkin.gltf",
        nodes: 3,
        skins: &[(2, 1)],
        instances: 1,
        clips: &[("Animation 0", 5.5, 1)],
    },
    Expected {
        file: "SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf",
        nodes: 1,
        skins: &[],
        instances: 1,
        clips: &[],
    },
    Expected {
        file: "Xbot/Xbot.glb",
        nodes: 70,
        skins: &[(67, 66)],
        instances: 2,
        clips: &[
            ("agree", 1.8333, 201),
            ("headShake", 2.5667, 201),
            ("idle", 2.5, 201),
            ("run", 0.7, 201),
            ("sad_pose", 0.0667, 201),
            ("sneak_pose", 0.0667, 201),
            ("walk", 0.9667, 201),
        ],
    },
];

#[test]
fn samples_load_with_the_expected_structure() {
    for expected in EXPECTED {
        let model = load(expected.file);
        let file = expected.file;
        assert_eq!(model.skeleton.len(), expected.nodes, "{file}: nodes");
        assert_eq!(model.instances.len(), expected.instances, "{file}: mesh instances");
        let skins: Vec<(usize, usize)> = model
            .skins
            .iter()
            .map(|s| (s.joints.len(), model.file_node[s.root]))
            .collect();
        assert_eq!(skins, expected.skins, "{file}: skins");
        assert_eq!(model.clips.len(), expected.clips.len(), "{file}: clips");
        for (clip, (name, duration, channels)) in model.clips.iter().zip(expected.clips) {
            assert_eq!(clip.name(), *name, "{file}");
            assert!(
                (clip.duration() - duration).abs() < 1e-3,
                "{file} {name}: duration {}",
                clip.duration()
            );
            assert_eq!(clip.channels().len(), *channels, "{file} {name}: channels");
        }
        assert!(model.warnings.is_empty(), "{file}: {:?}", model.warnings);
    }
}

#[test]
fn every_sample_file_is_covered() {
    let covered: Vec<_> = EXPECTED.iter().map(|e| common::gltf(e.file)).collect();
    for file in common::all_gltf_files() {
        if !covered.contains(&file) {
            // New files must at least load; add them to EXPECTED with their facts.
            asset::load(&file).unwrap_or_else(|e| panic!("{e}"));
            panic!("{} is not in EXPECTED", file.display());
        }
    }
}

#[test]
fn every_clip_samples_to_finite_poses_and_vertices() {
    for file in common::all_gltf_files() {
        let model = asset::load(&file).unwrap();
        let mut deformer = Deformer::new(&model);
        for (index, clip) in model.clips.iter().enumerate() {
            for step in -2..=22 {
                let time = clip.duration() * step as f32 / 20.0;
                let pose = pose_at(&model, index, time);
                assert!(
                    pose.local().iter().all(|t| t.is_finite()),
                    "{}: {} at {time}",
                    file.display(),
                    clip.name()
                );
                deformer.update_all(&model, &pose, SkinningMethod::Linear);
                for posed in deformer.primitives() {
                    assert!(
                        posed.positions.iter().all(|p| p.is_finite()),
                        "{}: {} at {time}",
                        file.display(),
                        clip.name()
                    );
                    assert!(posed.normals.iter().all(|n| n.is_finite()));
                }
            }
        }
    }
}

#[test]
fn decoded_positions_match_the_declared_accessor_bounds() {
    // Positions (including sparse and quantized ones) must span the accessor's min/max.
    for file in common::all_gltf_files() {
        let json = common::gltf_json(&file);
        let model = asset::load(&file).unwrap();
        for (mesh_index, mesh) in json["meshes"].as_array().unwrap().iter().enumerate() {
            for (primitive_index, primitive) in mesh["primitives"].as_array().unwrap().iter().enumerate() {
                let accessor = &json["accessors"][primitive["attributes"]["POSITION"].as_u64().unwrap() as usize];
                if accessor["normalized"].as_bool() == Some(true) {
                    continue; // bounds are in integer units
                }
                let bound = |key: &str| {
                    Vec3::from_slice(
                        &accessor[key]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap() as f32)
                            .collect::<Vec<_>>(),
                    )
                };
                let positions = &model.meshes[mesh_index].primitives[primitive_index].positions;
                let min = positions.iter().fold(Vec3::INFINITY, |a, b| a.min(*b));
                let max = positions.iter().fold(Vec3::NEG_INFINITY, |a, b| a.max(*b));
                let tolerance = 1e-4 * (1.0 + bound("max").abs().max_element());
                assert!(
                    min.abs_diff_eq(bound("min"), tolerance),
                    "{}: mesh {mesh_index} min {min}",
                    file.display()
                );
                assert!(
                    max.abs_diff_eq(bound("max"), tolerance),
                    "{}: mesh {mesh_index} max {max}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn the_bind_pose_leaves_skinned_meshes_undeformed() {
    for file in [
        "CesiumMan/glTF-Binary/CesiumMan.glb",
        "Fox/glTF-Binary/Fox.glb",
        "RiggedFigure/glTF-Binary/RiggedFigure.glb",
        "RiggedSimple/glTF-Binary/RiggedSimple.glb",
        "SimpleSkin/glTF/SimpleSkin.gltf",
        "Xbot/Xbot.glb",
    ] {
        let model = load(file);
        let posed = posed_positions(&model, model.skeleton.bind_pose());
        for (positions, instance) in posed.iter().zip(&model.instances) {
            let bind = &model.meshes[instance.mesh].primitives[0].positions;
            let size = bind.iter().fold(0.0f32, |a, p| a.max(p.abs().max_element()));
            let worst = positions
                .iter()
                .zip(bind)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            assert!(
                worst < 1e-4 * size.max(1.0),
                "{file}: bind pose moves a vertex by {worst}"
            );
        }
        // And the bind pose really is the inverse of each skin's inverse bind matrices.
        let model_matrices = model.skeleton.bind_pose().to_model_matrices();
        for skin in &model.skins {
            for (&joint, inverse_bind) in skin.joints.iter().zip(&skin.inverse_bind) {
                let product = model_matrices[joint] * *inverse_bind;
                assert!(product.abs_diff_eq(glam::Mat4::IDENTITY, 1e-3), "{file}: joint {joint}");
            }
        }
    }
}

/// Expected TRS values of InterpolationTest's animated node, computed from the file's keys with
/// an independent implementation of glTF 2.0 Appendix C (clamping, STEP, LINEAR with
/// shortest-path slerp, CUBICSPLINE with interval-scaled tangents and normalised rotations).
const INTERPOLATION_EXPECTED: &[(&str, usize, f32, &[f32])] = &[
    ("Step Scale", 0, 0.3, &[1.0, 1.0, 1.0]),
    ("Step Scale", 0, 0.7, &[0.5, 0.5, 0.5]),
    ("Step Scale", 0, 1.6, &[0.5, 0.5, 0.5]),
    ("Step Scale", 0, 2.5, &[1.0, 1.0, 1.0]),
    ("Linear Scale", 3, 0.0, &[1.0, 1.0, 1.0]),
    ("Linear Scale", 3, 0.3, &[0.655556, 0.655556, 0.655556]),
    ("Linear Scale", 3, 0.7, &[0.809091, 0.809091, 0.809091]),
    ("Linear Scale", 3, 1.6, &[0.92, 0.92, 0.92]),
    ("CubicSpline Scale", 4, 0.3, &[0.615073, 0.615073, 0.615073]),
    ("CubicSpline Scale", 4, 0.7, &[0.836986, 0.836986, 0.836986]),
    ("CubicSpline Scale", 4, 1.1, &[0.676, 0.676, 0.676]),
    ("CubicSpline Scale", 4, 1.6, &[0.965696, 0.965696, 0.965696]),
    ("Step Rotation", 5, 0.7, &[0.0, 0.0, -0.382683, 0.923880]),
    ("Step Rotation", 5, 1.6, &[0.0, 0.0, -0.923880, 0.382683]),
    ("Step Rotation", 5, 2.5, &[0.0, 0.0, -1.0, 0.0]),
    ("CubicSpline Rotation", 6, 0.3, &[0.0, 0.0, -0.321954, 0.946755]),
    ("CubicSpline Rotation", 6, 0.7, &[0.0, 0.0, -0.624174, 0.781285]),
    ("CubicSpline Rotation", 6, 1.1, &[0.0, 0.0, -0.870265, 0.492584]),
    ("CubicSpline Rotation", 6, 1.6, &[0.0, 0.0, -0.999945, 0.010489]),
    ("Linear Rotation", 7, 0.3, &[0.0, 0.0, -0.278991, 0.960294]),
    ("Linear Rotation", 7, 0.7, &[0.0, 0.0, -0.593547, 0.804800]),
    ("Linear Rotation", 7, 1.1, &[0.0, 0.0, -0.852640, 0.522499]),
    ("Linear Rotation", 7, 1.6, &[0.0, 0.0, -0.995695, 0.092687]),
    ("Step Translation", 8, 0.0, &[0.0, 6.665226, 0.0]),
    ("Step Translation", 8, 0.7, &[0.0, 10.0, 0.0]),
    ("Step Translation", 8, 1.1, &[0.0, 6.0, 0.0]),
    ("CubicSpline Translation", 9, 0.3, &[3.30518, 9.357268, 0.0]),
    ("CubicSpline Translation", 9, 0.7, &[3.30518, 6.966656, 0.0]),
    ("CubicSpline Translation", 9, 1.1, &[3.30518, 8.818048, 0.0]),
    ("CubicSpline Translation", 9, 1.6, &[3.30518, 6.274432, 0.0]),
    ("Linear Translation", 10, 0.3, &[-3.297581, 9.053884, 0.0]),
    ("Linear Translation", 10, 0.7, &[-3.297581, 7.28, 0.0]),
    ("Linear Translation", 10, 1.6, &[-3.297581, 6.64, 0.0]),
    ("Linear Translation", 10, 2.5, &[-3.297581, 6.0, 0.0]),
];

#[test]
fn interpolation_test_matches_the_specification() {
    let model = load("InterpolationTest/glTF-Binary/InterpolationTest.glb");
    for &(clip_name, node, time, expected) in INTERPOLATION_EXPECTED {
        let clip = model.find_clip(clip_name).unwrap();
        let joint = model.file_node.iter().position(|&n| n == node).unwrap();
        let local = pose_at(&model, clip, time).local()[joint];
        let context = format!("{clip_name} at {time}");
        match expected.len() {
            4 => {
                let expected = Quat::from_slice(expected);
                assert!(
                    local.rotation.dot(expected).abs() > 1.0 - 1e-5,
                    "{context}: {} vs {expected}",
                    local.rotation
                );
            }
            _ => {
                let expected = Vec3::from_slice(expected);
                let actual = if clip_name.ends_with("Scale") {
                    local.scale
                } else {
                    local.translation
                };
                assert!(actual.abs_diff_eq(expected, 1e-4), "{context}: {actual} vs {expected}");
            }
        }
    }
}

#[test]
fn looping_and_ping_pong_map_onto_the_clip() {
    let model = load("Fox/glTF-Binary/Fox.glb");
    let walk = model.find_clip("Walk").unwrap();
    let duration = model.clips[walk].duration();
    let at = |playback: Playback, time: f32| pose_at(&model, walk, playback.clip_time(time, duration));
    let same = |a: Pose, b: Pose| {
        a.local()
            .iter()
            .zip(b.local())
            .all(|(a, b)| a.translation.abs_diff_eq(b.translation, 1e-3) && a.rotation.abs_diff_eq(b.rotation, 1e-4))
    };
    assert!(same(at(Playback::Loop, duration + 0.2), pose_at(&model, walk, 0.2)));
    assert!(same(
        at(Playback::PingPong, duration + 0.2),
        pose_at(&model, walk, duration - 0.2)
    ));
    assert!(same(
        at(Playback::Once, duration + 5.0),
        pose_at(&model, walk, duration)
    ));
    assert!(
        !same(pose_at(&model, walk, 0.2), pose_at(&model, walk, duration - 0.2)),
        "the clip moves"
    );
}

#[test]
fn forward_playback_with_a_cursor_matches_fresh_sampling() {
    let model = load("Xbot/Xbot.glb");
    let walk = &model.clips[model.find_clip("walk").unwrap()];
    let mut cursor = walk.cursor();
    let mut pose = model.skeleton.rest_pose().clone();
    for frame in 0..240 {
        let time = Playback::Loop.clip_time(frame as f32 / 60.0, walk.duration());
        walk.sample(time, &mut pose, &mut cursor);
        let fresh = {
            let mut fresh = model.skeleton.rest_pose().clone();
            walk.sample(time, &mut fresh, &mut walk.cursor());
            fresh
        };
        assert_eq!(pose, fresh, "frame {frame}");
    }
}

#[test]
fn quantized_and_float_morph_cubes_pose_alike() {
    let float = load("AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb");
    let quantized = load("AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf");
    for time in [0.0, 1.0, 2.1, 3.7] {
        let a = posed_positions(&float, &pose_at(&float, 0, time));
        let b = posed_positions(&quantized, &pose_at(&quantized, 0, time));
        // The files list the vertices in different orders: match each to its nearest.
        let nearest = |p: &Vec3| b[0].iter().map(|q| p.distance(*q)).fold(f32::INFINITY, f32::min);
        let worst = a[0].iter().map(nearest).fold(0.0, f32::max);
        // 8-bit positions and weights: a few thousandths of the cube's unit size.
        assert!(worst < 0.01, "at {time}: {worst}");
    }
    // The morph really moves: the two clip ends differ.
    let start = posed_positions(&float, &pose_at(&float, 0, 0.0));
    let middle = posed_positions(&float, &pose_at(&float, 0, 1.0));
    assert!(start[0].iter().zip(&middle[0]).any(|(a, b)| a.distance(*b) > 0.1));
}

#[test]
fn morph_weights_default_from_the_mesh_and_animate() {
    let model = load("SimpleMorph/glTF/SimpleMorph.gltf");
    assert_eq!(model.skeleton.rest_pose().morph_weights(), &[0.5, 0.5]);
    let ChannelTrack::MorphWeights { track, .. } = &model.clips[0].channels()[0].track else {
        panic!("SimpleMorph animates weights");
    };
    assert_eq!(track.width(), 2);
    let primitive = &model.meshes[0].primitives[0];
    let expected: Vec<Vec3> = (0..3)
        .map(|v| {
            primitive.positions[v]
                + primitive.morph_targets[0].positions[v] * 0.5
                + primitive.morph_targets[1].positions[v] * 0.5
        })
        .collect();
    assert_eq!(posed_positions(&model, model.skeleton.rest_pose())[0], expected);
}

#[test]
fn external_and_embedded_buffers_give_the_same_model() {
    let external = load("SimpleSkin/glTF/SimpleSkin.gltf");
    let embedded = load("SimpleSkin/glTF-Embedded/SimpleSkin.gltf");
    for time in [0.0, 1.3, 4.0] {
        assert_eq!(
            posed_positions(&external, &pose_at(&external, 0, time)),
            posed_positions(&embedded, &pose_at(&embedded, 0, time))
        );
    }
}

#[test]
fn missing_normals_are_computed_and_unit() {
    let model = load("Fox/glTF-Binary/Fox.glb");
    let primitive = &model.meshes[0].primitives[0];
    assert!(primitive.normals_computed);
    assert!(primitive.normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-4));
    assert_eq!(primitive.indices.len(), 1728, "non-indexed: one index per vertex");
}

#[test]
fn matrix_nodes_are_decomposed() {
    // RiggedSimple's nodes 0, 1 and 3 use `matrix`.
    let model = load("RiggedSimple/glTF-Binary/RiggedSimple.glb");
    let json = common::gltf_json(&common::gltf("RiggedSimple/glTF-Binary/RiggedSimple.glb"));
    for node in [0, 1, 3] {
        let matrix: Vec<f32> = json["nodes"][node]["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        let joint = model.file_node.iter().position(|&n| n == node).unwrap();
        let rebuilt = model.skeleton.rest_pose().local()[joint].to_mat4();
        assert!(
            rebuilt.abs_diff_eq(glam::Mat4::from_cols_slice(&matrix), 1e-5),
            "node {node}"
        );
    }
}

#[test]
fn one_skin_deforms_two_meshes() {
    let model = load("Xbot/Xbot.glb");
    assert!(model.instances.iter().all(|i| i.skin == Some(0)));
    let walk = model.find_clip("walk").unwrap();
    let posed = posed_positions(&model, &pose_at(&model, walk, 0.5));
    let rest = posed_positions(&model, model.skeleton.bind_pose());
    for (a, b) in posed.iter().zip(&rest) {
        assert!(a.iter().zip(b).any(|(p, q)| p.distance(*q) > 0.01), "both meshes move");
    }
}
