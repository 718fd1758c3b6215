//! The side panel, in collapsible sections: file and model stats (and watching the file),
//! the compare view, clips and cross-fade time, blend weights, additive layers, IK, the joint browser, rig
//! inspection views, morph targets, named views and the file's cameras, lighting, skinning and
//! view toggles, frame time. The transport lives in the timeline under the 3D view. It edits
//! `ViewerState` only.

use egui::{Color32, RichText};

use super::avatar_panel::{avatar_section, is_avatar};
use super::clips_from::OfferAnswer;
use super::compare_panel::compare_section;
use super::crowd_panel::crowd_controls;
use super::curve_panel;
use super::file_facts::{attributes_section, extensions_section, facts_section};
use super::filter_field::{FILTER_FROM, filter_field};
use super::ik_panel::ik_section;
use super::inspect_panel::inspect_section;
use super::joint_panel::joints_section;
use super::lighting_panel::lighting_section;
use super::morph_panel::{has_morph_targets, morph_section};
use super::notice_bar;
use super::render_status::RenderStatus;
use super::state::ViewerState;
use super::timeline;
use super::variant_panel::variant_picker;
use super::view_panel::views_section;
use crate::anim::{AdditiveLayer, AdditiveSpace};
use crate::skin::SkinningMethod;
use crate::view::Quality;
use crate::view::opening_clip::ClipOnOpen;

/// Where the cross-fade slider ends (seconds); a longer time can be typed.
const FADE_SLIDER_END: f32 = 5.0;

/// The side panel's width when the viewer opens (points); the user may drag it wider or
/// narrower, but its content never widens it.
const PANEL_WIDTH: f32 = 300.0;

/// Draws the side panel, the timeline under the 3D view and the drop hint, with what the window
/// reports (`status`); returns the area left for the 3D view (in points).
pub fn show(ui: &mut egui::Ui, state: &mut ViewerState, status: &RenderStatus) -> egui::Rect {
    // Hidden by its button, the N key or a drag of its edge past its least width; it slides.
    let was_shown = state.panel_shown;
    let mut shown = was_shown;
    egui::Panel::left("rigscope panel")
        .resizable(true)
        .default_size(PANEL_WIDTH)
        .size_range(220.0..=640.0)
        .show_collapsible(ui, &mut shown, |ui| {
            // The content lays out in exactly the panel's width and takes no more: wide
            // content wraps where it can and scrolls sideways where it cannot, instead of
            // widening the panel and pushing the 3D view aside.
            let rect = ui.available_rect_before_wrap();
            let mut content = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            egui::ScrollArea::both()
                .auto_shrink([false, true])
                .show(&mut content, |ui| {
                    // The vertical scroll bar floats over the content's right edge: what wraps
                    // wraps short of it.
                    let bar = ui.spacing().scroll;
                    ui.set_max_width(ui.available_width() - bar.bar_width - bar.bar_inner_margin);
                    section(ui, "File", true, |ui| file_section(ui, state, &status.notes));
                    section(ui, "Compare", true, |ui| compare_section(ui, state));
                    if is_avatar(state) {
                        section(ui, "Avatar (VRM)", true, |ui| avatar_section(ui, state));
                    }
                    section(ui, "Clips", true, |ui| clips_section(ui, state));
                    section(ui, "Blend weights", false, |ui| blend_section(ui, state));
                    section(ui, "Additive layers", false, |ui| layers_section(ui, state));
                    section(ui, "Inverse kinematics", false, |ui| ik_section(ui, state));
                    joints_section(ui, state);
                    section(ui, "Rig inspection", false, |ui| {
                        inspect_section(ui, state, status.skin_difference.as_ref())
                    });
                    let morphs_open = has_morph_targets(&state.document.model);
                    section(ui, "Morph targets", morphs_open, |ui| morph_section(ui, state));
                    section(ui, "Views and cameras", false, |ui| views_section(ui, state));
                    section(ui, "Lighting", false, |ui| {
                        let file_lights = state.document.model.lights.len();
                        let lighting = &mut state.view.lighting;
                        lighting_section(ui, lighting, file_lights, &mut state.requests, status)
                    });
                    section(ui, "Display", true, |ui| view_section(ui, state, status));
                });
            ui.advance_cursor_after_rect(rect);
        });
    // egui turns `shown` when the edge is dragged; the Hide button turns the state.
    if shown != was_shown {
        state.panel_shown = shown;
    }
    timeline::show(ui, state);
    let selected = state.inspection.selected;
    curve_panel::show(
        ui,
        &mut state.curves,
        &state.document.model,
        state.document.generation,
        &mut state.frame.player,
        selected,
    );
    if let Some(path) = state.browser.show(ui.ctx()) {
        state.open(&path);
    }
    if let Some(path) = &state.hovered_file {
        let name = crate::asset::file_name(path);
        egui::Area::new(egui::Id::unique("drop hint"))
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(RichText::new(format!("Drop to open {name}")).size(22.0));
                    ui.label("Hold Shift to compare with it");
                });
            });
    }
    let view = ui.available_rect_before_wrap();
    if !state.panel_shown {
        show_panel_button(ui.ctx(), state, view);
    }
    notice_bar::show(ui.ctx(), state, view);
    view
}

/// While the panel is hidden, a button at the top left of the 3D view that shows it again.
fn show_panel_button(ctx: &egui::Context, state: &mut ViewerState, view: egui::Rect) {
    egui::Area::new(egui::Id::unique("show panel"))
        .fixed_pos(view.min + egui::vec2(6.0, 6.0))
        .show(ctx, |ui| {
            if ui.button("▶ Panel").on_hover_text("Show the panel (N)").clicked() {
                state.panel_shown = true;
            }
        });
}

/// One collapsible section of the side panel, open or closed at first as `open` says.
fn section(ui: &mut egui::Ui, title: &str, open: bool, add_contents: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(RichText::new(title).strong())
        .id_salt(title)
        .default_open(open)
        .show(ui, add_contents);
}

fn file_section(ui: &mut egui::Ui, state: &mut ViewerState, render_notes: &[String]) {
    ui.horizontal(|ui| {
        ui.heading("rigscope");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.button("◀ Hide").on_hover_text("Hide the panel (N)").clicked() {
                state.panel_shown = false;
            }
        });
    });
    ui.label(&state.document.summary);
    ui.horizontal(|ui| {
        if ui.button("Open… (Ctrl+O)").clicked() {
            state.requests.open_dialog = true;
        }
        if ui
            .button("Save as GLB…")
            .on_hover_text("The model as it is open (with clips added from other files), written as glTF")
            .clicked()
        {
            state.requests.save_model = true;
        }
    });
    if let Some(error) = &state.document.load_error {
        ui.colored_label(Color32::from_rgb(255, 110, 100), error);
    }
    scene_picker(ui, state);
    match state.clips_from.offer_prompt(ui) {
        Some(OfferAnswer::AddClips) => state.add_offered_clips(),
        Some(OfferAnswer::OpenInstead) => state.open_offered_instead(),
        None => {}
    }
    state.watching.ui(ui, state.browser.why.as_deref());
    facts_section(ui, state);
    extensions_section(ui, state);
    attributes_section(ui, state);
    lint_section(ui, state);
    let notes = state.document.model.warnings.len() + render_notes.len();
    if notes > 0 {
        ui.collapsing(format!("Warnings ({notes})"), |ui| {
            for note in state.document.model.warnings.iter().chain(render_notes) {
                ui.label(RichText::new(note).color(Color32::from_rgb(240, 200, 90)));
            }
        });
    }
}

/// The file's scenes, when it has several: choosing one shows it (only its nodes are loaded).
fn scene_picker(ui: &mut egui::Ui, state: &mut ViewerState) {
    let model = &state.document.model;
    let (Some(shown), true) = (model.scene, model.scenes.len() > 1) else {
        return;
    };
    let mut chosen = shown;
    egui::ComboBox::from_label("Scene")
        .selected_text(&model.scenes[shown].name)
        .show_ui(ui, |ui| {
            for (index, scene) in model.scenes.iter().enumerate() {
                ui.selectable_value(&mut chosen, index, &scene.name);
            }
        });
    if chosen != shown {
        state.show_scene(chosen);
    }
}

/// The rig lint's findings, errors first, collapsed unless there are errors.
fn lint_section(ui: &mut egui::Ui, state: &ViewerState) {
    use crate::lint::{Severity, count};
    let (errors, warnings, notes) = (
        count(&state.document.lint, Severity::Error),
        count(&state.document.lint, Severity::Warning),
        count(&state.document.lint, Severity::Note),
    );
    let title = format!(
        "Rig lint: {}, {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(notes, "note")
    );
    egui::CollapsingHeader::new(title)
        .default_open(errors > 0)
        .show(ui, |ui| {
            for finding in &state.document.lint {
                let color = match finding.severity {
                    Severity::Error => Color32::from_rgb(255, 110, 100),
                    Severity::Warning => Color32::from_rgb(240, 200, 90),
                    Severity::Note => Color32::from_rgb(170, 180, 195),
                };
                let text = format!(
                    "{}: {} {} [{}]",
                    finding.subject,
                    finding.count,
                    finding.message,
                    finding.rule.name()
                );
                ui.label(RichText::new(text).color(color));
            }
        });
}

/// "1 error", "2 errors".
fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn clips_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    if state.document.model.clips.is_empty() {
        ui.label("(no clips: rest pose)");
    }
    // While the blend plays, no clip of the list does.
    let blending = state.frame.player.animator.sync_blend.is_active();
    let current = state.frame.player.clip().filter(|_| !blending);
    let filter = match state.document.model.clips.len() > FILTER_FROM {
        true => filter_field(ui, "Filter clips"),
        false => String::new(),
    };
    let mut chosen = None;
    for (index, clip) in state.document.model.clips.iter().enumerate() {
        if !clip.name().to_lowercase().contains(&filter) {
            continue;
        }
        let text = format!("{}  ({:.2} s)", clip.name(), clip.duration());
        let row = egui::Button::selectable(current == Some(index), text).wrap();
        if ui.add(row).clicked() {
            chosen = Some(index);
        }
    }
    if ui
        .selectable_label(current.is_none() && !blending, "(rest pose)")
        .clicked()
    {
        state.frame.player.animator.sync_blend.clear();
        state.frame.player.select(None);
    }
    if let Some(index) = chosen {
        state.frame.player.animator.sync_blend.clear();
        state.frame.player.select(Some(index));
    }
    if blending {
        ui.label(RichText::new("The blend of Blend weights plays instead; choosing a clip here ends it.").weak());
    }
    state.clips_from.reports_ui(ui);
    let mut first = state.clip_on_open == ClipOnOpen::First;
    ui.checkbox(&mut first, "Open files on their first clip")
        .on_hover_text("Otherwise a file opens on a clip named idle, rest or T-pose, else its longest clip");
    state.clip_on_open = if first {
        ClipOnOpen::First
    } else {
        ClipOnOpen::Suggested
    };
    ui.add(
        egui::Slider::new(&mut state.frame.player.fade_time, 0.0..=FADE_SLIDER_END)
            .clamping(egui::SliderClamping::Never)
            .fixed_decimals(2)
            .text("cross-fade (s)"),
    )
    .on_hover_text(format!(
        "The time a newly chosen clip takes to blend in: drag up to {FADE_SLIDER_END:.0} s, or type a longer one"
    ));
    state.frame.player.fade_time = state.frame.player.fade_time.max(0.0);
    // The fade queue: the base clip, then each fade over it with its weight.
    let crossfade = &state.frame.player.animator.crossfade;
    if crossfade.fades().next().is_some() {
        let name = |clip: Option<usize>| {
            clip.and_then(|c| state.document.model.clips.get(c))
                .map_or("rest pose", |c| c.name())
        };
        ui.label(format!("base: {}", name(crossfade.base())));
        for (clip, weight) in crossfade.fades() {
            ui.label(format!("  fading in {} {:.0}%", name(Some(clip)), weight * 100.0));
        }
    }
    let has_clip = state.frame.player.clip().is_some();
    if state.clip_export.ui(ui, has_clip) {
        state.requests.export_clip = true;
    }
}

/// Several clips at once, weighted, cycles in step (a locomotion blend). While any weight is
/// set the blend replaces the clip list's choice.
fn blend_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let sync_blend = &mut state.frame.player.animator.sync_blend;
    for (index, clip) in state.document.model.clips.iter().enumerate() {
        let mut weight = sync_blend.weight(index);
        let slider = egui::Slider::new(&mut weight, 0.0..=1.0)
            .fixed_decimals(2)
            .text(format!("{} weight", clip.name()));
        if ui.add(slider).changed() {
            sync_blend.set_weight(index, weight);
        }
    }
    if sync_blend.is_active() {
        ui.label(format!("blending, cycles in step (phase {:.2})", sync_blend.phase()));
    } else {
        ui.label(
            RichText::new("Off: the clip list plays. A weight here blends clips with their cycles in step.").weak(),
        );
    }
}

fn layers_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let clips = &state.document.model.clips;
    if clips.is_empty() {
        return;
    }
    let skeleton = &state.document.model.skeleton;
    let mut remove = None;
    for (index, layer) in state.frame.player.animator.layers.iter_mut().enumerate() {
        ui.push_id(index, |ui| {
            let mut clip = layer.clip();
            egui::ComboBox::from_label(format!("layer {} clip", index + 1))
                .selected_text(clips.get(clip).map_or("?", |c| c.name()))
                .show_ui(ui, |ui| {
                    for (i, c) in clips.iter().enumerate() {
                        ui.selectable_value(&mut clip, i, c.name());
                    }
                });
            if clip != layer.clip() {
                layer.set_clip(clip);
            }
            ui.add(
                egui::Slider::new(&mut layer.weight, -1.0..=2.0)
                    .fixed_decimals(2)
                    .text(format!("layer {} weight", index + 1)),
            );
            let mut at_first_key = layer.reference_time().is_none();
            ui.checkbox(&mut at_first_key, format!("layer {} reference: first keys", index + 1));
            let mut reference = layer.reference_time().unwrap_or(0.0);
            if !at_first_key {
                let duration = clips.get(layer.clip()).map_or(0.0, |c| c.duration());
                ui.add(
                    egui::Slider::new(&mut reference, 0.0..=duration.max(1e-3))
                        .fixed_decimals(3)
                        .text(format!("layer {} reference (s)", index + 1)),
                );
            }
            let wanted = (!at_first_key).then_some(reference);
            if wanted != layer.reference_time() {
                layer.set_reference_time(wanted);
            }
            let mut root = layer.mask_root();
            egui::ComboBox::from_label(format!("layer {} mask", index + 1))
                .selected_text(root.map_or("whole body", |j| skeleton.name(j)))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut root, None, "whole body");
                    for joint in 0..skeleton.len() {
                        ui.selectable_value(&mut root, Some(joint), skeleton.name(joint));
                    }
                });
            if root != layer.mask_root() {
                layer.set_mask_root(root);
            }
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(
                    &mut layer.space,
                    AdditiveSpace::Parent,
                    format!("layer {} parent frame", index + 1),
                );
                ui.radio_value(
                    &mut layer.space,
                    AdditiveSpace::Local,
                    format!("layer {} local frame", index + 1),
                );
            });
            if ui.button(format!("Remove layer {}", index + 1)).clicked() {
                remove = Some(index);
            }
        });
    }
    if let Some(index) = remove {
        state.frame.player.animator.layers.remove(index);
    }
    if ui.button("Add layer").clicked() {
        // The last clip other than the one playing (often the additive one, as the demo's
        // "look around"); with no other clip, at weight 0, so the motion does not double.
        let playing = state.frame.player.clip();
        let other = (0..clips.len()).rev().find(|&clip| Some(clip) != playing);
        let layer = match other {
            Some(clip) => AdditiveLayer::new(clip, 1.0),
            None => AdditiveLayer::new(clips.len() - 1, 0.0),
        };
        state.frame.player.animator.layers.push(layer);
    }
}

fn view_section(ui: &mut egui::Ui, state: &mut ViewerState, status: &RenderStatus) {
    ui.label(RichText::new("Skinning").strong());
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.view.gpu_skinning, true, "GPU");
        ui.radio_value(&mut state.view.gpu_skinning, false, "CPU");
    });
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.view.skinning_method, SkinningMethod::Linear, "Linear blend")
            .on_hover_text("Blends joint matrices: fast, but twisting joints lose volume");
        ui.radio_value(
            &mut state.view.skinning_method,
            SkinningMethod::DualQuaternion,
            "Dual quaternion",
        )
        .on_hover_text("Blends rotations on the sphere: twisting joints keep their volume");
    });
    ui.label(RichText::new("Show").strong());
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut state.curves.shown, "Curve view (G)")
            .on_hover_text("The selected joint's animation curves, over the timeline");
        ui.checkbox(&mut state.view.mesh, "Mesh");
        ui.checkbox(&mut state.view.skeleton, "Skeleton");
        ui.checkbox(&mut state.view.wireframe, "Wireframe");
        ui.checkbox(&mut state.view.grid, "Grid");
    });
    variant_picker(
        ui,
        &state.document.model.material_variants,
        &mut state.view.material_variant,
    );
    crowd_controls(ui, &mut state.frame.crowd.options, &mut state.view.crowd_detail);
    ui.horizontal(|ui| {
        if ui.button("Frame (F)").clicked() {
            state.requests.frame_model = true;
        }
        if ui.button("Reset view (Home)").clicked() {
            state.requests.reset_camera = true;
        }
    });
    ui.horizontal(|ui| {
        ui.label("Quality");
        for quality in Quality::ALL {
            ui.selectable_value(&mut state.quality, quality, quality.label())
                .on_hover_ui(|ui| {
                    ui.label(quality.settings().describe());
                });
        }
    });
    let stats = ui.label(status.frame_stats.describe());
    if status.frame_stats.gpu_s.is_none() {
        stats.on_hover_text("The graphics adapter does not report GPU timestamps, so only CPU time is shown.");
    }
    // In the body's size and colour: people read these to report a problem.
    if !status.adapter.is_empty() {
        ui.label(&status.adapter);
        ui.label(format!("Chosen as {}", status.adapter_choice));
        ui.label(format!("Frames shown through {}", status.presentation));
    }
}
