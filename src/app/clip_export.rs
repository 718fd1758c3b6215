//! The viewer's "Export clip…" job: the clip playing, from its start over its duration, as
//! the view shows it, written frame by frame (`export::video_file`) a few frames per viewer
//! frame so the window stays responsive.
//!
//! What is exported is the animator's whole state at the start, played forward at the
//! export's frame rate as the viewer would play it: the clip (or the blend of clips while
//! weights are set), its additive layers and IK chains, the pose mode and morph weights set in
//! the panel; a fade under way is finished first. It is seen through the view's camera (the
//! orbit camera as it was when the export started, or the file camera chosen, following its
//! joint) with the view's display options, at the export's size. The selected joint's and IK
//! targets' gizmos are left out.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::bail;
use glam::Mat4;

use super::file_dialog;
use crate::anim::{MorphOverride, Player, Pose};
use crate::asset::Model;
use crate::export::frame_plan::FramePlan;
use crate::export::video_file::VideoFile;
use crate::inspect::PoseMode;
use crate::render::capture::read_rgba;
use crate::render::{self, FrameInput, Gpu, ModelView, SceneRenderer, SceneTarget};
use crate::ui::ViewerState;
use crate::ui::file_browser::Purpose;
use crate::ui::notice::Notice;
use crate::view::avatar_motion::AvatarMotion;
use crate::view::file_camera::model_camera_view;
use crate::view::{CameraView, OrbitCamera, ViewOptions, capitalised};

/// How long one viewer frame may spend on export frames (it always renders at least one).
const BUDGET_PER_VIEWER_FRAME: Duration = Duration::from_millis(60);

pub struct ClipExport {
    video: VideoFile,
    plan: FramePlan,
    path: PathBuf,
    /// The viewer's player as the export started, playing at one second a second.
    player: Player,
    pose_mode: PoseMode,
    morphs: MorphOverride,
    /// The avatar's settings as the viewer had them; its springs swing from the export's
    /// first frame.
    avatar: AvatarMotion,
    view: ViewOptions,
    size: (u32, u32),
    /// The orbit camera's view at the export's aspect; a file camera is followed instead.
    orbit_view: CameraView,
    file_camera: Option<usize>,
    pose: Pose,
    joint_matrices: Vec<Mat4>,
    target: Option<SceneTarget>,
    /// The model the export started with and its GPU data, once the viewer shows another
    /// (a reload, a new file): the export finishes on what it started with.
    kept: Option<(Model, ModelView)>,
    /// The next frame to render.
    next: u32,
}

impl ClipExport {
    /// Starts exporting the clip `state` plays, seen through `camera`, to `path`, with the
    /// panel's size and frame rate.
    pub fn start(state: &ViewerState, camera: &OrbitCamera, path: &Path) -> anyhow::Result<Self> {
        let settings = &state.clip_export;
        let Some(clip) = state
            .frame
            .player
            .clip()
            .and_then(|c| state.document.model.clips.get(c))
        else {
            bail!("no clip is playing: choose one to export");
        };
        let plan = FramePlan::new((0.0, clip.duration()), settings.fps, None, false)?;
        let size = (settings.width.clamp(16, 4096), settings.height.clamp(16, 4096));
        let video = VideoFile::create(path, size, plan)?;
        let mut player = state.frame.player.clone();
        player.scrub(0.0, &state.document.model.clips);
        player.animator.layer_time = 0.0;
        player.playing = true;
        player.speed = 1.0;
        let aspect = size.0 as f32 / size.1 as f32;
        Ok(Self {
            video,
            plan,
            path: path.to_path_buf(),
            player,
            pose_mode: state.inspection.pose_mode,
            morphs: state.frame.morphs.clone(),
            avatar: state.frame.avatar.settings_only(),
            view: state.view_options(),
            size,
            orbit_view: camera.camera_view(aspect),
            file_camera: state.file_camera,
            pose: state.document.model.skeleton.rest_pose().clone(),
            joint_matrices: state.frame.joint_matrices.clone(),
            target: None,
            kept: None,
            next: 0,
        })
    }

    /// The viewer replaced the model it showed by another: `model` and `model_view` are
    /// that model and its GPU data. The first is the one the export started with, which it
    /// keeps drawing until it ends; later ones are dropped.
    pub fn keep(&mut self, model: Model, model_view: ModelView) {
        self.kept.get_or_insert((model, model_view));
    }

    /// Frames written and the total.
    pub fn progress(&self) -> (u32, u32) {
        (self.next, self.plan.frames)
    }

    /// Renders and writes frames for up to `BUDGET_PER_VIEWER_FRAME` (at least one) with the
    /// window's renderer and `model_view` of `model` (the model shown), or the model kept
    /// since the viewer replaced it. Returns true once every frame is written.
    pub fn step(
        &mut self,
        gpu: &Gpu,
        scene: &mut SceneRenderer,
        model_view: &mut ModelView,
        model: &Model,
    ) -> anyhow::Result<bool> {
        let mut kept = self.kept.take();
        let (model_view, model) = match &mut kept {
            Some((model, model_view)) => (model_view, &*model),
            None => (model_view, model),
        };
        let deadline = Instant::now() + BUDGET_PER_VIEWER_FRAME;
        // The gizmos show the live pose, not the exported one.
        scene.gizmos.clear();
        let mut written = Ok(());
        while self.next < self.plan.frames {
            written = (self.render_next(gpu, scene, model_view, model)).and_then(|image| self.video.push(image));
            if written.is_err() {
                break;
            }
            self.next += 1;
            if Instant::now() >= deadline {
                break;
            }
        }
        self.kept = kept;
        written.map(|()| self.next == self.plan.frames)
    }

    /// Completes the file; returns what the panel says about it.
    pub fn finish(self) -> anyhow::Result<String> {
        self.video.finish()?;
        Ok(written_note(&self.path, self.plan.frames))
    }

    fn render_next(
        &mut self,
        gpu: &Gpu,
        scene: &mut SceneRenderer,
        model_view: &mut ModelView,
        model: &Model,
    ) -> anyhow::Result<image::RgbaImage> {
        if self.next > 0 {
            self.player.advance(1.0 / self.plan.fps as f32, &model.clips);
        }
        let rest = model.skeleton.rest_pose();
        self.player.pose(&model.clips, rest, &mut self.pose);
        self.pose_mode.apply(&model.skeleton, &mut self.pose);
        let dt = if self.next > 0 { 1.0 / self.plan.fps as f32 } else { 0.0 };
        (self.avatar).apply(model, 0, &mut self.pose, &mut self.joint_matrices, dt);
        self.morphs.apply(&mut self.pose);
        self.pose.model_matrices(&mut self.joint_matrices);
        let (width, height) = self.size;
        let camera = self.camera_view(model);
        let input = FrameInput {
            model,
            pose: &self.pose,
            model_matrices: &self.joint_matrices,
            camera: &camera,
            view: &self.view,
            crowd: None,
            time: self.next as f32 / self.plan.fps as f32,
            ground_slide: glam::Vec2::ZERO,
        };
        // Remade when the panel's quality changed the renderer's sample count meanwhile.
        if self.target.as_ref().is_some_and(|t| t.samples != scene.sample_count) {
            self.target = None;
        }
        let target = self
            .target
            .get_or_insert_with(|| scene.target(&gpu.device, width, height));
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("export") });
        render::pose_and_upload(gpu, scene, model_view, &input);
        if self.view.measures_skin_difference() {
            // The heat colours of this frame's pose; a failure greys them, as in the window.
            let _ = model_view.measure_skin_difference(gpu, scene);
        }
        render::draw(gpu, scene, (model_view, &input), None, target, &mut encoder);
        gpu.queue.submit([encoder.finish()]);
        Ok(read_rgba(gpu, &target.resolved)?)
    }

    /// The file camera where this frame's pose puts it, else the orbit camera's view.
    fn camera_view(&self, model: &Model) -> CameraView {
        let aspect = self.size.0 as f32 / self.size.1 as f32;
        let properties = self.pose.properties();
        self.file_camera
            .and_then(|c| model_camera_view(model, c, &self.joint_matrices, properties, aspect))
            .unwrap_or(self.orbit_view)
    }
}

/// The window's side of the export: started by the panel's request, a few frames after each
/// viewer frame, ended when done, cancelled or failed.
impl super::Running {
    /// "Export clip…": asks where, then starts (the built-in browser answers in a later
    /// frame, through `export_to`).
    pub(super) fn start_export(&mut self) {
        if let Some(path) = file_dialog::pick_file(&mut self.state, Purpose::Export) {
            self.export_to(&path);
        }
    }

    /// Starts exporting the clip playing to `path`.
    pub(super) fn export_to(&mut self, path: &Path) {
        // The next export's dialog starts here.
        self.state.clip_export.path = path.display().to_string();
        match ClipExport::start(&self.state, &self.camera, path) {
            Ok(export) => {
                self.state.clip_export.progress = Some(export.progress());
                self.state.clip_export.outcome = None;
                self.export = Some(export);
            }
            Err(error) => {
                let error = format!("{error:#}");
                self.state.notice = Some(Notice::failed(format!("Export failed: {error}")));
                self.state.clip_export.outcome = Some(Err(error));
            }
        }
    }

    /// Renders the next few frames of a running export, or stops it when cancelled; while it
    /// runs, frames keep coming.
    pub(super) fn continue_export(&mut self) {
        let Some(export) = &mut self.export else { return };
        if std::mem::take(&mut self.state.clip_export.cancel) {
            self.end_export(Err("export cancelled".into()));
            return;
        }
        let state = &self.state;
        match export.step(&self.gpu, &mut self.scene, &mut self.model_view, &state.document.model) {
            Ok(false) => {
                self.state.clip_export.progress = Some(export.progress());
                self.redraw_wanted = true;
            }
            Ok(true) => {
                let outcome = self.export.take().map(ClipExport::finish);
                self.end_export(outcome.unwrap_or(Ok(String::new())).map_err(|e| format!("{e:#}")));
            }
            Err(error) => self.end_export(Err(format!("{error:#}"))),
        }
    }

    /// Ends the running export (dropping it removes a partial file) with `outcome` for the
    /// panel; nothing when none runs.
    pub(super) fn end_export(&mut self, outcome: Result<String, String>) {
        let ran = self.export.take().is_some() || self.state.clip_export.progress.is_some();
        if ran {
            self.state.clip_export.progress = None;
            self.state.notice = Some(match &outcome {
                Ok(written) => Notice::done(capitalised(written)),
                Err(error) => Notice::failed(capitalised(error)),
            });
            self.state.clip_export.outcome = Some(outcome);
            self.redraw_wanted = true;
        }
    }
}

/// What the panel says of a finished export: the whole path, since a bare name went to the
/// directory rigscope was started in.
fn written_note(path: &std::path::Path, frames: u32) -> String {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    format!("wrote {} ({frames} frames)", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::asset::demo::demo_model;

    /// The demo playing its walk, to be exported at 10 fps, 40 x 30; and the walk's index.
    fn exporting_the_walk() -> (ViewerState, usize) {
        let mut state = ViewerState::new(demo_model());
        let walk = state.document.model.find_clip("walk").unwrap();
        state.frame.player.select(Some(walk));
        state.clip_export.fps = 10;
        (state.clip_export.width, state.clip_export.height) = (40, 30);
        (state, walk)
    }

    #[test]
    fn an_export_writes_every_frame_of_the_clip_playing() {
        let (state, walk) = exporting_the_walk();
        let gpu = Gpu::headless().unwrap();
        let mut scene = SceneRenderer::new(&gpu);
        let mut model_view = ModelView::new(&gpu, &scene, &state.document.model);
        let dir = std::env::temp_dir().join(format!("rigscope-clip-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let frames = (state.document.model.clips[walk].duration() * 10.0).round() as u32;
        for name in ["walk.gif", "walk.mp4"] {
            let path = dir.join(name);
            let mut export = ClipExport::start(&state, &OrbitCamera::default(), &path).unwrap();
            assert_eq!(export.progress(), (0, frames));
            while !export
                .step(&gpu, &mut scene, &mut model_view, &state.document.model)
                .unwrap()
            {}
            assert_eq!(export.progress(), (frames, frames));
            assert!(export.finish().unwrap().contains(name));
        }
        let mut decoder = gif::DecodeOptions::new()
            .read_info(std::fs::File::open(dir.join("walk.gif")).unwrap())
            .unwrap();
        let mut written = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert_eq!((frame.width, frame.height, frame.delay), (40, 30, 10));
            written += 1;
        }
        assert_eq!(written, frames);
        let mp4 = std::fs::read(dir.join("walk.mp4")).unwrap();
        let reader = mp4::Mp4Reader::read_header(std::io::Cursor::new(&mp4), mp4.len() as u64).unwrap();
        let track = reader.tracks().values().next().unwrap();
        assert_eq!((track.width(), track.height(), track.sample_count()), (40, 30, frames));
        assert_eq!(track.frame_rate(), 10.0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_export_finishes_on_the_model_it_started_with() {
        let (state, _) = exporting_the_walk();
        let gpu = Gpu::headless().unwrap();
        let mut scene = SceneRenderer::new(&gpu);
        let dir = std::env::temp_dir().join(format!("rigscope-export-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The viewer shows another model (the same rig without clips, at rest) from the start.
        let mut other = demo_model();
        other.clips.clear();
        let mut other_view = ModelView::new(&gpu, &scene, &other);
        let mut shown_view = ModelView::new(&gpu, &scene, &state.document.model);
        let mut export = |path: &Path, kept: bool| {
            let mut export = ClipExport::start(&state, &OrbitCamera::default(), path).unwrap();
            if kept {
                export.keep(demo_model(), ModelView::new(&gpu, &scene, &state.document.model));
            }
            let (live, live_view) = match kept {
                true => (&other, &mut other_view),
                false => (&state.document.model, &mut shown_view),
            };
            while !export.step(&gpu, &mut scene, live_view, live).unwrap() {}
            export.finish().unwrap();
            std::fs::read(path).unwrap()
        };
        let uninterrupted = export(&dir.join("walk.gif"), false);
        let kept = export(&dir.join("kept.gif"), true);
        assert!(
            kept == uninterrupted,
            "the frames are the walk's, not the other model's"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_note_names_the_folder_a_bare_name_went_to() {
        let here = std::env::current_dir().unwrap();
        let note = written_note(std::path::Path::new("clip.gif"), 12);
        assert_eq!(note, format!("wrote {} (12 frames)", here.join("clip.gif").display()));
    }
}
