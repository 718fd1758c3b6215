//! The window: a winit event loop around four parts, each its own type: the `Surface` (the
//! window, the wgpu surface, the scene's target and the window image), the `EguiLayer` (the
//! panel), `ViewInput` (mouse and keys in the 3D view) and the model view (`render::ModelView`:
//! the model's GPU data and deformer). `Running::frame` reads as the frame's stages: lay out
//! the panel, carry out its requests, animate, render the scene, compose and present.
//!
//! Frames are drawn on demand: while something moves (a clip playing, a fade, egui's
//! animations) one after another, otherwise only when an event changes what is shown. An idle
//! viewer waits for events and uses no CPU.

mod clip_export;
mod egui_layer;
mod egui_painter;
pub mod file_dialog;
pub mod file_watch;
mod frame_clock;
mod run_report;
mod shared_memory;
mod surface;
mod view_input;

use std::path::Path;
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::Context;
use clip_export::ClipExport;
use winit::application::ApplicationHandler;
use winit::event::{StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::WindowId;

use crate::asset::demo::demo_model;
use crate::inspect::VertexView;
use crate::inspect::expression_lookup::expression_weights;
use crate::inspect::lookup::{find_joint, vector};
use crate::inspect::morph_lookup::morph_overrides;
use crate::inspect::motion::SLIDE_SHARE;
use crate::render::COMPARE_GHOST_COLOR;
use crate::render::avatar_gizmo::{draw_look_point, draw_spring_bones};
use crate::render::gpu_timer::GpuTimer;
use crate::render::ik_gizmo::draw_ik_chains;
use crate::render::joint_gizmo::{draw_hovered_joint, draw_selected_joint};
use crate::render::motion_gizmo::draw_motion;
use crate::render::trail_gizmo::draw_trails;
use crate::render::{self, Environment, EnvironmentImage, FrameInput, Gpu, ModelView, SceneRenderer, SecondModel};
use crate::ui::file_browser::Purpose;
use crate::ui::notice::Notice;
use crate::ui::{RenderStatus, ViewerState, bone_labels, panel};
use crate::view::avatar_motion::EyeTarget;
use crate::view::compare_layout::{CompareLayout, both_bounds, placed_bounds};
use crate::view::{Bounds, Lighting, OrbitCamera, Quality, ViewOptions, ViewerOptions};
use egui_layer::EguiLayer;
use file_watch::FileWatch;
use frame_clock::FrameClock;
use run_report::RunReport;
use surface::{NoFrame, Surface};
use view_input::ViewInput;

/// Opens the viewer and runs until the window closes. A file that cannot be opened leaves the
/// demo rig on screen with the error in the panel (and on stderr): someone who double-clicked
/// a broken file sees why.
pub fn run(options: ViewerOptions) -> anyhow::Result<()> {
    // The files load on a thread of their own while the window and its device are made: on a
    // software rasteriser each takes tens of milliseconds (a Mixamo FBX loads in 80).
    let opening = {
        let options = options.clone();
        std::thread::spawn(move || opened_files(&options))
    };
    let event_loop = match EventLoop::new() {
        Ok(event_loop) => event_loop,
        Err(error) => {
            joined(opening);
            return Err(error).context("cannot open a window (no display?)");
        }
    };
    let mut app = App {
        options,
        opening: Some(opening),
        // The file watcher wakes the event loop through it.
        proxy: event_loop.create_proxy(),
        running: None,
        result: Ok(()),
    };
    event_loop.run_app(&mut app).context("the event loop failed")?;
    app.result?;
    if let Some(running) = &app.running {
        if let Some(timings) = &running.clock.timings {
            let crowd = running.state.frame.crowd.options.count;
            let view = running.state.view_options();
            let compared = running
                .compare_view
                .as_ref()
                .map_or(0, |(b, _)| b.triangles_drawn(&view));
            let triangles = running.model_view.triangles_drawn(&view) + compared;
            let presentation = &running.surface.presentation;
            println!(
                "{}",
                timings.to_json(&running.gpu, presentation, crowd, triangles, view.gpu_skinning)
            );
        }
        if app.options.exit_after.is_some() {
            println!(
                "{}",
                running
                    .report
                    .to_json(running.clock.frames, running.state.quality.label())
            );
        }
    }
    Ok(())
}

/// The viewer's state with the files of `options` open (the demo rig without one), its load
/// error said on standard error.
fn opened_files(options: &ViewerOptions) -> ViewerState {
    let mut state = ViewerState::new(demo_model());
    if let Some(path) = &options.file {
        state.open(path);
    }
    // Clips are added to the model that opened (the demo rig without a file), none after an
    // error, so that the first error stays on screen.
    for clips in &options.clips_from {
        if state.document.load_error.is_none() {
            state.add_clips_from(clips);
        }
    }
    if let Some(path) = options.compare.as_ref().filter(|_| state.document.load_error.is_none()) {
        state.open_compare(path);
        if let Some(comparison) = &mut state.compare {
            comparison.layout = options.compare_layout;
        }
    }
    if let Some(error) = &state.document.load_error {
        eprintln!("rigscope: {error}");
    }
    state
}

/// The state `opening` opened (a panic there goes on here, as if it had loaded on this thread).
fn joined(opening: JoinHandle<ViewerState>) -> ViewerState {
    opening.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

struct App {
    options: ViewerOptions,
    /// The files loading (`opened_files`), until the window opens and takes them.
    opening: Option<JoinHandle<ViewerState>>,
    proxy: EventLoopProxy<()>,
    running: Option<Running>,
    result: anyhow::Result<()>,
}

struct Running {
    gpu: Gpu,
    surface: Surface,
    egui: EguiLayer,
    input: ViewInput,
    scene: SceneRenderer,
    state: ViewerState,
    /// What the window and the renderer report, for the panel.
    status: RenderStatus,
    model_view: ModelView,
    /// The `ViewerState::model_generation` that `model_view` shows.
    uploaded_generation: u64,
    /// The compare view's second model on the GPU, and the `Comparison::generation` it shows.
    compare_view: Option<(ModelView, u64)>,
    /// The A model buffers and comparison generation whose weight change the heat map shows.
    heat_map_for: Option<(u64, u64)>,
    camera: OrbitCamera,
    /// The 3D viewport in physical pixels: x, y, width, height.
    viewport: [u32; 4],
    clock: FrameClock,
    /// The GPU's time per frame, where the adapter reports timestamps.
    gpu_timer: Option<GpuTimer>,
    /// An event changed what is shown since the last frame.
    redraw_wanted: bool,
    /// When egui wants to be laid out again (an animation, a tooltip's delay).
    egui_repaint_at: Option<Instant>,
    /// For `exit_after`.
    report: RunReport,
    /// None when the platform's watcher could not start (the panel says so).
    watch: Option<FileWatch>,
    /// What `watch` watches for: the model generation, watching on, the watched revision.
    watched_for: Option<(u64, bool, u64)>,
    /// "Export clip…" while it runs.
    export: Option<ClipExport>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let Some(opening) = self.opening.take() else {
            return;
        };
        match Running::new(event_loop, opening, &self.options, self.proxy.clone()) {
            Ok(running) => self.running = Some(running),
            Err(error) => {
                self.result = Err(error);
                event_loop.exit();
            }
        }
    }

    /// Closes at `exit_after`, whatever woke the loop (the deadline itself while idle, a
    /// redraw while playing).
    fn new_events(&mut self, event_loop: &ActiveEventLoop, _cause: StartCause) {
        if let (Some(running), Some(after)) = (&self.running, self.options.exit_after)
            && running.report.opened().elapsed() >= after
        {
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _window: WindowId, event: WindowEvent) {
        let Some(running) = &mut self.running else {
            return;
        };
        match running.handle(event, &self.options) {
            Ok(true) => {}
            Ok(false) => event_loop.exit(),
            Err(error) => {
                self.result = Err(error);
                event_loop.exit();
            }
        }
    }

    /// A watched file changed (the watcher's thread woke the loop).
    fn user_event(&mut self, _event_loop: &ActiveEventLoop, (): ()) {
        if let Some(running) = &mut self.running {
            running.reload_changed_files();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = &mut self.running else {
            return;
        };
        let measuring = self.options.benchmark_frames.is_some() || self.options.screenshot.is_some();
        // Nothing throttles a minimised window's frames, so it draws none.
        let minimised = running.surface.window.is_minimized() == Some(true);
        let mut wake_at = self.options.exit_after.map(|after| running.report.opened() + after);
        let egui_due = running.egui_repaint_at.is_some_and(|at| at <= Instant::now());
        let moving = running.state.frame.player.is_moving();
        if !minimised && (measuring || running.redraw_wanted || egui_due || moving) {
            running.surface.window.request_redraw();
        } else {
            running.clock.wait();
            if !minimised && let Some(repaint_at) = running.egui_repaint_at {
                wake_at = Some(wake_at.map_or(repaint_at, |at| at.min(repaint_at)));
            }
        }
        event_loop.set_control_flow(match wake_at {
            Some(at) => ControlFlow::WaitUntil(at),
            None => ControlFlow::Wait,
        });
    }
}

impl Running {
    /// Opens the window and its device, then takes the state `opening` loads meanwhile.
    fn new(
        event_loop: &ActiveEventLoop,
        opening: JoinHandle<ViewerState>,
        options: &ViewerOptions,
        proxy: EventLoopProxy<()>,
    ) -> anyhow::Result<Self> {
        let opened = Surface::open(event_loop);
        let mut state = joined(opening);
        let (gpu, scene, surface) = opened?;
        let egui = EguiLayer::new(&surface.window, &gpu, surface.format());
        state.frame.morphs = morph_overrides(&state.document.model, &options.morph)?;
        state.frame.avatar.expressions = expression_weights(&state.document.model, &options.expression)?;
        if let Some(text) = &options.look_at {
            let point = vector(text, "X,Y,Z").with_context(|| format!("--look-at {text}"))?;
            state.frame.avatar.eyes = EyeTarget::Point(point);
        }
        if let Some(joint) = &options.select {
            let joint = find_joint(&state.document.model, joint).map_err(|e| anyhow::anyhow!("--select: {e}"))?;
            state.inspection.selected = Some(joint);
            state.inspection.reveal = true;
        }
        state.curves.shown = options.curves;
        state.motion.in_place = options.in_place;
        state.motion.shown = options.motion;
        state.frame.crowd.options = options.crowd;
        if let Some(name) = &options.variant {
            let variant = state
                .document
                .model
                .find_variant(name)
                .map_err(|e| anyhow::anyhow!("--variant: {e}"))?;
            state.view.material_variant = Some(variant);
        }
        let watch = FileWatch::new(move || {
            // Fails only once the event loop is gone.
            let _ = proxy.send_event(());
        });
        let watch = watch
            .inspect_err(|error| state.watching.unavailable = Some(format!("cannot watch files: {error:#}")))
            .ok();
        state.view.lighting = Lighting {
            lights: options.lights.unwrap_or(state.view.lighting.lights),
            ..options.lighting
        };
        let mut status = RenderStatus {
            adapter: format!("{}; {}", gpu.describe(), scene.layouts.skin_source.describe()),
            adapter_choice: gpu.choice.clone(),
            presentation: surface.presentation.clone(),
            ..RenderStatus::default()
        };
        state.frame.player.playing = !options.paused;
        state.quality = options
            .quality
            .unwrap_or_else(|| Quality::for_adapter(gpu.is_software()));
        let model_view = ModelView::new(&gpu, &scene, &state.document.model);
        status.notes = model_view.buffers.notes.clone();
        let (width, height) = surface.size();
        let gpu_timer = GpuTimer::new(&gpu);
        let mut running = Self {
            viewport: [0, 0, width, height],
            uploaded_generation: state.document.generation,
            gpu,
            surface,
            egui,
            input: ViewInput::default(),
            scene,
            state,
            status,
            model_view,
            compare_view: None,
            heat_map_for: None,
            camera: OrbitCamera::default(),
            clock: FrameClock::new(options.benchmark_frames),
            gpu_timer,
            redraw_wanted: true,
            egui_repaint_at: None,
            report: RunReport::new(),
            watch,
            watched_for: None,
            export: None,
        };
        running.surface.window.set_title(&running.state.document.window_title());
        running.follow_watched_files();
        if let Some(path) = &options.environment {
            running.load_environment(path);
        }
        running.follow_comparison();
        running.follow_clip();
        // Builds the crowd asked for on the command line, so the first view frames it.
        running.state.advance(0.0);
        running
            .camera
            .frame(&running.framed_bounds(), width as f32 / height as f32);
        Ok(running)
    }

    /// Handles one window event; `Ok(false)` asks to close.
    fn handle(&mut self, event: WindowEvent, options: &ViewerOptions) -> anyhow::Result<bool> {
        let egui_response = self.egui.on_window_event(&self.surface.window, &event);
        let egui_wants = self.egui.wants();
        // A pointer moving over the view changes nothing unless it drags; every other event
        // may (keys, buttons, the wheel, resizes, drops, focus).
        let moved_only = matches!(event, WindowEvent::CursorMoved { .. }) && !self.input.dragging(&self.state);
        self.redraw_wanted |= egui_response.repaint || !moved_only;
        match &event {
            WindowEvent::CloseRequested => return Ok(false),
            WindowEvent::Resized(size) => self.surface.resize(&self.gpu, (size.width, size.height)),
            WindowEvent::DroppedFile(path) => self.state.drop_file(path, self.input.shift_held()),
            WindowEvent::HoveredFile(path) => self.state.hovered_file = Some(path.clone()),
            WindowEvent::HoveredFileCancelled => self.state.hovered_file = None,
            WindowEvent::RedrawRequested => return self.frame(options),
            _ => self
                .input
                .handle(&event, egui_wants, &mut self.state, &mut self.camera, self.viewport),
        }
        Ok(true)
    }

    /// One frame, stage by stage.
    fn frame(&mut self, options: &ViewerOptions) -> anyhow::Result<bool> {
        let Some(dt) = self.clock.tick() else {
            return Ok(false);
        };
        self.redraw_wanted = false;
        if self.surface.window.is_minimized() == Some(true) {
            return Ok(true);
        }
        let screenshot = options
            .screenshot
            .as_ref()
            .filter(|(after, _)| self.clock.frames + 1 >= *after);
        let frame_image = match self.surface.begin_frame(&self.gpu, screenshot.is_some()) {
            Ok(image) => image,
            Err(no_frame) => {
                // Tried again at once only after reconfiguring, not in a loop while hidden.
                self.redraw_wanted = matches!(no_frame, NoFrame::Reconfigured);
                return Ok(true);
            }
        };
        // The panel first: it decides where the 3D viewport is.
        let (state, status, camera) = (&mut self.state, &self.status, &self.camera);
        let mut free = egui::Rect::NOTHING;
        let mut camera_eye = glam::Vec3::ZERO;
        let ui = self.egui.run(&self.surface.window, |ui| {
            free = panel::show(ui, state, status);
            let seen = state.camera_view(camera, free.width() / free.height().max(1.0));
            camera_eye = seen.eye;
            bone_labels::show(ui.ctx(), state, &seen, free);
        });
        self.egui_repaint_at = ui.repaint_delay().map(|delay| Instant::now() + delay);
        let window_size = self.surface.size();
        self.viewport = viewport_pixels(free, ui.pixels_per_point(), window_size.0, window_size.1);
        // What the panel and the keyboard asked for; a new model or clip.
        self.apply_requests();
        // Animation: Animator → Pose → model matrices, once.
        let clip_step = self.state.frame.player.clip_step(dt);
        // The panel was laid out before this step: when a fade or a Once clip has just ended,
        // one more frame shows it ended (else a paused fade's panel stays at 95% until the
        // mouse moves).
        self.state.frame.avatar.look_target = self.state.frame.avatar.eyes.point(camera_eye);
        self.redraw_wanted |= self.state.advance(dt);
        self.follow_root();
        // The scene: palettes, skinning, upload, (difference read-back,) passes.
        self.update_gizmos();
        let view = self.state.view_options();
        self.write_heat_map(&view);
        let [_, _, width, height] = self.viewport;
        let camera = self
            .state
            .camera_view(&self.camera, width as f32 / height.max(1) as f32);
        let input = FrameInput {
            model: &self.state.document.model,
            pose: &self.state.frame.pose,
            model_matrices: &self.state.frame.joint_matrices,
            camera: &camera,
            view: &view,
            crowd: self.state.frame.crowd.shown(),
            time: self.state.frame.played,
            ground_slide: self.state.frame.travel,
        };
        let render_size = self.scene.quality.render_size((width, height));
        let target = self.surface.scene_target(&self.gpu, &self.scene, render_size);
        if let Some(seconds) = self.gpu_timer.as_mut().and_then(|timer| timer.read(&self.gpu)) {
            self.clock.gpu_time(seconds);
        }
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        if let Some(timer) = &mut self.gpu_timer {
            timer.begin(&mut encoder);
        }
        render::pose_and_upload(&self.gpu, &self.scene, &mut self.model_view, &input);
        self.status.skin_difference = (view.measures_skin_difference())
            .then(|| self.model_view.measure_skin_difference(&self.gpu, &mut self.scene));
        // The compare view's second model: posed at the first's moment, where its layout puts
        // it, in the first's view toggles without its vertex colours or bind-pose ghost.
        let second_view = ViewOptions {
            vertex_view: None,
            bind_ghost: false,
            ..view
        };
        let second_input = self.state.compare.as_ref().map(|comparison| FrameInput {
            model: &comparison.document.model,
            pose: &comparison.frame.pose,
            model_matrices: &comparison.placed_matrices,
            view: &second_view,
            crowd: None,
            ..input
        });
        let placement = self.state.compare.as_ref().map(|c| c.placement());
        let second = match (&mut self.compare_view, &second_input, placement) {
            (Some((second, _)), Some(second_input), Some(placement)) => {
                render::pose_and_upload(&self.gpu, &self.scene, second, second_input);
                Some(SecondModel {
                    view: second,
                    input: second_input,
                    placement,
                })
            }
            _ => None,
        };
        render::draw(
            &self.gpu,
            &mut self.scene,
            (&mut self.model_view, &input),
            second,
            target,
            &mut encoder,
        );
        // Compose: the scene beside the panel, egui over it, onto the window.
        self.surface.compose_scene(&mut encoder, &frame_image, self.viewport);
        self.egui
            .paint(&self.gpu, &mut encoder, &frame_image.view, ui, window_size);
        if let Some(timer) = &mut self.gpu_timer {
            timer.end(&mut encoder);
        }
        self.surface.present(&self.gpu, encoder, frame_image)?;
        if let Some(timer) = &mut self.gpu_timer {
            timer.submitted();
        }
        self.continue_export();
        self.clock.end_frame();
        self.report.frame_drawn(self.clock.frames, clip_step);
        self.status.frame_stats = self.clock.stats;
        if let Some((_, path)) = screenshot {
            let image = self.surface.screenshot(&self.gpu)?;
            image
                .save(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Carries out what the panel or keyboard asked for, and follows model and clip changes.
    fn apply_requests(&mut self) {
        // The dialog first: a file it opens asks for framing, which the requests taken below
        // then include.
        if std::mem::take(&mut self.state.requests.open_dialog)
            && let Some(path) = file_dialog::pick_file(&mut self.state, Purpose::Model)
        {
            self.state.open(&path);
        }
        let environment_dialog = std::mem::take(&mut self.state.requests.environment_dialog);
        let picked = environment_dialog
            .then(|| file_dialog::pick_file(&mut self.state, Purpose::Environment))
            .flatten();
        if let Some(path) = picked.or_else(|| self.state.browser.picked_environment.take()) {
            self.load_environment(&path);
        }
        let compare_dialog = std::mem::take(&mut self.state.requests.compare_dialog);
        let picked = compare_dialog
            .then(|| file_dialog::pick_file(&mut self.state, Purpose::Compare))
            .flatten();
        if let Some(path) = picked.or_else(|| self.state.browser.picked_compare.take()) {
            self.state.open_compare(&path);
        }
        if self.scene.quality != self.state.quality.settings() {
            self.scene.set_quality(&self.gpu, self.state.quality);
        }
        let requests = std::mem::take(&mut self.state.requests);
        if requests.studio_environment {
            self.scene
                .set_environment(&self.gpu, Environment::studio(&self.gpu, &self.scene.layouts));
            self.status.environment_name = self.scene.environment_name().to_owned();
            self.status.environment_error = None;
        }
        if self.uploaded_generation != self.state.document.generation {
            let model_view = ModelView::new(&self.gpu, &self.scene, &self.state.document.model);
            let replaced_view = std::mem::replace(&mut self.model_view, model_view);
            // A running export finishes on the model it started with.
            match (&mut self.export, self.state.document.replaced.take()) {
                (Some(export), Some(model)) => export.keep(model, replaced_view),
                (Some(_), None) => self.end_export(Err("export cancelled: the model it showed is gone".into())),
                (None, _) => {}
            }
            self.status.notes = self.model_view.buffers.notes.clone();
            // What was said of the last file's environment or difference is not this one's.
            self.status.environment_error = None;
            self.status.skin_difference = None;
            self.uploaded_generation = self.state.document.generation;
            self.surface.window.set_title(&self.state.document.window_title());
        }
        if requests.export_clip {
            self.start_export();
        }
        if let Some(path) = self.state.browser.picked_export.take() {
            self.export_to(&path);
        }
        let save_to = (requests.save_model)
            .then(|| file_dialog::pick_file(&mut self.state, Purpose::SaveModel))
            .flatten();
        if let Some(path) = save_to.or_else(|| self.state.browser.picked_save.take()) {
            self.state.save_model(&path);
        }
        self.follow_watched_files();
        self.follow_comparison();
        self.follow_clip();
        let aspect = self.viewport[2] as f32 / self.viewport[3].max(1) as f32;
        if requests.reset_camera || requests.view.is_some() {
            // A view asked for is the orbit camera's.
            self.state.file_camera = None;
        }
        if requests.reset_camera {
            self.camera = OrbitCamera::default();
            self.camera.frame(&self.framed_bounds(), aspect);
        }
        if let Some(preset) = requests.view {
            self.camera.look_from(preset.angles());
        }
        if requests.frame_model {
            self.camera.frame(&self.framed_bounds(), aspect);
        }
    }

    /// What the camera frames: the crowd's grid while one is shown, else the region the model
    /// moves in; with the compare view's second model where it stands.
    fn framed_bounds(&self) -> Bounds {
        let first = (self.state.frame.crowd.shown()).map_or(self.model_view.bounds, |crowd| crowd.bounds);
        match (&self.state.compare, &self.compare_view) {
            (Some(comparison), Some((second, _))) => {
                both_bounds(&first, &placed_bounds(&second.bounds, comparison.placement()))
            }
            _ => first,
        }
    }

    /// Uploads the compare view's second model when one is opened or replaced (and drops it
    /// when the comparison closes), drawn as a ghost or lit as its layout says.
    fn follow_comparison(&mut self) {
        let Some(comparison) = &self.state.compare else {
            self.compare_view = None;
            return;
        };
        if self
            .compare_view
            .as_ref()
            .is_none_or(|(_, shown)| *shown != comparison.generation)
        {
            let second = ModelView::new(&self.gpu, &self.scene, &comparison.document.model);
            self.compare_view = Some((second, comparison.generation));
        }
        if let Some((second, _)) = &mut self.compare_view {
            second.buffers.ghost = (comparison.layout == CompareLayout::Ghost).then_some(COMPARE_GHOST_COLOR);
        }
    }

    /// Lights the scene with the .hdr at `path`; on failure the panel says why and the
    /// environment stays.
    fn load_environment(&mut self, path: &Path) {
        match EnvironmentImage::read(path).map(|image| Environment::from_image(&self.gpu, &self.scene.layouts, &image))
        {
            Ok(environment) => {
                self.scene.set_environment(&self.gpu, environment);
                self.status.environment_name = self.scene.environment_name().to_owned();
                self.status.environment_error = None;
            }
            Err(error) => {
                let error = format!("{error:#}");
                self.state.notice = Some(Notice::failed(error.clone()));
                self.status.environment_error = Some(error);
            }
        }
    }

    /// Watches the files of the model open now (after a new model, a failed open or the
    /// panel's toggle).
    fn follow_watched_files(&mut self) {
        let Some(watch) = &mut self.watch else { return };
        let watching = &self.state.watching;
        let wanted = (self.state.document.generation, watching.enabled, watching.revision);
        if self.watched_for != Some(wanted) {
            watch.watch(&self.state.watched_files());
            self.watched_for = Some(wanted);
        }
    }

    /// Reloads what changed on disk, if watching is on; the next frame shows it.
    fn reload_changed_files(&mut self) {
        let Some(watch) = &self.watch else { return };
        let changed = watch.take_changes();
        if !changed.is_empty() && self.state.watching.enabled {
            self.report.reloaded();
            self.state.files_changed(&changed);
            self.surface.window.request_redraw();
        }
    }

    /// Keeps the orbit camera's centre over the joint carrying the travel, when asked.
    fn follow_root(&mut self) {
        if let Some(target) = self.state.motion.camera_target(&self.state.frame.joint_matrices) {
            (self.camera.target.x, self.camera.target.z) = (target.x, target.y);
        }
    }

    /// Measures the region the model moves in over the clip playing (played in place when it
    /// is), when the clip changes (and the compare view's second model's over its clip).
    fn follow_clip(&mut self) {
        self.model_view.measure_bounds(
            &self.state.document.model,
            self.state.frame.player.clip(),
            self.state.frame.in_place,
        );
        if let (Some(comparison), Some((second, _))) = (&self.state.compare, &mut self.compare_view) {
            second.measure_bounds(&comparison.document.model, comparison.frame.player.clip(), None);
        }
    }

    /// Writes the compare view's weight-change heat map onto the open model's vertices when
    /// it is shown and not written for these buffers and this comparison yet.
    fn write_heat_map(&mut self, view: &ViewOptions) {
        let Some(comparison) = &self.state.compare else { return };
        let buffers = &mut self.model_view.buffers;
        let written_for = (buffers.id, comparison.generation);
        let shown = buffers.values_shown() == Some(VertexView::WeightChange);
        if view.vertex_view != Some(VertexView::WeightChange) || (shown && self.heat_map_for == Some(written_for)) {
            return;
        }
        let model = &self.state.document.model;
        buffers.write_weight_change(&self.gpu.queue, |draw| {
            let mesh = model.instances[draw.instance].mesh;
            comparison.diff.primitive_weight_change(model, mesh, draw.primitive)
        });
        self.heat_map_for = Some(written_for);
    }

    /// The selected joint, the motion trails, the spring bones and their colliders (on
    /// request), the point the eyes look at, and the IK chains' targets and limits, drawn over
    /// the scene.
    fn update_gizmos(&mut self) {
        let gizmos = &mut self.scene.gizmos;
        gizmos.clear();
        let state = &self.state;
        let bounds = &self.model_view.bounds;
        if let Some(matrix) = state.inspection.hovered.and_then(|j| state.frame.joint_matrices.get(j)) {
            draw_hovered_joint(gizmos, matrix);
        }
        if let Some(joint) = state.inspection.selected {
            // No bone to a parent outside the rig (an armature node, a scene root).
            let model = &state.document.model;
            let parent = model.skeleton.parent(joint).filter(|&p| model.is_rig_joint(p));
            draw_selected_joint(gizmos, &state.frame.joint_matrices, parent, joint, bounds);
        }
        let trails = &state.trails;
        draw_trails(gizmos, &trails.trails, trails.window(), bounds.ground_height());
        if let Some(report) = state.motion.report().filter(|_| state.motion.shown) {
            let now = (state.frame.player.animator.crossfade.time(), state.frame.travel);
            let sizes = (
                bounds.ground_height(),
                bounds.radius() * 0.03,
                SLIDE_SHARE * report.height,
            );
            draw_motion(gizmos, report, now, sizes);
        }
        if state.inspection.spring_gizmos {
            draw_spring_bones(gizmos, &state.document.model.spring_bones, &state.frame.joint_matrices);
        }
        if let EyeTarget::Point(point) = state.frame.avatar.eyes {
            draw_look_point(gizmos, point, bounds.radius() * 0.04);
        }
        if !state.ik_editor.show_targets {
            return;
        }
        let poses = (
            &state.frame.pose,
            state.document.model.skeleton.rest_pose(),
            state.frame.joint_matrices.as_slice(),
        );
        let editor = &state.ik_editor;
        draw_ik_chains(
            gizmos,
            &state.frame.player.animator.ik,
            poses,
            editor.show_constraints,
            editor.dragging,
        );
    }
}

/// The free area egui leaves (in points) as a pixel rectangle inside the window.
fn viewport_pixels(free: egui::Rect, pixels_per_point: f32, width: u32, height: u32) -> [u32; 4] {
    let x = ((free.min.x * pixels_per_point).round() as u32).min(width.saturating_sub(1));
    let y = ((free.min.y * pixels_per_point).round() as u32).min(height.saturating_sub(1));
    let w = ((free.width() * pixels_per_point).round() as u32).clamp(1, width - x);
    let h = ((free.height() * pixels_per_point).round() as u32).clamp(1, height - y);
    [x, y, w, h]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewport_is_the_area_beside_the_panel() {
        let free = egui::Rect::from_min_max(egui::pos2(290.0, 0.0), egui::pos2(1280.0, 800.0));
        assert_eq!(viewport_pixels(free, 1.0, 1280, 800), [290, 0, 990, 800]);
        assert_eq!(
            viewport_pixels(free, 2.0, 2560, 1600),
            [580, 0, 1980, 1600],
            "high-DPI scales by pixels per point"
        );
        assert_eq!(
            viewport_pixels(egui::Rect::NOTHING, 1.0, 100, 100)[2..],
            [1, 1],
            "never empty"
        );
    }
}
