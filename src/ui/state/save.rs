//! "Save as GLB…": the open model as the viewer holds it (clips added from other files
//! included, the chosen material variant's materials as the primitives' own) written as glTF
//! by `write`, the same writer as `convert`.

use std::path::Path;

use super::ViewerState;
use crate::asset::Format;
use crate::ui::notice::Notice;
use crate::view::counted;
use crate::write::{self, WriteOptions};

impl ViewerState {
    /// The name the save dialog suggests: the model's, as a GLB (a VRM avatar or animation
    /// keeps its own extension).
    pub fn save_name(&self) -> String {
        let model = &self.document.model;
        let stem = model.path.file_stem().map_or("model".into(), |s| s.to_string_lossy());
        let extension = match model.format {
            Some(Format::Vrm) => "vrm",
            Some(Format::VrmAnimation) => "vrma",
            _ => "glb",
        };
        format!("{stem}.{extension}")
    }

    /// Writes the open model to `path`; what came of it is the notice.
    pub fn save_model(&mut self, path: &Path) {
        let options = WriteOptions {
            material_variant: self.view.material_variant,
            ..WriteOptions::default()
        };
        self.notice = Some(match write::save(&self.document.model, path, &options) {
            Ok(written) => {
                let mut text = format!("Saved {} ({} bytes)", path.display(), written.bytes);
                if !written.warnings.is_empty() {
                    let warnings = counted(written.warnings.len(), "warning", "warnings");
                    text.push_str(&format!("; {warnings}: {}", written.warnings.join("; ")));
                }
                Notice::done(text)
            }
            Err(error) => Notice::failed(format!("Saving failed: {error}")),
        });
    }
}
