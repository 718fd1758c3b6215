//! Maya's blended skinning from an FBX file the test writes: a skin whose `SkinningType` is
//! "Blend" mixes linear and dual-quaternion skinning per vertex by the file's `BlendWeights`,
//! on the CPU against numbers worked out by hand, and on the GPU against the CPU.

use crate::common;

use std::path::{Path, PathBuf};

use common::fbx_file::{self, METRES_Y_UP, Prop};
use glam::Vec3;
use rigscope::anim::Pose;
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};

/// The bar of `fbx_file::skinned_bar` without its blend shape and visibility (the GPU skins
/// it), its skin blended: the middle row's control points 2 (x = −0.2) and 3 (x = 0.2) take
/// dual quaternions at 0.25 and 1, every other control point at 0 (the file lists none).
fn blended_bar(dir: &Path) -> PathBuf {
    let nodes = fbx_file::skinned_bar(&METRES_Y_UP);
    let mut nodes = fbx_file::only_objects(&nodes, &[1, 2, 3, 10, 20, 30, 31, 32, 50, 51, 52, 53]);
    let skin = fbx_file::object_mut(&mut nodes, 30);
    skin.children.extend([
        fbx_file::leaf("SkinningType", fbx_file::s("Blend")),
        fbx_file::leaf("Indexes", Prop::Ints(vec![2, 3])),
        fbx_file::leaf("BlendWeights", Prop::Doubles(vec![0.25, 1.0])),
    ]);
    let path = dir.join("blended.fbx");
    std::fs::write(&path, fbx_file::to_binary(&nodes)).unwrap();
    path
}

/// The position of the vertex at bind position `bind` when the model is posed by its first
/// clip at `time` and skinned on the CPU by `method`.
fn posed_vertex(model: &Model, time: f32, method: SkinningMethod, bind: Vec3) -> Vec3 {
    let mut pose: Pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[0];
    clip.sample(time, &mut pose, &mut clip.cursor());
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, method);
    let primitive = &model.meshes[0].primitives[0];
    let vertex = (primitive.positions.iter())
        .position(|p| p.distance(bind) < 1e-6)
        .unwrap_or_else(|| panic!("no vertex at {bind}"));
    deformer.primitives()[0].positions[vertex]
}

#[test]
fn a_blended_skin_mixes_linear_and_dual_quaternions_per_vertex_as_the_file_says() {
    let dir = common::temp_dir("fbx-blended-skin");
    let model = asset::load(&blended_bar(&dir)).unwrap();
    assert!(
        (model.warnings.iter()).any(|w| w.contains("'Bar'")
            && w.contains("mixes linear and dual-quaternion skinning per vertex")
            && w.contains("--skin-method dual-quaternion")),
        "{:?}",
        model.warnings
    );
    // At 1 s Tip has turned 90° about +Z around its joint at (0, 1, 0). A middle-row vertex,
    // (±0.2, 1, 0), held half by each joint: linear blend puts it at (±0.1, 1 ± 0.1, 0), dual
    // quaternions turn it 45° around the joint, to (±0.2·cos 45°, 1 ± 0.2·sin 45°, 0); a
    // vertex with dual-quaternion weight s is at (1 − s)·linear + s·dual quaternion.
    let diagonal = 0.2 * std::f32::consts::FRAC_1_SQRT_2;
    let (left, right) = (Vec3::new(-0.2, 1.0, 0.0), Vec3::new(0.2, 1.0, 0.0));
    let left_linear = Vec3::new(-0.1, 0.9, 0.0);
    let left_dual_quat = Vec3::new(-diagonal, 1.0 - diagonal, 0.0);
    for (method, bind, expected) in [
        (
            SkinningMethod::DualQuaternion,
            left,
            0.75 * left_linear + 0.25 * left_dual_quat,
        ),
        (
            SkinningMethod::DualQuaternion,
            right,
            Vec3::new(diagonal, 1.0 + diagonal, 0.0),
        ),
        // Linear blend skinning chosen: every vertex linear, whatever the file mixes.
        (SkinningMethod::Linear, left, left_linear),
        (SkinningMethod::Linear, right, Vec3::new(0.1, 1.1, 0.0)),
        // The top row follows Tip alone: (x, 2, 0) turned to (−1, 1 + x, 0) either way.
        (
            SkinningMethod::DualQuaternion,
            Vec3::new(0.2, 2.0, 0.0),
            Vec3::new(-1.0, 1.2, 0.0),
        ),
    ] {
        let actual = posed_vertex(&model, 1.0, method, bind);
        assert!(
            actual.distance(expected) < 1e-5,
            "{method:?}, the vertex at {bind}: {actual}, not {expected}"
        );
    }
}

#[test]
fn a_blended_skin_draws_alike_on_the_cpu_and_the_gpu() {
    // The GPU's skinning read back against the CPU's (`render --vertex-view skin-difference`):
    // the vertex's dual-quaternion weight reaches the shader.
    let dir = common::temp_dir("fbx-blended-gpu");
    let path = blended_bar(&dir);
    let out = dir.join("difference.png");
    let output = common::rigscope(&[
        "render",
        path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--time",
        "1",
        "--skin-method",
        "dual-quaternion",
        "--vertex-view",
        "skin-difference",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let line = (stderr.lines())
        .find(|l| l.starts_with("CPU vs GPU skinning: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let compared: usize = line["CPU vs GPU skinning: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert_eq!(compared, 6, "every vertex of the bar is compared: {line}");
    let relative: f32 = (line.split('(').nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(relative < 1e-6, "{line}");
}

/// The `v` lines of an OBJ file.
fn obj_positions(path: &Path) -> Vec<Vec3> {
    let text = std::fs::read_to_string(path).unwrap();
    (text.lines())
        .filter_map(|line| line.strip_prefix("v "))
        .map(|rest| {
            let numbers: Vec<f32> = rest.split_whitespace().map(|n| n.parse().unwrap()).collect();
            Vec3::new(numbers[0], numbers[1], numbers[2])
        })
        .collect()
}

#[test]
#[ignore = "needs ufbx's test data: set RIGSCOPE_UFBX_DATA"]
fn maya_blended_skinning_against_mayas_own_export() {
    // RIGSCOPE_UFBX_DATA=/path/to/ufbx/data cargo test --test integration \
    //     fbx_blended_skinning::maya -- --ignored --nocapture
    // maya_dq_weights: a Maya skin blended per vertex, and Maya's OBJ export of it posed at
    // frames 10 and 18 (centimetres). Each posed vertex's distance to the nearest exported
    // one, over the diagonal, both ways: mixed as the file says with dual quaternions chosen,
    // apart from Maya's picture with linear blend skinning.
    let data = PathBuf::from(std::env::var_os("RIGSCOPE_UFBX_DATA").expect("set RIGSCOPE_UFBX_DATA"));
    let model = asset::load(&data.join("maya_dq_weights_7500_binary.fbx")).unwrap();
    let scene = common::ufbx_reference::load(&data.join("maya_dq_weights_7500_binary.fbx"));
    let rate = scene.settings.frames_per_second;
    let start = scene.anim_stacks[0].anim.time_begin.max(0.0);
    for frame in [10, 18] {
        let exported: Vec<Vec3> = (obj_positions(&data.join(format!("maya_dq_weights_{frame}.obj"))).iter())
            .map(|p| *p / 100.0)
            .collect();
        let time = (frame as f64 / rate - start) as f32;
        let mut pose: Pose = model.skeleton.rest_pose().clone();
        let clip = &model.clips[0];
        clip.sample(time, &mut pose, &mut clip.cursor());
        let mut deformer = Deformer::new(&model);
        let diagonal = common::ufbx_reference::diagonal(&exported);
        for method in [SkinningMethod::Linear, SkinningMethod::DualQuaternion] {
            deformer.update_all(&model, &pose, method);
            let posed: Vec<Vec3> = (deformer.primitives().iter())
                .flat_map(|p| p.positions.clone())
                .collect();
            let nearest = |from: &[Vec3], to: &[Vec3]| {
                (from.iter())
                    .map(|a| to.iter().map(|b| a.distance(*b)).fold(f32::INFINITY, f32::min))
                    .fold(0.0, f32::max)
            };
            let apart = nearest(&posed, &exported).max(nearest(&exported, &posed)) / diagonal;
            println!("frame {frame}, {method:?}: {apart:.2e} of the diagonal");
            // Measured: 2.5e-7 mixed (dual quaternions chosen), 8.3e-3 and 4.4e-2 linear.
            match method {
                SkinningMethod::DualQuaternion => assert!(apart < 1e-5, "frame {frame}: {apart}"),
                SkinningMethod::Linear => assert!(apart > 1e-3, "frame {frame}: linear differs, {apart}"),
            }
        }
    }
}
