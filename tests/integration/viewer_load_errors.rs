//! A file the viewer cannot open (by the dialog, a drop or the command line all go through
//! `ViewerState::open`) leaves the model that was open, and the panel shows the error naming
//! the file, the object and the problem; the next good file replaces the model and the error.

use crate::common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::asset::demo::demo_model;
use rigscope::ui::{ViewerState, panel};

#[test]
fn a_corpus_file_that_cannot_load_keeps_the_model_and_shows_why() {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    );
    let corpus = common::validator_dir().join("base/data");
    let broken = corpus.join("glb/invalid_magic.glb");
    harness.state_mut().open(&broken);
    harness.run();
    let state = harness.state();
    assert_eq!(state.document.model.clips.len(), 5, "the demo rig stays open");
    assert_eq!(state.document.generation, 0);
    let error = state.document.load_error.clone().unwrap();
    assert!(
        error.starts_with(&broken.display().to_string()) && error.contains("not a GLB file (bad magic"),
        "{error}"
    );
    assert_eq!(
        harness.get_all_by_label_contains("not a GLB file (bad magic").count(),
        2,
        "in File and over the view"
    );

    let fine = corpus.join("animation/valid.gltf");
    harness.state_mut().open(&fine);
    harness.run();
    assert_eq!(harness.state().document.model.path, fine);
    assert!(harness.state().document.load_error.is_none());
    assert!(harness.query_by_label_contains("bad magic").is_none());
}
