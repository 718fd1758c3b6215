//! `rigscope curves`: JSON with the same curves, keys and problems as `inspect::CurveSet`,
//! CSV with one value a row, a PNG plot of the asked size, and clear errors for bad names.

use crate::common;

use common::{gltf, json, rigscope, succeed, temp_dir};
use rigscope::asset;
use rigscope::inspect::CurveSet;
use rigscope::inspect::motion::root_motion;

fn fox() -> String {
    gltf("Fox/glTF-Binary/Fox.glb").display().to_string()
}

/// The module's curves for `joint` in clip `clip` of the fox (with the root motion's, when
/// the joint carries it).
fn expected(clip: usize, joint: &str) -> CurveSet {
    expected_in("Fox/glTF-Binary/Fox.glb", clip, joint)
}

fn expected_in(file: &str, clip: usize, joint: &str) -> CurveSet {
    let model = asset::load(&gltf(file)).unwrap();
    let joint = model.skeleton.find(joint).unwrap();
    let root = root_motion(&model, clip, None);
    CurveSet::new(&model.clips[clip], model.skeleton.rest_pose(), joint).with_root_motion(root.as_ref())
}

fn floats(value: &serde_json::Value) -> Vec<f32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect()
}

#[test]
fn json_holds_the_modules_samples_keys_and_problems() {
    let fox = fox();
    let document = json(&["curves", &fox, "--clip", "Run", "--joint", "b_Hip_01"]);
    let set = expected(2, "b_Hip_01");
    assert_eq!(document["clip"], "Run");
    assert_eq!(document["joint_name"], "b_Hip_01");
    assert_eq!(document["joint"], set.joint);
    assert_eq!(floats(&document["times"]), set.times);
    let curves = document["curves"].as_array().unwrap();
    assert_eq!(curves.len(), set.curves.len());
    assert_eq!(
        set.curves.len(),
        12,
        "translation, Euler rotation and quaternion, and the root motion's speed and heading"
    );
    for (written, curve) in curves.iter().zip(&set.curves) {
        assert_eq!(written["name"], curve.name.as_str());
        assert_eq!(written["interpolation"], curve.interpolation);
        assert_eq!(floats(&written["values"]), curve.values, "{}", curve.name);
        let keys = written["keys"].as_array().unwrap();
        assert_eq!(keys.len(), curve.keys.len());
        for (key, expected) in keys.iter().zip(&curve.keys) {
            assert_eq!(key["time"].as_f64().unwrap() as f32, expected.time);
            assert_eq!(key["value"].as_f64().unwrap() as f32, expected.value);
        }
    }
    let problems = document["problems"].as_array().unwrap();
    assert_eq!(problems.len(), set.problems.len());
    for (written, problem) in problems.iter().zip(&set.problems) {
        assert_eq!(written["curve"], problem.curve.as_str());
        assert_eq!(written["message"], problem.message.as_str());
    }
}

#[test]
fn csv_has_a_row_per_sample_key_and_problem() {
    let fox = fox();
    let text = succeed(&[
        "curves",
        &fox,
        "--clip",
        "1",
        "--joint",
        "b_Tail03_014",
        "--format",
        "csv",
    ]);
    let set = expected(1, "b_Tail03_014");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("kind,curve,time,value,note"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.splitn(5, ',').collect()).collect();
    let count = |kind: &str| rows.iter().filter(|r| r[0] == kind).count();
    assert_eq!(count("sample"), set.times.len() * set.curves.len());
    assert_eq!(count("key"), set.curves.iter().map(|c| c.keys.len()).sum::<usize>());
    assert_eq!(count("problem"), set.problems.len());
    assert_eq!(rows.len(), count("sample") + count("key") + count("problem"));
    // The first curve's first samples, in order, with the module's values.
    let first = &set.curves[0];
    for (row, (time, value)) in rows.iter().zip(set.times.iter().zip(&first.values)) {
        assert_eq!(row[1], first.name);
        assert_eq!(row[2].parse::<f32>().unwrap(), *time);
        assert_eq!(row[3].parse::<f32>().unwrap(), *value);
    }
    let key = rows.iter().find(|r| r[0] == "key").unwrap();
    assert_eq!(key[4], first.interpolation);
}

#[test]
fn png_is_the_asked_size_and_draws_the_curves() {
    let dir = temp_dir("curves-png");
    let out = dir.join("leg.png");
    // CesiumMan's right knee does not close its loop.
    let man = gltf("CesiumMan/glTF-Binary/CesiumMan.glb").display().to_string();
    let out_text = out.display().to_string();
    succeed(&[
        "curves",
        &man,
        "--joint",
        "leg_joint_R_2",
        "--format",
        "png",
        "-o",
        &out_text,
        "--size",
        "900x500",
    ]);
    let image = image::open(&out).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (900, 500));
    // The curves are drawn in their colours (curves lying on each other hide all but the
    // last), and the problems in red.
    let set = expected_in("CesiumMan/glTF-Binary/CesiumMan.glb", 0, "leg_joint_R_2");
    let drawn = |color: [u8; 3]| image.pixels().filter(|p| p.0[..3] == color).count();
    let visible = set.curves.iter().filter(|c| drawn(c.color()) > 50).count();
    assert!(visible >= 3, "{visible} curves drawn");
    assert!(!set.problems.is_empty());
    let red = image
        .pixels()
        .filter(|p| p.0[0] > 200 && p.0[1] < 90 && p.0[2] < 90)
        .count();
    assert!(red > 50, "problems are ringed, marked and listed in red: {red} pixels");
    let fox = fox();
    let without_output = rigscope(&["curves", &fox, "--joint", "b_Tail03_014", "--format", "png"]);
    assert!(!without_output.status.success());
    assert!(String::from_utf8_lossy(&without_output.stderr).contains("--format png needs -o FILE.png"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_names_say_what_is_wrong() {
    let fox = fox();
    let output = rigscope(&["curves", &fox, "--joint", "b_tail03_014"]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--joint:") && error.contains("Fox.glb: no joint 'b_tail03_014'; did you mean 'b_Tail03_014'?"),
        "{error}"
    );
    let output = rigscope(&["curves", &fox, "--joint", "b_Hip_01", "--clip", "Sprint"]);
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--clip:") && error.contains("no clip 'Sprint'"),
        "{error}"
    );
}
