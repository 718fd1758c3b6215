//! Clips from another file: keeping a model opened over another as an offer, and adding its
//! clips to the open rig (retargeted by joint name, see `asset::clips_from`) when the panel
//! says so or `--clips-from` asks.

use std::path::Path;

use super::ViewerState;
use crate::asset::clips_from::{add_clips_of, load_clip_source, matching_joint_count};
use crate::asset::{ClipsFromReport, Model};
use crate::inspect::JointFacts;
use crate::ui::clips_from::ClipsOffer;
use crate::ui::notice::Notice;
use crate::view::counted;
use crate::view::opening_clip::opening_clip;

impl ViewerState {
    /// Keeps `loaded` as an offer when it holds clips, a file (not the demo rig) is open and
    /// some of its joints pair with the open rig's; else gives it back to be opened.
    pub(crate) fn offer_clips(&mut self, loaded: Model) -> Option<Model> {
        let paired = matching_joint_count(&self.document.model, &loaded);
        if loaded.clips.is_empty() || self.document.model.format.is_none() || paired == 0 {
            return Some(loaded);
        }
        self.document.load_error = None;
        self.clips_from.offer = Some(ClipsOffer { source: loaded, paired });
        None
    }

    /// "Add its N clips to the open rig".
    pub fn add_offered_clips(&mut self) {
        let Some(offer) = self.clips_from.offer.take() else {
            return;
        };
        let added = add_clips_of(&mut self.document.model, &offer.source);
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
        let added = load_clip_source(path).and_then(|source| add_clips_of(&mut self.document.model, &source));
        self.clips_added(added);
    }

    fn clips_added(&mut self, added: Result<ClipsFromReport, crate::asset::LoadError>) {
        match added {
            Ok(report) => {
                self.document.load_error = None;
                let name = crate::asset::file_name(&report.file);
                let clips = counted(report.clips.len(), "clip", "clips");
                self.notice = Some(Notice::done(format!("Added {clips} from {name}")));
                // A rig that had no clips starts playing the one a file of them would open on.
                if self.frame.player.clip().is_none() && self.document.model.clips.len() == report.clips.len() {
                    let clip = opening_clip(&self.document.model.clips, self.clip_on_open);
                    self.frame.player.select(clip);
                }
                self.clips_from.reports.push(report);
                self.document.refresh_facts();
                self.inspection.facts = JointFacts::new(&self.document.model);
                // The model's files now include the other file.
                self.watching.revision += 1;
            }
            Err(error) => self.failed_to_open(error.to_string()),
        }
    }
}
