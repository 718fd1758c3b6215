//! Mouse and keyboard in the 3D view: orbit, pan and zoom the camera, pick joints and drag IK
//! targets (through the viewer state), and the view's keyboard shortcuts.
//!
//! The camera follows Blender and three.js's OrbitControls: a left drag orbits (half a turn
//! across the view's width), a middle or right drag or Shift + left drag pans, and the wheel
//! zooms towards the point under the pointer, 10% a notch.
//!
//! As in desktop 3D tools, the view acts only on what is meant for it (`view_takes`): a press
//! or the wheel only with the pointer over the view itself (not the panel, the timeline, an
//! egui popup over the view or the grab strip of a panel's edge), the camera keys only with the pointer over the view, and no key
//! while egui has the keyboard (a text field). A drag that started in the view follows the
//! pointer wherever it goes, and a release always ends it.

use std::time::{Duration, Instant};

use glam::Vec2;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey};

use crate::ui::{Shortcut, ViewerState};
use crate::view::{OrbitCamera, ViewPreset, Viewport};

/// How far (pixels) the pointer may move between press and release for a click.
const CLICK_SLOP: f32 = 4.0;

/// How many pixels of a pixel-precise wheel (a touchpad) make one notch.
const PIXELS_PER_NOTCH: f32 = 40.0;

/// The most notches one wheel event zooms: a fast flick, or a system that reports several
/// lines a notch, moves the camera a few steps rather than from framed to tiny at once.
const MAX_NOTCHES_PER_EVENT: f32 = 3.0;

/// How soon after a one-line wheel event an identical one is the same click's release (see
/// `WheelNotches`); measured under Xvfb, `xdotool click 4` gives the two 50 to 140 µs apart.
const CLICK_TWIN_WINDOW: Duration = Duration::from_millis(2);

/// How far (points) either side of a resizable panel's edge a press grabs the edge: egui's
/// default, 3 points, is so thin that a press meant for the edge lands in the view and orbits.
const PANEL_EDGE_GRAB_RADIUS: f32 = 8.0;

/// Widens the strip along each resizable panel's edge that grabs it (set on egui's styles
/// where the egui context is made).
pub fn widen_panel_edges(style: &mut egui::Style) {
    style.interaction.resize_grab_radius_side = PANEL_EDGE_GRAB_RADIUS;
}

/// What egui wants of the input after it has seen an event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EguiWants {
    /// The pointer is over an egui area, on an egui control (a panel's resize edge, whose grab
    /// strip reaches into the view) or egui is dragging something.
    pub pointer: bool,
    /// A widget has keyboard focus (typing in a text field).
    pub keyboard: bool,
}

impl EguiWants {
    /// What `ctx` wants now, asked after it has seen an event. egui counts the strip of a
    /// panel's edge that lies in the view as the view's (not over egui), so a press there would
    /// both resize the panel and orbit without the check for a control under the pointer.
    pub fn of(ctx: &egui::Context) -> Self {
        Self {
            pointer: ctx.egui_wants_pointer_input() || on_a_control(ctx),
            keyboard: ctx.egui_wants_keyboard_input(),
        }
    }
}

/// Whether the pointer is on a widget that takes clicks or drags, as egui's last pass found it.
fn on_a_control(ctx: &egui::Context) -> bool {
    // The snapshot holds egui's lock, so the ids are copied out before their responses are
    // read; the pointer is on one or two widgets at a time.
    let mut hovered = [None; 4];
    ctx.interaction_snapshot(|snapshot| {
        for (slot, id) in hovered.iter_mut().zip(&snapshot.hovered) {
            *slot = Some(*id);
        }
    });
    hovered
        .into_iter()
        .flatten()
        .filter_map(|id| ctx.read_response(id))
        .any(|response| response.sense.senses_click() || response.sense.senses_drag())
}

/// An event the 3D view might act on, for `view_takes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewEvent {
    /// A mouse button went down (orbit, pan, pick, grab).
    Press,
    Wheel,
    /// A shortcut key; `camera` when it acts on the view's camera (frame, views, file
    /// cameras) rather than on playback or the app.
    Key {
        camera: bool,
    },
}

/// Whether the 3D view acts on `event`, with the pointer at `pointer` (window pixels, none
/// when it is outside the window), the view at `viewport` (x, y, width, height in window
/// pixels) and egui wanting what `egui` says.
pub fn view_takes(event: ViewEvent, pointer: Option<Vec2>, viewport: [u32; 4], egui: EguiWants) -> bool {
    let [x, y, width, height] = viewport.map(|v| v as f32);
    let over_view = pointer.is_some_and(|p| p.x >= x && p.x < x + width && p.y >= y && p.y < y + height);
    match event {
        ViewEvent::Press | ViewEvent::Wheel => over_view && !egui.pointer,
        ViewEvent::Key { camera } => !egui.keyboard && (!camera || over_view && !egui.pointer),
    }
}

#[derive(Default)]
pub struct ViewInput {
    /// The pointer in window pixels; none while it is outside the window.
    pointer: Option<Vec2>,
    /// Where the pointer was last seen, for drags that leave the window.
    position: Vec2,
    orbiting: bool,
    /// The button whose drag pans (middle, right, or left with Shift); its release ends the pan.
    panning: Option<MouseButton>,
    /// Where the main button went down to orbit: released within `CLICK_SLOP` pixels of it,
    /// it was a click (which selects a joint) rather than a drag.
    pressed_at: Option<Vec2>,
    modifiers: ModifiersState,
    wheel: WheelNotches,
}

impl ViewInput {
    /// Shift is held (a file dropped so is compared with the open model).
    pub fn shift_held(&self) -> bool {
        self.modifiers.shift_key()
    }

    /// A drag is under way in the view (orbit, pan, an IK target), so pointer motion moves
    /// something.
    pub fn dragging(&self, state: &ViewerState) -> bool {
        self.orbiting || self.panning.is_some() || state.dragging_in_view()
    }

    /// Acts on one window event; `egui` says what egui wants after seeing it. `viewport` is
    /// the 3D view in window pixels (x, y, width, height).
    pub fn handle(
        &mut self,
        event: &WindowEvent,
        egui: EguiWants,
        state: &mut ViewerState,
        camera: &mut OrbitCamera,
        viewport: [u32; 4],
    ) {
        // The view as the camera sees it now (the orbit camera or the file's), and the cursor
        // in its pixels.
        let view_cursor = |position: Vec2, state: &ViewerState, camera: &OrbitCamera| {
            let [x, y, width, height] = viewport;
            let seen = state.camera_view(camera, width as f32 / height.max(1) as f32);
            let view = Viewport::new(&seen, width as f32, height as f32);
            (position - Vec2::new(x as f32, y as f32), view)
        };
        let pointer = self.pointer;
        let takes = |event| view_takes(event, pointer, viewport, egui);
        match event {
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                // Holding a step key steps repeatedly; other keys act once per press.
                if let Some(shortcut) = shortcut_for(&event.logical_key, self.modifiers)
                    && takes(ViewEvent::Key {
                        camera: moves_the_camera(shortcut),
                    })
                    && (!event.repeat || matches!(shortcut, Shortcut::StepBack | Shortcut::StepForward))
                {
                    state.shortcut(shortcut);
                }
            }
            WindowEvent::MouseInput {
                state: button_state,
                button,
                ..
            } => {
                let pressed = *button_state == ElementState::Pressed && takes(ViewEvent::Press);
                // Any other event of the panning button (its release) ends the pan.
                if self.panning == Some(*button) {
                    self.panning = None;
                }
                match button {
                    // Shift + left pans, as in three.js (Blender's Shift + middle pans too).
                    MouseButton::Left if pressed && self.modifiers.shift_key() => self.panning = Some(*button),
                    MouseButton::Left if pressed => {
                        // IK editing (a target grabbed, a joint picked) comes before orbiting.
                        let (cursor, view) = view_cursor(self.position, state, camera);
                        self.orbiting = !state.press_in_view(cursor, &view);
                        self.pressed_at = self.orbiting.then_some(self.position);
                    }
                    MouseButton::Left => {
                        self.orbiting = false;
                        state.release_in_view();
                        if let Some(pressed_at) = self.pressed_at.take()
                            && pressed_at.distance(self.position) <= CLICK_SLOP
                        {
                            let (cursor, view) = view_cursor(self.position, state, camera);
                            state.click_in_view(cursor, &view);
                        }
                    }
                    MouseButton::Right | MouseButton::Middle if pressed => self.panning = Some(*button),
                    _ => {}
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let position = Vec2::new(position.x as f32, position.y as f32);
                let delta = position - self.position;
                (self.position, self.pointer) = (position, Some(position));
                if state.dragging_in_view() {
                    let (cursor, view) = view_cursor(position, state, camera);
                    state.drag_in_view(cursor, &view);
                } else if self.orbiting {
                    // A drag (not a click) leaves the file's camera for the orbit camera.
                    if self.pressed_at.is_none_or(|at| at.distance(position) > CLICK_SLOP) {
                        state.file_camera = None;
                    }
                    camera.orbit(delta.x, delta.y, viewport[2] as f32);
                } else if self.panning.is_some() {
                    state.file_camera = None;
                    camera.pan(delta.x, delta.y, viewport[3] as f32);
                } else {
                    // The joint a click would pick, named in the view.
                    let over_view = view_takes(ViewEvent::Press, Some(position), viewport, egui);
                    let (cursor, view) = view_cursor(position, state, camera);
                    state.hover_in_view(over_view.then_some((cursor, &view)));
                }
            }
            WindowEvent::CursorLeft { .. } => {
                self.pointer = None;
                state.hover_in_view(None);
            }
            WindowEvent::MouseWheel { delta, .. } if takes(ViewEvent::Wheel) => {
                let notches = self.wheel.notches(delta, Instant::now());
                if notches != 0.0 {
                    let [x, y, width, height] = viewport.map(|v| v as f32);
                    state.file_camera = None;
                    camera.zoom_at(notches, self.position - Vec2::new(x, y), Vec2::new(width, height));
                }
            }
            _ => {}
        }
    }
}

/// Counts wheel notches, one step a notch. On X11, winit 0.30 reports a wheel *button* click
/// (what `xdotool`, VNC and other XTest clients send, and mice without smooth scrolling) twice,
/// for the press and for the release of button 4 or 5 (winit PR 4386, fixed after 0.30.13): a
/// one-line event that repeats the one just counted within `CLICK_TWIN_WINDOW` is that twin
/// and counts nothing. The next event counts again, so at worst a burst of real notches
/// handled together (after a slow frame) zooms half as far.
#[derive(Default)]
struct WheelNotches {
    /// The last one-line event counted and when, while its twin may still come.
    counted: Option<(f32, Instant)>,
}

impl WheelNotches {
    /// The notches `delta`, arriving at `at`, zooms.
    fn notches(&mut self, delta: &MouseScrollDelta, at: Instant) -> f32 {
        if let MouseScrollDelta::LineDelta(_, lines) = *delta
            && lines.abs() == 1.0
        {
            let twin = self
                .counted
                .take()
                .is_some_and(|(counted, when)| counted == lines && at.duration_since(when) <= CLICK_TWIN_WINDOW);
            if twin {
                return 0.0;
            }
            self.counted = Some((lines, at));
        }
        wheel_notches(delta)
    }
}

/// The wheel notches in `delta` (positive: away from the user, zooming in): winit gives a
/// notch as one line on X11 (buttons 4 and 5, or a smooth-scroll valuator's increment), Windows
/// and Wayland; pixel deltas (touchpads) count `PIXELS_PER_NOTCH` to the notch. One event moves
/// at most `MAX_NOTCHES_PER_EVENT`.
fn wheel_notches(delta: &MouseScrollDelta) -> f32 {
    let notches = match delta {
        MouseScrollDelta::LineDelta(_, y) => *y,
        MouseScrollDelta::PixelDelta(p) => p.y as f32 / PIXELS_PER_NOTCH,
    };
    notches.clamp(-MAX_NOTCHES_PER_EVENT, MAX_NOTCHES_PER_EVENT)
}

/// Whether `shortcut` acts on the view's camera (so it needs the pointer over the view) rather
/// than on playback or the app (which work wherever the pointer is).
fn moves_the_camera(shortcut: Shortcut) -> bool {
    match shortcut {
        Shortcut::ResetView | Shortcut::Frame | Shortcut::View(_) | Shortcut::NextCamera => true,
        Shortcut::PlayPause
        | Shortcut::StepBack
        | Shortcut::StepForward
        | Shortcut::Open
        | Shortcut::CurveView
        | Shortcut::Panel => false,
    }
}

/// The shortcut a key press means in the 3D view.
fn shortcut_for(key: &Key, modifiers: ModifiersState) -> Option<Shortcut> {
    match key.as_ref() {
        Key::Named(NamedKey::Space) => Some(Shortcut::PlayPause),
        Key::Named(NamedKey::ArrowLeft) => Some(Shortcut::StepBack),
        Key::Named(NamedKey::ArrowRight) => Some(Shortcut::StepForward),
        Key::Named(NamedKey::Home) => Some(Shortcut::ResetView),
        Key::Character("f" | "F") => Some(Shortcut::Frame),
        Key::Character("o" | "O") if modifiers.control_key() => Some(Shortcut::Open),
        // Blender's view keys: Ctrl gives the opposite side.
        Key::Character("1") if modifiers.control_key() => Some(Shortcut::View(ViewPreset::Back)),
        Key::Character("1") => Some(Shortcut::View(ViewPreset::Front)),
        Key::Character("3") if modifiers.control_key() => Some(Shortcut::View(ViewPreset::Left)),
        Key::Character("3") => Some(Shortcut::View(ViewPreset::Right)),
        Key::Character("7") => Some(Shortcut::View(ViewPreset::Top)),
        Key::Character("9") => Some(Shortcut::View(ViewPreset::ThreeQuarter)),
        Key::Character("0") => Some(Shortcut::NextCamera),
        Key::Character("g" | "G") => Some(Shortcut::CurveView),
        Key::Character("n" | "N") => Some(Shortcut::Panel),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use winit::dpi::PhysicalPosition;
    use winit::event::{DeviceId, TouchPhase};

    use super::*;
    use crate::asset::demo::demo_model;

    /// A 1280 x 800 window: the side panel's 300 pixels on the left, the timeline's 70 at the
    /// bottom, the view in between.
    const VIEWPORT: [u32; 4] = [300, 0, 980, 730];
    const OVER_PANEL: Vec2 = Vec2::new(150.0, 400.0);
    const OVER_TIMELINE: Vec2 = Vec2::new(700.0, 770.0);
    const OVER_VIEW: Vec2 = Vec2::new(700.0, 400.0);

    #[test]
    fn the_view_takes_the_pointer_only_over_itself() {
        let free = EguiWants::default();
        for event in [ViewEvent::Press, ViewEvent::Wheel] {
            assert!(view_takes(event, Some(OVER_VIEW), VIEWPORT, free));
            assert!(
                !view_takes(event, Some(OVER_PANEL), VIEWPORT, free),
                "{event:?} over the panel"
            );
            assert!(
                !view_takes(event, Some(OVER_TIMELINE), VIEWPORT, free),
                "{event:?} over the timeline"
            );
            assert!(!view_takes(event, None, VIEWPORT, free), "{event:?} outside the window");
            let popup = EguiWants {
                pointer: true,
                keyboard: false,
            };
            assert!(
                !view_takes(event, Some(OVER_VIEW), VIEWPORT, popup),
                "{event:?} over an egui popup above the view"
            );
        }
    }

    #[test]
    fn camera_keys_need_the_pointer_over_the_view_and_no_key_acts_while_typing() {
        let free = EguiWants::default();
        let typing = EguiWants {
            pointer: false,
            keyboard: true,
        };
        let camera = ViewEvent::Key { camera: true };
        let playback = ViewEvent::Key { camera: false };
        assert!(view_takes(camera, Some(OVER_VIEW), VIEWPORT, free));
        assert!(!view_takes(camera, Some(OVER_PANEL), VIEWPORT, free));
        assert!(
            view_takes(playback, Some(OVER_PANEL), VIEWPORT, free),
            "Space works anywhere"
        );
        assert!(view_takes(playback, None, VIEWPORT, free));
        assert!(!view_takes(playback, Some(OVER_VIEW), VIEWPORT, typing));
        assert!(!view_takes(camera, Some(OVER_VIEW), VIEWPORT, typing));
        assert!(moves_the_camera(Shortcut::Frame) && !moves_the_camera(Shortcut::PlayPause));
    }

    fn move_to(input: &mut ViewInput, state: &mut ViewerState, camera: &mut OrbitCamera, at: Vec2) {
        let event = WindowEvent::CursorMoved {
            device_id: DeviceId::dummy(),
            position: PhysicalPosition::new(f64::from(at.x), f64::from(at.y)),
        };
        input.handle(&event, EguiWants::default(), state, camera, VIEWPORT);
    }

    fn wheel(input: &mut ViewInput, state: &mut ViewerState, camera: &mut OrbitCamera, egui: EguiWants) {
        let event = WindowEvent::MouseWheel {
            device_id: DeviceId::dummy(),
            delta: MouseScrollDelta::LineDelta(0.0, 2.0),
            phase: TouchPhase::Moved,
        };
        input.handle(&event, egui, state, camera, VIEWPORT);
    }

    #[test]
    fn the_wheel_over_the_panel_does_not_move_the_camera() {
        let mut state = ViewerState::new(demo_model());
        let mut camera = OrbitCamera::default();
        let mut input = ViewInput::default();
        let before = camera;
        // Even with egui reporting nothing over the panel, the view's rectangle leaves it out.
        move_to(&mut input, &mut state, &mut camera, OVER_PANEL);
        wheel(&mut input, &mut state, &mut camera, EguiWants::default());
        assert_eq!(camera, before, "the panel scrolls, the camera stays");
        move_to(&mut input, &mut state, &mut camera, OVER_TIMELINE);
        wheel(&mut input, &mut state, &mut camera, EguiWants::default());
        assert_eq!(camera, before, "nor over the timeline");
        move_to(&mut input, &mut state, &mut camera, OVER_VIEW);
        wheel(&mut input, &mut state, &mut camera, EguiWants::default());
        assert_ne!(camera, before, "over the view the wheel zooms");
    }

    #[test]
    fn a_drag_starting_over_the_panel_does_not_orbit() {
        let mut state = ViewerState::new(demo_model());
        let mut camera = OrbitCamera::default();
        let mut input = ViewInput::default();
        let before = camera;
        let press = WindowEvent::MouseInput {
            device_id: DeviceId::dummy(),
            state: ElementState::Pressed,
            button: MouseButton::Right,
        };
        move_to(&mut input, &mut state, &mut camera, OVER_PANEL);
        input.handle(&press, EguiWants::default(), &mut state, &mut camera, VIEWPORT);
        move_to(&mut input, &mut state, &mut camera, OVER_PANEL + Vec2::new(0.0, 80.0));
        assert_eq!(camera, before, "dragging in the panel leaves the camera alone");
        move_to(&mut input, &mut state, &mut camera, OVER_VIEW);
        input.handle(&press, EguiWants::default(), &mut state, &mut camera, VIEWPORT);
        move_to(&mut input, &mut state, &mut camera, OVER_PANEL);
        assert_ne!(
            camera, before,
            "a drag from the view follows the pointer over the panel"
        );
    }

    fn button(
        input: &mut ViewInput,
        state: &mut ViewerState,
        camera: &mut OrbitCamera,
        button: MouseButton,
        button_state: ElementState,
    ) {
        let event = WindowEvent::MouseInput {
            device_id: DeviceId::dummy(),
            state: button_state,
            button,
        };
        input.handle(&event, EguiWants::default(), state, camera, VIEWPORT);
    }

    fn hold_modifiers(input: &mut ViewInput, state: &mut ViewerState, camera: &mut OrbitCamera, held: ModifiersState) {
        let event = WindowEvent::ModifiersChanged(held.into());
        input.handle(&event, EguiWants::default(), state, camera, VIEWPORT);
    }

    /// Drags with `pressed` from `from` by `by` pixels and lets go.
    fn drag(
        input: &mut ViewInput,
        state: &mut ViewerState,
        camera: &mut OrbitCamera,
        pressed: MouseButton,
        from: Vec2,
        by: Vec2,
    ) {
        move_to(input, state, camera, from);
        button(input, state, camera, pressed, ElementState::Pressed);
        move_to(input, state, camera, from + by);
        button(input, state, camera, pressed, ElementState::Released);
    }

    #[test]
    fn shift_left_middle_and_right_drags_pan_and_a_left_drag_orbits() {
        let mut state = ViewerState::new(demo_model());
        let mut input = ViewInput::default();
        let by = Vec2::new(120.0, 40.0);
        for (held, pressed) in [
            (ModifiersState::SHIFT, MouseButton::Left),
            (ModifiersState::empty(), MouseButton::Middle),
            (ModifiersState::empty(), MouseButton::Right),
        ] {
            let mut camera = OrbitCamera::default();
            let before = camera;
            hold_modifiers(&mut input, &mut state, &mut camera, held);
            drag(&mut input, &mut state, &mut camera, pressed, OVER_VIEW, by);
            assert_ne!(camera.target, before.target, "{held:?} + {pressed:?} pans");
            assert_eq!(
                (camera.yaw, camera.pitch),
                (before.yaw, before.pitch),
                "{held:?} + {pressed:?} does not orbit"
            );
            let panned = camera;
            move_to(&mut input, &mut state, &mut camera, OVER_VIEW);
            assert_eq!(camera, panned, "letting go of {pressed:?} ends the pan");
        }
        let mut camera = OrbitCamera::default();
        let before = camera;
        hold_modifiers(&mut input, &mut state, &mut camera, ModifiersState::empty());
        drag(&mut input, &mut state, &mut camera, MouseButton::Left, OVER_VIEW, by);
        assert_eq!(camera.target, before.target, "a plain left drag does not pan");
        assert_ne!(camera.yaw, before.yaw, "it orbits");
    }

    #[test]
    fn a_drag_across_the_views_width_orbits_half_a_turn() {
        let mut state = ViewerState::new(demo_model());
        let mut input = ViewInput::default();
        let mut camera = OrbitCamera::default();
        let before = camera.yaw;
        let [x, _, width, _] = VIEWPORT;
        let from = Vec2::new(x as f32, OVER_VIEW.y);
        drag(
            &mut input,
            &mut state,
            &mut camera,
            MouseButton::Left,
            from,
            Vec2::new(width as f32, 0.0),
        );
        let turned = (before - camera.yaw).to_degrees();
        assert!((turned - 180.0).abs() < 1e-3, "turned {turned}°");
    }

    #[test]
    fn a_wheel_notch_is_one_step_and_one_event_at_most_a_few() {
        let line = |y| wheel_notches(&MouseScrollDelta::LineDelta(0.0, y));
        let pixels = |y| wheel_notches(&MouseScrollDelta::PixelDelta(PhysicalPosition::new(0.0, y)));
        assert_eq!(line(1.0), 1.0, "a notch away from the user: one step in");
        assert_eq!(line(-1.0), -1.0);
        assert_eq!(line(0.5), 0.5, "a fraction of a notch, a fraction of a step");
        assert_eq!(pixels(PIXELS_PER_NOTCH as f64), 1.0);
        assert_eq!(pixels(-2.0 * PIXELS_PER_NOTCH as f64), -2.0);
        assert_eq!(line(12.0), MAX_NOTCHES_PER_EVENT, "a flick is clamped");
        assert_eq!(pixels(-4000.0), -MAX_NOTCHES_PER_EVENT);
    }

    #[test]
    fn a_wheel_clicks_release_on_x11_is_not_a_second_notch() {
        let mut wheel = WheelNotches::default();
        let start = Instant::now();
        let at = |micros| start + Duration::from_micros(micros);
        let (away, towards) = (
            MouseScrollDelta::LineDelta(0.0, 1.0),
            MouseScrollDelta::LineDelta(0.0, -1.0),
        );
        // What winit 0.30 gave for `xdotool click 4`, twice 10 ms apart, then `click 5`.
        let clicks = [
            (away, 0),
            (away, 140),
            (away, 10_000),
            (away, 10_060),
            (towards, 20_000),
            (towards, 20_050),
        ];
        let total: f32 = clicks
            .iter()
            .map(|&(delta, micros)| wheel.notches(&delta, at(micros)))
            .sum();
        assert_eq!(total, 1.0, "two notches in and one out");
        assert_eq!(wheel.notches(&away, at(30_000)), 1.0, "a notch on its own counts");
        assert_eq!(wheel.notches(&towards, at(30_100)), -1.0, "so does one the other way");
        assert_eq!(wheel.notches(&towards, at(30_200)), 0.0, "but not the twin of that");
        let burst: f32 = (0..4).map(|i| wheel.notches(&away, at(40_000 + i))).sum();
        assert_eq!(burst, 2.0, "a burst of real notches loses at most every other one");
        let half = MouseScrollDelta::LineDelta(0.0, 0.5);
        assert_eq!(
            wheel.notches(&half, at(50_000)) + wheel.notches(&half, at(50_001)),
            1.0,
            "smooth-scroll fractions all count"
        );
    }

    #[test]
    fn the_wheel_zooms_towards_the_pointer() {
        let mut state = ViewerState::new(demo_model());
        let mut input = ViewInput::default();
        let [x, y, width, height] = VIEWPORT.map(|v| v as f32);
        let centre = Vec2::new(x + width * 0.5, y + height * 0.5);
        let mut camera = OrbitCamera::default();
        let before = camera;
        move_to(&mut input, &mut state, &mut camera, centre);
        wheel(&mut input, &mut state, &mut camera, EguiWants::default());
        assert!(
            camera.target.distance(before.target) < 1e-5,
            "at the view's centre the target stays"
        );
        assert!((camera.distance - before.distance * 0.81).abs() < 1e-4, "two notches");
        let mut camera = before;
        move_to(&mut input, &mut state, &mut camera, centre + Vec2::new(200.0, 0.0));
        wheel(&mut input, &mut state, &mut camera, EguiWants::default());
        // The target's move, in the camera's axes before the notch.
        let moved = before.view().transform_vector3(camera.target - before.target);
        assert!(
            moved.x > 0.01 && moved.y.abs() < 1e-4,
            "right of centre the target moves right: {moved}"
        );
    }

    /// One pass of the viewer's panels in a 1280 x 800 window at one pixel a point, after
    /// `events`; the view's rectangle in window pixels.
    fn panels_pass(ctx: &egui::Context, state: &mut ViewerState, events: Vec<egui::Event>) -> [u32; 4] {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
            events,
            ..Default::default()
        };
        let status = crate::ui::RenderStatus::default();
        let mut free = egui::Rect::NOTHING;
        let mut output = ctx.run_ui(input, |ui| free = crate::ui::panel::show(ui, state, &status));
        // No painter here: the font atlas is dropped unpainted.
        output.textures_delta.clear();
        [free.min.x, free.min.y, free.width(), free.height()].map(|v| v.round() as u32)
    }

    #[test]
    fn a_press_just_beside_the_panels_edge_resizes_the_panel_instead_of_orbiting() {
        let ctx = egui::Context::default();
        ctx.all_styles_mut(widen_panel_edges);
        let mut state = ViewerState::new(demo_model());
        let view = panels_pass(&ctx, &mut state, Vec::new());
        let edge = view[0] as f32;
        // egui alone counts the pointer right of the edge as the view's; its hit test reaches
        // the grab radius plus its 5-point interact radius: 13 points, 8 by default.
        for beside in [edge + 2.0, edge + 11.0, edge - 6.0] {
            let pointer = egui::pos2(beside, 400.0);
            panels_pass(&ctx, &mut state, vec![egui::Event::PointerMoved(pointer)]);
            let wants = EguiWants::of(&ctx);
            assert!(
                !view_takes(ViewEvent::Press, Some(Vec2::new(pointer.x, pointer.y)), view, wants),
                "a press {} px from the edge is the panel's",
                beside - edge
            );
        }
        let button = |pos, pressed| egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        let pressed_at = egui::pos2(edge + 2.0, 400.0);
        let dragged_to = pressed_at + egui::vec2(60.0, 0.0);
        panels_pass(&ctx, &mut state, vec![button(pressed_at, true)]);
        panels_pass(&ctx, &mut state, vec![egui::Event::PointerMoved(dragged_to)]);
        panels_pass(&ctx, &mut state, vec![button(dragged_to, false)]);
        let widened = panels_pass(&ctx, &mut state, Vec::new());
        assert!(
            (widened[0] as f32 - dragged_to.x).abs() <= 2.0,
            "the edge follows the drag from {edge} to {}: it went to {}",
            dragged_to.x,
            widened[0]
        );
        let clear = egui::pos2(widened[0] as f32 + 20.0, 400.0);
        panels_pass(&ctx, &mut state, vec![egui::Event::PointerMoved(clear)]);
        assert!(
            view_takes(
                ViewEvent::Press,
                Some(Vec2::new(clear.x, clear.y)),
                widened,
                EguiWants::of(&ctx)
            ),
            "20 px into the view, a press is the view's"
        );
    }

    #[test]
    fn keys_map_to_shortcuts() {
        let none = ModifiersState::empty();
        assert_eq!(
            shortcut_for(&Key::Named(NamedKey::Space), none),
            Some(Shortcut::PlayPause)
        );
        assert_eq!(
            shortcut_for(&Key::Named(NamedKey::ArrowLeft), none),
            Some(Shortcut::StepBack)
        );
        assert_eq!(
            shortcut_for(&Key::Named(NamedKey::ArrowRight), none),
            Some(Shortcut::StepForward)
        );
        assert_eq!(
            shortcut_for(&Key::Named(NamedKey::Home), none),
            Some(Shortcut::ResetView)
        );
        assert_eq!(shortcut_for(&Key::Character("f".into()), none), Some(Shortcut::Frame));
        assert_eq!(
            shortcut_for(&Key::Character("o".into()), none),
            None,
            "plain O does nothing"
        );
        assert_eq!(
            shortcut_for(&Key::Character("o".into()), ModifiersState::CONTROL),
            Some(Shortcut::Open)
        );
        let view = |key: &str, modifiers| shortcut_for(&Key::Character(key.into()), modifiers);
        assert_eq!(view("1", none), Some(Shortcut::View(ViewPreset::Front)));
        assert_eq!(
            view("1", ModifiersState::CONTROL),
            Some(Shortcut::View(ViewPreset::Back))
        );
        assert_eq!(view("3", none), Some(Shortcut::View(ViewPreset::Right)));
        assert_eq!(
            view("3", ModifiersState::CONTROL),
            Some(Shortcut::View(ViewPreset::Left))
        );
        assert_eq!(view("7", none), Some(Shortcut::View(ViewPreset::Top)));
        assert_eq!(view("9", none), Some(Shortcut::View(ViewPreset::ThreeQuarter)));
        assert_eq!(view("0", none), Some(Shortcut::NextCamera));
        assert_eq!(view("g", none), Some(Shortcut::CurveView));
        assert_eq!(view("n", none), Some(Shortcut::Panel));
    }
}
