//! The "Motion trails" controls: a trail for the selected joint, joints pinned to keep
//! theirs, how much of the clip the trails show (all of it, or seconds either side of now),
//! and the root-motion trail on the ground. `TrailControls` holds the choices and the
//! trails they make; the app draws `TrailControls::trails` with `window()`.

use egui::RichText;

use super::state::ViewerState;
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

impl ViewerState {
    /// Brings the trails up to date with the clip playing (its base clip while a fade runs).
    /// Only the animated pose has trails.
    pub(super) fn update_trails(&mut self) {
        let animated = self.inspection.pose_mode == PoseMode::Animated;
        let at = TrailTime {
            clip: self.player.animator.crossfade.base().filter(|_| animated),
            time: self.player.animator.crossfade.time(),
            mode: self.player.mode(),
        };
        let TrailControls {
            selected,
            pinned,
            root,
            trails,
            ..
        } = &mut self.trails;
        let joints = shown_joints(*selected, pinned, self.inspection.selected);
        trails.update(&self.model, self.model_generation, at, joints, *root);
    }
}

pub fn trails_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let skeleton = &state.model.skeleton;
    let selected = state.inspection.selected;
    let controls = &mut state.trails;
    ui.checkbox(&mut controls.selected, "Trail of the selected joint")
        .on_hover_text("Its path over the clip: past in blue, future in yellow, a dot at each key");
    if let Some(joint) = selected.filter(|j| !controls.pinned.contains(j)) {
        let pin = ui
            .button(format!("Pin {}", skeleton.name(joint)))
            .on_hover_text("Keep this joint's trail whatever is selected");
        if pin.clicked() {
            controls.pinned.push(joint);
        }
    }
    let mut unpin = None;
    for (index, &joint) in controls.pinned.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(skeleton.name(joint));
            if ui.button("Unpin").clicked() {
                unpin = Some(index);
            }
        });
    }
    if let Some(index) = unpin {
        controls.pinned.remove(index);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Show");
        ui.radio_value(&mut controls.whole_clip, true, "Whole clip");
        ui.radio_value(&mut controls.whole_clip, false, "Around now");
    });
    if !controls.whole_clip {
        ui.add(
            egui::Slider::new(&mut controls.seconds, SECONDS_RANGE)
                .logarithmic(true)
                .fixed_decimals(2)
                .text("seconds either side"),
        );
    }
    ui.checkbox(&mut controls.root, "Root-motion trail")
        .on_hover_text("The path of the hips (or the root) over the clip, on the ground");
    if state.inspection.pose_mode != PoseMode::Animated {
        ui.label(RichText::new("trails show the animated pose only").small());
    }
}
