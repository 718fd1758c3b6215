//! What the viewer shows and how: the loaded model, playback, view toggles, load errors. The
//! panel edits it, the window's input handling edits it, and the app reads it to draw. No GPU
//! here, so opening files (by argument, drag-and-drop or dialog) is tested without a window.

mod clips_offer;
mod compare;
mod document;
pub mod reload;
mod save;

use std::path::{Path, PathBuf};

use glam::Vec2;

use super::clips_from::ClipsFrom;
use super::curve_panel::CurveView;
use super::export_panel::ClipExportPanel;
use super::file_browser::Browsing;
use super::ik_edit::IkEditor;
use super::inspection::Inspection;
use super::motion_panel::MotionControls;
use super::notice::Notice;
use super::trail_panel::TrailControls;
use super::watch_panel::Watching;
use crate::anim::{Clip, DEFAULT_KEY_RATE, Player};
use crate::asset::{self, Format, Model};
use crate::inspect::{JointFacts, PoseMode, TrailTime, VertexView};
use crate::view::animated_frame::AnimatedFrame;
use crate::view::avatar_motion::EyeTarget;
use crate::view::file_camera::model_camera_view;
use crate::view::opening_clip::{ClipOnOpen, opening_clip};
use crate::view::{CameraView, Lighting, Lights, OrbitCamera, PICK_RADIUS, Quality, ViewOptions, ViewPreset, Viewport};
pub use compare::{Comparison, JointMarks};
pub use document::Document;

/// Things the panel or the keyboard asked for that the app carries out (they need the window,
/// the GPU or the file dialog).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    pub open_dialog: bool,
    pub frame_model: bool,
    pub reset_camera: bool,
    /// Turn the orbit camera to look from this direction.
    pub view: Option<ViewPreset>,
    /// Pick an equirectangular .hdr to light the scene with.
    pub environment_dialog: bool,
    /// Go back to the built-in studio environment.
    pub studio_environment: bool,
    /// Export the clip playing (the save dialog first, where there is one).
    pub export_clip: bool,
    /// Save the model as glTF (the save dialog first).
    pub save_model: bool,
    /// Pick a model to compare the open one with ("Compare with…").
    pub compare_dialog: bool,
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
    View(ViewPreset),
    /// Look through the file's next camera; after the last, the orbit camera again.
    NextCamera,
    /// Show or hide the curve view.
    CurveView,
    /// Show or hide the side panel.
    Panel,
}

pub struct ViewerState {
    /// The open file: its model and what was worked out from it.
    pub document: Document,
    /// What moves: the player, the pose, the joints' matrices, morph weights, the crowd.
    pub frame: AnimatedFrame,
    pub view: ViewOptions,
    /// A file being dragged over the window.
    pub hovered_file: Option<PathBuf>,
    /// What the renderer may spend per frame (the window applies it).
    pub quality: Quality,
    pub requests: Requests,
    pub ik_editor: IkEditor,
    /// The joint browser, pose mode and vertex views.
    pub inspection: Inspection,
    /// The file camera the view looks through (an index into `Model::cameras`); none: the
    /// orbit camera.
    pub file_camera: Option<usize>,
    /// Watching the open file for changes, and the last reload.
    pub watching: Watching,
    /// The built-in file browser, when no desktop dialog is available.
    pub browser: Browsing,
    /// "Export clip…": its settings and the running export's progress.
    pub clip_export: ClipExportPanel,
    /// The curve view over the timeline: shown or not, its groups, its curves.
    pub curves: CurveView,
    /// A file with clips opened over this one, waiting for "add" or "open", and the files
    /// whose clips were added.
    pub clips_from: ClipsFrom,
    /// Motion trails: which joints, how much of the clip, the root-motion trail.
    pub trails: TrailControls,
    /// Root motion and the feet: the report on the clip playing, in place, camera following.
    pub motion: MotionControls,
    /// The last outcome to show over the 3D view, until dismissed or replaced.
    pub notice: Option<Notice>,
    /// The side panel is shown (else the 3D view takes the window's width).
    pub panel_shown: bool,
    /// Which clip a file opens on.
    pub clip_on_open: ClipOnOpen,
    /// "Compare with…": the model compared with the open one, and what differs.
    pub compare: Option<Comparison>,
}

impl ViewerState {
    /// `model` shown, on the clip `ClipOnOpen::Suggested` picks.
    pub fn new(model: Model) -> Self {
        Self {
            frame: AnimatedFrame::new(&model, opening_clip(&model.clips, ClipOnOpen::Suggested)),
            ik_editor: IkEditor::new(&model),
            inspection: Inspection::new(&model),
            view: ViewOptions {
                lighting: Lighting {
                    lights: Lights::default_for(&model),
                    ..Lighting::default()
                },
                ..ViewOptions::default()
            },
            document: Document::new(model),
            hovered_file: None,
            quality: Quality::Best,
            requests: Requests::default(),
            file_camera: None,
            watching: Watching::default(),
            browser: Browsing::default(),
            clip_export: ClipExportPanel::default(),
            curves: CurveView::default(),
            clips_from: ClipsFrom::default(),
            trails: TrailControls::default(),
            motion: MotionControls::default(),
            notice: None,
            panel_shown: true,
            clip_on_open: ClipOnOpen::Suggested,
            compare: None,
        }
    }

    /// Opens `path` (from the command line, a drop or the dialog). On success the model and
    /// playback are replaced and the camera reset to the default view; on failure the error
    /// is kept for the panel and the model already open stays. An `.md5anim` is added as a
    /// clip to the open MD5 model instead; a model with clips that fit the open rig waits for
    /// the panel to say whether to add its clips or open it (`clips_from`).
    pub fn open(&mut self, path: &Path) {
        self.hovered_file = None;
        if Format::from_extension(path) == Some(Format::Md5Anim) {
            // An .md5anim adds a clip to the open MD5 model.
            match asset::add_md5_animation(&mut self.document.model, path) {
                Ok(()) => {
                    self.document.load_error = None;
                    self.document.refresh_facts();
                    self.inspection.facts = JointFacts::new(&self.document.model);
                    // The model's files now include the animation.
                    self.watching.revision += 1;
                }
                Err(error) => self.failed_to_open(error.to_string()),
            }
            return;
        }
        match asset::load(path) {
            Ok(model) => {
                if let Some(model) = self.offer_clips(model) {
                    self.show_model(model);
                }
            }
            Err(error) => {
                self.failed_to_open(error.to_string());
                // Watched, so that fixing the file opens it.
                self.watching.failed_file = Some(path.to_path_buf());
                self.watching.revision += 1;
            }
        }
    }

    /// A file asked for could not be opened or added, for `error`: said in the File section
    /// and over the view.
    pub(super) fn failed_to_open(&mut self, error: String) {
        self.notice = Some(Notice::failed(error.clone()));
        self.document.load_error = Some(error);
    }

    /// Shows `model` in place of the open one, playback and camera starting afresh.
    pub(super) fn show_model(&mut self, model: Model) {
        let (mut view, fade_time, speed, mode) = (
            self.view,
            self.frame.player.fade_time,
            self.frame.player.speed,
            self.frame.player.mode(),
        );
        view.lighting.lights = Lights::default_for(&model);
        // Variants are the file's own: a new file starts with its default materials.
        view.material_variant = None;
        let (crowd, generation) = (self.frame.crowd.for_new_model(), self.document.generation);
        let shown = Self {
            view,
            quality: self.quality,
            panel_shown: self.panel_shown,
            clip_on_open: self.clip_on_open,
            watching: Watching {
                failed_file: None,
                note: None,
                ..std::mem::take(&mut self.watching)
            },
            browser: std::mem::take(&mut self.browser),
            clip_export: std::mem::take(&mut self.clip_export),
            curves: std::mem::take(&mut self.curves),
            trails: self.trails.for_new_model(),
            motion: self.motion.for_new_model(),
            inspection: self.inspection.for_model(&model),
            // Compared with the new model at the next step.
            compare: self.compare.take(),
            ..Self::new(model)
        };
        let replaced = std::mem::replace(self, shown);
        self.document.replaced = replaced.document.replaced;
        self.retire(replaced.document.model);
        self.document.generation = generation + 1;
        self.frame.player = Player::new(opening_clip(&self.document.model.clips, self.clip_on_open));
        self.frame.crowd = crowd;
        self.frame.player.fade_time = fade_time;
        self.frame.player.speed = speed;
        self.frame.player.animator.mode = mode;
        // A new file starts from the default view (three-quarter front), framed.
        self.requests.reset_camera = true;
    }

    /// Keeps `replaced`, the model shown until now, for a clip export that runs (it finishes
    /// on the model it started with); else it is dropped.
    fn retire(&mut self, replaced: Model) {
        if self.clip_export.progress.is_some() {
            // Of several replaced before the app looks, the first is the export's.
            self.document.replaced.get_or_insert(replaced);
        }
    }

    /// Frames per second the clip playing was keyed at: what "one frame" means for steps
    /// and the timeline's frame numbers.
    pub fn key_rate(&self) -> f32 {
        let clip = self.frame.player.clip().and_then(|c| self.document.model.clips.get(c));
        clip.map_or(DEFAULT_KEY_RATE, Clip::key_rate)
    }

    /// Carries out a keyboard shortcut.
    pub fn shortcut(&mut self, shortcut: Shortcut) {
        let (clips, rate) = (&self.document.model.clips, self.key_rate());
        match shortcut {
            Shortcut::PlayPause => self.frame.player.toggle_play(clips),
            Shortcut::StepBack => self.frame.player.step(-1.0, rate, clips),
            Shortcut::StepForward => self.frame.player.step(1.0, rate, clips),
            Shortcut::ResetView => self.requests.reset_camera = true,
            Shortcut::Frame => self.requests.frame_model = true,
            Shortcut::Open => self.requests.open_dialog = true,
            Shortcut::View(preset) => self.requests.view = Some(preset),
            Shortcut::NextCamera => {
                let next = self.file_camera.map_or(0, |c| c + 1);
                self.file_camera = (next < self.document.model.cameras.len()).then_some(next);
            }
            Shortcut::CurveView => self.curves.shown = !self.curves.shown,
            Shortcut::Panel => self.panel_shown = !self.panel_shown,
        }
    }

    /// What the 3D view is seen through in a view of `aspect` (width / height): the file
    /// camera chosen, where this frame's pose puts it, else `orbit`.
    pub fn camera_view(&self, orbit: &OrbitCamera, aspect: f32) -> CameraView {
        let properties = self.frame.pose.properties();
        self.file_camera
            .and_then(|c| model_camera_view(&self.document.model, c, &self.frame.joint_matrices, properties, aspect))
            .unwrap_or_else(|| orbit.camera_view(aspect))
    }

    /// What to draw this frame: the view toggles, with the inspection's vertex view, and the
    /// skeleton while an end joint is being picked or when there is no mesh to draw.
    pub fn view_options(&self) -> ViewOptions {
        let mut view = self.view;
        view.vertex_view = self.inspection.vertex_view();
        if self.compare.as_ref().is_some_and(|c| c.heat_map) {
            view.vertex_view = Some(VertexView::WeightChange);
        }
        view.skeleton |= self.ik_editor.picking || self.document.model.instances.is_empty();
        view
    }

    /// Advances playback by `dt` seconds of wall time and poses the model. Returns true when
    /// the motion stopped in this step (a fade or a Once clip ended, playing or paused): a
    /// panel laid out before the step must be drawn once more to show that it ended.
    pub fn advance(&mut self, dt: f32) -> bool {
        let pose_mode = self.inspection.pose_mode;
        // The clip on the timeline (faded to, during a fade).
        let clip = self.frame.player.clip();
        (self.motion).update(&self.document.model, self.document.generation, clip);
        self.frame.in_place = self.motion.in_place();
        let stepped = (self.frame).advance(&self.document.model, self.document.generation, pose_mode, dt);
        let animated = self.inspection.pose_mode == PoseMode::Animated;
        let at = TrailTime {
            clip: self.frame.player.animator.crossfade.base().filter(|_| animated),
            time: self.frame.player.animator.crossfade.time(),
            mode: self.frame.player.mode(),
        };
        (self.trails).update(
            &self.document.model,
            self.document.generation,
            at,
            self.inspection.selected,
        );
        if stepped.crowd_changed {
            self.requests.frame_model = true;
        }
        self.follow_compare();
        stepped.motion_stopped
    }
}

/// Pointer actions in the 3D view, which the IK editor and the joint browser share out.
impl ViewerState {
    /// Adds an IK chain of `length` bones ending at `end`, its target where that joint is now.
    pub fn add_ik_chain(&mut self, end: usize, length: usize) {
        let chains = &mut self.frame.player.animator.ik;
        self.ik_editor.add_chain(
            chains,
            &self.document.model.skeleton,
            &self.frame.joint_matrices,
            (end, length),
        );
    }

    /// A press of the main button at `cursor` in the view. Returns true when IK editing takes
    /// it (a target grabbed, or a joint picked), false when the camera should orbit.
    pub fn press_in_view(&mut self, cursor: Vec2, view: &Viewport) -> bool {
        // The point the eyes look at, when they look at one, can be grabbed first.
        if let EyeTarget::Point(point) = self.frame.avatar.eyes
            && view.nearest(std::iter::once((0, point)), cursor, PICK_RADIUS).is_some()
        {
            self.frame.avatar.eyes_grabbed = true;
            return true;
        }
        let chains = &mut self.frame.player.animator.ik;
        self.ik_editor.press(
            chains,
            &self.document.model.skeleton,
            &self.frame.joint_matrices,
            (cursor, view),
        )
    }

    /// The pointer moved to `cursor` with the main button held.
    pub fn drag_in_view(&mut self, cursor: Vec2, view: &Viewport) {
        if let (true, EyeTarget::Point(point)) = (self.frame.avatar.eyes_grabbed, self.frame.avatar.eyes) {
            // Across the plane through the point that faces the camera, as IK targets move.
            if let Some(moved) = view.on_camera_plane(cursor, point) {
                self.frame.avatar.eyes = EyeTarget::Point(moved);
            }
            return;
        }
        self.ik_editor.drag(&mut self.frame.player.animator.ik, cursor, view);
    }

    /// Whether a press in the view grabbed something it now drags (an IK target, the eyes'
    /// point).
    pub fn dragging_in_view(&self) -> bool {
        self.ik_editor.dragging.is_some() || self.frame.avatar.eyes_grabbed
    }

    /// The main button was released.
    pub fn release_in_view(&mut self) {
        self.frame.avatar.eyes_grabbed = false;
        self.ik_editor.release();
    }

    /// The pointer moved to `cursor` in the view (`None`: off the view): notes the joint under it.
    pub fn hover_in_view(&mut self, cursor: Option<(Vec2, &Viewport)>) {
        self.inspection.hover(&self.frame.joint_matrices, cursor);
    }

    /// A click (press and release without dragging) at `cursor`: selects the joint there.
    pub fn click_in_view(&mut self, cursor: Vec2, view: &Viewport) -> bool {
        self.inspection.click(&self.frame.joint_matrices, cursor, view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::inspect::PoseMode;
    use crate::view::OrbitCamera;

    #[test]
    fn a_failed_open_keeps_the_model_and_reports_the_file() {
        let mut state = ViewerState::new(demo_model());
        state.open(Path::new("/no/such/model.glb"));
        assert_eq!(state.document.model.clips.len(), 5, "still the demo");
        assert_eq!(state.document.generation, 0);
        let error = state.document.load_error.clone().unwrap();
        assert!(
            error.contains("/no/such/model.glb") && error.contains("cannot read"),
            "{error}"
        );
    }

    #[test]
    fn a_model_replaced_while_an_export_runs_is_kept_for_it() {
        let mut state = ViewerState::new(demo_model());
        state.show_model(demo_model());
        assert!(state.document.replaced.is_none(), "no export: dropped");
        state.clip_export.progress = Some((1, 10));
        let mut other = demo_model();
        other.clips.clear();
        state.show_model(other);
        assert_eq!(state.document.replaced.as_ref().unwrap().clips.len(), 5);
        state.show_model(demo_model());
        assert_eq!(
            state.document.replaced.as_ref().unwrap().clips.len(),
            5,
            "of two replaced before the app looks, the first is the export's"
        );
    }

    #[test]
    fn shortcuts_drive_playback_and_requests() {
        let mut state = ViewerState::new(demo_model());
        state.shortcut(Shortcut::PlayPause);
        assert!(!state.frame.player.playing);
        state.shortcut(Shortcut::StepForward);
        assert!((state.frame.player.clip_time(&state.document.model.clips) - 1.0 / state.key_rate()).abs() < 1e-6);
        state.shortcut(Shortcut::StepBack);
        assert!(state.frame.player.clip_time(&state.document.model.clips).abs() < 1e-6);
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
            (
                Shortcut::View(ViewPreset::Back),
                Requests {
                    view: Some(ViewPreset::Back),
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
    fn the_curve_view_key_shows_and_hides_it() {
        let mut state = ViewerState::new(demo_model());
        assert!(!state.curves.shown, "hidden at first");
        state.shortcut(Shortcut::CurveView);
        assert!(state.curves.shown);
        state.shortcut(Shortcut::CurveView);
        assert!(!state.curves.shown);
    }

    #[test]
    fn the_view_looks_through_the_chosen_file_camera_and_cycles_back_to_orbit() {
        use crate::asset::{Camera, Projection};
        let mut state = ViewerState::new(demo_model());
        let head = state.document.model.skeleton.find("head").unwrap();
        state.document.model.cameras.push(Camera {
            name: "head cam".into(),
            index: 0,
            joint: head,
            projection: Projection::Perspective {
                yfov: 0.7,
                aspect_ratio: None,
                znear: 0.05,
                zfar: None,
            },
        });
        let orbit = OrbitCamera::default();
        assert_eq!(state.camera_view(&orbit, 1.5), orbit.camera_view(1.5));
        state.shortcut(Shortcut::NextCamera);
        assert_eq!(state.file_camera, Some(0));
        state.advance(0.5);
        let eye = state.camera_view(&orbit, 1.5).eye;
        assert!(
            eye.distance(state.frame.joint_matrices[head].w_axis.truncate()) < 1e-5,
            "the camera rides its joint"
        );
        state.shortcut(Shortcut::NextCamera);
        assert_eq!(state.file_camera, None, "after the last camera, the orbit camera");
    }

    #[test]
    fn playback_advances_the_pose() {
        let mut state = ViewerState::new(demo_model());
        let rest = state.frame.pose.clone();
        state.advance(0.3);
        assert_ne!(state.frame.pose, rest);
    }

    #[test]
    fn clicking_near_a_joint_selects_it_and_elsewhere_does_nothing() {
        let mut state = ViewerState::new(demo_model());
        // The default camera looks at (0, 1, 0), about the demo's chest.
        let view = Viewport::new(&OrbitCamera::default().camera_view(800.0 / 600.0), 800.0, 600.0);
        let head = state.document.model.skeleton.find("head").unwrap();
        let at = view
            .to_pixels(state.frame.joint_matrices[head].w_axis.truncate())
            .unwrap();
        assert!(state.click_in_view(at + Vec2::new(3.0, -2.0), &view));
        assert_eq!(state.inspection.selected, Some(head));
        assert!(state.inspection.reveal);
        assert!(
            !state.click_in_view(Vec2::new(2.0, 2.0), &view),
            "a corner of the view is far from every joint"
        );
        assert_eq!(state.inspection.selected, Some(head), "a miss keeps the selection");
    }

    #[test]
    fn pose_modes_replace_the_animation() {
        let mut state = ViewerState::new(demo_model());
        state.advance(0.4);
        let animated = state.frame.pose.clone();
        assert_ne!(&animated, state.document.model.skeleton.rest_pose());
        state.inspection.pose_mode = PoseMode::Rest;
        state.advance(0.1);
        assert_eq!(&state.frame.pose, state.document.model.skeleton.rest_pose());
        state.inspection.pose_mode = PoseMode::Bind;
        state.advance(0.1);
        assert_eq!(&state.frame.pose, state.document.model.skeleton.bind_pose());
        let bind = state.document.model.skeleton.bind_pose().to_model_matrices();
        assert_eq!(
            state.frame.joint_matrices, bind,
            "picking and gizmos follow the pose shown"
        );
    }

    /// The demo at rest, posed once, and a view of it.
    fn setup() -> (ViewerState, Viewport) {
        let mut state = ViewerState::new(demo_model());
        state.frame.player.select(None);
        state.advance(0.0);
        // The default camera looks at (0, 1, 0), about the demo's chest.
        (
            state,
            Viewport::new(&OrbitCamera::default().camera_view(800.0 / 600.0), 800.0, 600.0),
        )
    }

    fn joint_pixel(state: &ViewerState, view: &Viewport, joint: usize) -> Vec2 {
        view.to_pixels(state.frame.joint_matrices[joint].w_axis.truncate())
            .unwrap()
    }

    #[test]
    fn clicking_near_a_joint_while_picking_adds_a_chain_ending_there() {
        let (mut state, view) = setup();
        let wrist = state.document.model.skeleton.find("wrist.L").unwrap();
        let near_wrist = joint_pixel(&state, &view, wrist) + Vec2::new(3.0, -2.0);
        assert!(
            !state.press_in_view(near_wrist, &view),
            "not picking: the camera orbits"
        );
        state.ik_editor.picking = true;
        assert!(state.press_in_view(near_wrist, &view));
        assert!(!state.ik_editor.picking, "one pick per request");
        let chain = &state.frame.player.animator.ik[0].chain;
        assert_eq!(chain.end(), wrist);
        assert_eq!(chain.bones(), 2);
        assert_eq!(state.document.model.skeleton.name(chain.joints()[0]), "shoulder.L");
    }

    #[test]
    fn picking_shows_the_skeleton_to_pick_from() {
        let (mut state, _) = setup();
        state.view.skeleton = false;
        assert!(!state.view_options().skeleton);
        state.ik_editor.picking = true;
        assert!(state.view_options().skeleton);
    }

    #[test]
    fn dragging_a_target_moves_it_and_the_hand_follows() {
        let (mut state, view) = setup();
        let wrist = state.document.model.skeleton.find("wrist.L").unwrap();
        state.add_ik_chain(wrist, 2);
        let start = joint_pixel(&state, &view, wrist);
        state.ik_editor.show_targets = false;
        assert!(!state.press_in_view(start, &view), "hidden targets cannot be grabbed");
        state.ik_editor.show_targets = true;
        assert!(
            state.press_in_view(start + Vec2::new(2.0, 2.0), &view),
            "grabs the target"
        );
        assert_eq!(state.ik_editor.dragging, Some(0));
        let goal = start + Vec2::new(40.0, -60.0);
        state.drag_in_view(goal, &view);
        state.release_in_view();
        state.drag_in_view(start, &view);
        let target = state.frame.player.animator.ik[0].target;
        assert!(
            view.to_pixels(target).unwrap().distance(goal) < 0.5,
            "moves only while held"
        );
        state.advance(0.0);
        let hand = state.frame.joint_matrices[wrist].w_axis.truncate();
        assert!(state.frame.player.animator.ik[0].outcome.reached);
        assert!(hand.distance(target) < 1e-2, "the wrist reaches the dragged target");
    }

    #[test]
    fn the_step_that_ends_a_paused_fade_says_so() {
        // The demo plays idle; paused, it fades to walk.
        let mut state = ViewerState::new(demo_model());
        state.frame.player.playing = false;
        state.frame.player.fade_time = 0.5;
        state.frame.player.select(Some(1));
        assert!(!state.advance(0.2), "still fading");
        assert!(state.advance(0.4), "the fade ends in this step");
        assert!(!state.advance(0.1), "nothing moves after it");
    }

    #[test]
    fn a_chain_longer_than_the_joints_ancestry_is_reported() {
        let (mut state, _) = setup();
        let hips = state.document.model.skeleton.find("hips").unwrap();
        state.add_ik_chain(hips, 5);
        assert!(state.frame.player.animator.ik.is_empty());
        let error = state.ik_editor.error.clone().unwrap();
        assert_eq!(
            error,
            "hips has 1 joint above it, too few for a chain of 5 bones: choose at most 1"
        );
    }
}
