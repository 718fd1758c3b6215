//! Every control of the side panel, operated through egui's accessibility tree (egui_kittest)
//! as a user would: each test fails if the control stops doing what it says.

use crate::common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use rigscope::asset::demo::demo_model;
use rigscope::skin::SkinningMethod;
use rigscope::ui::RenderStatus;
use rigscope::ui::frame_stats::FrameStats;
use rigscope::ui::{ViewerState, panel};
use rigscope::view::Quality;

/// The sections that start closed (the heavy or less used ones).
const CLOSED_SECTIONS: [&str; 6] = [
    "Blend weights",
    "Additive layers",
    "Inverse kinematics",
    "Rig inspection",
    "Views and cameras",
    "Lighting",
];

/// The panel with every section opened, as a user would by clicking their headers.
fn harness() -> Harness<'static, ViewerState> {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    );
    open_closed_sections(&mut harness);
    harness
}

/// A panel with what the window reports beside the state, for the tests that set that.
fn harness_with_status(model: rigscope::asset::Model) -> Harness<'static, (ViewerState, RenderStatus)> {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, (state, status): &mut (ViewerState, RenderStatus)| {
            panel::show(ui, state, status);
        },
        (ViewerState::new(model), RenderStatus::default()),
    );
    open_closed_sections(&mut harness);
    harness
}

/// Opens the sections that start closed, as a user would by clicking their headers.
fn open_closed_sections<State>(harness: &mut Harness<'static, State>) {
    for title in CLOSED_SECTIONS {
        harness.get_by_label(title).click();
        harness.run();
    }
}

#[test]
fn clip_list_selects_and_cross_fades() {
    let mut harness = harness();
    assert_eq!(harness.state().frame.player.clip(), Some(0), "idle plays first");
    harness.get_by_label_contains("walk  (").click();
    harness.run();
    assert_eq!(harness.state().frame.player.clip(), Some(1));
    let fades: Vec<usize> = harness
        .state()
        .frame
        .player
        .animator
        .crossfade
        .fades()
        .map(|(clip, _)| clip)
        .collect();
    assert_eq!(fades, vec![1], "switching fades");
    // The panel shows the queue.
    harness.get_by_label("base: idle");
    harness.get_by_label_contains("fading in walk");
    harness.get_by_label("(rest pose)").click();
    harness.run();
    assert_eq!(harness.state().frame.player.clip(), None);
}

/// The slider (not its text label) whose label contains `label`.
fn slider(label: &str) -> By<'_> {
    By::new().role(Role::Slider).label_contains(label)
}

#[test]
fn the_cross_fade_slider_sets_the_fade_time() {
    let mut harness = harness();
    harness.get(slider("cross-fade")).set_value_accesskit(0.8);
    harness.run();
    assert_eq!(harness.state().frame.player.fade_time, 0.8);
    // The slider's track ends at 5 s; a longer time can be typed, and none below 0.
    harness.get(slider("cross-fade")).set_value_accesskit(8.0);
    harness.run();
    assert_eq!(harness.state().frame.player.fade_time, 8.0);
    harness.get(slider("cross-fade")).set_value_accesskit(-1.0);
    harness.run();
    assert_eq!(harness.state().frame.player.fade_time, 0.0);
}

#[test]
fn skinning_choices_are_radio_buttons() {
    let mut harness = harness();
    harness.get_by_label("CPU").click();
    harness.run();
    assert!(!harness.state().view.gpu_skinning);
    harness.get_by_label("GPU").click();
    harness.run();
    assert!(harness.state().view.gpu_skinning);
    harness.get_by_label("Dual quaternion").click();
    harness.run();
    assert_eq!(harness.state().view.skinning_method, SkinningMethod::DualQuaternion);
    harness.get_by_label("Linear blend").click();
    harness.run();
    assert_eq!(harness.state().view.skinning_method, SkinningMethod::Linear);
}

#[test]
fn view_toggles_flip_what_is_drawn() {
    let mut harness = harness();
    let before = harness.state().view;
    for label in ["Mesh", "Skeleton", "Wireframe", "Grid"] {
        harness.get_by_label(label).click();
        harness.run();
    }
    let after = harness.state().view;
    assert_eq!(
        (after.mesh, after.skeleton, after.wireframe, after.grid),
        (!before.mesh, !before.skeleton, !before.wireframe, !before.grid)
    );
}

#[test]
fn the_quality_is_chosen_and_the_frame_time_shown() {
    let mut harness = harness_with_status(demo_model());
    for quality in [Quality::Fast, Quality::Balanced, Quality::Best] {
        harness.get_by_label(quality.label()).click();
        harness.run();
        assert_eq!(harness.state().0.quality, quality);
    }
    harness.state_mut().1.frame_stats = FrameStats {
        interval_s: 0.025,
        cpu_s: 0.0125,
        gpu_s: None,
    };
    harness.run();
    harness.get_by_label("frame 25.0 ms (40 fps) · CPU 12.5 ms");
    harness.state_mut().1.frame_stats.gpu_s = Some(0.004);
    harness.run();
    harness.get_by_label("frame 25.0 ms (40 fps) · CPU 12.5 ms · GPU 4.0 ms");
    // The adapter, and why it was chosen.
    harness.state_mut().1.adapter = "llvmpipe (Gl); uniform arrays".into();
    harness.state_mut().1.adapter_choice = "a CPU rasteriser, the only adapter found".into();
    harness.state_mut().1.presentation = "shared memory (MIT-SHM)".into();
    harness.run();
    harness.get_by_label("llvmpipe (Gl); uniform arrays");
    harness.get_by_label("Chosen as a CPU rasteriser, the only adapter found");
    harness.get_by_label("Frames shown through shared memory (MIT-SHM)");
}

#[test]
fn buttons_ask_for_the_dialog_framing_and_reset() {
    let mut harness = harness();
    harness.get_by_label("Open… (Ctrl+O)").click();
    harness.get_by_label("Frame (F)").click();
    harness.get_by_label("Reset view (Home)").click();
    harness.run();
    let requests = harness.state().requests;
    assert!(requests.open_dialog && requests.frame_model && requests.reset_camera);
}

#[test]
fn stats_errors_warnings_and_the_drop_hint_are_shown() {
    let mut harness = harness_with_status(demo_model());
    harness.get_by_label_contains("4055 vertices");
    harness.state_mut().0.open(std::path::Path::new("/no/such/file.glb"));
    harness.state_mut().1.notes.push("skin 'x' has 2000 joints".into());
    harness.state_mut().0.hovered_file = Some("/tmp/fox.glb".into());
    harness.run();
    assert_eq!(
        harness.get_all_by_label_contains("/no/such/file.glb").count(),
        2,
        "in File and over the view"
    );
    harness.get_by_label_contains("Warnings (1)");
    harness.get_by_label("Drop to open fox.glb");
    // A real file replaces the model and its stats.
    harness.state_mut().0.open(&common::gltf("Fox/glTF-Binary/Fox.glb"));
    harness.run();
    harness.get_by_label_contains("1728 vertices");
    harness.get_by_label_contains("26 nodes: 24 skinned joints, 20 animated nodes");
    assert!(
        harness.query_by_label_contains("Drop to open").is_none(),
        "the hint goes with the drop"
    );
    harness.get_by_label_contains("Survey  (");
}

#[test]
fn additive_layers_are_added_edited_and_removed() {
    use rigscope::anim::AdditiveSpace;
    let mut harness = harness();
    harness.get_by_label("Add layer").click();
    harness.run();
    let layer = |h: &Harness<'static, ViewerState>| h.state().frame.player.animator.layers[0].clone();
    assert_eq!(harness.state().frame.player.animator.layers.len(), 1);
    assert_eq!(layer(&harness).clip(), 4, "look around, the demo's additive clip");
    assert_eq!(layer(&harness).weight, 1.0);
    // With look around itself playing, a new layer takes another clip: the motion would double.
    harness.state_mut().frame.player.select(Some(4));
    harness.run();
    harness.get_by_label("Add layer").click();
    harness.run();
    assert_eq!(
        harness.state().frame.player.animator.layers[1].clip(),
        3,
        "wave, the last clip not playing"
    );
    harness.get_by_label("Remove layer 2").click();
    harness.run();

    harness.get(slider("layer 1 weight")).set_value_accesskit(-0.5);
    harness.run();
    assert_eq!(layer(&harness).weight, -0.5);

    harness.get_by_label("layer 1 reference: first keys").click();
    harness.run();
    assert_eq!(layer(&harness).reference_time(), Some(0.0));
    harness.get(slider("layer 1 reference")).set_value_accesskit(1.0);
    harness.run();
    assert_eq!(layer(&harness).reference_time(), Some(1.0));

    harness.get_by_label("layer 1 mask").click();
    harness.run();
    harness.get_by_label("head").click();
    harness.run();
    assert_eq!(
        layer(&harness).mask_root(),
        harness.state().document.model.skeleton.find("head")
    );

    harness.get_by_label("layer 1 clip").click();
    harness.run();
    harness.get_by_label("wave").click();
    harness.run();
    assert_eq!(layer(&harness).clip(), 3);

    harness.get_by_label("layer 1 local frame").click();
    harness.run();
    assert_eq!(layer(&harness).space, AdditiveSpace::Local);
    harness.get_by_label("layer 1 parent frame").click();
    harness.run();
    assert_eq!(layer(&harness).space, AdditiveSpace::Parent);

    harness.get_by_label("Remove layer 1").click();
    harness.run();
    assert!(harness.state().frame.player.animator.layers.is_empty());
}

#[test]
fn blend_weights_mix_clips_in_step() {
    let mut harness = harness();
    assert!(!harness.state().frame.player.animator.sync_blend.is_active());
    harness.get_by_label_contains("Off: the clip list plays");
    let idle_row = |h: &Harness<'static, ViewerState>| {
        h.get_by_label_contains("idle  (").accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
    };
    assert!(idle_row(&harness), "the list shows idle playing");
    harness.get(slider("walk weight")).set_value_accesskit(1.0);
    harness.get(slider("run weight")).set_value_accesskit(0.5);
    harness.run();
    let blend = &harness.state().frame.player.animator.sync_blend;
    assert_eq!((blend.weight(1), blend.weight(2)), (1.0, 0.5));
    harness.get_by_label_contains("cycles in step");
    // The list no longer shows idle as playing, and says what does.
    assert!(!idle_row(&harness));
    harness.get_by_label_contains("The blend of Blend weights plays instead");
    // The blend is what plays: the pose differs from idle's.
    let state = harness.state_mut();
    state.advance(0.3);
    let blended = state.frame.pose.clone();
    state.frame.player.animator.sync_blend.set_weight(1, 0.0);
    state.frame.player.animator.sync_blend.set_weight(2, 0.0);
    state.advance(0.0);
    assert_ne!(blended, state.frame.pose);
    // Choosing a clip in the list ends the blend.
    state.frame.player.animator.sync_blend.set_weight(1, 1.0);
    harness.run();
    harness.get_by_label_contains("wave  (").click();
    harness.run();
    assert!(!harness.state().frame.player.animator.sync_blend.is_active());
    assert_eq!(harness.state().frame.player.clip(), Some(3));
}

#[test]
fn ik_chains_are_added_edited_and_removed() {
    use rigscope::anim::{JointConstraint, Solver};
    let mut harness = harness();
    harness.state_mut().frame.player.select(None);
    harness.get_by_label("IK end joint").click();
    harness.run();
    harness.get_by_label_contains("wrist.L").click();
    harness.run();
    harness.get(slider("IK bones")).set_value_accesskit(2.0);
    harness.run();
    harness.get_by_label("Add IK chain").click();
    harness.run();
    let skeleton = harness.state().document.model.skeleton.clone();
    let layer = |h: &Harness<'static, ViewerState>| h.state().frame.player.animator.ik[0].clone();
    assert_eq!(layer(&harness).chain.end(), skeleton.find("wrist.L").unwrap());
    assert_eq!(layer(&harness).chain.bones(), 2);
    harness.get_by_label_contains("chain 1: wrist.L, 2 bones");

    harness.get_by_label("chain 1 CCD").click();
    harness.run();
    assert_eq!(layer(&harness).solver, Solver::Ccd);
    assert_eq!(
        layer(&harness).iterations,
        Solver::Ccd.default_iterations(),
        "CCD's own limit"
    );
    harness.get_by_label("chain 1 FABRIK").click();
    harness.get(slider("chain 1 iterations")).set_value_accesskit(7.0);
    harness.get(slider("chain 1 weight")).set_value_accesskit(0.5);
    harness.get(slider("chain 1 target x")).set_value_accesskit(1.5);
    harness.get(slider("chain 1 target y")).set_value_accesskit(1.9);
    harness.get(slider("chain 1 target z")).set_value_accesskit(0.2);
    harness.run();
    let edited = layer(&harness);
    assert_eq!(
        (edited.solver, edited.iterations, edited.weight),
        (Solver::Fabrik, 7, 0.5)
    );
    assert_eq!(edited.target, glam::Vec3::new(1.5, 1.9, 0.2));
    // The solve's outcome is shown: out of reach, then reached, then off.
    harness.state_mut().advance(0.0);
    harness.run();
    harness.get_by_label_contains("chain 1 not reached");
    let wrist = skeleton.find("wrist.L").unwrap();
    harness.state_mut().frame.player.animator.ik[0].target =
        harness.state().frame.joint_matrices[wrist].w_axis.truncate();
    harness.state_mut().advance(0.0);
    harness.run();
    harness.get_by_label_contains("chain 1 reached: ");
    harness.get(slider("chain 1 weight")).set_value_accesskit(0.0);
    harness.run();
    harness.get_by_label("chain 1 off (weight 0)");

    harness.get_by_label("chain 1 joint limits").click();
    harness.run();
    harness.get_by_label("chain 1 elbow.L limit").click();
    harness.run();
    harness.get_by_label("hinge").click();
    harness.run();
    for (axis, expected) in [("X", glam::Vec3::X), ("Y", glam::Vec3::Y), ("Z", glam::Vec3::Z)] {
        harness.get_by_label(&format!("chain 1 elbow.L axis {axis}")).click();
        harness.run();
        let JointConstraint::Hinge { axis, .. } = layer(&harness).chain.constraints()[1] else {
            panic!("elbow is a hinge");
        };
        assert_eq!(axis, expected);
    }
    harness.get(slider("chain 1 elbow.L min")).set_value_accesskit(-30.0);
    harness.get(slider("chain 1 elbow.L max")).set_value_accesskit(90.0);
    harness.run();
    let JointConstraint::Hinge { axis, min, max } = layer(&harness).chain.constraints()[1] else {
        panic!("elbow is a hinge: {:?}", layer(&harness).chain.constraints());
    };
    assert_eq!(axis, glam::Vec3::Z);
    assert!((min.to_degrees() + 30.0).abs() < 1e-3 && (max.to_degrees() - 90.0).abs() < 1e-3);
    harness.get_by_label("chain 1 shoulder.L limit").click();
    harness.run();
    harness.get_by_label("ball").click();
    harness.run();
    harness.get(slider("chain 1 shoulder.L cone")).set_value_accesskit(60.0);
    harness
        .get(slider("chain 1 shoulder.L twist"))
        .set_value_accesskit(10.0);
    harness.run();
    let JointConstraint::Ball { cone, twist } = layer(&harness).chain.constraints()[0] else {
        panic!("shoulder is a ball joint");
    };
    assert!((cone.to_degrees() - 60.0).abs() < 1e-3 && (twist.to_degrees() - 10.0).abs() < 1e-3);
    // A max dragged below the min follows it; "free" removes the limit.
    harness.get(slider("chain 1 elbow.L max")).set_value_accesskit(-60.0);
    harness.run();
    harness.run();
    let JointConstraint::Hinge { min, max, .. } = layer(&harness).chain.constraints()[1] else {
        panic!("elbow is a hinge");
    };
    assert_eq!(min, max, "max keeps up with min");
    harness.get_by_label("chain 1 elbow.L limit").click();
    harness.run();
    harness.get_by_label("free").click();
    harness.run();
    assert_eq!(layer(&harness).chain.constraints()[1], JointConstraint::Free);

    for (label, flag) in [("Show IK targets", true), ("Show IK limits", false)] {
        harness.get_by_label(label).click();
        harness.run();
        let editor = &harness.state().ik_editor;
        let value = if label.contains("targets") {
            editor.show_targets
        } else {
            editor.show_constraints
        };
        assert_eq!(value, !flag, "{label}");
    }
    harness.get_by_label("Pick end joint in view").click();
    harness.run();
    assert!(harness.state().ik_editor.picking);

    harness.get_by_label("Remove chain 1").click();
    harness.run();
    assert!(harness.state().frame.player.animator.ik.is_empty());

    // A chain longer than the joint's ancestry is refused with a message.
    harness.state_mut().add_ik_chain(skeleton.find("hips").unwrap(), 4);
    harness.run();
    harness.get_by_label_contains("hips has 1 joint above it, too few for a chain of 4 bones");
}

#[test]
fn the_rig_lint_is_shown_for_the_open_model() {
    let mut harness = harness();
    // The demo's skin lists its root joint without weighting anything to it.
    harness.get_by_label("Rig lint: 0 errors, 0 warnings, 1 note");
    harness.state_mut().open(&common::gltf("Fox/glTF-Binary/Fox.glb"));
    harness.run();
    harness.get_by_label("Rig lint: 0 errors, 0 warnings, 1 note").click();
    harness.run();
    harness
        .get_by_label_contains("skin 'Skin 0': 2 joints influence no vertex: '_rootJoint', 'b_Root_00' [unused-joint]");
}

#[test]
fn the_joint_browser_selects_filters_and_describes_joints() {
    let mut harness = harness();
    let skeleton = harness.state().document.model.skeleton.clone();
    // The tree opens three levels: the hips' children are rows, the head (deeper) is not.
    harness.get_by_label("spine");
    assert!(harness.query_by_label("head").is_none());
    harness.get_by_label("spine").click();
    harness.run();
    assert_eq!(harness.state().inspection.selected, skeleton.find("spine"));
    harness.get_by_label_contains("joint 2 (file node");
    harness.get_by_label("parent: hips");
    harness.get_by_label_contains("bone length: ");

    // The filter lists matching joints only, in any case.
    let filter = By::new().role(Role::TextInput).label("Filter joints");
    harness.get(filter.clone()).click();
    harness.run();
    harness.get(filter).type_text("HEA");
    harness.run();
    assert_eq!(harness.state().inspection.filter, "HEA");
    harness.get_by_label("head").click();
    harness.run();
    assert!(harness.query_by_label("spine").is_none(), "filtered out");
    assert_eq!(harness.state().inspection.selected, skeleton.find("head"));
    harness.get_by_label("Select parent").click();
    harness.run();
    assert_eq!(harness.state().inspection.selected, skeleton.find("neck"));
    harness.get_by_label("Clear selection").click();
    harness.run();
    assert_eq!(harness.state().inspection.selected, None);

    // A joint picked in the view opens the tree down to it.
    harness.state_mut().inspection.filter.clear();
    harness.run();
    assert!(harness.query_by_label("wrist.L").is_none(), "deep in the closed tree");
    harness.state_mut().inspection.selected = skeleton.find("wrist.L");
    harness.state_mut().inspection.reveal = true;
    harness.run();
    harness.run();
    // Its row in the tree, and the details' title.
    assert_eq!(harness.query_all_by_label("wrist.L").count(), 2);
    assert!(!harness.state().inspection.reveal, "revealed once");
}

#[test]
fn rig_inspection_controls_set_pose_mode_ghost_names_and_colours() {
    use rigscope::inspect::PoseMode;
    use rigscope::ui::inspection::MeshColors;
    let mut harness = harness();
    for (label, mode) in [
        ("Rest", PoseMode::Rest),
        ("Bind", PoseMode::Bind),
        ("Animated", PoseMode::Animated),
    ] {
        harness.get_by_label(label).click();
        harness.run();
        assert_eq!(harness.state().inspection.pose_mode, mode, "{label}");
    }
    harness.get_by_label("Bind-pose ghost").click();
    harness.run();
    assert!(harness.state().view.bind_ghost);
    harness.get_by_label("Bone names").click();
    harness.run();
    assert!(harness.state().inspection.bone_names);
    let choices = [
        ("Selected joint's weights", MeshColors::Weights),
        ("Influences per vertex", MeshColors::Influences),
        ("Weights not summing to 1", MeshColors::NotNormalised),
        ("Influences over the cap", MeshColors::Capped),
        ("CPU vs GPU difference", MeshColors::SkinDifference),
        ("Materials", MeshColors::Materials),
    ];
    for (label, colors) in choices {
        harness.get_by_label(label).click();
        harness.run();
        assert_eq!(harness.state().inspection.colors, colors, "{label}");
        match colors {
            MeshColors::Weights => {
                harness.get_by_label("select a joint to see its weights");
            }
            MeshColors::NotNormalised | MeshColors::Capped => {
                harness.get_by_label("0 vertices flagged");
            }
            MeshColors::SkinDifference => {
                harness.get_by_label("measured when the next frame is drawn");
            }
            _ => {}
        }
    }
    // The view the app draws follows the choices.
    harness.get_by_label("Selected joint's weights").click();
    harness.get_by_label("spine").click();
    harness.run();
    let spine = harness.state().document.model.skeleton.find("spine").unwrap();
    assert_eq!(
        harness.state().view_options().vertex_view,
        Some(rigscope::inspect::VertexView::Weights(spine))
    );
    harness.get_by_label("weights of spine");
}

#[test]
fn lighting_controls_set_lights_environment_exposure_and_tone_curve() {
    use rigscope::asset::{LightKind, PunctualLight};
    use rigscope::view::{Lights, ToneMapping};
    let mut model = demo_model();
    model.lights.push(PunctualLight {
        name: "lamp".into(),
        kind: LightKind::Point,
        color: glam::Vec3::ONE,
        intensity: 10.0,
        range: None,
        joint: 0,
    });
    let mut harness = harness_with_status(model);
    assert_eq!(
        harness.state().0.view.lighting.lights,
        Lights::File,
        "a file's own lights first"
    );
    harness.get_by_label("Studio key light").click();
    harness.run();
    assert_eq!(harness.state().0.view.lighting.lights, Lights::Studio);
    harness.get_by_label("File's lights (1)").click();
    harness.run();
    assert_eq!(harness.state().0.view.lighting.lights, Lights::File);

    harness.get(slider("environment intensity")).set_value_accesskit(2.5);
    harness.get(slider("environment rotation")).set_value_accesskit(-90.0);
    harness.get(slider("exposure")).set_value_accesskit(1.5);
    harness.run();
    let lighting = harness.state().0.view.lighting;
    assert_eq!(
        (
            lighting.environment_intensity,
            lighting.environment_rotation,
            lighting.exposure
        ),
        (2.5, -90.0, 1.5)
    );
    harness.get_by_label("Environment as background").click();
    harness.run();
    assert!(harness.state().0.view.lighting.environment_background);
    harness.get_by_label("tone mapping").click();
    harness.run();
    harness.get_by_label("ACES filmic").click();
    harness.run();
    assert_eq!(harness.state().0.view.lighting.tone_mapping, ToneMapping::AcesFilmic);

    harness.get_by_label("Load .hdr…").click();
    harness.run();
    assert!(harness.state().0.requests.environment_dialog);
    assert!(harness.query_by_label("Studio").is_none(), "already the studio");
    harness.state_mut().1.environment_name = "room.hdr".into();
    harness.state_mut().1.environment_error = Some("bad.hdr: not an environment rigscope can read".into());
    harness.run();
    harness.get_by_label("Environment: room.hdr");
    harness.get_by_label_contains("not an environment rigscope can read");
    harness.get_by_label("Studio").click();
    harness.run();
    assert!(harness.state().0.requests.studio_environment);
}

#[test]
fn a_model_without_lights_offers_only_the_studio() {
    let mut harness = harness();
    assert_eq!(harness.state().view.lighting.lights, rigscope::view::Lights::Studio);
    harness.get_by_label("File's lights (0)").click();
    harness.run();
    assert_eq!(
        harness.state().view.lighting.lights,
        rigscope::view::Lights::Studio,
        "disabled"
    );
}

#[test]
fn view_buttons_turn_the_orbit_camera_to_named_views() {
    use rigscope::view::{OrbitCamera, ViewPreset};
    let mut harness = harness();
    for (label, preset) in [
        ("Front", ViewPreset::Front),
        ("Back", ViewPreset::Back),
        ("Left", ViewPreset::Left),
        ("Right", ViewPreset::Right),
        ("Top", ViewPreset::Top),
        ("Three-quarter", ViewPreset::ThreeQuarter),
    ] {
        harness.state_mut().requests.view = None;
        harness.get_by_label(label).click();
        harness.run();
        assert_eq!(harness.state().requests.view, Some(preset), "{label}");
    }
    // What the app does with the request: front puts the eye on the model's +Z side, back on −Z.
    let eye_from = |preset: ViewPreset| {
        let mut camera = OrbitCamera::default();
        camera.look_from(preset.angles());
        camera.eye() - camera.target
    };
    assert!(eye_from(ViewPreset::Front).normalize().z > 0.999);
    assert!(eye_from(ViewPreset::Back).normalize().z < -0.999);
    assert!(eye_from(ViewPreset::Right).normalize().x > 0.999);
    assert!(eye_from(ViewPreset::Top).normalize().y > 0.999);
}

#[test]
fn the_camera_list_looks_through_a_file_camera_and_back() {
    use rigscope::asset::{Camera, Projection};
    let mut model = demo_model();
    model.cameras.push(Camera {
        name: "dolly".into(),
        index: 0,
        joint: 0,
        projection: Projection::Orthographic {
            xmag: 1.0,
            ymag: 1.0,
            znear: 0.0,
            zfar: 10.0,
        },
    });
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    open_closed_sections(&mut harness);
    assert_eq!(harness.state().file_camera, None, "the orbit camera first");
    harness.get_by_label("dolly (orthographic)").click();
    harness.run();
    assert_eq!(harness.state().file_camera, Some(0));
    harness.get_by_label("Orbit camera").click();
    harness.run();
    assert_eq!(harness.state().file_camera, None);
}

#[test]
fn unsupported_extensions_and_vertex_attributes_are_shown() {
    let mut harness = harness();
    harness.get_by_label("(the file has no cameras)");
    harness.state_mut().document.model.extensions_used = vec!["EXT_made_up".into(), "KHR_texture_transform".into()];
    harness.state_mut().document.model.extensions_required = vec!["EXT_made_up".into()];
    harness.run();
    harness.get_by_label("Extensions used: EXT_made_up, KHR_texture_transform");
    harness.get_by_label_contains("requires extension EXT_made_up, which rigscope does not show");
    assert!(
        harness
            .query_by_label_contains("extension KHR_texture_transform, which")
            .is_none(),
        "supported extensions raise no warning"
    );
    harness.state_mut().open(&common::gltf("Fox/glTF-Binary/Fox.glb"));
    harness.run();
    harness.get_by_label("Vertex attributes").click();
    harness.run();
    harness.get_by_label("  TEXCOORD_0: VEC2 float");
    harness.get_by_label("  JOINTS_0: VEC4 unsigned short");
}

#[test]
fn the_panel_is_in_collapsible_sections() {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    );
    // File, Clips, Joints and Display start open.
    harness.get_by_label_contains("4055 vertices");
    harness.get_by_label_contains("walk  (");
    harness.get_by_label("spine");
    harness.get_by_label("Mesh");
    for title in CLOSED_SECTIONS {
        harness.get_by_label(title);
    }
    assert!(
        harness.query_by_label("Add layer").is_none(),
        "additive layers start closed"
    );
    harness.get_by_label("Additive layers").click();
    harness.run();
    harness.get_by_label("Add layer");
    harness.get_by_label("Clips").click();
    harness.run();
    assert!(harness.query_by_label_contains("walk  (").is_none(), "a section closes");
    // A joint picked in the view opens the joint browser to show it.
    harness.get_by_label_contains("Joints (").click();
    harness.run();
    assert!(harness.query_by_label("spine").is_none());
    let spine = harness.state().document.model.skeleton.find("spine");
    harness.state_mut().inspection.selected = spine;
    harness.state_mut().inspection.reveal = true;
    harness.run();
    harness.get_by_label("parent: hips");
}

/// The demo with joint `name` renamed `new_name`.
fn demo_renaming(name: &str, new_name: &str) -> rigscope::asset::Model {
    use rigscope::anim::{JointDesc, Skeleton};
    let mut model = demo_model();
    let skeleton = &model.skeleton;
    let joints = (0..skeleton.len())
        .map(|j| JointDesc {
            name: if skeleton.name(j) == name {
                new_name.into()
            } else {
                skeleton.name(j).into()
            },
            parent: skeleton.parent(j).map(|p| p as u32),
            rest: skeleton.rest_pose().local()[j],
            bind_model: Some(skeleton.inverse_bind_matrices()[j].inverse()),
            morph_weights: Vec::new(),
        })
        .collect();
    model.skeleton = Skeleton::new(joints).unwrap();
    model
}

#[test]
fn the_panel_keeps_its_width_when_a_long_named_joint_is_selected() {
    let long = "mixamorig:LeftHandIndexFingerDistalPhalanx_end_tip_helper_constraint_target.001";
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, (state, free): &mut (ViewerState, egui::Rect)| {
            *free = panel::show(ui, state, &Default::default());
        },
        (ViewerState::new(demo_renaming("wrist.L", long)), egui::Rect::NOTHING),
    );
    harness.run();
    let before = harness.state().1;
    assert!(
        (before.left() - 300.0).abs() < 20.0,
        "the panel opens about 300 points wide: {before:?}"
    );
    assert!(before.bottom() < 760.0, "the timeline takes the bottom: {before:?}");
    let wrist = harness.state().0.document.model.skeleton.find(long);
    harness.state_mut().0.inspection.selected = wrist;
    harness.state_mut().0.inspection.reveal = true;
    harness.run();
    assert!(
        harness.query_all_by_label(long).count() >= 2,
        "in the tree and the details"
    );
    assert_eq!(harness.state().1, before, "the 3D view keeps its place");
    harness.get_by_label("Clear selection").click();
    harness.run();
    assert_eq!(harness.state().1, before);
}

/// Revealing a joint picked in the view scrolls the panel up or down to its row, never sideways:
/// Fox's deep tail joint and its wide transform table once left the panel scrolled to the right,
/// its section titles cut off.
#[test]
fn revealing_a_joint_keeps_the_panel_at_its_left_edge() {
    let model = rigscope::asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).expect("Fox loads");
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    harness.run();
    let left = harness.get_by_label("File").rect().left();
    let tail = harness.state().document.model.skeleton.find("b_Tail03_014");
    harness.state_mut().inspection.selected = tail;
    harness.state_mut().inspection.reveal = true;
    for _ in 0..4 {
        harness.run();
    }
    assert!(!harness.state().inspection.reveal, "revealed");
    let row = harness
        .get_all_by_label("b_Tail03_014")
        .next()
        .expect("the tail's row")
        .rect();
    assert!(
        row.top() >= 0.0 && row.bottom() <= 800.0,
        "scrolled to the row: {row:?}"
    );
    assert_eq!(
        harness.get_by_label("Clips").rect().left().round(),
        left.round(),
        "not scrolled sideways"
    );
}

#[test]
fn the_crowd_controls_set_the_size_the_variety_the_seed_and_the_detail() {
    let mut harness = harness();
    harness.get(slider("Crowd size")).set_value_accesskit(16.0);
    harness.run();
    assert_eq!(harness.state().frame.crowd.options.count, 16);
    assert!(harness.state().frame.crowd.options.varied, "varied by default");
    harness.get(slider("Crowd seed")).set_value_accesskit(42.0);
    harness.run();
    assert_eq!(harness.state().frame.crowd.options.seed, 42);
    harness.state_mut().advance(0.1);
    let crowd = harness.state().frame.crowd.shown().expect("a crowd is shown");
    assert_eq!(crowd.len(), 16);
    assert!(harness.state().requests.frame_model, "the camera frames the new crowd");
    harness.get_by_label("Each its own clip, phase and speed").click();
    harness.run();
    assert!(!harness.state().frame.crowd.options.varied);
    harness.state_mut().advance(0.1);
    let crowd = harness.state().frame.crowd.shown().unwrap();
    let clip = harness.state().frame.player.clip();
    assert!(crowd.members.iter().all(|m| m.clip == clip && m.speed == 1.0));
    assert!(harness.state().view.crowd_detail, "far copies coarser by default");
    harness.get_by_label("Coarser copies far away").click();
    harness.run();
    assert!(!harness.state().view_options().crowd_detail, "every copy whole");
    harness.get(slider("Crowd size")).set_value_accesskit(1.0);
    harness.run();
    harness.state_mut().advance(0.1);
    assert!(harness.state().frame.crowd.shown().is_none(), "one: the model alone");
}

/// CesiumMan in the viewer, framed in an 800 x 600 view: 22 nodes, of which 19 are joints of
/// its skin and 3 are not (the scene's root, the armature object, the mesh's node).
fn cesium_man() -> (ViewerState, rigscope::view::Viewport) {
    let mut state = ViewerState::new(demo_model());
    state.open(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb"));
    assert_eq!(state.document.load_error, None);
    state.advance(0.0);
    let points = state.frame.joint_matrices.iter().map(|m| m.w_axis.truncate());
    let bounds = rigscope::view::Bounds {
        min: points.clone().fold(glam::Vec3::MAX, glam::Vec3::min),
        max: points.fold(glam::Vec3::MIN, glam::Vec3::max),
    };
    let mut camera = rigscope::view::OrbitCamera::default();
    camera.frame(&bounds, 800.0 / 600.0);
    let view = rigscope::view::Viewport::new(&camera.camera_view(800.0 / 600.0), 800.0, 600.0);
    (state, view)
}

fn pixel_of(state: &ViewerState, view: &rigscope::view::Viewport, joint: usize) -> glam::Vec2 {
    view.to_pixels(state.frame.joint_matrices[joint].w_axis.truncate())
        .unwrap()
}

#[test]
fn picking_names_the_joint_under_the_pointer_and_says_when_a_click_misses() {
    let (mut state, view) = cesium_man();
    let facts = &state.inspection.facts;
    let nodes: Vec<usize> = (0..facts.rig.len()).filter(|&j| !facts.in_rig(j)).collect();
    assert_eq!(nodes.len(), 3, "three nodes are not joints of the skin");
    let knee = state.document.model.skeleton.find("leg_joint_L_2").unwrap();
    // Hovering near a joint names it; away from every joint, nothing.
    let near_knee = pixel_of(&state, &view, knee) + glam::Vec2::new(4.0, 3.0);
    state.hover_in_view(Some((near_knee, &view)));
    assert_eq!(state.inspection.hovered, Some(knee));
    state.hover_in_view(Some((glam::Vec2::new(2.0, 2.0), &view)));
    assert_eq!(state.inspection.hovered, None);
    // A click on the knee picks it; a click on empty ground says so and keeps the selection.
    assert!(state.click_in_view(near_knee, &view));
    assert_eq!(state.inspection.selected, Some(knee));
    assert!(!state.click_in_view(glam::Vec2::new(2.0, 2.0), &view));
    assert_eq!(state.inspection.selected, Some(knee));
    // Nodes that are not rig joints are never picked, even clicked dead on.
    for node in nodes {
        if let Some(pixel) = view.to_pixels(state.frame.joint_matrices[node].w_axis.truncate()) {
            state.click_in_view(pixel, &view);
            assert_ne!(
                state.inspection.selected,
                Some(node),
                "{} was picked",
                state.document.model.skeleton.name(node)
            );
        }
    }
    state.click_in_view(glam::Vec2::new(2.0, 2.0), &view);
    state.view.skeleton = false;
    let harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    );
    harness
        .get_by_label("No joint within 14 pixels of the click (turn on Skeleton under Display to see where they are).");
    // The tree marks the nodes that are not rig joints.
    assert_eq!(
        harness.query_all_by_label("node").count(),
        1 + 3,
        "the legend and three rows"
    );
}

#[test]
fn ik_ends_are_rig_joints_and_ik_errors_are_in_plain_words() {
    let (mut state, view) = cesium_man();
    let editor = &state.ik_editor;
    let skeleton = &state.document.model.skeleton;
    let torso = skeleton.find("Skeleton_torso_joint_1").unwrap();
    for joint in 0..skeleton.len() {
        let is_end = editor.ends[joint];
        let expected = state.inspection.facts.in_rig(joint) && joint != torso;
        assert_eq!(
            is_end,
            expected,
            "{}: offered as an IK end {is_end}",
            skeleton.name(joint)
        );
    }
    assert!(editor.ends[editor.new_end], "the first end offered is one");
    // A chain asked of a node at the top says why in words.
    let root = (0..skeleton.len()).find(|&j| skeleton.parent(j).is_none()).unwrap();
    state.add_ik_chain(root, 2);
    let error = state.ik_editor.error.clone().unwrap();
    assert!(error.contains("is a root, with no joint above it"), "{error}");
    assert!(!error.contains("joint 0"), "no joint numbers: {error}");
    let knee = state.document.model.skeleton.find("leg_joint_L_2").unwrap();
    state.add_ik_chain(knee, 40);
    let error = state.ik_editor.error.clone().unwrap();
    assert!(error.contains("too few for a chain of 40 bones"), "{error}");
    // Picking in the view asks for no more bones than the picked joint has rig joints above.
    state.ik_editor.new_length = 40;
    state.ik_editor.picking = true;
    let near_knee = pixel_of(&state, &view, knee);
    assert!(state.press_in_view(near_knee, &view));
    assert_eq!(state.ik_editor.error, None);
    let chain = &state.frame.player.animator.ik[0].chain;
    assert_eq!((chain.end(), chain.bones()), (knee, state.ik_editor.depths[knee]));
}

#[test]
fn the_material_channel_is_chosen_in_the_rig_inspection() {
    let mut harness = harness();
    assert_eq!(harness.state().view_options().channel, None);
    harness.get_by_label("Material channel").click();
    harness.run();
    harness.get_by_label("Roughness").click();
    harness.run();
    let channel = harness.state().view_options().channel;
    assert_eq!(channel, Some(rigscope::view::MaterialChannel::Roughness));
    harness.get_by_label("Material channel").click();
    harness.run();
    harness.get_by_label("Lit (off)").click();
    harness.run();
    assert_eq!(harness.state().view_options().channel, None);
}

#[test]
fn a_long_clip_list_has_a_filter() {
    // The demo's five clips, then fifteen more: past twelve, the list gets a filter.
    let mut model = demo_model();
    let copies: Vec<rigscope::anim::Clip> = (0..15)
        .map(|i| rigscope::anim::Clip::new(format!("take {i}"), model.clips[1].channels().to_vec()))
        .collect();
    model.clips.extend(copies);
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    let rows = |h: &Harness<'static, ViewerState>| h.query_all_by_label_contains("take 1").count();
    assert_eq!(rows(&harness), 6, "take 1 and takes 10 to 14");
    harness.get(By::new().label("Filter clips")).click();
    harness.run();
    harness.get(By::new().label("Filter clips")).type_text("TAKE 12");
    harness.run();
    assert_eq!(rows(&harness), 1, "only take 12, found in any case");
    assert!(
        harness.query_by_label_contains("idle  (").is_none(),
        "the demo's clips are filtered out"
    );
    harness.get_by_label_contains("take 12  (").click();
    harness.run();
    assert_eq!(harness.state().frame.player.clip(), Some(5 + 12));
}

#[test]
fn the_ik_end_joint_list_has_a_filter() {
    let mut harness = harness();
    harness.get_by_label("IK end joint").click();
    harness.run();
    let shoulders = |h: &Harness<'static, ViewerState>| h.query_all_by_label_contains("shoulder.L").count();
    let listed = shoulders(&harness);
    // The field in the list's popup (found by its accessible name among the text fields).
    let is_filter = |n: &egui_kittest::Node<'_>| n.accesskit_node().label().as_deref() == Some("Filter IK end joints");
    harness
        .query_all(By::new().role(Role::TextInput))
        .find(is_filter)
        .unwrap()
        .click();
    harness.run();
    harness
        .query_all(By::new().role(Role::TextInput))
        .find(is_filter)
        .unwrap()
        .type_text("wrist");
    harness.run();
    assert_eq!(shoulders(&harness), listed - 1, "the list drops shoulder.L");
    harness.get_by_label("wrist.R").click();
    harness.run();
    let wrist = harness.state().document.model.skeleton.find("wrist.R");
    assert_eq!(Some(harness.state().ik_editor.new_end), wrist);
    let open = harness
        .query_all(By::new().role(Role::TextInput))
        .any(|n| is_filter(&n));
    assert!(
        !open,
        "choosing a joint closes the list (typing in its filter does not)"
    );
}
