//! What the picture shows of animated properties (KHR_animation_pointer) and node visibility
//! (KHR_node_visibility), on the scene `common::animated_scene` writes: the material's colour,
//! the file's lights, a file camera's field of view, and hidden meshes and lights.

use crate::common;

use common::animated_scene::{BASE_COLOR, VISIBLE, load, pointer, pose_at, write};
use rigscope::asset::Model;
use rigscope::cli::render::render_image;
use rigscope::render::{Gpu, SceneRenderer};
use rigscope::view::{Lighting, Lights, ViewOptions};

struct Pictures {
    gpu: Gpu,
    scene: SceneRenderer,
}

impl Pictures {
    fn new() -> Self {
        let gpu = Gpu::headless().unwrap();
        let scene = SceneRenderer::new(&gpu);
        Self { gpu, scene }
    }

    fn render(&mut self, model: &Model, clip: usize, time: f32) -> image::RgbaImage {
        let view = ViewOptions {
            grid: false,
            ..ViewOptions::default()
        };
        self.render_with(model, clip, time, &view)
    }

    fn render_with(&mut self, model: &Model, clip: usize, time: f32, view: &ViewOptions) -> image::RgbaImage {
        let pose = pose_at(model, clip, time);
        render_image(&self.gpu, &mut self.scene, model, &pose, Some(clip), (96, 96), view).unwrap()
    }
}

/// How many pixels differ from the corner pixel (the background) by more than a few levels.
fn covered(image: &image::RgbaImage) -> usize {
    let background = image.get_pixel(0, 0).0;
    let differs = |p: &&image::Rgba<u8>| (0..3).any(|c| p.0[c].abs_diff(background[c]) > 12);
    image.pixels().filter(differs).count()
}

#[test]
fn the_picture_follows_the_animated_colour_and_visibility() {
    let model = load(
        "pointer-picture",
        &[
            vec![pointer(
                BASE_COLOR,
                "LINEAR",
                &[0.0, 1.0],
                &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
            )],
            vec![pointer(VISIBLE, "STEP", &[0.0, 1.0], &[1.0, 0.0])],
        ],
    );
    let mut pictures = Pictures::new();
    let centre = |image: &image::RgbaImage| image.get_pixel(48, 48).0;
    let [r0, _, b0, _] = centre(&pictures.render(&model, 0, 0.0));
    let [r1, _, b1, _] = centre(&pictures.render(&model, 0, 1.0));
    assert!(r0 > b0 + 40, "red at the start: {r0} vs blue {b0}");
    assert!(b1 > r1 + 40, "blue at the end: {b1} vs red {r1}");

    let shown = covered(&pictures.render(&model, 1, 0.0));
    let hidden = covered(&pictures.render(&model, 1, 1.0));
    assert!(shown > 500, "the quad covers the middle of the picture: {shown} pixels");
    assert!(hidden * 10 < shown, "hidden: {hidden} pixels, shown: {shown}");
}

#[test]
fn the_files_lights_shine_as_animated_and_not_from_hidden_nodes() {
    let light = "/extensions/KHR_lights_punctual/lights/0";
    let model = load(
        "pointer-light",
        &[
            vec![
                pointer(
                    &format!("{light}/color"),
                    "LINEAR",
                    &[0.0, 1.0],
                    &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
                ),
                pointer(&format!("{light}/intensity"), "STEP", &[0.0], &[60.0]),
            ],
            vec![pointer(
                "/nodes/3/extensions/KHR_node_visibility/visible",
                "STEP",
                &[0.0, 1.0],
                &[1.0, 0.0],
            )],
        ],
    );
    let view = ViewOptions {
        grid: false,
        lighting: Lighting {
            lights: Lights::File,
            environment_intensity: 0.0,
            ..Lighting::default()
        },
        ..ViewOptions::default()
    };
    let mut pictures = Pictures::new();
    let centre = |image: image::RgbaImage| image.get_pixel(48, 48).0.map(i32::from);
    let [r0, _, b0, _] = centre(pictures.render_with(&model, 0, 0.0, &view));
    let [r1, _, b1, _] = centre(pictures.render_with(&model, 0, 1.0, &view));
    assert!(
        b0 > r0 + 40 && r1 > b1 + 40,
        "blue light then red: {r0},{b0} then {r1},{b1}"
    );
    let lit = centre(pictures.render_with(&model, 1, 0.0, &view));
    let dark = centre(pictures.render_with(&model, 1, 1.0, &view));
    assert!(
        lit[0] > dark[0] + 40,
        "the light's node hidden, it shines no more: {lit:?} vs {dark:?}"
    );
}

#[test]
fn a_file_camera_looks_with_its_animated_field_of_view() {
    let path = write(
        "pointer-camera",
        &[vec![pointer(
            "/cameras/0/perspective/yfov",
            "LINEAR",
            &[0.0, 1.0],
            &[0.8, 0.3],
        )]],
    );
    let file = path.display().to_string();
    let coverage = |time: &str| {
        let out = path.with_file_name(format!("camera-{time}.png"));
        let out_name = out.display().to_string();
        let args = [
            "render", &file, "--camera", "0", "--clip", "0", "--time", time, "--size", "96x96",
        ];
        common::succeed(&[&args[..], &["-o", &out_name]].concat());
        let image = image::open(&out).unwrap().to_rgba8();
        // The lit white quad is far brighter than the sky and the ground.
        image.pixels().filter(|p| p.0[..3].iter().all(|&c| c > 150)).count()
    };
    let (wide, narrow) = (coverage("0"), coverage("1"));
    assert!(
        wide > 1000 && narrow > wide * 2,
        "a narrower field of view fills more of the picture with the quad: {wide} then {narrow} pixels"
    );
}
