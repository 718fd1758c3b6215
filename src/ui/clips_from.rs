//! Clips from another file in the viewer. Opening or dropping a model that holds animations
//! while a file is open asks first: "Add its N clips to the open rig" (retargeted by joint
//! name, see `asset::clips_from`) or "Open it instead". After adding, the panel lists which
//! joints paired and which did not, per file added.

use egui::collapsing_header::CollapsingState;
use egui::{Color32, RichText};

use crate::asset::{ClipsFromReport, Model};
use crate::view::counted;

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

/// The answers to the question about a file opened while a model was open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferAnswer {
    /// "Add its N clips to the open rig".
    AddClips,
    /// "Open it instead".
    OpenInstead,
}

impl ClipsFrom {
    /// The question about a file opened while a model is open, when there is one; the answer
    /// given, if any.
    pub fn offer_prompt(&self, ui: &mut egui::Ui) -> Option<OfferAnswer> {
        let offer = self.offer.as_ref()?;
        let mut answer = None;
        let name = offer.source.path.file_name().unwrap_or_default().to_string_lossy();
        let clips = counted(offer.source.clips.len(), "clip", "clips");
        let title = format!("{name} holds {clips}.");
        let joints = format!(
            "{} of its {} match the open rig's by name.",
            offer.paired,
            counted(offer.source.skeleton.len(), "joint", "joints")
        );
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(RichText::new(title).strong());
            ui.label(joints);
            ui.horizontal_wrapped(|ui| {
                if ui.button(format!("Add its {clips} to the open rig")).clicked() {
                    answer = Some(OfferAnswer::AddClips);
                } else if ui.button("Open it instead").clicked() {
                    answer = Some(OfferAnswer::OpenInstead);
                }
            });
        });
        answer
    }

    /// Per file added ("From Xbot.glb: …"): its clips and collapsible lists of the paired and
    /// unpaired joints.
    pub fn reports_ui(&self, ui: &mut egui::Ui) {
        for report in &self.reports {
            let name = report.file.file_name().unwrap_or_default().to_string_lossy();
            let title = format!(
                "From {name}: {}, {} unpaired",
                counted(report.matched.len(), "joint paired", "joints paired"),
                report.unmatched_target.len() + report.unmatched_source.len()
            );
            collapsing(ui, title, &report.file, |ui| {
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
}

/// A section under `title`, closed at first, that clicking the title opens and closes: the
/// title wraps in a narrow panel, where a `CollapsingHeader`'s would run past its edge.
fn collapsing(ui: &mut egui::Ui, title: String, id_salt: impl egui::AsIdSalt, add_body: impl FnOnce(&mut egui::Ui)) {
    let id = ui.make_persistent_id(id_salt);
    let mut clicked = false;
    let mut header = CollapsingState::load_with_default_open(ui.ctx(), id, false).show_header(ui, |ui| {
        clicked = ui
            .add(egui::Label::new(title).wrap().sense(egui::Sense::click()))
            .clicked();
    });
    if clicked {
        header.toggle();
    }
    header.body(add_body);
}

fn joint_list(ui: &mut egui::Ui, title: &str, names: &[String], warn: bool) {
    collapsing(ui, format!("{title} ({})", names.len()), title, |ui| {
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
