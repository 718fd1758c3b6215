//! Without a desktop file dialog, "Open…" opens the built-in browser: it lists the open
//! model's folder (models only), says why it is there, and opening a file from it opens the
//! model. "Export clip…" opens it to save, in the open model's folder with the panel's name.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::app::file_dialog::{NO_DESKTOP_DIALOG, pick_file};
use rigscope::asset::demo::demo_model;
use rigscope::ui::file_browser::Purpose;
use rigscope::ui::{ViewerState, panel};

#[test]
fn without_a_desktop_dialog_the_built_in_browser_lists_the_folder_and_opens_a_pick() {
    // The only test in this binary: nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("RIGSCOPE_FILE_BROWSER", "builtin") };
    let dir = common::temp_dir("file-browser");
    let fox = dir.join("Fox.glb");
    let rigged = dir.join("RiggedSimple.glb");
    std::fs::copy(common::gltf("Fox/glTF-Binary/Fox.glb"), &fox).unwrap();
    std::fs::copy(common::gltf("RiggedSimple/glTF-Binary/RiggedSimple.glb"), &rigged).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a model").unwrap();
    std::fs::write(dir.join("earlier.gif"), "not a model").unwrap();
    let mut state = ViewerState::new(demo_model());
    state.open(&fox);

    assert_eq!(pick_file(&mut state, Purpose::Model), None, "nothing picked yet");
    assert!(state.browser.is_open());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 2400.0))
        // egui_file's path and file name fields carry no accessible name.
        .with_accessibility_check(false)
        .build_ui_state(
            |ui, state: &mut ViewerState| _ = panel::show(ui, state, &Default::default()),
            state,
        );
    harness.run();
    harness.get_by_label(NO_DESKTOP_DIALOG);
    assert!(harness.query_by_label_contains("notes.txt").is_none(), "models only");
    harness.get_by_label("🗋 Fox.glb");
    harness.get_by_label("🗋 RiggedSimple.glb").click();
    harness.run();
    harness.get_by_label("Open").click();
    harness.run();
    let state = harness.state();
    assert_eq!(state.document.model.path, rigged, "{:?}", state.document.load_error);
    assert!(!state.browser.is_open());
    assert_eq!(state.document.window_title(), "RiggedSimple.glb — rigscope");

    let mut state = harness.into_state();
    assert_eq!(pick_file(&mut state, Purpose::Export), None, "nothing picked yet");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 2400.0))
        .with_accessibility_check(false)
        .build_ui_state(
            |ui, state: &mut ViewerState| _ = panel::show(ui, state, &Default::default()),
            state,
        );
    harness.run();
    harness.get_by_label("🗋 earlier.gif");
    assert!(
        harness.query_by_label("🗋 Fox.glb").is_none(),
        "videos and pictures only"
    );
    harness.get_by_label("Save").click();
    harness.run();
    let state = harness.state();
    assert_eq!(
        state.browser.picked_export.as_deref(),
        Some(dir.join("clip.mp4").as_path())
    );
}
