//! Clips from another file in the viewer. Opening or dropping a model that holds animations
//! while a file is open asks first: "Add its N clips to the open rig" (retargeted by joint
//! name, see `asset::clips_from`) or "Open it instead". After adding, the panel lists which
//! joints paired and which did not, per file added.

use std::path::Path;

use egui::{Color32, RichText};

use super::state::ViewerState;
use crate::asset::clips_from::{add_clips_of, load_clip_source, matching_joint_count};
use crate::asset::{ClipsFromReport, Model};
use crate::inspect::JointFacts;

/// A model that was opened while another was open, waiting for the user to say what to do.
pub struct ClipsOffer {
    pub source: Model,
    /// How many of its joints pair with the open rig's.
    pub paired: usize,
}

/// The offer waiting for an answer, and what each file added did.
#[derive(Default)]
pub struct ClipsFrom {
    pub offer: Option<ClipsOffer>,
    pub reports: Vec<ClipsFromReport>,
}

impl ViewerState {
    /// Keeps `loaded` as an offer when it holds clips, a file (not the demo rig) is open and
    /// some of its joints pair with the open rig's; else gives it back to be opened.
    pub(super) fn offer_clips(&mut self, loaded: Model) -> Option<Model> {
        let paired = matching_joint_count(&self.model, &loaded);
        if loaded.clips.is_empty() || self.model.format.is_none() || paired == 0 {
            return Some(loaded);
        }
        self.load_error = None;
        self.clips_from.offer = Some(ClipsOffer { source: loaded, paired });
        None
    }

    /// "Add its N clips to the open rig".
    pub fn add_offered_clips(&mut self) {
        let Some(offer) = self.clips_from.offer.take() else {
            return;
        };
        let added = add_clips_of(&mut self.model, &offer.source);
        self.clips_added(added);
    }

    /// "Open it instead".
    pub fn open_offered_instead(&mut self) {
        if let Some(offer) = self.clips_from.offer.take() {
            self.show_model(offer.source);
        }
    }

    /// Adds the clips of the file at `path` without asking (`--clips-from` in the viewer).
    pub fn add_clips_from(&mut self, path: &Path) {
        let added = load_clip_source(path).and_then(|source| add_clips_of(&mut self.model, &source));
        self.clips_added(added);
    }

    fn clips_added(&mut self, added: Result<ClipsFromReport, crate::asset::LoadError>) {
        match added {
            Ok(report) => {
                self.load_error = None;
                // A rig that had no clips starts playing the first one added.
                if self.player.clip().is_none() && self.model.clips.len() == report.clips.len() {
                    self.player.select(Some(0));
                }
                self.clips_from.reports.push(report);
                self.refresh_model_facts();
                self.inspection.facts = JointFacts::new(&self.model);
                // The model's files now include the other file.
                self.watching.revision += 1;
            }
            Err(error) => self.load_error = Some(error.to_string()),
        }
    }
}

/// The question about a file opened while a model is open, when there is one.
pub(super) fn offer_prompt(ui: &mut egui::Ui, state: &mut ViewerState) {
    let Some(offer) = &state.clips_from.offer else {
        return;
    };
    let name = offer.source.path.file_name().unwrap_or_default().to_string_lossy();
    let clips = offer.source.clips.len();
    let title = format!("{name} holds {clips} clips.");
    let joints = format!(
        "{} of its {} joints match the open rig's by name.",
        offer.paired,
        offer.source.skeleton.len()
    );
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(title).strong());
        ui.label(joints);
        ui.horizontal_wrapped(|ui| {
            if ui.button(format!("Add its {clips} clips to the open rig")).clicked() {
                state.add_offered_clips();
            } else if ui.button("Open it instead").clicked() {
                state.open_offered_instead();
            }
        });
    });
}

/// Per file added ("From Xbot.glb: …"): its clips and collapsible lists of the paired and
/// unpaired joints.
pub(super) fn reports(ui: &mut egui::Ui, state: &ViewerState) {
    for report in &state.clips_from.reports {
        let name = report.file.file_name().unwrap_or_default().to_string_lossy();
        let title = format!(
            "From {name}: {} joints paired, {} unpaired",
            report.matched.len(),
            report.unmatched_target.len() + report.unmatched_source.len()
        );
        egui::CollapsingHeader::new(title).id_salt(&report.file).show(ui, |ui| {
            ui.label(format!("Added: {}", report.clips.join(", ")));
            joint_list(ui, "Open rig's joints left at rest", &report.unmatched_target, true);
            joint_list(ui, "File's joints left out", &report.unmatched_source, true);
            let paired: Vec<String> = (report.matched.iter())
                .map(|(target, source, _)| format!("{target} from {source}"))
                .collect();
            joint_list(ui, "Paired joints (open rig's from file's)", &paired, false);
        });
    }
}

fn joint_list(ui: &mut egui::Ui, title: &str, names: &[String], warn: bool) {
    egui::CollapsingHeader::new(format!("{title} ({})", names.len())).show(ui, |ui| {
        for name in names {
            let text = RichText::new(name);
            ui.label(if warn {
                text.color(Color32::from_rgb(240, 200, 90))
            } else {
                text
            });
        }
    });
}
