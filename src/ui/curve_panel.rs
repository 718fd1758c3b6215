//! The curve view, docked along the bottom above the timeline (as Blender's graph editor
//! sits over its timeline): the selected joint's curves in the clip on the timeline
//! (`inspect::CurveSet`), one plot per group of curves in one unit (translation, Euler
//! rotation, quaternion, scale, morph weights), with the keys as dots, the current time as a
//! vertical line and problems as red rings, listed beside the plots. The plots share their
//! time axis; pressing or dragging on one scrubs the clip to the time under the pointer.
//! Each plot keeps a readable height (more plots than fit scroll), and its legend, a toggle
//! per curve, sits above it, where it covers neither the keys nor the rings at the clip's
//! ends.
//!
//! The curves are worked out when the joint, the clip or the model changes, not per frame.

use egui::{Color32, RichText, Role, WidgetInfo};
use egui_plot::{GridInput, Line, MarkerShape, Plot, PlotPoints, PlotUi, Points, VLine, uniform_grid_spacer};

use crate::anim::Player;
use crate::asset::Model;
use crate::inspect::motion::root_motion;
use crate::inspect::{Curve, CurveGroup, CurveSet};

/// The view's height when first shown (points); the user may drag it.
const DEFAULT_HEIGHT: f32 = 340.0;
/// The least height of a plot (points): lower, its curves cannot be read; more plots than
/// fit at this height scroll.
pub const LEAST_PLOT_HEIGHT: f32 = 110.0;
/// Width of the problem list beside the plots.
const PROBLEM_LIST_WIDTH: f32 = 260.0;
const PROBLEM_COLOR: Color32 = Color32::from_rgb(255, 40, 40);
/// The colour of the current-time line (the timeline's playhead colour).
pub const TIME_COLOR: Color32 = Color32::from_rgb(90, 160, 255);

/// Whether the curve view is shown, which groups it plots, and the curves last worked out.
#[derive(Clone, Debug)]
pub struct CurveView {
    pub shown: bool,
    /// Whether each of `CurveGroup::ALL` is plotted.
    groups: [bool; CurveGroup::ALL.len()],
    /// The curves hidden through their legend toggles, by name (kept from joint to joint,
    /// as "rotation.x" means the same on each).
    hidden: Vec<String>,
    cached: Option<Cached>,
}

/// Curves worked out for one model, clip and joint.
#[derive(Clone, Debug)]
struct Cached {
    key: (u64, usize, usize, usize),
    set: CurveSet,
}

impl Default for CurveView {
    fn default() -> Self {
        Self {
            shown: false,
            // Euler angles read better than quaternion components; those are a click away.
            groups: CurveGroup::ALL.map(|g| g != CurveGroup::Quaternion),
            hidden: Vec::new(),
            cached: None,
        }
    }
}

impl CurveView {
    #[cfg(any(test, feature = "internals"))]
    pub fn shows(&self, group: CurveGroup) -> bool {
        self.groups[group_index(group)]
    }

    /// The curves last worked out (by `refresh`).
    #[cfg(any(test, feature = "internals"))]
    pub fn curves(&self) -> Option<&CurveSet> {
        self.cached.as_ref().map(|c| &c.set)
    }

    /// Works out the curves of `joint` in `clip` of `model` (`generation` counts model
    /// changes) unless they are already known; forgets them without a clip or joint.
    pub fn refresh(&mut self, model: &Model, generation: u64, clip: Option<usize>, joint: Option<usize>) {
        let Some((clip_index, joint, clip)) = clip.zip(joint).and_then(|(c, j)| Some((c, j, model.clips.get(c)?)))
        else {
            self.cached = None;
            return;
        };
        let key = (generation, model.clips.len(), clip_index, joint);
        if self.cached.as_ref().is_none_or(|c| c.key != key) {
            let root = root_motion(model, clip_index, None);
            let set = CurveSet::new(clip, model.skeleton.rest_pose(), joint)
                .with_property_names(&model.properties)
                .with_root_motion(root.as_ref());
            self.cached = Some(Cached { key, set });
        }
    }
}

fn group_index(group: CurveGroup) -> usize {
    CurveGroup::ALL.iter().position(|&g| g == group).unwrap_or(0)
}

/// Draws `view` when it is shown (call after the timeline, so it docks above it): the curves
/// of joint `selected` in the clip `player` plays of `model` (`generation` counts model
/// changes). Pressing or dragging on a plot scrubs `player`.
pub fn show(
    ui: &mut egui::Ui,
    view: &mut CurveView,
    model: &Model,
    generation: u64,
    player: &mut Player,
    selected: Option<usize>,
) {
    if !view.shown {
        return;
    }
    view.refresh(model, generation, player.clip(), selected);
    let time = player.clip_time(&model.clips);
    let mut scrub = None;
    egui::Panel::bottom("rigscope curves")
        .resizable(true)
        .default_size(DEFAULT_HEIGHT)
        .size_range(120.0..=800.0)
        .show(ui, |ui| {
            // A resizable panel takes its content's height as its own each frame: content a
            // few points short of it (the last item's spacing) shrank the view frame by frame
            // until its plots were 40 points high. Plots fill the panel instead; without
            // them, it shrinks to its least height rather than show an empty area.
            if view.cached.is_some() {
                ui.set_min_height(ui.available_height());
            }
            let CurveView {
                shown,
                groups,
                hidden,
                cached,
            } = view;
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Curves").strong());
                match (selected, cached.as_ref()) {
                    (Some(joint), Some(cached)) => {
                        ui.label(format!("{} in '{}'", model.skeleton.name(joint), cached.set.clip));
                        ui.separator();
                        group_toggles(ui, groups, &cached.set);
                    }
                    (None, _) => {
                        ui.label("Select a joint (click it in the view or in Joints) to see its curves");
                    }
                    (Some(_), None) => {
                        ui.label("No clip on the timeline");
                    }
                }
                if ui.button("Hide (G)").on_hover_text("Hide the curve view").clicked() {
                    *shown = false;
                }
            });
            if let Some(cached) = cached {
                scrub = body(ui, groups, hidden, &cached.set, time);
            }
        });
    if let Some(time) = scrub {
        player.scrub(time, &model.clips);
    }
}

/// A toggle per group the joint has curves in.
fn group_toggles(ui: &mut egui::Ui, groups: &mut [bool; CurveGroup::ALL.len()], set: &CurveSet) {
    for (index, group) in CurveGroup::ALL.into_iter().enumerate() {
        if set.has_group(group) {
            ui.toggle_value(&mut groups[index], group.label());
        }
    }
}

/// The plots and the problem list; returns the time to scrub to when a plot is pressed.
fn body(
    ui: &mut egui::Ui,
    groups: &[bool; CurveGroup::ALL.len()],
    hidden: &mut Vec<String>,
    set: &CurveSet,
    time: f32,
) -> Option<f32> {
    if set.curves.is_empty() {
        ui.label("The clip does not animate this joint.");
        return None;
    }
    let shown: Vec<CurveGroup> = CurveGroup::ALL
        .into_iter()
        .filter(|&g| groups[group_index(g)] && set.has_group(g))
        .collect();
    let mut scrub = None;
    ui.horizontal_top(|ui| {
        let list_width = if set.problems.is_empty() {
            0.0
        } else {
            PROBLEM_LIST_WIDTH
        };
        let plots_width = (ui.available_width() - list_width).max(100.0);
        let height = ui.available_height();
        ui.vertical(|ui| {
            ui.set_width(plots_width);
            // Each plot comes under its legend row, with spacing after the row and the plot.
            let legend_and_spacing = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y;
            let each = plot_height(height, shown.len(), legend_and_spacing);
            let scrolls = (each + legend_and_spacing) * shown.len() as f32 > height;
            // Room for the scroll bar, which would otherwise cover the plots' right ends.
            let scroll = ui.spacing().scroll;
            let bar_room = if scrolls {
                scroll.bar_width + scroll.bar_inner_margin
            } else {
                0.0
            };
            egui::ScrollArea::vertical()
                .id_salt("curve plots")
                .max_height(height)
                .show(ui, |ui| {
                    for &group in &shown {
                        legend(ui, hidden, set, group);
                        if let Some(time) = group_plot(ui, set, hidden, group, time, (plots_width - bar_room, each)) {
                            scrub = Some(time);
                        }
                    }
                });
        });
        if !set.problems.is_empty() {
            problem_list(ui, set, height);
        }
    });
    scrub
}

/// The height of each of `plots` plots sharing `height` points, each with `extra` points of
/// its own (its legend, the spacing): a share of the height, or `LEAST_PLOT_HEIGHT` where the
/// shares would be lower (the plots then scroll).
fn plot_height(height: f32, plots: usize, extra: f32) -> f32 {
    (height / plots.max(1) as f32 - extra).max(LEAST_PLOT_HEIGHT)
}

/// The legend of `group`'s plot, above it: a toggle per curve, in the curve's colour, that
/// hides or shows the curve with its keys and rings.
fn legend(ui: &mut egui::Ui, hidden: &mut Vec<String>, set: &CurveSet, group: CurveGroup) {
    ui.horizontal_wrapped(|ui| {
        for curve in set.curves.iter().filter(|c| c.group == group) {
            let was_shown = !is_hidden(hidden, &curve.name);
            let mut shown = was_shown;
            let [r, g, b] = curve.color();
            let text = RichText::new(&curve.name).color(Color32::from_rgb(r, g, b));
            ui.checkbox(&mut shown, text).on_hover_text("Show or hide this curve");
            if shown != was_shown {
                match shown {
                    true => hidden.retain(|name| name != &curve.name),
                    false => hidden.push(curve.name.clone()),
                }
            }
        }
    });
}

fn is_hidden(hidden: &[String], curve: &str) -> bool {
    hidden.iter().any(|name| name == curve)
}

/// One group's plot; returns the time under the pointer while it is pressed on the plot.
fn group_plot(
    ui: &mut egui::Ui,
    set: &CurveSet,
    hidden: &[String],
    group: CurveGroup,
    time: f32,
    size: (f32, f32),
) -> Option<f32> {
    let link = egui::Id::unique("rigscope curve time axis");
    // The range of every curve of the group, shown or not: hiding one does not rescale.
    let (low, high) = value_range(set, group);
    let response = Plot::new(("curves", group_index(group)))
        .width(size.0)
        .height(size.1)
        .y_axis_label(group.axis_label())
        // One width for every plot's value axis, so their time axes line up.
        .y_axis_min_width(48.0)
        .link_axis(link, [true, false])
        .link_cursor(link, [true, false])
        .allow_drag(false)
        .allow_boxed_zoom(false)
        // The wheel scrolls the list of plots; sideways, it pans the time.
        .allow_scroll([true, false])
        .include_x(0.0)
        .include_x(set.duration)
        .include_y(low)
        .include_y(high)
        .y_grid_spacer(uniform_grid_spacer(value_steps))
        .show(ui, |plot| {
            for curve in set.curves.iter().filter(|c| c.group == group) {
                if !is_hidden(hidden, &curve.name) {
                    plot_curve(plot, set, curve);
                }
            }
            plot.vline(VLine::new("", f64::from(time)).color(TIME_COLOR).width(1.5));
            let pressed = plot.response().is_pointer_button_down_on();
            pressed.then(|| plot.pointer_coordinate()).flatten()
        });
    let label = format!("{} curves", group.label());
    response
        .response
        .widget_info(|| WidgetInfo::labeled(Role::Canvas, true, &label));
    response.inner.map(|point| (point.x as f32).clamp(0.0, set.duration))
}

/// The value axis's grid steps, finest first: labelled lines a round 1, 2 or 5 × 10ⁿ apart,
/// about four across the plot. (egui_plot's default steps by powers of ten only, so a curve
/// between -90 and 20 got one label, 0.)
fn value_steps(input: GridInput) -> [f64; 3] {
    let span = (input.bounds.1 - input.bounds.0).abs();
    let labelled = round_step(span / 4.0);
    [labelled / 5.0, labelled / 2.0, labelled]
}

/// The smallest of 1, 2 and 5 × 10ⁿ at least `least` (1 for a zero, negative or odd one).
fn round_step(least: f64) -> f64 {
    if !(least.is_finite() && least > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(least.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= least)
        .unwrap_or(10.0 * power)
}

/// The value range a group's plot shows at least: its curves' range, widened for a curve
/// that barely moves so that float noise does not fill the plot.
fn value_range(set: &CurveSet, group: CurveGroup) -> (f64, f64) {
    let values = set.curves.iter().filter(|c| c.group == group).flat_map(|c| &c.values);
    let (low, high) = values.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    if !(low.is_finite() && high.is_finite()) {
        return (0.0, 1.0);
    }
    let least = 0.02 * low.abs().max(high.abs()).max(1.0);
    let middle = (low + high) / 2.0;
    let half = ((high - low) / 2.0).max(least);
    (f64::from(middle - half), f64::from(middle + half))
}

/// A curve's line, its keys and its problems' rings.
fn plot_curve(plot: &mut PlotUi<'_>, set: &CurveSet, curve: &Curve) {
    let [r, g, b] = curve.color();
    let color = Color32::from_rgb(r, g, b);
    let points: Vec<[f64; 2]> = set
        .times
        .iter()
        .zip(&curve.values)
        .map(|(&t, &v)| [f64::from(t), f64::from(v)])
        .collect();
    plot.line(
        Line::new(curve.name.clone(), PlotPoints::from(points))
            .color(color)
            .width(1.5),
    );
    let keys: Vec<[f64; 2]> = curve
        .keys
        .iter()
        .map(|k| [f64::from(k.time), f64::from(k.value)])
        .collect();
    plot.points(Points::new(curve.name.clone(), keys).color(color).radius(2.5));
    let problems: Vec<[f64; 2]> = set
        .problems
        .iter()
        .filter(|p| p.curve == curve.name)
        .map(|p| [f64::from(p.time), f64::from(p.value)])
        .collect();
    if !problems.is_empty() {
        plot.points(
            Points::new("", problems)
                .shape(MarkerShape::Circle)
                .filled(false)
                .radius(7.0)
                .color(PROBLEM_COLOR),
        );
    }
}

fn problem_list(ui: &mut egui::Ui, set: &CurveSet, height: f32) {
    ui.vertical(|ui| {
        ui.set_width(PROBLEM_LIST_WIDTH);
        ui.label(RichText::new(format!("Problems ({})", set.problems.len())).strong());
        egui::ScrollArea::vertical()
            .max_height(height - 20.0)
            .id_salt("curve problems")
            .show(ui, |ui| {
                for problem in &set.problems {
                    let title = format!("{} at {:.3} s on {}", problem.kind.label(), problem.time, problem.curve);
                    ui.label(RichText::new(title).color(PROBLEM_COLOR))
                        .on_hover_text(&problem.message);
                }
            });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_share_the_height_but_keep_a_readable_one() {
        assert_eq!(plot_height(600.0, 2, 30.0), 270.0);
        assert_eq!(
            plot_height(300.0, 4, 30.0),
            LEAST_PLOT_HEIGHT,
            "four in 300 points scroll"
        );
        assert_eq!(plot_height(300.0, 0, 30.0), 270.0);
    }

    #[test]
    fn value_axis_steps_are_round_and_label_a_few_lines() {
        let steps = |low: f64, high: f64| {
            value_steps(GridInput {
                bounds: (low, high),
                base_step_size: 1.0,
            })
        };
        // A quarter of the span, rounded up to 1, 2 or 5 × 10ⁿ.
        assert_eq!(steps(-95.0, 25.0), [10.0, 25.0, 50.0], "labels at -50, 0 (not 0 alone)");
        assert_eq!(steps(0.0, 41.0), [4.0, 10.0, 20.0]);
        assert_eq!(
            steps(42.1, 43.9),
            [0.1, 0.25, 0.5],
            "a curve sitting at 43 gets labels there"
        );
        assert_eq!(round_step(0.0), 1.0);
        assert_eq!(round_step(f64::NAN), 1.0);
        assert_eq!(round_step(3.0), 5.0);
        assert_eq!(round_step(7.0), 10.0);
    }
}
