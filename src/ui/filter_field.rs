//! A filter over a long list in the panel (morph targets, clips): a text field whose text
//! egui keeps between frames, matched against names in any case.

/// Lists longer than this get a filter.
pub const FILTER_FROM: usize = 12;

/// A filter field labelled `label` across the panel, its text kept by egui; returns the
/// text, trimmed and in lower case, to compare with lower-cased names.
pub fn filter_field(ui: &mut egui::Ui, label: &str) -> String {
    let id = ui.make_persistent_id(label);
    let mut text = ui.data_mut(|data| data.get_temp::<String>(id)).unwrap_or_default();
    ui.horizontal(|ui| {
        let label = ui.label(label);
        let field = egui::TextEdit::singleline(&mut text)
            .hint_text("name contains")
            .desired_width(f32::INFINITY);
        ui.add(field).labelled_by(label.id);
    });
    let wanted = text.trim().to_lowercase();
    ui.data_mut(|data| data.insert_temp(id, text));
    wanted
}
