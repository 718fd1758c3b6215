//! The rig inspection views through the viewer's renderer (llvmpipe without a GPU): vertex
//! views colour what they say, the bind-pose ghost and the pose modes change the picture, and
//! the CPU-vs-GPU comparison finds a real difference and none where there is none.

use rigscope::anim::Pose;
use rigscope::asset::demo::demo_model;
use rigscope::asset::{Model, VertexRepair};
use rigscope::cli::render::render_image;
use rigscope::inspect::{JointFacts, PoseMode, VertexView};
use rigscope::render::still::StillRenderer;
use rigscope::render::{Gpu, ModelView, SceneRenderer};
use rigscope::skin::SkinningMethod;
use rigscope::view::ViewOptions;

const SIZE: (u32, u32) = (320, 240);

/// The demo mid-walk: elbows and knees bent, far from the bind pose.
fn walking(model: &Model) -> Pose {
    let mut pose = model.skeleton.rest_pose().clone();
    let walk = model.clips.iter().find(|c| c.name() == "walk").unwrap();
    walk.sample(0.3, &mut pose, &mut walk.cursor());
    pose
}

fn draw(gpu: &Gpu, renderer: &mut SceneRenderer, model: &Model, pose: &Pose, view: ViewOptions) -> image::RgbaImage {
    render_image(gpu, renderer, model, pose, None, SIZE, &view).unwrap()
}

fn count(image: &image::RgbaImage, test: impl Fn([u8; 3]) -> bool) -> usize {
    image.pixels().filter(|p| test([p[0], p[1], p[2]])).count()
}

fn red(p: [u8; 3]) -> bool {
    p[0] > 150 && p[1] < 70 && p[2] < 70
}

fn magenta(p: [u8; 3]) -> bool {
    p[0] > 150 && p[1] < 70 && p[2] > 120
}

fn with_colors(view: VertexView) -> ViewOptions {
    ViewOptions {
        vertex_view: Some(view),
        grid: false,
        ..ViewOptions::default()
    }
}

#[test]
fn vertex_views_colour_what_they_say() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let mut model = demo_model();
    let pose = model.skeleton.rest_pose().clone();
    let facts = JointFacts::new(&model);

    // A joint's red region lies where the joint is: the head's above the left toe's.
    let mut red_rows = |joint: &str| {
        let joint = model.skeleton.find(joint).unwrap();
        assert!(facts.vertices[joint] > 0);
        let image = draw(
            &gpu,
            &mut renderer,
            &model,
            &pose,
            with_colors(VertexView::Weights(joint)),
        );
        let rows: Vec<u32> = image
            .enumerate_pixels()
            .filter(|(_, _, p)| red([p[0], p[1], p[2]]))
            .map(|(_, y, _)| y)
            .collect();
        assert!(rows.len() > 30, "{} red pixels for joint {joint}", rows.len());
        rows.iter().sum::<u32>() as f32 / rows.len() as f32
    };
    let (head, toe) = (red_rows("head"), red_rows("toe.L"));
    assert!(head + 50.0 < toe, "head's red at row {head}, the toe's at {toe}");

    // The demo's limbs blend two joints at the bends, one elsewhere: blue and green bands.
    let influences = draw(&gpu, &mut renderer, &model, &pose, with_colors(VertexView::Influences));
    let above = |a: u8, b: u8, margin: i32| i32::from(a) > i32::from(b) + margin;
    let blue = count(&influences, |p| above(p[2], p[0], 60) && above(p[2], p[1], 60));
    let green = count(&influences, |p| above(p[1], p[0], 40) && above(p[1], p[2], 40));
    assert!(blue > 1000 && green > 100, "blue {blue}, green {green}");

    // Repairs: nothing flagged on the demo; flag the first skinned primitive's first half.
    for view in [VertexView::NotNormalised, VertexView::Capped] {
        let image = draw(&gpu, &mut renderer, &model, &pose, with_colors(view));
        assert_eq!(count(&image, magenta), 0, "{view:?}");
    }
    let weights = model
        .meshes
        .iter_mut()
        .flat_map(|m| &mut m.primitives)
        .find_map(|p| p.skin_weights.as_mut())
        .unwrap();
    let half = weights.repairs.len() / 2;
    weights.repairs[..half].fill(VertexRepair::NOT_NORMALISED);
    let mut renderer = SceneRenderer::new(&gpu);
    let flagged = draw(
        &gpu,
        &mut renderer,
        &model,
        &pose,
        with_colors(VertexView::NotNormalised),
    );
    assert!(count(&flagged, magenta) > 200, "{}", count(&flagged, magenta));
    let capped = draw(&gpu, &mut renderer, &model, &pose, with_colors(VertexView::Capped));
    assert_eq!(count(&capped, magenta), 0, "only the flagged repair shows");
}

#[test]
fn the_bind_ghost_and_the_pose_modes_change_the_picture() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let model = demo_model();
    let pose = walking(&model);
    let plain = draw(&gpu, &mut renderer, &model, &pose, ViewOptions::default());
    let ghost_view = ViewOptions {
        bind_ghost: true,
        ..ViewOptions::default()
    };
    let ghosted = draw(&gpu, &mut renderer, &model, &pose, ghost_view);
    let changed = plain.pixels().zip(ghosted.pixels()).filter(|(a, b)| a != b).count();
    assert!(changed > 500, "{changed} pixels changed");
    // The ghost is the bind pose: drawn over the bind pose it only tints the mesh's outline
    // and face, it adds no new silhouette.
    let mut bind = pose.clone();
    PoseMode::Bind.apply(&model.skeleton, &mut bind);
    let bind_plain = draw(&gpu, &mut renderer, &model, &bind, ViewOptions::default());
    let bind_ghosted = draw(&gpu, &mut renderer, &model, &bind, ghost_view);
    let background = bind_plain.get_pixel(0, 0);
    let new_silhouette = bind_plain
        .pixels()
        .zip(bind_ghosted.pixels())
        .filter(|(a, b)| *a == background && *b != background)
        .count();
    let walking_silhouette = plain
        .pixels()
        .zip(ghosted.pixels())
        .filter(|(a, b)| *a == background && *b != background)
        .count();
    assert!(
        new_silhouette * 5 < walking_silhouette,
        "bind over bind adds {new_silhouette} pixels of silhouette, bind over the walk {walking_silhouette}"
    );
    assert_ne!(bind_plain, plain, "the bind pose is not the walk");
}

#[test]
fn the_difference_view_finds_a_real_difference_and_none_where_there_is_none() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let model = demo_model();
    let pose = walking(&model);
    let matrices = pose.to_model_matrices();
    let mut model_view = ModelView::new(&gpu, &renderer, &model);
    model_view.measure_bounds(&model, None, None);
    let size = model_view.bounds.radius() * 2.0;
    // The GPU skins by linear blending; the CPU once alike, once by dual quaternions.
    let gpu_view = ViewOptions::default();
    let mut measure = |method: SkinningMethod| {
        model_view.deformer.update(&model, &pose, &matrices, method, |_| true);
        let deformer = &model_view.deformer;
        model_view
            .buffers
            .upload(&gpu.queue, &model, &matrices, deformer, &gpu_view);
        model_view.measure_skin_difference(&gpu, &mut renderer).unwrap()
    };
    let same = measure(SkinningMethod::Linear);
    let skinned: usize = model
        .instances
        .iter()
        .filter(|i| i.skin.is_some())
        .flat_map(|i| &model.meshes[i.mesh].primitives)
        .map(|p| p.vertex_count())
        .sum();
    assert_eq!(same.vertices, skinned);
    assert!(same.max / size < 1e-6, "{same}");
    let different = measure(SkinningMethod::DualQuaternion);
    assert!(different.max / size > 1e-4, "{different}");
    assert!(different.worst.is_some() && different.mean < different.max);

    // Through the frame stages, as the window and `render` use them.
    let mut renderer = SceneRenderer::new(&gpu);
    let mut still = StillRenderer::new(&gpu, &renderer, &model);
    still.frame_clip(None);
    let view = with_colors(VertexView::SkinDifference);
    let image = still.render(&mut renderer, &pose, SIZE, &view).unwrap();
    let measured = still.skin_difference.take().unwrap().unwrap();
    assert_eq!(measured.vertices, skinned);
    assert!(measured.max / measured.size < 1e-6, "{measured}");
    assert_eq!(count(&image, red), 0, "CPU and GPU agree: no red");
}
