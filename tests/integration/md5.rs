//! Doom 3 MD5 models (`../shared/assets/md5`): structure, the bind pose, skinning against the
//! file's own bounds, and malformed text.

use crate::common;

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use rigscope::anim::Pose;
use rigscope::asset::{self, Model, md5};
use rigscope::skin::{Deformer, SkinningMethod};
use rigscope::ui::ViewerState;

fn md5_file(relative: &str) -> PathBuf {
    let path = common::assets_dir().join("md5").join(relative);
    assert!(path.is_file(), "missing sample asset {}", path.display());
    path
}

fn posed(model: &Model, pose: &Pose) -> Vec<Vec<Vec3>> {
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, pose, SkinningMethod::Linear);
    deformer.primitives().iter().map(|p| p.positions.clone()).collect()
}

#[test]
fn bob_and_the_cube_load_with_their_joints_and_clips() {
    let bob = asset::load(&md5_file("Bob/Bob.md5mesh")).unwrap();
    assert_eq!(bob.skeleton.len(), 34, "33 joints under the Z-up root");
    assert_eq!(bob.skeleton.name(1), "origin");
    assert_eq!(bob.skins[0].joints.len(), 33);
    assert_eq!(bob.meshes.len(), 6);
    assert_eq!(bob.images.len(), 6, "textures found by shader stem");
    assert_eq!(bob.clips.len(), 1);
    assert_eq!(bob.clips[0].name(), "Bob");
    assert!(
        (bob.clips[0].duration() - 139.0 / 24.0).abs() < 1e-4,
        "140 frames at 24 fps"
    );
    assert_eq!(bob.clips[0].channels().len(), 66);
    assert!(bob.warnings.is_empty(), "{:?}", bob.warnings);

    let cube = asset::load(&md5_file("SimpleCube/SimpleCube.md5mesh")).unwrap();
    assert_eq!(cube.skeleton.len(), 4);
    assert_eq!(cube.vertex_count(), 24);
    assert_eq!(cube.triangle_count(), 12);
    assert!(cube.clips.is_empty());
}

#[test]
fn the_model_stands_upright() {
    // Bob's height runs along MD5's Z: along Y here, head above the feet.
    let bob = asset::load(&md5_file("Bob/Bob.md5mesh")).unwrap();
    let world = bob.skeleton.bind_pose().to_model_matrices();
    let at = |name: &str| world[bob.skeleton.find(name).unwrap()].w_axis.truncate();
    let rise = at("head") - at("ankle.L");
    assert!(
        rise.y > 40.0 && rise.y > rise.x.abs() * 3.0 && rise.y > rise.z.abs() * 3.0,
        "head over ankle: {rise}"
    );
    let positions = posed(&bob, bob.skeleton.bind_pose());
    let lowest = positions.iter().flatten().map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!(lowest.abs() < 5.0, "feet on the ground: {lowest}");
}

/// An `.md5anim` whose every frame is the mesh's bind pose (base frame only, nothing animated).
fn bind_pose_anim(mesh: &Path) -> String {
    let text = std::fs::read_to_string(mesh).unwrap();
    let joints: Vec<(String, i64, Vec3, Quat)> = text
        .lines()
        .skip_while(|l| !l.starts_with("joints"))
        .skip(1)
        .take_while(|l| !l.starts_with('}'))
        .map(|line| {
            let name = line.split('"').nth(1).unwrap().to_string();
            let numbers: Vec<f32> = line
                .split('"')
                .nth(2)
                .unwrap()
                .split(['(', ')', ' ', '\t'])
                .filter_map(|t| t.parse().ok())
                .collect();
            let (x, y, z) = (numbers[1], numbers[2], numbers[3]);
            let t = 1.0 - numbers[4] * numbers[4] - numbers[5] * numbers[5] - numbers[6] * numbers[6];
            let q = Quat::from_xyzw(numbers[4], numbers[5], numbers[6], -t.max(0.0).sqrt()).normalize();
            (name, numbers[0] as i64, Vec3::new(x, y, z), q)
        })
        .collect();
    let mut anim = format!(
        "MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints {}\nframeRate 24\nnumAnimatedComponents 0\n\nhierarchy {{\n",
        joints.len()
    );
    for (name, parent, ..) in &joints {
        anim += &format!("\t\"{name}\" {parent} 0 0\n");
    }
    anim += "}\n\nbounds {\n\t( -1 -1 -1 ) ( 1 1 1 )\n\t( -1 -1 -1 ) ( 1 1 1 )\n}\n\nbaseframe {\n";
    for (_, parent, position, orientation) in &joints {
        // Parent-relative for children, model space for roots.
        let (position, orientation) = match usize::try_from(*parent) {
            Ok(p) => {
                let (_, pp, pq) = (&joints[p].0, joints[p].2, joints[p].3);
                (pq.inverse() * (*position - pp), pq.inverse() * *orientation)
            }
            Err(_) => (*position, *orientation),
        };
        let q = if orientation.w > 0.0 { -orientation } else { orientation };
        anim += &format!(
            "\t( {} {} {} ) ( {} {} {} )\n",
            position.x, position.y, position.z, q.x, q.y, q.z
        );
    }
    anim += "}\n\nframe 0 {\n}\n\nframe 1 {\n}\n";
    anim
}

#[test]
fn the_bind_pose_mesh_is_the_mesh_posed_by_an_unchanged_base_frame() {
    for mesh in ["Bob/Bob.md5mesh", "SimpleCube/SimpleCube.md5mesh"] {
        let path = md5_file(mesh);
        let model = asset::load(&path).unwrap();
        let anim = bind_pose_anim(&path);
        let clip = md5::load_clip(&model, Path::new("bind.md5anim"), anim.as_bytes()).unwrap();
        let mut pose = model.skeleton.rest_pose().clone();
        clip.sample(0.0, &mut pose, &mut clip.cursor());
        let posed = posed(&model, &pose);
        for (positions, instance) in posed.iter().zip(&model.instances) {
            let bind = &model.meshes[instance.mesh].primitives[0].positions;
            let worst = positions
                .iter()
                .zip(bind)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            assert!(worst < 1e-3, "{mesh}: frame 0 moves a vertex by {worst}");
        }
    }
}

#[test]
fn skinned_vertices_stay_within_each_frames_bounds() {
    let path = md5_file("Bob/Bob.md5mesh");
    let bob = asset::load(&path).unwrap();
    let bounds = md5::frame_bounds(&std::fs::read(md5_file("Bob/Bob.md5anim")).unwrap()).unwrap();
    assert_eq!(bounds.len(), 140);
    let clip = &bob.clips[0];
    for frame in (0..140).step_by(7) {
        let mut pose = bob.skeleton.rest_pose().clone();
        clip.sample(frame as f32 / 24.0, &mut pose, &mut clip.cursor());
        let (min, max) = bounds[frame];
        let margin = (max - min).length() * 0.02;
        for p in posed(&bob, &pose).iter().flatten() {
            assert!(p.is_finite());
            assert!(
                p.cmpge(min - margin).all() && p.cmple(max + margin).all(),
                "frame {frame}: {p} outside {min}..{max}"
            );
        }
    }
}

#[test]
fn a_mismatched_animation_is_a_clear_error_and_drops_add_clips() {
    let cube = asset::load(&md5_file("SimpleCube/SimpleCube.md5mesh")).unwrap();
    let bob_anim = std::fs::read(md5_file("Bob/Bob.md5anim")).unwrap();
    let error = md5::load_clip(&cube, Path::new("Bob.md5anim"), &bob_anim)
        .unwrap_err()
        .to_string();
    assert!(error.contains("33 joints") && error.contains("3"), "{error}");

    // Dropping the .md5anim on the open MD5 model adds it; on the cube it is refused.
    let mut state = ViewerState::new(asset::load(&md5_file("Bob/Bob.md5mesh")).unwrap());
    state.open(&md5_file("Bob/Bob.md5anim"));
    assert_eq!(state.document.model.clips.len(), 2, "{:?}", state.document.load_error);
    // The joint browser knows the added clip's animated joints.
    assert_eq!(state.inspection.facts.animated.len(), 2);
    assert!(state.inspection.facts.animated[1].iter().any(|&a| a));
    let mut state = ViewerState::new(cube);
    state.open(&md5_file("Bob/Bob.md5anim"));
    assert!(state.document.load_error.as_deref().unwrap().contains("Bob.md5anim"));
    assert_eq!(state.document.model.clips.len(), 0);
    // Opened on its own, an animation explains what to open instead.
    let error = asset::load(&md5_file("Bob/Bob.md5anim")).unwrap_err().to_string();
    assert!(error.contains(".md5mesh"), "{error}");
}

#[test]
fn malformed_text_names_the_file_and_line() {
    let cube = std::fs::read_to_string(md5_file("SimpleCube/SimpleCube.md5mesh")).unwrap();
    let cases = [
        (cube.replacen("joints {", "joints", 1), "line 8"),
        (cube.replacen("numverts 24", "numverts 25", 1), "expected 'vert'"),
        (
            cube.replacen("numverts 24", "numverts 999999999", 1),
            "more than the rest of the file",
        ),
        (cube.replacen("numJoints 3", "numJoints -3", 1), "negative"),
        (
            cube.replacen("( 0 0 0 ) ( 0 0 0 )", "( 0 zero 0 ) ( 0 0 0 )", 1),
            "'zero' is not a finite number",
        ),
        (
            cube.replacen("tri 0 2 1 0", "tri 0 2 1 99", 1),
            "vertex 99 is out of range",
        ),
        (cube.replacen("\"root\" 0", "\"root\" 7", 1), "not an earlier joint"),
        (cube.replacen("MD5Version 10", "MD5Version 4", 1), "version 4"),
        (cube[..cube.len() / 2].to_string(), "more than the rest of the file"),
        (cube.trim_end().trim_end_matches('}').to_string(), "ends where"),
        (cube.replacen("\"origin\"", "\"origin", 1), "not closed"),
    ];
    for (text, expected) in cases {
        assert_ne!(text, cube, "the case must change the file ({expected})");
        let error = asset::load_bytes(Path::new("broken.md5mesh"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("broken.md5mesh: line ") && error.contains(expected),
            "expected '{expected}': {error}"
        );
    }
}

#[test]
fn corrupt_md5_text_never_panics() {
    let mesh = std::fs::read(md5_file("Bob/Bob.md5mesh")).unwrap();
    let anim = std::fs::read(md5_file("Bob/Bob.md5anim")).unwrap();
    let bob = asset::load(&md5_file("Bob/Bob.md5mesh")).unwrap();
    let mut state = 0x1234_5678u64;
    let mut random = |bound: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % bound.max(1)
    };
    for round in 0..300 {
        let (source, is_mesh) = if round % 2 == 0 { (&mesh, true) } else { (&anim, false) };
        let mut copy = source.clone();
        match round % 3 {
            0 => copy.truncate(random(source.len())),
            1 => {
                for _ in 0..4 {
                    let at = random(copy.len());
                    copy[at] = b"0123456789-.(){}\" x"[random(19)];
                }
            }
            _ => {
                let at = random(copy.len());
                copy.splice(at..at, b"99999999".iter().copied());
            }
        }
        let result = std::panic::catch_unwind(|| {
            if is_mesh {
                asset::load_bytes(Path::new("fuzz.md5mesh"), &copy)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            } else {
                md5::load_clip(&bob, Path::new("fuzz.md5anim"), &copy)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
        });
        assert!(result.is_ok(), "round {round} panicked");
    }
}

#[test]
fn warnings_name_the_mesh_as_lint_does() {
    // The cube with a shader whose texture is nowhere beside it.
    let cube = std::fs::read_to_string(md5_file("SimpleCube/SimpleCube.md5mesh")).unwrap();
    let dir = common::temp_dir("md5-shader");
    let path = dir.join("cube.md5mesh");
    std::fs::write(&path, cube.replace("shader \"\"", "shader \"models/crate_skin\"")).unwrap();
    let model = asset::load(&path).unwrap();
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.starts_with("mesh 0 'crate_skin': no texture found for shader 'models/crate_skin'")),
        "{:?}",
        model.warnings
    );
}
