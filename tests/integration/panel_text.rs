//! The side panel's text as a user reads it (egui_kittest): nothing runs under the vertical
//! scroll bar, and what the window reports about the graphics adapter is in the body's size
//! and colour.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use rigscope::asset::demo::demo_model;
use rigscope::ui::frame_stats::FrameStats;
use rigscope::ui::{RenderStatus, ViewerState, panel};

/// The demo's panel in a window 1280 points wide and `height` high, with the adapter lines and
/// frame times a window reports.
fn harness(height: f32) -> Harness<'static, (ViewerState, RenderStatus)> {
    let status = RenderStatus {
        adapter: "llvmpipe (LLVM 19.1.7, 256 bits) (Gl); palettes in a storage buffer".into(),
        adapter_choice: "a CPU rasteriser, the only adapter found".into(),
        presentation: "shared memory (MIT-SHM), without tearing".into(),
        frame_stats: FrameStats {
            interval_s: 0.0166,
            cpu_s: 0.0123,
            gpu_s: Some(0.0634),
        },
        ..RenderStatus::default()
    };
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, height)).build_ui_state(
        |ui, (state, status): &mut (ViewerState, RenderStatus)| {
            panel::show(ui, state, status);
        },
        (ViewerState::new(demo_model()), status),
    );
    harness.run();
    harness
}

#[test]
fn the_panels_text_stops_short_of_its_scroll_bar() {
    // At 1280 x 800 the panel is taller than the window: it scrolls.
    let harness = harness(800.0);
    // The side panel's vertical bar: where it shows when the pointer comes near.
    let bar = harness
        .query_all(By::new().role(Role::ScrollBar))
        .map(|node| node.rect())
        .find(|rect| rect.height() > rect.width() && rect.left() < 640.0)
        .expect("the side panel scrolls at 1280 x 800");
    let labels: Vec<(String, egui::Rect)> = harness
        .query_all(By::new().role(Role::Label))
        .map(|node| {
            let text = node.accesskit_node().label().or_else(|| node.accesskit_node().value());
            (text.unwrap_or_default(), node.rect())
        })
        .filter(|(_, rect)| rect.left() < bar.left())
        .collect();
    assert!(labels.len() > 20, "the panel's labels: {labels:?}");
    for (text, rect) in &labels {
        assert!(
            rect.right() <= bar.left(),
            "{text:?} ends at {} under the scroll bar from {}",
            rect.right(),
            bar.left()
        );
    }
    // The frame times wrap before the bar (in a 300-point panel they take two rows).
    harness.get_by_label("frame 16.6 ms (60 fps) · CPU 12.3 ms · GPU 63.4 ms");
}

#[test]
fn the_adapter_lines_are_body_text() {
    // Tall enough for the Display section, at the panel's end, to be drawn.
    let harness = harness(2400.0);
    let style = harness.ctx.global_style();
    let body = style.text_styles[&egui::TextStyle::Body].size;
    let text_color = style.visuals.text_color();
    let status = &harness.state().1;
    let lines = [
        status.adapter.clone(),
        format!("Chosen as {}", status.adapter_choice),
        format!("Frames shown through {}", status.presentation),
    ];
    for line in lines {
        let output = harness.output();
        let shape = output
            .shapes
            .iter()
            .find_map(|clipped| match &clipped.shape {
                egui::Shape::Text(shape) if shape.galley.text() == line => Some(shape),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{line:?} was not painted"));
        for section in &shape.galley.job.sections {
            assert_eq!(section.format.font_id.size, body, "{line:?} in the body's size");
            let color = match section.format.color {
                egui::Color32::PLACEHOLDER => shape.fallback_color,
                color => color,
            };
            assert_eq!(color, text_color, "{line:?} in the text's colour, not the weak one");
        }
    }
}
