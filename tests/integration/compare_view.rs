//! The viewer's compare view ("Compare with…"), through the panel as a user drives it
//! (egui_kittest) and through the renderer offscreen: B opens beside A, plays A's clip at A's
//! time after a clip change, lists the differences (a click goes to one), marks the joint
//! tree, and the ghost and the weight-change heat map are drawn.

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::{Mat4, Vec3};
use rigscope::asset::Model;
use rigscope::asset::demo::demo_model;
use rigscope::inspect::VertexView;
use rigscope::render::COMPARE_GHOST_COLOR;
use rigscope::render::{FrameInput, Gpu, ModelView, SceneRenderer, SecondModel, draw, pose_and_upload};
use rigscope::ui::state::Comparison;
use rigscope::ui::{ViewerState, panel};
use rigscope::view::compare_layout::CompareLayout;
use rigscope::view::{OrbitCamera, ViewOptions};
use rigscope::write::{WriteOptions, save};

/// The vertices of the demo's first skinned primitive whose weights B changes (every other one
/// of the first `CHANGED` vertices): they go wholly to their first influence.
const CHANGED: usize = 400;

/// The demo's next version: the head's bind moved 5 cm up, and some vertices reweighted.
fn changed_demo() -> Model {
    let mut model = demo_model();
    let head = model.skeleton.find("head").unwrap();
    let skin = &mut model.skins[0];
    let slot = skin.joints.iter().position(|&j| j == head).unwrap();
    skin.inverse_bind[slot] = skin.inverse_bind[slot] * Mat4::from_translation(Vec3::new(0.0, -0.05, 0.0));
    let weights = (model.meshes.iter_mut())
        .flat_map(|mesh| &mut mesh.primitives)
        .find_map(|primitive| primitive.skin_weights.as_mut())
        .unwrap();
    for weights in weights.weights.iter_mut().take(CHANGED).step_by(2) {
        *weights = [1.0, 0.0, 0.0, 0.0];
    }
    model
}

/// `model` written as a GLB under the system's temporary folder, named `name`.
fn written(model: &Model, name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("rigscope-compare-{}-{name}.glb", std::process::id()));
    save(model, &path, &WriteOptions::default()).unwrap();
    path
}

/// The panel over a viewer that steps 1/60 s a frame, as the window does, on the demo.
fn harness() -> Harness<'static, ViewerState> {
    Harness::builder().with_size(egui::vec2(1280.0, 900.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            state.advance(1.0 / 60.0);
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    )
}

/// The harness with the changed demo opened as B.
fn comparing() -> Harness<'static, ViewerState> {
    let mut harness = harness();
    harness.get_by_label("Compare with…").click();
    harness.run();
    assert!(
        harness.state().requests.compare_dialog,
        "the button asks for the dialog"
    );
    let b = written(&changed_demo(), "b");
    harness.state_mut().open_compare(&b);
    std::fs::remove_file(&b).unwrap();
    harness.run();
    harness
}

#[test]
fn the_compare_view_opens_with_the_verdict_and_the_differences_and_closes() {
    let mut harness = comparing();
    assert!(harness.state().document.load_error.is_none());
    let diff = &harness.state().compare.as_ref().unwrap().diff;
    assert!(diff.differs);
    let verdict = diff.verdict.clone();
    let moved_head = (diff.findings.iter())
        .find(|f| f.text.contains("head") && f.joint.is_some())
        .map(|f| f.text.clone())
        .expect("the head's bind moved");
    harness.get_by_label(&verdict);
    harness.get_by_label(&moved_head);
    harness.get_by_label("Ghost");
    // The layout is B's placement: side by side moves it along +x only.
    harness.get_by_label("Side by side").click();
    harness.run();
    let comparison = harness.state().compare.as_ref().unwrap();
    assert_eq!(comparison.layout, CompareLayout::SideBySide);
    let shift = comparison.placement().transform_point3(Vec3::ZERO);
    assert!(shift.x > 0.3 && shift.y == 0.0 && shift.z == 0.0, "{shift}");
    harness.get_by_label("Close").click();
    harness.run();
    assert!(harness.state().compare.is_none());
}

#[test]
fn b_stays_in_step_with_a_after_a_clip_change() {
    let mut harness = comparing();
    let walk = harness.state().document.model.clips[1].name().to_owned();
    harness.get_by_label_contains(&format!("{walk}  (")).click();
    for _ in 0..30 {
        harness.step();
    }
    let state = harness.state();
    let comparison = state.compare.as_ref().unwrap();
    let (a, b) = (&state.document.model, &comparison.document.model);
    let clip_b = comparison
        .frame
        .player
        .clip()
        .expect("B plays the clip of A's clip's name");
    assert_eq!(b.clips[clip_b].name(), walk);
    let time_a = state.frame.player.clip_time(&a.clips);
    assert!(time_a > 0.2, "A played on: {time_a}");
    assert!((comparison.frame.player.clip_time(&b.clips) - time_a).abs() < 1e-4);
    // The same clip at the same time: the unchanged joints stand where A's do.
    let hips = a.skeleton.find("hips").unwrap();
    let (joint_a, joint_b) = (state.frame.joint_matrices[hips], comparison.frame.joint_matrices[hips]);
    assert!(joint_a.abs_diff_eq(joint_b, 1e-4), "{joint_a} / {joint_b}");
}

#[test]
fn the_heat_map_turns_on_and_a_finding_selects_its_joint_marked_in_the_tree() {
    let mut harness = comparing();
    let head = harness.state().document.model.skeleton.find("head");
    let text = {
        let diff = &harness.state().compare.as_ref().unwrap().diff;
        let finding = diff.findings.iter().find(|f| f.joint == head).unwrap();
        finding.text.clone()
    };
    assert_eq!(harness.state().view_options().vertex_view, None);
    harness.get_by_label("Weight change heat map").click();
    harness.run();
    assert_eq!(
        harness.state().view_options().vertex_view,
        Some(VertexView::WeightChange)
    );
    harness.get_by_label(&text).click();
    harness.run();
    assert_eq!(harness.state().inspection.selected, head);
    // The head is deep in the tree: the tree opens down to it over a few frames.
    for _ in 0..4 {
        harness.step();
    }
    assert!(
        harness.query_all_by_label("moved").next().is_some(),
        "the head is marked"
    );
}

#[test]
fn a_file_dropped_with_shift_is_compared_and_without_it_opened() {
    let mut state = ViewerState::new(demo_model());
    let b = written(&changed_demo(), "dropped");
    state.drop_file(&b, true);
    assert!(state.compare.is_some());
    assert_eq!(state.document.generation, 0, "A stays");
    let compared = state.compare.as_ref().unwrap().generation;
    state.drop_file(&b, false);
    std::fs::remove_file(&b).unwrap();
    assert_eq!(state.document.generation, 1, "opened in A's place");
    state.advance(0.0);
    let comparison = state.compare.as_ref().expect("kept");
    assert_eq!(comparison.generation, compared + 1, "compared with the new A");
    assert!(
        !comparison.diff.differs,
        "which is B itself: {}",
        comparison.diff.verdict
    );
}

/// The viewer's frame as the window draws it: A, and B as the comparison says, with the heat
/// map written when it is shown; from the front, 320 x 240.
fn render(gpu: &Gpu, renderer: &mut SceneRenderer, state: &ViewerState) -> image::RgbaImage {
    let comparison = state.compare.as_ref().unwrap();
    let (a, b) = (&state.document.model, &comparison.document.model);
    let (mut view_a, mut view_b) = (ModelView::new(gpu, renderer, a), ModelView::new(gpu, renderer, b));
    view_a.measure_bounds(a, None, None);
    view_b.measure_bounds(b, None, None);
    view_b.buffers.ghost = (comparison.layout == CompareLayout::Ghost).then_some(COMPARE_GHOST_COLOR);
    let view = ViewOptions {
        grid: false,
        ..state.view_options()
    };
    if view.vertex_view == Some(VertexView::WeightChange) {
        view_a.buffers.write_weight_change(&gpu.queue, |draw| {
            let mesh = a.instances[draw.instance].mesh;
            comparison.diff.primitive_weight_change(a, mesh, draw.primitive)
        });
    }
    let mut camera = OrbitCamera::default();
    let both = rigscope::view::compare_layout::both_bounds(
        &view_a.bounds,
        &rigscope::view::compare_layout::placed_bounds(&view_b.bounds, comparison.placement()),
    );
    camera.frame(&both, 320.0 / 240.0);
    let camera = camera.camera_view(320.0 / 240.0);
    let input_a = FrameInput {
        model: a,
        pose: &state.frame.pose,
        model_matrices: &state.frame.joint_matrices,
        camera: &camera,
        view: &view,
        crowd: None,
        time: 0.0,
        ground_slide: glam::Vec2::ZERO,
    };
    let view_of_b = ViewOptions {
        vertex_view: None,
        ..view
    };
    let input_b = FrameInput {
        model: b,
        pose: &comparison.frame.pose,
        model_matrices: &comparison.placed_matrices,
        view: &view_of_b,
        ..input_a
    };
    let target = renderer.target(&gpu.device, 320, 240);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    pose_and_upload(gpu, renderer, &mut view_a, &input_a);
    pose_and_upload(gpu, renderer, &mut view_b, &input_b);
    let second = SecondModel {
        view: &mut view_b,
        input: &input_b,
        placement: comparison.placement(),
    };
    draw(
        gpu,
        renderer,
        (&mut view_a, &input_a),
        Some(second),
        &target,
        &mut encoder,
    );
    gpu.queue.submit([encoder.finish()]);
    rigscope::render::capture::read_rgba(gpu, &target.resolved).unwrap()
}

/// Pixels of `image` that `pick` picks by their red, green and blue.
fn count(image: &image::RgbaImage, pick: impl Fn([i32; 3]) -> bool) -> usize {
    image
        .pixels()
        .filter(|p| pick(p.0.map(i32::from)[..3].try_into().unwrap()))
        .count()
}

/// The ghost's magenta, over the model or the background.
fn magenta([r, g, b]: [i32; 3]) -> bool {
    r > g + 50 && b > g + 30
}

/// The heat ramp's low end (no change): blue.
fn blue([r, g, b]: [i32; 3]) -> bool {
    b > r + 60 && b > g + 30
}

/// The heat ramp past its low end (a change): cyan, green, yellow or red, not skin.
fn changed([r, g, b]: [i32; 3]) -> bool {
    (g > r + 40 && g > 100) || (r > 150 && g < 90 && b < 90)
}

#[test]
fn the_ghost_side_by_side_and_the_heat_map_are_drawn() {
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let mut renderer = SceneRenderer::new(&gpu);
    let mut state = ViewerState::new(demo_model());
    let a = (&state.document.model, 0);
    state.compare = Some(Comparison::new(a, changed_demo(), CompareLayout::Ghost));
    state.frame.player.select(None);
    state.advance(0.0);
    let ghost = render(&gpu, &mut renderer, &state);
    state.compare.as_mut().unwrap().layout = CompareLayout::SideBySide;
    state.advance(0.0);
    let side_by_side = render(&gpu, &mut renderer, &state);
    state.compare.as_mut().unwrap().heat_map = true;
    let heat = render(&gpu, &mut renderer, &state);
    assert!(count(&ghost, magenta) > 500, "B's ghost over A");
    assert_eq!(count(&side_by_side, magenta), 0, "no ghost side by side");
    // Side by side, the picture holds two figures: lit pixels over about twice the width.
    let lit_columns = |image: &image::RgbaImage| {
        (0..image.width())
            .filter(|&x| (0..image.height()).any(|y| image.get_pixel(x, y).0[..3].iter().any(|&c| c > 60)))
            .count()
    };
    let (wide, narrow) = (lit_columns(&side_by_side), lit_columns(&ghost));
    assert!(wide > narrow * 3 / 2, "{wide} / {narrow} columns");
    assert_eq!(count(&side_by_side, blue) + count(&side_by_side, changed), 0);
    assert!(count(&heat, blue) > 1000, "A in the heat ramp's blue");
    assert!(count(&heat, changed) > 30, "the reweighted vertices glow");
}
