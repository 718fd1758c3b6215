//! The panel's "Export clip…" controls, through egui's accessibility tree (egui_kittest): the
//! button asks the window to export, only while a clip plays; a running export shows its
//! progress and can be cancelled; the outcome is shown.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::asset::demo::demo_model;
use rigscope::ui::{ViewerState, panel};

fn harness(state: ViewerState) -> Harness<'static, ViewerState> {
    Harness::builder().with_size(egui::vec2(1280.0, 1600.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    )
}

#[test]
fn the_button_asks_for_an_export_only_while_a_clip_plays() {
    let mut harness = harness(ViewerState::new(demo_model()));
    harness.get_by_label("Export clip…").click();
    harness.run();
    assert!(
        harness.state().requests.export_clip,
        "a clip plays: the window is asked"
    );
    harness.state_mut().requests.export_clip = false;
    harness.get_by_label("(rest pose)").click();
    harness.run();
    harness.get_by_label("Export clip…").click();
    harness.run();
    assert!(
        !harness.state().requests.export_clip,
        "nothing to export in the rest pose"
    );
}

#[test]
fn a_running_export_shows_its_progress_and_can_be_cancelled() {
    let mut state = ViewerState::new(demo_model());
    state.clip_export.progress = Some((3, 12));
    let mut harness = harness(state);
    harness.run();
    assert!(harness.query_by_label("Export clip…").is_none(), "one export at a time");
    assert!(harness.query_by_label_contains("exporting frame 3 of 12").is_some());
    harness.get_by_label("Cancel export").click();
    harness.run();
    assert!(harness.state().clip_export.cancel);
    // The window ends it and says so.
    let export = &mut harness.state_mut().clip_export;
    export.progress = None;
    export.outcome = Some(Err("export cancelled".into()));
    harness.run();
    assert!(harness.query_by_label("export cancelled").is_some());
    assert!(
        harness.query_by_label("Export clip…").is_some(),
        "ready for the next one"
    );
}
