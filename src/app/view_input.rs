//! Mouse and keyboard in the 3D view: orbit, pan and zoom the camera, pick joints and drag IK
//! targets (through the viewer state), and the view's keyboard shortcuts.
//!
//! As in desktop 3D tools, the view acts only on what is meant for it (`view_takes`): a press
//! or the wheel only with the pointer over the view itself (not the panel, the timeline or an
//! egui popup over the view), the camera keys only with the pointer over the view, and no key
//! while egui has the keyboard (a text field). A drag that started in the view follows the
//! pointer wherever it goes, and a release always ends it.

use glam::Vec2;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey};

use crate::ui::{Shortcut, ViewerState};
use crate::view::{OrbitCamera, ViewPreset, Viewport};

/// How far (pixels) the pointer may move between press and release for a click.
const CLICK_SLOP: f32 = 4.0;

/// What egui wants of the input after it has seen an event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EguiWants {
    /// The pointer is over an egui area or egui is dragging something.
    pub pointer: bool,
    /// A widget has keyboard focus (typing in a text field).
    pub keyboard: bool,
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
    panning: bool,
    /// Where the main button went down to orbit: released within `CLICK_SLOP` pixels of it,
    /// it was a click (which selects a joint) rather than a drag.
    pressed_at: Option<Vec2>,
    modifiers: ModifiersState,
}

impl ViewInput {
    /// A drag is under way in the view (orbit, pan, an IK target), so pointer motion moves
    /// something.
    pub fn dragging(&self, state: &ViewerState) -> bool {
        self.orbiting || self.panning || state.dragging_in_view()
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
                match button {
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
                    MouseButton::Right | MouseButton::Middle => self.panning = pressed,
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
                    camera.orbit(delta.x, delta.y);
                } else if self.panning {
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
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => *y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                state.file_camera = None;
                camera.zoom(steps);
            }
            _ => {}
        }
    }
}

/// Whether `shortcut` acts on the view's camera (so it needs the pointer over the view) rather
/// than on playback or the app (which work wherever the pointer is).
fn moves_the_camera(shortcut: Shortcut) -> bool {
    match shortcut {
        Shortcut::ResetView | Shortcut::Frame | Shortcut::View(_) | Shortcut::NextCamera => true,
        Shortcut::PlayPause | Shortcut::StepBack | Shortcut::StepForward | Shortcut::Open | Shortcut::CurveView => {
            false
        }
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
        // What egui_winit reports over the panel: nothing (the panel is not an egui area).
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
    }
}
