//! KHR_materials_variants: a quad whose variants paint it red or blue, written by the test,
//! rendered in each variant (by the library and by `render --variant`), picked in the panel;
//! an unknown variant is an error that lists the file's; the validator's variant files load.

use crate::common;

use common::quad::{colour_at, quad_gltf, write};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::asset::{self, Model, model::VariantMaterial};
use rigscope::render::still::StillRenderer;
use rigscope::render::{Gpu, SceneRenderer};
use rigscope::ui::{ViewerState, panel};
use rigscope::view::ViewOptions;

/// A quad, grey by default, red in variant "Red paint" and blue in "Blue paint" (unlit, so
/// the colours show as they are).
fn painted_quad_json() -> String {
    let unlit = r#""extensions":{"KHR_materials_unlit":{}}"#;
    quad_gltf(
        r#""material":0,"extensions":{"KHR_materials_variants":{"mappings":[
            {"material":1,"variants":[0]},{"material":2,"variants":[1]}]}}"#,
        &format!(
            r#""extensionsUsed":["KHR_materials_variants","KHR_materials_unlit"],
            "extensions":{{"KHR_materials_variants":{{"variants":[{{"name":"Red paint"}},{{"name":"Blue paint"}}]}}}},
            "materials":[
                {{"name":"grey","pbrMetallicRoughness":{{"baseColorFactor":[0.5,0.5,0.5,1]}},{unlit}}},
                {{"name":"red","pbrMetallicRoughness":{{"baseColorFactor":[1,0,0,1]}},{unlit}}},
                {{"name":"blue","pbrMetallicRoughness":{{"baseColorFactor":[0,0,1,1]}},{unlit}}}]"#
        ),
    )
}

fn painted_quad(name: &str) -> (std::path::PathBuf, Model) {
    let path = write(&common::temp_dir(name), "painted", &painted_quad_json());
    let model = asset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    (path, model)
}

#[test]
fn the_file_s_variants_and_mappings_are_read() {
    let (_, model) = painted_quad("variants-read");
    assert_eq!(model.material_variants, ["Red paint", "Blue paint"]);
    let primitive = &model.meshes[0].primitives[0];
    assert_eq!(
        primitive.variant_materials,
        [
            VariantMaterial {
                variant: 0,
                material: 1
            },
            VariantMaterial {
                variant: 1,
                material: 2
            }
        ]
    );
    assert_eq!(primitive.material_in(None), Some(0));
    assert_eq!(primitive.material_in(Some(1)), Some(2));
    assert_eq!(model.find_variant("Blue paint"), Ok(1));
    let error = model.find_variant("Green").unwrap_err().to_string();
    assert!(
        error.contains("'Green'") && error.contains("Red paint, Blue paint"),
        "{error}"
    );
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
}

#[test]
fn each_variant_renders_in_its_colours_and_back() {
    let (_, model) = painted_quad("variants-render");
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let pose = model.skeleton.rest_pose().clone();
    // One still renderer for all: switching variants on the same buffers, as the viewer does.
    let mut still = StillRenderer::new(&gpu, &renderer, &model);
    still.frame_clip(None);
    let mut colour = |variant: Option<usize>| {
        let view = ViewOptions {
            grid: false,
            material_variant: variant,
            ..ViewOptions::default()
        };
        let image = still.render(&mut renderer, &pose, (160, 160), &view).unwrap();
        colour_at(&image, 0.5, 0.5)
    };
    assert_eq!(colour(None), "grey");
    assert_eq!(colour(Some(0)), "red");
    assert_eq!(colour(Some(1)), "blue");
    assert_eq!(colour(None), "grey", "back to the default materials");
}

#[test]
fn render_variant_names_the_variant_and_refuses_an_unknown_one() {
    let (path, _) = painted_quad("variants-cli");
    let dir = path.parent().unwrap();
    for (variant, expected) in [("Red paint", "red"), ("Blue paint", "blue")] {
        let out = dir.join(format!("{variant}.png"));
        let args = [
            "render",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "160x160",
        ];
        common::succeed(&[&args[..], &["--no-grid", "--variant", variant]].concat());
        let image = image::open(&out).unwrap().to_rgba8();
        assert_eq!(colour_at(&image, 0.5, 0.5), expected, "{variant}");
    }
    let out = dir.join("none.png");
    let failed = common::rigscope(&[
        "render",
        path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--variant",
        "Green paint",
    ]);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success());
    assert!(
        stderr.contains("--variant") && stderr.contains("'Green paint'") && stderr.contains("Red paint, Blue paint"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn the_panel_s_variant_picker_switches_the_materials() {
    let (_, model) = painted_quad("variants-panel");
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    harness.run();
    assert_eq!(harness.state().view.material_variant, None);
    harness
        .get_by_role_and_label(Role::ComboBox, "Material variant")
        .click();
    harness.run();
    harness.get_by_label("Blue paint").click();
    harness.run();
    assert_eq!(harness.state().view.material_variant, Some(1));
    harness
        .get_by_role_and_label(Role::ComboBox, "Material variant")
        .click();
    harness.run();
    harness.get_by_label("Default").click();
    harness.run();
    assert_eq!(harness.state().view.material_variant, None);
}

#[test]
fn the_validator_s_variant_files_load_with_their_variants() {
    let dir = common::validator_dir().join("ext/KHR_materials_variants/data");
    let valid = asset::load(&dir.join("primitive/valid.gltf")).unwrap();
    assert_eq!(valid.material_variants, ["variant0", "variant1"]);
    let mappings = &valid.meshes[0].primitives[0].variant_materials;
    assert_eq!(
        mappings,
        &[
            VariantMaterial {
                variant: 1,
                material: 0
            },
            VariantMaterial {
                variant: 0,
                material: 1
            }
        ]
    );
    // Broken mappings are warnings that point at them; the model still loads.
    let broken = asset::load(&dir.join("primitive/unresolved_references.gltf")).unwrap();
    assert!(broken.meshes[0].primitives[0].variant_materials.is_empty());
    assert!(
        broken
            .warnings
            .iter()
            .any(|w| w.starts_with("/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/material")),
        "{:?}",
        broken.warnings
    );
    let twice = asset::load(&dir.join("primitive/non_unique.gltf")).unwrap();
    assert!(
        twice.warnings.iter().any(|w| w.contains("mapped twice")),
        "{:?}",
        twice.warnings
    );
    for file in [
        "variant/empty_array.gltf",
        "variant/empty_object.gltf",
        "variant/invalid_name.gltf",
    ] {
        asset::load(&dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

/// How many pixels of the viewer's window (under Xvfb, after 8 frames) are clearly blue.
fn blue_pixels_in_window(args: &[&str], dir: &std::path::Path) -> usize {
    let path = dir.join(format!("window-{}.png", args.len()));
    let output = std::process::Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args(args)
        .args(["--screenshot-after-frames", "8", path.to_str().unwrap()])
        .output()
        .expect("xvfb-run (Debian package xvfb) must be installed; .ci/run installs it");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let image = image::open(&path).unwrap().to_rgba8();
    image.pixels().filter(|p| p[2] > 150 && p[0] < 80 && p[1] < 80).count()
}

#[test]
fn the_viewer_opens_in_the_variant_it_is_given() {
    let (path, _) = painted_quad("variants-window");
    let file = path.to_str().unwrap();
    let dir = path.parent().unwrap();
    let painted = blue_pixels_in_window(&[file, "--variant", "Blue paint"], dir);
    let default = blue_pixels_in_window(&[file], dir);
    assert!(
        painted > 20_000 && default < 2_000,
        "blue pixels: {painted} in the variant, {default} without"
    );
}
