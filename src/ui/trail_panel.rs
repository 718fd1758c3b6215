//! The "Motion trails" controls: a trail for the selected joint, joints pinned to keep
//! theirs, how much of the clip the trails show (all of it, or seconds either side of now),
//! and the root-motion trail on the ground. `TrailControls` holds the choices and the
//! trails they make; the app draws `TrailControls::trails` with `window()`.

use egui::RichText;

use crate::anim::Skeleton;
use crate::asset::Model;
use crate::inspect::{PoseMode, TrailTime, TrailWindow, Trails};

/// Slowest and fastest the window's seconds either side of now go in the panel.
const SECONDS_RANGE: std::ops::RangeInclusive<f32> = 0.05..=5.0;

#[derive(Clone, Debug)]
pub struct TrailControls {
    /// A trail for the joint selected in the browser or the view.
    pub selected: bool,
    /// Joints whose trails stay, whatever is selected.
    pub pinned: Vec<usize>,
    /// The whole clip, or `seconds` either side of now.
    pub whole_clip: bool,
    pub seconds: f32,
    /// The root-motion trail, on the ground.
    pub root: bool,
    /// The trails these choices make, as of the last frame.
    pub trails: Trails,
}

impl Default for TrailControls {
    fn default() -> Self {
        Self {
            selected: false,
            pinned: Vec::new(),
            whole_clip: true,
            seconds: 0.5,
            root: false,
            trails: Trails::default(),
        }
    }
}

impl TrailControls {
    /// The same choices for another model: its joints are not pinned.
    pub fn for_new_model(&self) -> Self {
        Self {
            pinned: Vec::new(),
            trails: Trails::default(),
            ..self.clone()
        }
    }

    pub fn window(&self) -> TrailWindow {
        if self.whole_clip {
            TrailWindow::WholeClip
        } else {
            TrailWindow::Around(self.seconds)
        }
    }

    /// Brings the trails up to date with what plays (`at`) in `model` (`generation` counts
    /// model changes), for the joint selected in the browser (`selected`) and the pinned ones.
    pub fn update(&mut self, model: &Model, generation: u64, at: TrailTime, selected: Option<usize>) {
        let joints = shown_joints(self.selected, &self.pinned, selected);
        self.trails.update(model, generation, at, joints, self.root);
    }

    /// The panel's trail controls; `selected` is the joint selected in the browser, `pose_mode`
    /// the pose shown (only the animated pose has trails).
    pub fn ui(&mut self, ui: &mut egui::Ui, skeleton: &Skeleton, selected: Option<usize>, pose_mode: PoseMode) {
        ui.checkbox(&mut self.selected, "Trail of the selected joint")
            .on_hover_text("Its path over the clip: past in blue, future in yellow, a dot at each key");
        if let Some(joint) = selected.filter(|j| !self.pinned.contains(j)) {
            let pin = ui
                .button(format!("Pin {}", skeleton.name(joint)))
                .on_hover_text("Keep this joint's trail whatever is selected");
            if pin.clicked() {
                self.pinned.push(joint);
            }
        }
        let mut unpin = None;
        for (index, &joint) in self.pinned.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.label(skeleton.name(joint));
                if ui.button("Unpin").clicked() {
                    unpin = Some(index);
                }
            });
        }
        if let Some(index) = unpin {
            self.pinned.remove(index);
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Show");
            ui.radio_value(&mut self.whole_clip, true, "Whole clip");
            ui.radio_value(&mut self.whole_clip, false, "Around now");
        });
        if !self.whole_clip {
            ui.add(
                egui::Slider::new(&mut self.seconds, SECONDS_RANGE)
                    .logarithmic(true)
                    .fixed_decimals(2)
                    .text("seconds either side"),
            );
        }
        ui.checkbox(&mut self.root, "Root-motion trail")
            .on_hover_text("The path of the hips (or the root) over the clip, on the ground");
        if pose_mode != PoseMode::Animated {
            ui.label(RichText::new("trails show the animated pose only").small());
        }
    }
}

/// The joints with trails: `selected` when `follow_selected`, then the `pinned` ones.
fn shown_joints(
    follow_selected: bool,
    pinned: &[usize],
    selected: Option<usize>,
) -> impl Iterator<Item = usize> + Clone + '_ {
    let selected = selected.filter(|_| follow_selected);
    let pinned = pinned.iter().copied().filter(move |&j| Some(j) != selected);
    selected.into_iter().chain(pinned)
}
