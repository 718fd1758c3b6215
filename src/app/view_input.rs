//! Mouse and keyboard in the 3D view: orbit, pan and zoom the camera, pick joints and drag IK
//! targets (through the viewer state), and the view's keyboard shortcuts. Events egui consumed
//! never get here.

use glam::Vec2;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey};

use crate::ui::{Shortcut, ViewerState};
use crate::view::{OrbitCamera, ViewPreset, Viewport};

/// How far (pixels) the pointer may move between press and release for a click.
const CLICK_SLOP: f32 = 4.0;

#[derive(Default)]
pub struct ViewInput {
    /// The pointer in window pixels.
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
        self.orbiting || self.panning || state.ik_editor.dragging.is_some()
    }

    /// Acts on one window event; `egui_consumed` says egui took it. `viewport` is the 3D view
    /// in window pixels (x, y, width, height).
    pub fn handle(
        &mut self,
        event: &WindowEvent,
        egui_consumed: bool,
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
        match event {
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput { event, .. } if !egui_consumed && event.state == ElementState::Pressed => {
                // Holding a step key steps repeatedly; other keys act once per press.
                if let Some(shortcut) = shortcut_for(&event.logical_key, self.modifiers)
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
                let pressed = *button_state == ElementState::Pressed && !egui_consumed;
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
                self.position = position;
                if state.ik_editor.dragging.is_some() {
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
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !egui_consumed => {
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
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
