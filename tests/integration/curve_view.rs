//! The curve view over the timeline, operated through egui's accessibility tree (egui_kittest)
//! and the pointer: it plots the selected joint's curves, its group toggles add and remove
//! plots, pressing and dragging on a plot scrubs the clip, and the panel's toggle shows it.

use crate::shared::{clip_time, painted};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::asset::demo::demo_model;
use rigscope::inspect::CurveGroup;
use rigscope::ui::curve_panel::{LEAST_PLOT_HEIGHT, TIME_COLOR};
use rigscope::ui::{ViewerState, panel};

/// The demo, paused, with the curve view shown and the first joint its first clip animates
/// selected.
fn harness() -> Harness<'static, ViewerState> {
    harness_of_height(900.0)
}

/// `harness()` in a window `height` points high.
fn harness_of_height(height: f32) -> Harness<'static, ViewerState> {
    let mut state = ViewerState::new(demo_model());
    state.frame.player.playing = false;
    state.curves.shown = true;
    state.inspection.selected = Some(state.document.model.clips[0].channels()[0].joint);
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, height)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    );
    harness.run();
    harness
}

#[test]
fn the_view_plots_the_selected_joints_animated_channels() {
    let harness = harness();
    let set = harness
        .state()
        .curves
        .curves()
        .expect("curves for the selected joint")
        .clone();
    assert!(!set.curves.is_empty());
    let joint = harness.state().inspection.selected.unwrap();
    assert_eq!(set.joint, joint);
    harness.get_by_label(&format!(
        "{} in '{}'",
        harness.state().document.model.skeleton.name(joint),
        set.clip
    ));
    for group in CurveGroup::ALL {
        let plotted = harness.query_by_label(&format!("{} curves", group.label())).is_some();
        let expected = set.has_group(group) && group != CurveGroup::Quaternion;
        assert_eq!(plotted, expected, "{group:?}");
    }
    for curve in set.curves.iter().filter(|c| c.group != CurveGroup::Quaternion) {
        assert!(painted(&harness, &curve.name), "the legend names {}", curve.name);
    }
    let plot = harness
        .get_by_label(&format!("{} curves", CurveGroup::Rotation.label()))
        .rect();
    assert!(
        time_line_x(&harness, plot).is_some(),
        "the current time is drawn on the plot"
    );
}

/// Where the current-time line is drawn inside `plot` (the timeline's playhead, in the same
/// colour, lies outside it).
fn time_line_x(harness: &Harness<'static, ViewerState>, plot: egui::Rect) -> Option<f32> {
    harness.output().shapes.iter().find_map(|clipped| match &clipped.shape {
        // egui_plot draws its lines as paths.
        egui::Shape::Path(path)
            if path.stroke.color == egui::epaint::ColorMode::Solid(TIME_COLOR)
                && path.points.iter().all(|p| plot.expand(1.0).contains(*p)) =>
        {
            path.points.first().map(|p| p.x)
        }
        _ => None,
    })
}

/// Whether a line of `color` is drawn inside `plot`.
fn line_drawn(harness: &Harness<'static, ViewerState>, plot: egui::Rect, color: egui::Color32) -> bool {
    harness.output().shapes.iter().any(|clipped| match &clipped.shape {
        egui::Shape::Path(path) => {
            path.stroke.color == egui::epaint::ColorMode::Solid(color)
                && path.points.iter().all(|p| plot.expand(1.0).contains(*p))
        }
        _ => false,
    })
}

#[test]
fn at_1280_by_800_the_plots_are_readable_and_their_legends_cover_nothing() {
    // The window: each plot was 40 points high, its legend over the rings at the
    // clip's end.
    let mut harness = harness_of_height(800.0);
    // Both rotation plots: more than fit at their least height.
    harness.get_by_label(CurveGroup::Quaternion.label()).click();
    harness.run();
    let set = harness.state().curves.curves().unwrap().clone();
    let shown: Vec<CurveGroup> = CurveGroup::ALL.into_iter().filter(|&g| set.has_group(g)).collect();
    assert!(shown.len() >= 2, "{shown:?}");
    let plot_rect = |harness: &Harness<'static, ViewerState>, group: CurveGroup| {
        harness.get_by_label(&format!("{} curves", group.label())).rect()
    };
    // The view keeps its height frame after frame (it lost a few points a frame, down to
    // plots 40 points high).
    let first = plot_rect(&harness, shown[0]);
    for _ in 0..30 {
        harness.step();
    }
    assert_eq!(plot_rect(&harness, shown[0]), first, "the plot stays where it was");
    for &group in &shown {
        let plot = plot_rect(&harness, group);
        // The plot's frame, without the time axis under it.
        assert!(
            plot.height() >= LEAST_PLOT_HEIGHT - 20.0,
            "{group:?}: {} points high",
            plot.height()
        );
        for curve in set.curves.iter().filter(|c| c.group == group) {
            let entry = harness.get_by_label(&curve.name).rect();
            assert!(
                entry.bottom() <= plot.top(),
                "{}'s legend entry at {entry:?} lies on its plot at {plot:?}",
                curve.name
            );
        }
    }
    // A legend entry hides and shows its curve.
    let curve = set.curves.iter().find(|c| c.group == shown[0]).unwrap();
    let [r, g, b] = curve.color();
    let color = egui::Color32::from_rgb(r, g, b);
    let plot = plot_rect(&harness, shown[0]);
    assert!(line_drawn(&harness, plot, color), "{} is drawn", curve.name);
    harness.get_by_label(&curve.name).click();
    harness.run();
    assert!(!line_drawn(&harness, plot, color), "{} is hidden", curve.name);
    harness.get_by_label(&curve.name).click();
    harness.run();
    assert!(line_drawn(&harness, plot, color), "{} is shown again", curve.name);
}

#[test]
fn group_toggles_add_and_remove_plots() {
    let mut harness = harness();
    let set = harness.state().curves.curves().unwrap().clone();
    assert!(set.has_group(CurveGroup::Rotation));
    let quaternion = format!("{} curves", CurveGroup::Quaternion.label());
    assert!(harness.query_by_label(&quaternion).is_none());
    harness.get_by_label(CurveGroup::Quaternion.label()).click();
    harness.run();
    harness.get_by_label(&quaternion);
    assert!(harness.state().curves.shows(CurveGroup::Quaternion));
    harness.get_by_label(CurveGroup::Rotation.label()).click();
    harness.run();
    assert!(
        harness
            .query_by_label(&format!("{} curves", CurveGroup::Rotation.label()))
            .is_none()
    );
}

#[test]
fn dragging_on_a_plot_scrubs_the_clip() {
    let mut harness = harness();
    let duration = harness.state().document.model.clips[0].duration();
    assert_eq!(clip_time(&harness), 0.0);
    let rect = harness
        .get_by_label(&format!("{} curves", CurveGroup::Rotation.label()))
        .rect();
    let at = |fraction: f32| egui::pos2(rect.left() + fraction * rect.width(), rect.center().y);
    harness.drag_at(at(0.3));
    harness.run();
    let first = clip_time(&harness);
    assert!(
        first > 0.15 * duration && first < 0.45 * duration,
        "{first} of {duration}"
    );
    harness.run();
    let line = time_line_x(&harness, rect).expect("the time line");
    assert!(
        (line - at(0.3).x).abs() < 2.0,
        "the time line follows the pointer: {line}"
    );
    harness.hover_at(at(0.7));
    harness.run();
    let second = clip_time(&harness);
    assert!(
        second > 0.55 * duration && second < 0.85 * duration,
        "{second} of {duration}"
    );
    harness.drop_at(at(0.7));
    harness.run();
    harness.hover_at(at(0.2));
    harness.run();
    assert_eq!(
        clip_time(&harness),
        second,
        "moving without the button held does not scrub"
    );
    assert!(!harness.state().frame.player.playing);
}

#[test]
fn the_display_toggle_shows_and_hides_the_view() {
    // Tall enough for the side panel's Display section to be on screen.
    let mut harness = harness_of_height(2400.0);
    harness.get_by_label("Hide (G)").click();
    harness.run();
    assert!(!harness.state().curves.shown);
    assert!(harness.query_by_label("Hide (G)").is_none());
    harness.get_by_label("Curve view (G)").click();
    harness.run();
    assert!(harness.state().curves.shown);
    harness.get_by_label("Hide (G)");
}

#[test]
fn without_a_selected_joint_it_says_how_to_choose_one() {
    let mut harness = harness();
    harness.state_mut().inspection.selected = None;
    harness.run();
    harness.get_by_label("Select a joint (click it in the view or in Joints) to see its curves");
    assert!(harness.state().curves.curves().is_none());
}
