//! Blending on a real rig (Xbot): additive layers and cross-fades through the options `pose`
//! and `render` share, checked against the formulas computed independently here.

use crate::common;

use glam::{Quat, Vec3};
use rigscope::anim::{Pose, Transform};
use rigscope::asset::{self, Model};
use rigscope::cli::{ClipArgs, Posed};

fn xbot() -> Model {
    asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap()
}

/// The animation options as the command line would give them.
#[derive(clap::Parser)]
struct Options {
    #[command(flatten)]
    clip: ClipArgs,
}

fn args(clip: Option<&str>, time: f32, crossfade: Option<&str>, additive: &[&str]) -> ClipArgs {
    let mut argv = vec![
        "rigscope".to_string(),
        "--playback=loop".into(),
        format!("--time={time}"),
    ];
    argv.extend(clip.map(|c| format!("--clip={c}")));
    argv.extend(crossfade.map(|c| format!("--crossfade={c}")));
    argv.extend(additive.iter().map(|a| format!("--additive={a}")));
    <Options as clap::Parser>::parse_from(argv).clip
}

/// `clip` sampled at looping time `time` over the rest pose.
fn sampled(model: &Model, clip: &str, time: f32) -> Pose {
    let clip = &model.clips[model.find_clip(clip).unwrap()];
    let mut pose = model.skeleton.rest_pose().clone();
    clip.sample(time.rem_euclid(clip.duration()), &mut pose, &mut clip.cursor());
    pose
}

fn close(a: &Transform, b: &Transform) -> bool {
    a.translation.abs_diff_eq(b.translation, 1e-3)
        && a.rotation.dot(b.rotation).abs() > 1.0 - 1e-5
        && a.scale.abs_diff_eq(b.scale, 1e-4)
}

#[test]
fn additive_layers_follow_the_formula_and_touch_only_their_joints() {
    let model = xbot();
    for (base, layer) in [
        ("idle", "agree"),
        ("walk", "headShake"),
        ("idle", "headShake"),
        ("walk", "agree"),
    ] {
        let time = 0.8;
        let weight = 0.7;
        let posed = args(Some(base), time, None, &[&format!("{layer}:{weight}")])
            .pose(&model, None)
            .unwrap()
            .pose;
        let input = sampled(&model, base, time);
        let add = sampled(&model, layer, time);
        // The default reference: each track's first key (all of Xbot's start at 0).
        let reference = sampled(&model, layer, 0.0);
        let animated: Vec<usize> = model.clips[model.find_clip(layer).unwrap()]
            .channels()
            .iter()
            .map(|c| c.joint)
            .collect();
        for joint in 0..model.skeleton.len() {
            let (i, a, r) = (input.local()[joint], add.local()[joint], reference.local()[joint]);
            // Parent-frame delta, scaled with glam's own slerp from the identity.
            let delta = a.rotation * r.rotation.inverse();
            let delta = if delta.w < 0.0 { -delta } else { delta };
            let expected = Transform::new(
                i.translation + (a.translation - r.translation) * weight,
                Quat::IDENTITY.slerp(delta, weight) * i.rotation,
                i.scale + (a.scale - r.scale) * weight,
            );
            let got = posed.local()[joint];
            assert!(
                close(&got, &expected),
                "{base}+{layer}, joint {joint}: {got:?} vs {expected:?}"
            );
            if !animated.contains(&joint) {
                assert_eq!(got, i, "{base}+{layer}: joint {joint} is not animated by the layer");
            }
        }
        let changed = (0..model.skeleton.len())
            .filter(|&j| !close(&posed.local()[j], &input.local()[j]))
            .count();
        assert!(changed > 0, "{base}+{layer} changes something");
    }
}

#[test]
fn local_space_layers_multiply_on_the_other_side_and_masks_limit_them() {
    let model = xbot();
    let posed = args(Some("idle"), 0.5, None, &["agree:1::mixamorig:Head:local"])
        .pose(&model, None)
        .unwrap()
        .pose;
    let (input, add, reference) = (
        sampled(&model, "idle", 0.5),
        sampled(&model, "agree", 0.5),
        sampled(&model, "agree", 0.0),
    );
    let head = model.skeleton.find("mixamorig:Head").unwrap();
    let expected =
        input.local()[head].rotation * reference.local()[head].rotation.inverse() * add.local()[head].rotation;
    assert!(posed.local()[head].rotation.dot(expected).abs() > 1.0 - 1e-5);
    let neck = model.skeleton.find("mixamorig:Neck").unwrap();
    assert_eq!(
        posed.local()[neck],
        input.local()[neck],
        "the neck is outside the head's subtree"
    );
}

#[test]
fn weight_zero_and_own_reference_leave_the_base() {
    let model = xbot();
    let base = sampled(&model, "walk", 0.3);
    for spec in ["agree:0", "agree:1:0.3"] {
        // With REFTIME equal to the layer's time, the layer is its own reference.
        let posed = args(Some("walk"), 0.3, None, &[spec]).pose(&model, None).unwrap().pose;
        for joint in 0..model.skeleton.len() {
            assert!(
                close(&posed.local()[joint], &base.local()[joint]),
                "{spec}: joint {joint}"
            );
        }
    }
}

#[test]
fn crossfades_blend_from_the_first_clip_to_the_second() {
    let model = xbot();
    // walk at 0.5 s, run faded in for 0.2 of 0.4 s (run at 0.2 s): weight 0.5.
    let Posed {
        pose: posed,
        clip: target,
        ..
    } = args(None, 0.5, Some("walk:run:0.4:0.2"), &[])
        .pose(&model, None)
        .unwrap();
    assert_eq!(target, model.find_clip("run"));
    let (walk, run) = (sampled(&model, "walk", 0.5), sampled(&model, "run", 0.2));
    for joint in 0..model.skeleton.len() {
        let (a, b) = (walk.local()[joint], run.local()[joint]);
        let expected = Transform::new(
            a.translation.lerp(b.translation, 0.5),
            a.rotation.slerp(b.rotation, 0.5),
            a.scale.lerp(b.scale, 0.5),
        );
        assert!(close(&posed.local()[joint], &expected), "joint {joint}");
    }
    // Past its duration the fade has collapsed into the second clip.
    let done = args(None, 1.5, Some("walk:run:0.4:0.9"), &[])
        .pose(&model, None)
        .unwrap()
        .pose;
    let run_now = sampled(&model, "run", 0.9);
    assert!((0..model.skeleton.len()).all(|j| close(&done.local()[j], &run_now.local()[j])));
}

#[test]
fn bad_specs_are_clear_errors() {
    let model = xbot();
    for (crossfade, additive, expected) in [
        (Some("walk:run:0.4"), vec![], "FROM:TO:DURATION:ELAPSED"),
        (Some("walk:dance:0.4:0.1"), vec![], "no clip 'dance'"),
        (Some("walk:run:-1:0.1"), vec![], "cannot be negative"),
        (None, vec!["agree"], "CLIP:WEIGHT"),
        (None, vec!["agree:lots"], "WEIGHT 'lots'"),
        (None, vec!["agree:1:0:mixamorig:Tail"], "no joint 'mixamorig:Tail'"),
    ] {
        let clip = crossfade.is_none().then_some("idle");
        let error = args(clip, 0.0, crossfade, &additive).pose(&model, None).unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains(expected), "{crossfade:?} {additive:?}: {message}");
    }
}

#[test]
fn the_pose_command_takes_the_same_options() {
    let xbot = common::gltf("Xbot/Xbot.glb");
    let base = ["pose", xbot.to_str().unwrap(), "--time", "0.5", "--playback", "loop"];
    let run = |extra: &[&str]| common::json(&[&base[..], extra].concat());
    let plain = run(&["--clip", "idle"]);
    let layered = run(&["--clip", "idle", "--additive", "headShake:1", "--additive", "agree:0.5"]);
    assert_ne!(plain["joints"], layered["joints"]);
    assert_eq!(
        plain["primitives"].as_array().unwrap().len(),
        layered["primitives"].as_array().unwrap().len()
    );
    // `parent` is the default frame, named or not.
    let named = run(&["--clip", "idle", "--additive", "agree:1::mixamorig:Head:parent"]);
    let unnamed = run(&["--clip", "idle", "--additive", "agree:1::mixamorig:Head"]);
    assert_eq!(named["joints"], unnamed["joints"]);
    let local = run(&["--clip", "idle", "--additive", "agree:1::mixamorig:Head:local"]);
    assert_ne!(named["joints"], local["joints"]);
    let faded = run(&["--crossfade", "idle:walk:0.5:0.25"]);
    assert_eq!(faded["clip"], "walk");
    let head_world = |v: &serde_json::Value| {
        let head = v["joints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["name"] == "mixamorig:Head")
            .unwrap()
            .clone();
        Vec3::new(
            head["world"][12].as_f64().unwrap() as f32,
            head["world"][13].as_f64().unwrap() as f32,
            head["world"][14].as_f64().unwrap() as f32,
        )
    };
    assert!(
        head_world(&plain).distance(head_world(&faded)) > 1e-4,
        "the fade moves the head"
    );
}
