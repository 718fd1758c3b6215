//! The open file: its model, how many times a model was put in its place, what is worked out
//! from it once (the panel's summary, the rig lint's findings), and why the last file asked for
//! could not be opened.

use crate::asset::Model;
use crate::lint::{Finding, lint};
use crate::view::counted;

pub struct Document {
    pub model: Model,
    /// Bumped whenever `model` is replaced or changed, so the app knows to upload it.
    pub generation: u64,
    /// File name and model stats for the panel.
    pub summary: String,
    /// The rig lint's findings for the model.
    pub lint: Vec<Finding>,
    /// The last file that failed to open, and why (the model shown is unchanged).
    pub load_error: Option<String>,
    /// The model `model` replaced, kept while a clip export runs so that the export finishes
    /// on the model it started with; the app takes it.
    pub replaced: Option<Model>,
}

impl Document {
    pub fn new(model: Model) -> Self {
        Self {
            summary: summary(&model),
            lint: lint(&model),
            model,
            generation: 0,
            load_error: None,
            replaced: None,
        }
    }

    /// The summary and lint findings again, after the model changed in place.
    pub fn refresh_facts(&mut self) {
        self.summary = summary(&self.model);
        self.lint = lint(&self.model);
    }

    /// "Fox.glb — rigscope", or "rigscope" for the demo rig.
    pub fn window_title(&self) -> String {
        match (self.model.format, self.model.path.file_name()) {
            (Some(_), Some(name)) => format!("{} — rigscope", name.to_string_lossy()),
            _ => "rigscope".into(),
        }
    }
}

/// File name and what the model holds, for the panel's title.
fn summary(model: &Model) -> String {
    let name = crate::asset::file_name(&model.path);
    format!(
        "{name}\n{}, {}\n{}: {}, {}\n{}, {}",
        counted(model.vertex_count(), "vertex", "vertices"),
        counted(model.triangle_count(), "triangle", "triangles"),
        counted(model.skeleton.len(), "node", "nodes"),
        counted(model.skinned_joint_count(), "skinned joint", "skinned joints"),
        counted(model.animated_node_count(), "animated node", "animated nodes"),
        counted(model.skins.len(), "skin", "skins"),
        counted(model.clips.len(), "clip", "clips"),
    )
}
