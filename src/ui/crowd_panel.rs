//! The panel's crowd controls (the crowd itself is `view::crowd_playback`).

use crate::view::crowd::{CrowdOptions, MAX_CROWD};

/// The panel's crowd controls: size, varied or uniform, seed, and whether far copies are drawn
/// coarser (`coarser_far_away`, a view option).
pub fn crowd_controls(ui: &mut egui::Ui, options: &mut CrowdOptions, coarser_far_away: &mut bool) {
    ui.add(
        egui::Slider::new(&mut options.count, 1..=MAX_CROWD)
            .logarithmic(true)
            .text("Crowd size"),
    )
    .on_hover_text("Copies of the model on a grid, animated on every core and skinned on the GPU");
    if options.count > 1 {
        ui.checkbox(&mut options.varied, "Each its own clip, phase and speed")
            .on_hover_text("Off: every copy plays the clip playing, in step");
        if options.varied {
            ui.add(egui::Slider::new(&mut options.seed, 0..=9999).text("Crowd seed"))
                .on_hover_text("Draws each copy's clip, phase and speed");
        }
        ui.checkbox(coarser_far_away, "Coarser copies far away").on_hover_text(
            "Far copies draw simplified meshes, within half a pixel of the whole ones; off: every triangle",
        );
    }
}
