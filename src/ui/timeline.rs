//! The timeline along the bottom of the 3D view, as in Blender, Maya or Babylon's sandbox:
//! the transport (step back, play/pause, step forward), the loop mode and speed, the time in
//! seconds and in frames at the clip's key rate, the clip's name, and a scrubber across
//! the width with the key times marked (the selected joint's keys when a joint is selected,
//! else the whole clip's). Dragging or clicking the scrubber scrubs. Under it, when asked for
//! in "Root motion and feet", a bar per foot where it stands on the ground (red where it
//! slides).

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, WidgetInfo};

use super::state::ViewerState;
use crate::anim::{Clip, Playback, key_times};
use crate::inspect::motion::SLIDE_SHARE;

/// Height of the scrubber strip (points): a frame ruler above, the ticks and playhead below.
const SCRUBBER_HEIGHT: f32 = 34.0;
/// Height of the ruler's frame numbers at the top of the scrubber.
const RULER_HEIGHT: f32 = 13.0;
/// The least room between two ruler labels (points).
const RULER_SPACING: f32 = 56.0;

const TRACK_COLOR: Color32 = Color32::from_gray(34);
const RULER_COLOR: Color32 = Color32::from_gray(120);
/// The colour of the key ticks on the scrubber.
pub const TICK_COLOR: Color32 = Color32::from_rgb(250, 180, 80);
const PLAYHEAD_COLOR: Color32 = Color32::from_rgb(90, 160, 255);
/// The cross-fade's note on the track.
const FADE_COLOR: Color32 = Color32::from_rgb(230, 190, 110);

/// Draws the timeline at the bottom of `ui`'s free area.
pub fn show(ui: &mut egui::Ui, state: &mut ViewerState) {
    egui::Panel::bottom("rigscope timeline")
        .resizable(false)
        .show(ui, |ui| {
            ui.add_space(4.0);
            controls_row(ui, state);
            ui.add_space(2.0);
            scrubber(ui, state);
            contact_bars(ui, state);
            ui.add_space(4.0);
        });
}

/// The clip the timeline shows: the one playing, or being faded to.
fn shown_clip(state: &ViewerState) -> Option<&Clip> {
    state
        .frame
        .player
        .clip()
        .and_then(|c| state.document.model.clips.get(c))
}

/// While a cross-fade runs: "from CLIP 1.234 s, 40%", the clip under the fades with its time and
/// the newest fade's weight.
fn fade_text(state: &ViewerState) -> Option<String> {
    let crossfade = &state.frame.player.animator.crossfade;
    let (_, weight) = crossfade.fades().last()?;
    let from = crossfade.base().and_then(|c| state.document.model.clips.get(c))?;
    let time = state.frame.player.mode().clip_time(crossfade.time(), from.duration());
    Some(format!("from {} {time:.3} s, {:.0}%", from.name(), 100.0 * weight))
}

/// The times of the tick marks: the keys of the selected joint's channels when a joint is
/// selected, else of every channel of `clip`.
pub fn tick_times(clip: &Clip, selected_joint: Option<usize>) -> Vec<f32> {
    key_times(clip, selected_joint)
}

/// The controls above the scrubber: the transport, loop mode, speed and time, then the clip's
/// name in the rest of the row. The name comes last so that the buttons stay where they are
/// whatever the clip is called. Where the view is too narrow for them in one row (a 1024 x 600
/// screen, or a widened panel) the speed and time go to a second row, so that nothing runs
/// past the window.
fn controls_row(ui: &mut egui::Ui, state: &mut ViewerState) {
    let rate = state.key_rate();
    let duration = shown_clip(state).map_or(0.0, Clip::duration);
    // The widths the two groups of controls took when last drawn (the first frame assumes
    // they fit).
    let widths_id = ui.make_persistent_id("timeline control widths");
    let [transport_width, time_width] = ui.data(|data| data.get_temp::<[f32; 2]>(widths_id)).unwrap_or_default();
    let spacing = ui.spacing().item_spacing.x;
    let one_row = ui.available_width() >= transport_width + time_width + LEAST_NAME_WIDTH;
    let mut widths = [transport_width, time_width];
    ui.horizontal(|ui| {
        // Without a clip there is nothing to play.
        let transport_group = ui.add_enabled_ui(duration > 0.0, |ui| {
            ui.horizontal(|ui| transport_and_loop(ui, state, rate)).response
        });
        widths[0] = transport_group.response.rect.width() + spacing;
        if one_row {
            let time_group = ui.horizontal(|ui| {
                ui.separator();
                speed_and_time(ui, state, duration, rate);
            });
            widths[1] = time_group.response.rect.width() + spacing;
        }
        clip_name(ui, state);
    });
    if !one_row {
        ui.horizontal(|ui| speed_and_time(ui, state, duration, rate));
    }
    ui.data_mut(|data| data.insert_temp(widths_id, widths));
}

/// The least room the clip's name keeps in a one-row timeline (points).
const LEAST_NAME_WIDTH: f32 = 90.0;

/// The name of the clip on the timeline in the rest of the row, cut short with "…" where it
/// does not fit (the whole name on hover).
fn clip_name(ui: &mut egui::Ui, state: &ViewerState) {
    let name = shown_clip(state).map_or("(rest pose)", Clip::name);
    ui.separator();
    ui.add(egui::Label::new(egui::RichText::new(name).strong()).truncate())
        .on_hover_text(format!(
            "{name}: the clip on the timeline (choose one in the panel's Clips)"
        ));
}

fn transport_and_loop(ui: &mut egui::Ui, state: &mut ViewerState, rate: f32) {
    transport_buttons(ui, state, rate);
    ui.separator();
    for (label, mode) in [
        ("Loop", Playback::Loop),
        ("Once", Playback::Once),
        ("Ping-pong", Playback::PingPong),
    ] {
        ui.selectable_value(&mut state.frame.player.animator.mode, mode, label);
    }
}

fn speed_and_time(ui: &mut egui::Ui, state: &mut ViewerState, duration: f32, rate: f32) {
    let label = ui.label("speed");
    ui.add(
        egui::DragValue::new(&mut state.frame.player.speed)
            .range(-4.0..=4.0)
            .speed(0.01)
            .fixed_decimals(2)
            .suffix("×"),
    )
    .labelled_by(label.id)
    .on_hover_text("Playback speed; negative plays backwards");
    ui.separator();
    time_fields(ui, state, duration, rate);
}

fn transport_buttons(ui: &mut egui::Ui, state: &mut ViewerState, rate: f32) {
    let clips = &state.document.model.clips;
    if ui
        .button("< Step")
        .on_hover_text("Step back one frame (Left)")
        .clicked()
    {
        state.frame.player.step(-1.0, rate, clips);
    }
    // A finished Once clip shows Play: playing it starts it again. Nothing plays without a clip.
    let playing =
        state.frame.player.playing && state.frame.player.clip().is_some() && !state.frame.player.finished(clips);
    let label = match playing {
        true => "Pause",
        false => "Play",
    };
    if ui
        .add(egui::Button::new(label).min_size(Vec2::new(52.0, 0.0)))
        .on_hover_text("Space")
        .clicked()
    {
        state.frame.player.toggle_play(clips);
    }
    if ui
        .button("Step >")
        .on_hover_text("Step forward one frame (Right)")
        .clicked()
    {
        state.frame.player.step(1.0, rate, clips);
    }
}

/// The time in seconds and the frame at `rate`, both editable: typing or dragging one
/// scrubs there.
fn time_fields(ui: &mut egui::Ui, state: &mut ViewerState, duration: f32, rate: f32) {
    let clips = &state.document.model.clips;
    let mut time = state.frame.player.clip_time(clips);
    let label = ui.label("time");
    let response = ui
        .add_enabled(
            duration > 0.0,
            // Shown as it is: a value out of range clamped would count as an edit, a scrub.
            egui::DragValue::new(&mut time)
                .range(0.0..=duration)
                .clamp_existing_to_range(false)
                .speed(1.0 / rate)
                .fixed_decimals(3)
                .suffix(" s"),
        )
        .labelled_by(label.id);
    if response.changed() {
        state.frame.player.scrub(time, clips);
    }
    ui.label(format!("/ {duration:.3} s"));
    let last_frame = (duration * rate).round();
    let mut frame = (time * rate).round();
    let label = ui.label("frame");
    let response = ui
        .add_enabled(
            duration > 0.0,
            egui::DragValue::new(&mut frame)
                .range(0.0..=last_frame)
                .clamp_existing_to_range(false)
                .speed(0.25)
                .fixed_decimals(0),
        )
        .labelled_by(label.id);
    if response.changed() {
        state.frame.player.scrub(frame / rate, clips);
    }
    ui.label(format!("/ {last_frame:.0} @ {rate:.0} fps"))
        .on_hover_text("Frames at the clip's key rate, found from its key times");
}

/// The strip across the width: a frame ruler, the key ticks and the playhead. Pressing or
/// dragging anywhere on it scrubs to the time under the pointer.
fn scrubber(ui: &mut egui::Ui, state: &mut ViewerState) {
    let size = Vec2::new(ui.available_width(), SCRUBBER_HEIGHT);
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    let clips = &state.document.model.clips;
    let clip = shown_clip(state);
    let duration = clip.map_or(0.0, Clip::duration);
    let time = state.frame.player.clip_time(clips);
    response.widget_info(|| WidgetInfo::slider(duration > 0.0, f64::from(time), "Timeline scrubber"));
    let span = Span::new(rect, duration);
    if duration > 0.0
        && response.is_pointer_button_down_on()
        && let Some(pointer) = response.interact_pointer_pos()
    {
        state.frame.player.scrub(span.time_at(pointer.x), clips);
    }
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, TRACK_COLOR);
    let Some(clip) = shown_clip(state) else {
        return;
    };
    ruler(&painter, &span, state.key_rate());
    let ticks_top = rect.top() + RULER_HEIGHT + 2.0;
    let keys = tick_times(clip, state.inspection.selected);
    for x in thinned(keys.iter().map(|&key| span.x_at(key)), LEAST_TICK_GAP) {
        painter.vline(x, ticks_top..=rect.bottom() - 3.0, Stroke::new(1.0, TICK_COLOR));
    }
    // A cross-fade: what it leaves and how far it is, at the track's right end, under the
    // playhead.
    if let Some(fade) = fade_text(state) {
        let galley = painter.layout_no_wrap(fade, FontId::proportional(11.0), FADE_COLOR);
        let corner = Pos2::new(rect.right() - 4.0, rect.bottom() - 2.0);
        let text_rect = Align2::RIGHT_BOTTOM.anchor_size(corner, galley.size());
        // On the track's colour, so the key ticks do not run through it.
        painter.rect_filled(text_rect.expand(2.0), 2.0, TRACK_COLOR);
        painter.galley(text_rect.min, galley, FADE_COLOR);
    }
    let x = span.x_at(state.frame.player.clip_time(&state.document.model.clips));
    painter.vline(x, rect.y_range(), Stroke::new(2.0, PLAYHEAD_COLOR));
    let head = Rect::from_center_size(Pos2::new(x, rect.top() + 4.0), Vec2::new(9.0, 8.0));
    painter.rect_filled(head, 2.0, PLAYHEAD_COLOR);
    if response.hovered() {
        painter.rect_stroke(rect, 3.0, Stroke::new(1.0, RULER_COLOR), StrokeKind::Inside);
    }
}

/// Height of one foot's row of contact bars (points).
const CONTACT_ROW_HEIGHT: f32 = 7.0;
const STANDING_COLOR: Color32 = Color32::from_rgb(80, 200, 250);
const SLIDING_COLOR: Color32 = Color32::from_rgb(255, 70, 50);

/// A row per foot under the scrubber, a bar where it stands on the ground (red where it slides
/// more than `SLIDE_SHARE` of the character's height), when the motion section shows them for
/// the clip on the timeline.
fn contact_bars(ui: &mut egui::Ui, state: &ViewerState) {
    let motion = &state.motion;
    let Some(report) = motion
        .report()
        .filter(|_| motion.shown && motion.clip() == state.frame.player.clip())
    else {
        return;
    };
    let Some(clip) = shown_clip(state).filter(|_| !report.feet.is_empty()) else {
        return;
    };
    ui.add_space(2.0);
    let size = Vec2::new(ui.available_width(), CONTACT_ROW_HEIGHT * report.feet.len() as f32);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    // Worded only when the accessibility tree asks: nothing is allocated per frame otherwise.
    response.widget_info(|| {
        let counts: Vec<String> = (report.feet.iter())
            .map(|f| format!("{} foot {}", f.foot.side.words(), f.contacts.len()))
            .collect();
        WidgetInfo::labeled(egui::Role::Canvas, true, format!("Contacts: {}", counts.join(", ")))
    });
    let span = Span::new(rect, clip.duration());
    let painter = ui.painter_at(rect);
    for (row, foot) in report.feet.iter().enumerate() {
        let top = rect.top() + row as f32 * CONTACT_ROW_HEIGHT;
        for contact in &foot.contacts {
            let sliding = contact.slide > SLIDE_SHARE * report.height;
            let color = if sliding { SLIDING_COLOR } else { STANDING_COLOR };
            let bar = Rect::from_x_y_ranges(
                span.x_at(contact.start)..=span.x_at(contact.end).max(span.x_at(contact.start) + 1.0),
                top + 1.0..=top + CONTACT_ROW_HEIGHT - 1.0,
            );
            painter.rect_filled(bar, 1.0, color);
        }
    }
}

/// The least room between two key ticks drawn on the scrubber (points): the keys of a long
/// or 60 fps clip, closer than this, would merge into a solid bar.
const LEAST_TICK_GAP: f32 = 3.0;

/// Of the ticks at `xs` (increasing), those to draw: each one at least `gap` right of the
/// last one drawn, so that dense keys still read as ticks.
fn thinned(xs: impl IntoIterator<Item = f32>, gap: f32) -> impl Iterator<Item = f32> {
    let mut last_drawn = f32::NEG_INFINITY;
    xs.into_iter().filter(move |&x| {
        let drawn = x - last_drawn >= gap;
        if drawn {
            last_drawn = x;
        }
        drawn
    })
}

/// Frame numbers along the top at a round step that leaves `RULER_SPACING` between labels.
fn ruler(painter: &egui::Painter, span: &Span, rate: f32) {
    let frames = (span.duration * rate).round();
    let step = ruler_step(frames, span.width() / RULER_SPACING);
    let font = FontId::proportional(10.0);
    let mut frame = 0.0;
    while frame <= frames {
        let x = span.x_at(frame / rate);
        painter.vline(
            x,
            span.rect.top()..=span.rect.top() + RULER_HEIGHT,
            Stroke::new(1.0, RULER_COLOR),
        );
        // Right of its mark, but left of it at the strip's right end, so the last label shows
        // whole.
        let (at, align) = match x + RULER_SPACING / 2.0 > span.rect.right() {
            false => (x + 3.0, Align2::LEFT_TOP),
            true => (x - 3.0, Align2::RIGHT_TOP),
        };
        painter.text(
            Pos2::new(at, span.rect.top() + 1.0),
            align,
            format!("{frame:.0}"),
            font.clone(),
            RULER_COLOR,
        );
        frame += step;
    }
}

/// The smallest of 1, 2, 5, 10, 20, 50… frames that makes at most `labels` labels across
/// `frames` frames.
fn ruler_step(frames: f32, labels: f32) -> f32 {
    let mut factors = [2.0, 2.5, 2.0].into_iter().cycle();
    let mut step = 1.0;
    while frames / step > labels.max(1.0) {
        step *= factors.next().unwrap_or(2.0);
    }
    step
}

/// Clip time along the scrubber: 0 at the left end, the duration at the right, with room
/// for the playhead at both.
struct Span {
    rect: Rect,
    duration: f32,
}

/// Room kept at each end of the scrubber (points) so the first and last ticks show.
const SCRUBBER_INSET: f32 = 6.0;

impl Span {
    fn new(rect: Rect, duration: f32) -> Self {
        Self { rect, duration }
    }

    fn width(&self) -> f32 {
        (self.rect.width() - 2.0 * SCRUBBER_INSET).max(1.0)
    }

    fn x_at(&self, time: f32) -> f32 {
        let fraction = if self.duration > 0.0 { time / self.duration } else { 0.0 };
        self.rect.left() + SCRUBBER_INSET + fraction * self.width()
    }

    fn time_at(&self, x: f32) -> f32 {
        let fraction = (x - self.rect.left() - SCRUBBER_INSET) / self.width();
        fraction.clamp(0.0, 1.0) * self.duration
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_span_maps_time_to_x_and_back() {
        let span = Span::new(Rect::from_min_size(Pos2::new(100.0, 0.0), Vec2::new(212.0, 30.0)), 4.0);
        assert_eq!(span.x_at(0.0), 106.0);
        assert_eq!(span.x_at(4.0), 306.0);
        assert_eq!(span.time_at(206.0), 2.0);
        assert_eq!(span.time_at(0.0), 0.0, "left of the strip is the start");
        assert_eq!(span.time_at(1000.0), 4.0, "right of it, the end");
    }

    #[test]
    fn ticks_closer_than_the_gap_are_thinned() {
        let xs = [0.0, 1.0, 2.0, 3.0, 3.5, 6.0, 20.0, 20.5];
        assert_eq!(thinned(xs, 3.0).collect::<Vec<_>>(), [0.0, 3.0, 6.0, 20.0]);
        assert_eq!(thinned(xs, 0.0).count(), xs.len(), "no gap, every tick");
        // 60 fps keys over 10 s on a 600-point strip: one key every point, one tick every
        // three.
        let dense: Vec<f32> = (0..=600).map(|frame| frame as f32).collect();
        let drawn: Vec<f32> = thinned(dense, LEAST_TICK_GAP).collect();
        assert_eq!(drawn.len(), 201);
        assert!(drawn.windows(2).all(|pair| pair[1] - pair[0] >= LEAST_TICK_GAP));
    }

    #[test]
    fn the_ruler_steps_are_round_numbers_that_fit() {
        assert_eq!(ruler_step(24.0, 30.0), 1.0);
        assert_eq!(ruler_step(100.0, 30.0), 5.0);
        assert_eq!(ruler_step(100.0, 12.0), 10.0);
        assert_eq!(ruler_step(1000.0, 12.0), 100.0);
        assert_eq!(ruler_step(1000.0, 3.0), 500.0);
        assert_eq!(ruler_step(10.0, 0.0), 10.0, "a narrow strip still labels frame 0");
    }
}
