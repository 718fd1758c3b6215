//! What the viewer shows and how: the loaded model, playback, view toggles, load errors. The
//! panel edits it, the window's input handling edits it, and the app reads it to draw. No GPU
//! here, so opening files (by argument, drag-and-drop or dialog) is tested without a window.

use std::path::{Path, PathBuf};

use glam::Mat4;

use super::ik_edit::IkEditor;
use super::inspection::Inspection;
use crate::anim::{Player, Pose};
use crate::asset::{self, Model};
use crate::inspect::JointFacts;
use crate::lint::{Finding, lint};
use crate::render::ViewOptions;

/// Things the panel or the keyboard asked for that the app carries out (they need the window,
/// the GPU or the file dialog).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    pub open_dialog: bool,
    pub frame_model: bool,
    pub reset_camera: bool,
}

/// Keyboard shortcuts of the 3D view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    PlayPause,
    StepBack,
    StepForward,
    ResetView,
    Frame,
    Open,
}

pub struct ViewerState {
    pub model: Model,
    pub player: Player,
    pub view: ViewOptions,
    /// The last file that failed to open, and why (the model shown is unchanged).
    pub load_error: Option<String>,
    /// A file being dragged over the window.
    pub hovered_file: Option<PathBuf>,
    /// Smoothed frame time in milliseconds.
    pub frame_ms: f32,
    /// Bumped whenever `model` is replaced, so the app knows to upload it.
    pub model_generation: u64,
    pub requests: Requests,
    /// Notes from the renderer about this model (CPU fallback, undecodable textures).
    pub render_notes: Vec<String>,
    /// The graphics adapter, for the panel.
    pub adapter: String,
    /// The pose the player wrote last.
    pub pose: Pose,
    /// Model matrices of `pose`, for picking and gizmos.
    pub joint_matrices: Vec<Mat4>,
    pub ik_editor: IkEditor,
    /// File name and model stats for the panel (made once per model).
    pub summary: String,
    /// The rig lint's findings for the model (made once per model).
    pub lint: Vec<Finding>,
    /// The joint browser, pose mode and vertex views.
    pub inspection: Inspection,
}

/// Frames per second that "step one frame" assumes.
pub const STEP_RATE: f32 = 30.0;

impl ViewerState {
    pub fn new(model: Model) -> Self {
        let player = Player::new((!model.clips.is_empty()).then_some(0));
        let pose = model.skeleton.rest_pose().clone();
        Self {
            summary: summary(&model),
            lint: lint(&model),
            ik_editor: IkEditor::new(&model),
            inspection: Inspection::new(&model),
            model,
            player,
            view: ViewOptions::default(),
            load_error: None,
            hovered_file: None,
            frame_ms: 0.0,
            model_generation: 0,
            requests: Requests::default(),
            render_notes: Vec::new(),
            adapter: String::new(),
            joint_matrices: pose.to_model_matrices(),
            pose,
        }
    }

    /// Opens `path` (from the command line, a drop or the dialog). On success the model and
    /// playback are replaced and the camera reframed; on failure the error is kept for the
    /// panel and the model already open stays. An `.md5anim` is added as a clip to the open
    /// MD5 model instead.
    pub fn open(&mut self, path: &Path) {
        self.hovered_file = None;
        let is_animation = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("md5anim"));
        if is_animation {
            // An .md5anim adds a clip to the open MD5 model.
            match asset::add_md5_animation(&mut self.model, path) {
                Ok(()) => {
                    self.load_error = None;
                    self.summary = summary(&self.model);
                    self.lint = lint(&self.model);
                    self.inspection.facts = JointFacts::new(&self.model);
                }
                Err(error) => self.load_error = Some(error.to_string()),
            }
            return;
        }
        match asset::load(path) {
            Ok(model) => {
                let (view, fade_time, speed, mode) =
                    (self.view, self.player.fade_time, self.player.speed, self.player.mode());
                *self = Self {
                    view,
                    adapter: std::mem::take(&mut self.adapter),
                    model_generation: self.model_generation + 1,
                    inspection: self.inspection.for_model(&model),
                    ..Self::new(model)
                };
                self.player.fade_time = fade_time;
                self.player.speed = speed;
                self.player.animator.mode = mode;
                self.requests.frame_model = true;
            }
            Err(error) => self.load_error = Some(error.to_string()),
        }
    }

    /// Carries out a keyboard shortcut.
    pub fn shortcut(&mut self, shortcut: Shortcut) {
        let clips = &self.model.clips;
        match shortcut {
            Shortcut::PlayPause => self.player.playing = !self.player.playing,
            Shortcut::StepBack => self.player.step(-1.0, STEP_RATE, clips),
            Shortcut::StepForward => self.player.step(1.0, STEP_RATE, clips),
            Shortcut::ResetView => self.requests.reset_camera = true,
            Shortcut::Frame => self.requests.frame_model = true,
            Shortcut::Open => self.requests.open_dialog = true,
        }
    }

    /// What to draw this frame: the view toggles, with the inspection's vertex view, and the
    /// skeleton while an end joint is being picked.
    pub fn view_options(&self) -> ViewOptions {
        let mut view = self.view;
        view.vertex_view = self.inspection.vertex_view();
        view.skeleton |= self.ik_editor.picking;
        view
    }

    /// Advances playback by `dt` seconds of wall time and poses the model.
    pub fn advance(&mut self, dt: f32) {
        self.player.advance(dt, &self.model.clips);
        self.player
            .pose(&self.model.clips, self.model.skeleton.rest_pose(), &mut self.pose);
        self.inspection.pose_mode.apply(&self.model.skeleton, &mut self.pose);
        self.pose.model_matrices(&mut self.joint_matrices);
        let ms = dt * 1000.0;
        self.frame_ms = if self.frame_ms == 0.0 {
            ms
        } else {
            self.frame_ms * 0.9 + ms * 0.1
        };
    }
}

/// File name and what the model holds, for the panel's title.
fn summary(model: &Model) -> String {
    let name = model.path.file_name().map_or_else(
        || model.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!(
        "{name}\n{} vertices, {} triangles, {} joints, {} skins, {} clips",
        model.vertex_count(),
        model.triangle_count(),
        model.skeleton.len(),
        model.skins.len(),
        model.clips.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn a_failed_open_keeps_the_model_and_reports_the_file() {
        let mut state = ViewerState::new(demo_model());
        state.open(Path::new("/no/such/model.glb"));
        assert_eq!(state.model.clips.len(), 5, "still the demo");
        assert_eq!(state.model_generation, 0);
        let error = state.load_error.clone().unwrap();
        assert!(
            error.contains("/no/such/model.glb") && error.contains("cannot read"),
            "{error}"
        );
    }

    #[test]
    fn shortcuts_drive_playback_and_requests() {
        let mut state = ViewerState::new(demo_model());
        state.shortcut(Shortcut::PlayPause);
        assert!(!state.player.playing);
        state.shortcut(Shortcut::StepForward);
        assert!((state.player.clip_time(&state.model.clips) - 1.0 / STEP_RATE).abs() < 1e-6);
        state.shortcut(Shortcut::StepBack);
        assert!(state.player.clip_time(&state.model.clips).abs() < 1e-6);
        for (shortcut, expected) in [
            (
                Shortcut::ResetView,
                Requests {
                    reset_camera: true,
                    ..Requests::default()
                },
            ),
            (
                Shortcut::Frame,
                Requests {
                    frame_model: true,
                    ..Requests::default()
                },
            ),
            (
                Shortcut::Open,
                Requests {
                    open_dialog: true,
                    ..Requests::default()
                },
            ),
        ] {
            state.requests = Requests::default();
            state.shortcut(shortcut);
            assert_eq!(state.requests, expected);
        }
    }

    #[test]
    fn playback_advances_the_pose() {
        let mut state = ViewerState::new(demo_model());
        let rest = state.pose.clone();
        state.advance(0.3);
        assert_ne!(state.pose, rest);
        assert!(state.frame_ms > 0.0);
    }
}
