//! Feedback where the user looks: the notice bar over the 3D view says what a file, an offer,
//! a reload or an export came to, whatever part of the panel is in sight; the panel hides and
//! gives the view the window's width; a file opens on the clip a user wants to see first.

use crate::common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::anim::Clip;
use rigscope::asset::demo::demo_model;
use rigscope::ui::clips_from::ClipsOffer;
use rigscope::ui::{Shortcut, ViewerState, panel};
use rigscope::view::opening_clip::ClipOnOpen;

/// What the harness keeps: the viewer's state, the area left for the 3D view and the whole
/// area the panel was given.
type Shown = (ViewerState, egui::Rect, egui::Rect);

/// The panel in a 1280 x 800 window.
fn harness(state: ViewerState) -> Harness<'static, Shown> {
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, (state, view, whole): &mut Shown| {
            *whole = ui.available_rect_before_wrap();
            *view = panel::show(ui, state, &Default::default());
        },
        (state, egui::Rect::NOTHING, egui::Rect::NOTHING),
    )
}

/// Whether some text containing `text` is drawn inside the 3D view.
fn shown_over_view(harness: &Harness<'static, Shown>, text: &str) -> bool {
    let view = harness.state().1;
    harness
        .query_all_by_label_contains(text)
        .any(|node| view.contains_rect(node.rect()))
}

#[test]
fn a_load_error_shows_over_the_view_with_the_panel_scrolled_to_the_bottom() {
    let mut harness = harness(ViewerState::new(demo_model()));
    harness.run();
    harness.get_by_label("Quality").scroll_to_me();
    harness.run();
    harness.state_mut().0.open(std::path::Path::new("/no/such/model.glb"));
    harness.run();
    let panel_error = harness.query_all_by_label_contains("/no/such/model.glb").count();
    assert_eq!(panel_error, 2, "in the File section and over the view");
    assert!(shown_over_view(&harness, "/no/such/model.glb"));
    // It stays until dismissed.
    harness.run_steps(30);
    assert!(shown_over_view(&harness, "/no/such/model.glb"));
    harness.get_by_label("×").click();
    harness.run();
    assert!(!shown_over_view(&harness, "/no/such/model.glb"));
    assert!(
        harness.state().0.document.load_error.is_some(),
        "the File section still says it"
    );
}

#[test]
fn a_file_with_clips_is_offered_over_the_view_and_adding_them_says_so() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let mut harness = harness(ViewerState::new(demo_model()));
    harness.state_mut().0.open(&fox);
    harness.run();
    harness.get_by_label("Quality").scroll_to_me();
    harness.state_mut().0.open(&fox);
    harness.run();
    assert!(shown_over_view(&harness, "Add its 3 clips to the open rig"));
    let view = harness.state().1;
    let add = harness.query_all_by_label("Add its 3 clips to the open rig");
    add.filter(|node| view.contains_rect(node.rect()))
        .next()
        .unwrap()
        .click();
    harness.run();
    assert_eq!(harness.state().0.document.model.clips.len(), 6);
    assert!(shown_over_view(&harness, "Added 3 clips from Fox.glb"));
}

#[test]
fn the_hidden_panel_gives_the_view_the_windows_width() {
    let mut harness = harness(ViewerState::new(demo_model()));
    harness.run();
    let (_, view, whole) = *harness.state();
    assert!(view.width() < whole.width() - 200.0, "the panel takes its room");
    harness.get_by_label("◀ Hide").click();
    harness.run();
    assert!(!harness.state().0.panel_shown);
    assert_eq!(harness.state().1.width(), whole.width());
    harness.get_by_label("▶ Panel").click();
    harness.run();
    assert!(harness.state().1.width() < whole.width() - 200.0);
    harness.state_mut().0.shortcut(Shortcut::Panel);
    harness.run();
    assert_eq!(harness.state().1.width(), whole.width(), "the N key hides it too");
}

/// The demo rig with clips named `names` (each the demo's walk).
fn demo_with_clips(names: &[&str]) -> rigscope::asset::Model {
    let mut model = demo_model();
    let walk = model.clips[1].channels().to_vec();
    model.clips = names
        .iter()
        .map(|name| Clip::new((*name).into(), walk.clone()))
        .collect();
    model
}

#[test]
fn a_file_opens_on_its_idle_clip_unless_asked_for_the_first() {
    let clip_name = |state: &ViewerState| {
        let clip = state.frame.player.clip().unwrap();
        state.document.model.clips[clip].name().to_owned()
    };
    let state = ViewerState::new(demo_with_clips(&["EdgeGrab", "Idle", "Run"]));
    assert_eq!(clip_name(&state), "Idle");
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label("Open files on their first clip").click();
    harness.run();
    let (state, ..) = harness.state_mut();
    assert_eq!(state.clip_on_open, ClipOnOpen::First);
    // A file opened now (here: one offered, opened instead) starts on its first clip.
    let source = demo_with_clips(&["EdgeGrab", "Idle", "Run"]);
    state.clips_from.offer = Some(ClipsOffer { source, paired: 1 });
    state.open_offered_instead();
    assert_eq!(clip_name(state), "EdgeGrab");
    assert_eq!(
        state.clip_on_open,
        ClipOnOpen::First,
        "the setting stays for the next file"
    );
}
