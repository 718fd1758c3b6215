//! The Khronos glTF-Validator's own test models (`common::validator_dir`): every model the
//! validator reports no errors for loads; every model, valid or not, goes through load, pose
//! of every clip, CPU skinning, lint and a small render without a panic and in bounded time;
//! and a model that cannot load says which file, which object and what is wrong.

use crate::common;

use std::time::{Duration, Instant};

use common::{ValidatorModel, validator_models};
use rigscope::asset::{self, LoadErrorKind, Model};
use rigscope::cli::render::render_image;
use rigscope::render::{Gpu, SceneRenderer};
use rigscope::view::ViewOptions;

/// No model may take longer than this through all the stages (the slowest takes a fraction of
/// a second).
const TIME_LIMIT: Duration = Duration::from_secs(5);

#[test]
fn every_model_the_validator_accepts_loads() {
    let models = validator_models();
    let valid: Vec<&ValidatorModel> = models.iter().filter(|m| m.errors == 0).collect();
    assert!(
        valid.len() >= 120,
        "expected the validator's valid models, found {}",
        valid.len()
    );
    let refused: Vec<String> = valid
        .iter()
        .filter_map(|m| asset::load(&m.path).err())
        .map(|e| e.to_string())
        .collect();
    assert!(
        refused.is_empty(),
        "{} of {} valid models refused:\n{}",
        refused.len(),
        valid.len(),
        refused.join("\n")
    );
}

/// The pipeline's stages (`common::pipeline::exercise`), then the first clip's middle rendered
/// small.
fn exercise(model: &Model, gpu: &Gpu, renderer: &mut SceneRenderer) {
    common::pipeline::exercise(model);
    let mut pose = model.skeleton.rest_pose().clone();
    let clip = model.clips.first().map(|_| 0);
    if let Some(first) = model.clips.first() {
        first.sample(first.duration() * 0.5, &mut pose, &mut first.cursor());
    }
    let image = render_image(gpu, renderer, model, &pose, clip, (32, 32), &ViewOptions::default())
        .unwrap_or_else(|e| panic!("{}: render failed: {e:#}", model.path.display()));
    assert_eq!(image.dimensions(), (32, 32));
}

#[test]
fn every_model_goes_through_every_stage_quickly_or_fails_naming_the_object() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let mut loaded = 0;
    let mut refused = 0;
    for model in validator_models() {
        let start = Instant::now();
        match asset::load(&model.path) {
            Ok(loaded_model) => {
                exercise(&loaded_model, &gpu, &mut renderer);
                loaded += 1;
            }
            Err(error) => {
                refused += 1;
                assert_eq!(error.path, model.path);
                assert_names_an_object(&error.kind, &model);
            }
        }
        let elapsed = start.elapsed();
        assert!(elapsed < TIME_LIMIT, "{} took {elapsed:?}", model.path.display());
    }
    // Most files with errors are still worth showing; those that are not are refused.
    assert!(loaded > 250 && refused > 20, "{loaded} loaded, {refused} refused");
}

/// A refused file's error names what is wrong in it: a JSON pointer, or the part of the file
/// (the GLB container, the JSON text) that cannot be read.
fn assert_names_an_object(kind: &LoadErrorKind, model: &ValidatorModel) {
    let named = match kind {
        LoadErrorKind::Invalid { object, problem } => {
            (object.starts_with('/') || object.starts_with("the ")) && !problem.is_empty()
        }
        LoadErrorKind::Json(_)
        | LoadErrorKind::BadMagic { .. }
        | LoadErrorKind::RequiredExtension(_)
        | LoadErrorKind::NotText(_) => true,
        _ => false,
    };
    assert!(
        named,
        "{}: {kind} (the validator: {:?})",
        model.path.display(),
        model.error_pointers
    );
}

#[test]
fn errors_point_where_the_validator_points() {
    // (file under the corpus, the pointer of one of the validator's errors, which rigscope's
    // message names first: the error that refuses the file, or the warning for the part left
    // out)
    let cases = [
        (
            "base/data/animation/sampler_input_format_invalid.gltf",
            "/animations/0/samplers/0/input",
        ),
        (
            "base/data/animation/unresolved_sampler_output.gltf",
            "/animations/0/samplers/0/output",
        ),
        (
            "base/data/mesh/unresolved_material.gltf",
            "/meshes/0/primitives/0/material",
        ),
        (
            "base/data/mesh/indices_invalid_format.gltf",
            "/meshes/0/primitives/0/indices",
        ),
        ("base/data/node/unresolved_skin.gltf", "/nodes/0/skin"),
        ("base/data/skin/unresolved_ibm.gltf", "/skins/0/inverseBindMatrices"),
        ("base/data/buffer/wrong_bytelength.glb", "/buffers/0"),
        ("base/data/accessor/empty_object.gltf", "/accessors/0"),
    ];
    let models = validator_models();
    for (file, pointer) in cases {
        let model = models
            .iter()
            .find(|m| m.path.ends_with(file))
            .unwrap_or_else(|| panic!("missing corpus file {file}"));
        assert!(
            model.error_pointers.iter().any(|p| p == pointer),
            "{file}: {:?}",
            model.error_pointers
        );
        let path = &model.path;
        match asset::load(path) {
            Err(error) => {
                let message = error.to_string();
                assert!(
                    message.starts_with(&format!("{}: {pointer}", path.display())),
                    "{message}"
                );
            }
            Ok(loaded) => {
                let warnings = &loaded.warnings;
                assert!(warnings.iter().any(|w| w.starts_with(pointer)), "{file}: {warnings:?}");
            }
        }
    }
}
