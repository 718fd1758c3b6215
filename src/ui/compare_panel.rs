//! The panel's Compare section: "Compare with…" (or a file dropped with Shift held) opens a
//! second model beside the open one; then B's name, how it is shown (a ghost over A, or side
//! by side), the weight-change heat map, the verdict, and the differences found, each a button
//! that selects its joint and goes to its clip and time.

use egui::{Color32, RichText};

use super::state::ViewerState;
use crate::diff::Section;
use crate::view::compare_layout::CompareLayout;

/// The verdict when the models differ, and when they do not.
const DIFFERS_COLOR: Color32 = Color32::from_rgb(240, 170, 80);
const SAME_COLOR: Color32 = Color32::from_rgb(130, 210, 130);
/// The findings list's height before it scrolls (points).
const FINDINGS_HEIGHT: f32 = 260.0;

/// The Compare section's contents.
pub fn compare_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    ui.horizontal(|ui| {
        if ui
            .button("Compare with…")
            .on_hover_text("Open another version of this model beside it (or drop one with Shift held)")
            .clicked()
        {
            state.requests.compare_dialog = true;
        }
        if state.compare.is_some() && ui.button("Close").clicked() {
            state.close_compare();
        }
    });
    let Some(comparison) = &mut state.compare else {
        ui.label(RichText::new("Drop a file with Shift held to compare with it.").weak());
        return;
    };
    ui.label(format!(
        "B: {}",
        crate::asset::file_name(&comparison.document.model.path)
    ));
    let was = comparison.layout;
    ui.horizontal(|ui| {
        for layout in CompareLayout::ALL {
            ui.radio_value(&mut comparison.layout, layout, layout.label());
        }
    });
    // Side by side takes more room than a ghost: the camera frames both again.
    state.requests.frame_model |= comparison.layout != was;
    ui.checkbox(&mut comparison.heat_map, "Weight change heat map")
        .on_hover_text("Colour the mesh by how much each vertex's weights changed in B (blue none, red 1)");
    let diff = &comparison.diff;
    let color = if diff.differs { DIFFERS_COLOR } else { SAME_COLOR };
    ui.label(RichText::new(&diff.verdict).color(color).strong());
    let mut go_to = None;
    egui::ScrollArea::vertical()
        .id_salt("compare findings")
        .max_height(FINDINGS_HEIGHT)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let mut section = None::<Section>;
            for (index, finding) in diff.findings.iter().enumerate() {
                if section != Some(finding.section) {
                    section = Some(finding.section);
                    ui.label(RichText::new(finding.section.title()).small().strong());
                }
                let goes_somewhere = finding.joint.is_some() || finding.time.is_some();
                let row = ui.add_enabled(goes_somewhere, egui::Button::new(&finding.text).wrap().frame(false));
                if row.clicked() {
                    go_to = Some(index);
                }
            }
        });
    if let Some(index) = go_to {
        state.go_to_finding(index);
    }
}
