//! The panel's material variant picker (KHR_materials_variants): "Default" draws each mesh
//! with its own materials, a variant with the materials the file maps for it.

/// The "Material variant" combo over the file's `variants` (none: no combo); `chosen` is the
/// variant drawn, `None` for each mesh's own materials.
pub fn variant_picker(ui: &mut egui::Ui, variants: &[String], chosen: &mut Option<usize>) {
    if variants.is_empty() {
        return;
    }
    let name = |variant: Option<usize>| variant.and_then(|v| variants.get(v)).map_or("Default", String::as_str);
    egui::ComboBox::from_label("Material variant")
        .selected_text(name(*chosen))
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, "Default")
                .on_hover_text("Each mesh's own materials");
            for (index, variant) in variants.iter().enumerate() {
                ui.selectable_value(chosen, Some(index), variant);
            }
        });
}
