//! The side panel: file and model stats, clips and transport, cross-fade time, skinning and
//! view toggles, frame time. It edits `ViewerState` only.

use egui::{Color32, RichText};

use super::state::{STEP_RATE, ViewerState};
use crate::anim::Playback;

/// Draws the panel and the drop hint; returns the area left for the 3D view (in points).
pub fn show(ui: &mut egui::Ui, state: &mut ViewerState) -> egui::Rect {
    egui::Panel::left("rigscope panel")
        .resizable(true)
        .default_size(290.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                file_section(ui, state);
                ui.separator();
                clips_section(ui, state);
                ui.separator();
                transport_section(ui, state);
                ui.separator();
                view_section(ui, state);
            });
        });
    if let Some(path) = &state.hovered_file {
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        egui::Area::new(egui::Id::unique("drop hint"))
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(RichText::new(format!("Drop to open {name}")).size(22.0));
                });
            });
    }
    ui.available_rect_before_wrap()
}

fn file_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    ui.heading("rigscope");
    ui.label(&state.summary);
    ui.horizontal(|ui| {
        if ui.button("Open… (Ctrl+O)").clicked() {
            state.requests.open_dialog = true;
        }
    });
    if let Some(error) = &state.load_error {
        ui.colored_label(Color32::from_rgb(255, 110, 100), error);
    }
    let notes = state.model.warnings.len() + state.render_notes.len();
    if notes > 0 {
        ui.collapsing(format!("Warnings ({notes})"), |ui| {
            for note in state.model.warnings.iter().chain(&state.render_notes) {
                ui.label(RichText::new(note).color(Color32::from_rgb(240, 200, 90)));
            }
        });
    }
}

fn clips_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    ui.label(RichText::new("Clips").strong());
    if state.model.clips.is_empty() {
        ui.label("(no clips: rest pose)");
    }
    let current = state.player.clip();
    let (fading_from, fade_weight) = (state.player.fading_from(), state.player.fade_weight());
    let mut chosen = None;
    for (index, clip) in state.model.clips.iter().enumerate() {
        let mut text = format!("{}  ({:.2} s)", clip.name(), clip.duration());
        if let Some(weight) = fade_weight {
            if fading_from == Some(index) {
                text.push_str(&format!("  fading out {:.0}%", (1.0 - weight) * 100.0));
            } else if current == Some(index) {
                text.push_str(&format!("  fading in {:.0}%", weight * 100.0));
            }
        }
        if ui.selectable_label(current == Some(index), text).clicked() {
            chosen = Some(index);
        }
    }
    if ui.selectable_label(current.is_none(), "(rest pose)").clicked() {
        state.player.select(None);
    }
    if let Some(index) = chosen {
        state.player.select(Some(index));
    }
    ui.add(egui::Slider::new(&mut state.player.fade_time, 0.0..=2.0).text("cross-fade (s)"));
}

fn transport_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let clips = &state.model.clips;
    let duration = state
        .player
        .clip()
        .and_then(|c| clips.get(c))
        .map_or(0.0, |c| c.duration());
    ui.horizontal(|ui| {
        if ui
            .button("< Step")
            .on_hover_text("Step back one frame (Left)")
            .clicked()
        {
            state.player.step(-1.0, STEP_RATE, clips);
        }
        let label = if state.player.playing { "Pause" } else { "Play" };
        if ui.button(label).on_hover_text("Space").clicked() {
            state.player.playing = !state.player.playing;
        }
        if ui
            .button("Step >")
            .on_hover_text("Step forward one frame (Right)")
            .clicked()
        {
            state.player.step(1.0, STEP_RATE, clips);
        }
    });
    let mut time = state.player.clip_time(clips);
    ui.add_enabled_ui(duration > 0.0, |ui| {
        let response =
            ui.add(egui::Slider::new(&mut time, 0.0..=duration.max(1e-3)).text(format!("/ {duration:.2} s")));
        if response.changed() {
            state.player.scrub(time, clips);
        }
    });
    ui.add(egui::Slider::new(&mut state.player.speed, -2.0..=4.0).text("speed"));
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.player.mode, Playback::Loop, "Loop");
        ui.radio_value(&mut state.player.mode, Playback::Once, "Once");
        ui.radio_value(&mut state.player.mode, Playback::PingPong, "Ping-pong");
    });
}

fn view_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    ui.label(RichText::new("Skinning").strong());
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.view.gpu_skinning, true, "GPU");
        ui.radio_value(&mut state.view.gpu_skinning, false, "CPU");
    });
    ui.label(RichText::new("Show").strong());
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut state.view.mesh, "Mesh");
        ui.checkbox(&mut state.view.skeleton, "Skeleton");
        ui.checkbox(&mut state.view.wireframe, "Wireframe");
        ui.checkbox(&mut state.view.grid, "Grid");
    });
    ui.horizontal(|ui| {
        if ui.button("Frame (F)").clicked() {
            state.requests.frame_model = true;
        }
        if ui.button("Reset view (Home)").clicked() {
            state.requests.reset_camera = true;
        }
    });
    let fps = if state.frame_ms > 0.0 {
        1000.0 / state.frame_ms
    } else {
        0.0
    };
    ui.label(format!("frame {:.1} ms ({fps:.0} fps)", state.frame_ms));
    if !state.adapter.is_empty() {
        ui.label(RichText::new(&state.adapter).small());
    }
}
