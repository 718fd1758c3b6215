//! The "Root motion and feet" controls: which joint carries the clip's travel (found, or
//! chosen), the clip's travel, speed, turn and height range, each foot's contacts and how far
//! it slides; the clip played in place (the ground slides instead), the camera following the
//! root, and the travel path and the contacts shown on the ground and the timeline.
//! `MotionControls` holds the choices and the report they show, worked out again only when
//! the model, the clip or the chosen joint changes.

use egui::RichText;
use glam::{Mat4, Vec2};

use crate::asset::Model;
use crate::inspect::motion::{InPlace, MotionReport, analyse};

#[derive(Clone, Debug, Default)]
pub struct MotionControls {
    /// Play the clip in place: its travel taken out, the ground sliding back by it.
    pub in_place: bool,
    /// Keep the camera's target over the joint carrying the travel.
    pub follow_root: bool,
    /// Draw the travel path (a tick each second) and the feet's contacts on the ground, and
    /// the contacts on the timeline.
    pub shown: bool,
    /// The joint the user chose to carry the travel; none: the one `choose_root` finds.
    pub carrier: Option<usize>,
    /// The report for `computed`.
    report: Option<MotionReport>,
    /// The model generation, clip and chosen carrier the report is for.
    computed: Option<(u64, Option<usize>, Option<usize>)>,
    /// The clip played in place, when `in_place` and the report has a carrier.
    in_place_for: Option<InPlace>,
}

impl MotionControls {
    /// The same choices for another model: its joints are not chosen.
    pub fn for_new_model(&self) -> Self {
        Self {
            in_place: self.in_place,
            follow_root: self.follow_root,
            shown: self.shown,
            ..Self::default()
        }
    }

    /// Brings the report up to date with `clip` of `model` (`generation` counts model
    /// changes); it is worked out only when one of them or the chosen carrier changed.
    pub fn update(&mut self, model: &Model, generation: u64, clip: Option<usize>) {
        let key = (generation, clip, self.carrier);
        if self.computed != Some(key) {
            self.computed = Some(key);
            self.report = clip.and_then(|c| analyse(model, c, self.carrier));
            let root = self.report.as_ref().and_then(|r| r.root.as_ref());
            self.in_place_for = clip
                .and_then(|c| model.clips.get(c))
                .zip(root)
                .and_then(|(clip, root)| InPlace::new(&model.skeleton, clip, root.joint));
        }
    }

    /// The clip the report is about, as of the last `update`.
    pub fn clip(&self) -> Option<usize> {
        self.computed.and_then(|(_, clip, _)| clip)
    }

    /// The report of the clip playing, as of the last `update`.
    pub fn report(&self) -> Option<&MotionReport> {
        self.report.as_ref()
    }

    /// What takes the travel out of the poses, while the clip plays in place.
    pub fn in_place(&self) -> Option<InPlace> {
        self.in_place_for.filter(|_| self.in_place)
    }

    /// Where on the ground (x, z) the camera's centre goes when it follows the root: over the
    /// carrier in the frame's model matrices `joint_matrices`; none when not following.
    pub fn camera_target(&self, joint_matrices: &[Mat4]) -> Option<Vec2> {
        let carrier = self.carrier_joint().filter(|_| self.follow_root)?;
        joint_matrices.get(carrier).map(|m| Vec2::new(m.w_axis.x, m.w_axis.z))
    }

    /// The joint carrying the travel, as of the last `update`.
    pub fn carrier_joint(&self) -> Option<usize> {
        self.report.as_ref()?.root.as_ref().map(|r| r.joint)
    }

    /// The section's controls and the report, for `model`.
    pub fn ui(&mut self, ui: &mut egui::Ui, model: &Model) {
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.in_place, "In place")
                .on_hover_text("Take the clip's travel out: the character stays, the ground slides under it");
            ui.checkbox(&mut self.follow_root, "Camera follows root")
                .on_hover_text("Keep the view's centre over the joint that carries the travel");
            ui.checkbox(&mut self.shown, "Path and contacts")
                .on_hover_text("The travel on the ground with a tick each second; where the feet stand, on the ground and under the timeline");
        });
        let Some(report) = &self.report else {
            ui.label(RichText::new("No clip playing.").weak());
            return;
        };
        let skeleton = &model.skeleton;
        if let Some(root) = &report.root {
            let chosen = self.carrier;
            let found = if chosen.is_some() {
                "found".to_owned()
            } else {
                skeleton.name(root.joint).to_owned()
            };
            egui::ComboBox::from_label("Carries the travel")
                .selected_text(skeleton.name(root.joint))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.carrier, None, format!("{found} (found)"));
                    for joint in 0..skeleton.len() {
                        ui.selectable_value(&mut self.carrier, Some(joint), skeleton.name(joint));
                    }
                })
                .response
                .on_hover_text(root.reason.words());
            ui.label(format!(
                "travel {:.2} m at {:.2} m/s, turn {:.0}°, height range {:.2} m",
                root.distance,
                root.speed,
                // Rounded first, so that a turn of -0.01° reads 0°.
                root.turn.round() + 0.0,
                root.vertical_range
            ));
        }
        if report.feet.is_empty() {
            ui.label(RichText::new("No feet found (no humanoid map, foot names or low end joints).").weak());
        }
        for foot in &report.feet {
            let name = skeleton.name(foot.foot.joint);
            let line = match foot.worst() {
                Some(worst) => format!(
                    "{} foot {name}: {} contacts, slides {:.1} cm in all, {:.1} cm at worst ({:.2}-{:.2} s)",
                    foot.foot.side.words(),
                    foot.contacts.len(),
                    foot.total_slide() * 100.0,
                    worst.slide * 100.0,
                    worst.start,
                    worst.end
                ),
                None => format!("{} foot {name}: never on the ground", foot.foot.side.words()),
            };
            ui.label(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::test_walker::{Walk, walker};

    #[test]
    fn the_report_follows_the_clip_and_the_chosen_carrier_and_in_place_needs_the_toggle() {
        let model = walker(Walk::default());
        let mut controls = MotionControls::default();
        controls.update(&model, 0, None);
        assert!(controls.report().is_none() && controls.in_place().is_none());
        controls.update(&model, 0, Some(0));
        let root = model.skeleton.find("root");
        assert_eq!(controls.carrier_joint(), root);
        assert!(controls.in_place().is_none(), "off until asked");
        controls.in_place = true;
        assert_eq!(controls.in_place().map(|p| p.joint()), root);
        let hips = model.skeleton.find("mixamorig:Hips");
        controls.carrier = hips;
        controls.update(&model, 0, Some(0));
        assert_eq!(controls.carrier_joint(), hips);
        assert_eq!(controls.in_place().map(|p| p.joint()), hips);
        assert!(!controls.for_new_model().carrier.is_some() && controls.for_new_model().in_place);
    }
}
