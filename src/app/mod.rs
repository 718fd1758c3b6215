//! The window: a winit event loop around four parts, each its own type: the `Surface` (the
//! window, the wgpu surface, the scene's target and the window image), the `EguiLayer` (the
//! panel), `ViewInput` (mouse and keys in the 3D view) and the model view (`render::ModelView`:
//! the model's GPU data and deformer). `Running::frame` reads as the frame's stages: lay out
//! the panel, carry out its requests, animate, render the scene, compose and present.

mod egui_layer;
mod frame_clock;
mod surface;
mod view_input;

use std::path::{Path, PathBuf};

use anyhow::Context;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::WindowId;

use crate::asset::Model;
use crate::asset::demo::demo_model;
use crate::asset::format::all_extensions;
use crate::render::ik_gizmo::draw_ik_chains;
use crate::render::joint_gizmo::draw_selected_joint;
use crate::render::{Environment, EnvironmentImage, FrameInput, Gpu, ModelView, SceneRenderer, render_frame};
use crate::ui::{ViewerState, bone_labels, panel};
use crate::view::{Lighting, Lights, OrbitCamera};
use egui_layer::EguiLayer;
use frame_clock::FrameClock;
use surface::Surface;
use view_input::ViewInput;

#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// The model to open; the built-in demo rig when absent.
    pub file: Option<PathBuf>,
    /// Save the window's image after this many frames to this PNG, then exit (for tests).
    pub screenshot: Option<(u32, PathBuf)>,
    /// Time this many frames (after a warm-up), print their statistics as JSON, then exit.
    pub benchmark_frames: Option<usize>,
    /// The lighting to start with; its lights are `lights`, or the model's default.
    pub lighting: Lighting,
    pub lights: Option<Lights>,
    /// An equirectangular .hdr to light the scene with instead of the built-in studio.
    pub environment: Option<PathBuf>,
}

/// Opens the viewer and runs until the window closes. The model is loaded first, so a file
/// that cannot be opened is reported before any window appears.
pub fn run(options: AppOptions) -> anyhow::Result<()> {
    let model = match &options.file {
        Some(path) => crate::asset::load(path)?,
        None => demo_model(),
    };
    let event_loop = EventLoop::new().context("cannot open a window (no display?)")?;
    let mut app = App {
        options,
        model: Some(model),
        running: None,
        result: Ok(()),
    };
    event_loop.run_app(&mut app).context("the event loop failed")?;
    app.result?;
    if let Some(running) = &app.running
        && let Some(timings) = &running.clock.timings
    {
        println!("{}", timings.to_json(&running.gpu.describe()));
    }
    Ok(())
}

struct App {
    options: AppOptions,
    /// The model to show, until the window exists.
    model: Option<Model>,
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
    model_view: ModelView,
    /// The `ViewerState::model_generation` that `model_view` shows.
    uploaded_generation: u64,
    camera: OrbitCamera,
    /// The 3D viewport in physical pixels: x, y, width, height.
    viewport: [u32; 4],
    clock: FrameClock,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let Some(model) = self.model.take() else {
            return;
        };
        match Running::new(event_loop, model, &self.options) {
            Ok(running) => self.running = Some(running),
            Err(error) => {
                self.result = Err(error);
                event_loop.exit();
            }
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

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        // Animate continuously, but not while minimised (nothing would throttle the loop).
        if let Some(running) = &self.running
            && running.surface.window.is_minimized() != Some(true)
        {
            running.surface.window.request_redraw();
        }
    }
}

impl Running {
    fn new(event_loop: &ActiveEventLoop, model: Model, options: &AppOptions) -> anyhow::Result<Self> {
        let (gpu, scene, surface) = Surface::open(event_loop)?;
        let egui = EguiLayer::new(&surface.window, &gpu);
        let mut state = ViewerState::new(model);
        state.view.lighting = Lighting {
            lights: options.lights.unwrap_or(state.view.lighting.lights),
            ..options.lighting
        };
        state.adapter = format!("{}; {}", gpu.describe(), scene.layouts.skin_source.describe());
        let model_view = ModelView::new(&gpu, &scene, &state.model);
        state.render_notes = model_view.buffers.notes.clone();
        let (width, height) = surface.size();
        let mut running = Self {
            viewport: [0, 0, width, height],
            uploaded_generation: state.model_generation,
            gpu,
            surface,
            egui,
            input: ViewInput::default(),
            scene,
            state,
            model_view,
            camera: OrbitCamera::default(),
            clock: FrameClock::new(options.benchmark_frames),
        };
        if let Some(path) = &options.environment {
            running.load_environment(path);
        }
        running.follow_clip();
        running
            .camera
            .frame(&running.model_view.bounds, width as f32 / height as f32);
        Ok(running)
    }

    /// Handles one window event; `Ok(false)` asks to close.
    fn handle(&mut self, event: WindowEvent, options: &AppOptions) -> anyhow::Result<bool> {
        self.egui.on_window_event(&self.surface.window, &event);
        let egui_wants = self.egui.wants();
        match &event {
            WindowEvent::CloseRequested => return Ok(false),
            WindowEvent::Resized(size) => {
                self.surface
                    .resize(&self.gpu, &self.scene.layouts, (size.width, size.height));
            }
            WindowEvent::DroppedFile(path) => self.state.open(path),
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
    fn frame(&mut self, options: &AppOptions) -> anyhow::Result<bool> {
        let Some(dt) = self.clock.tick() else {
            return Ok(false);
        };
        if self.surface.window.is_minimized() == Some(true) {
            return Ok(true);
        }
        // The panel first: it decides where the 3D viewport is.
        let (state, camera) = (&mut self.state, &self.camera);
        let mut free = egui::Rect::NOTHING;
        let ui = self.egui.run(&self.surface.window, |ui| {
            free = panel::show(ui, state);
            let seen = state.camera_view(camera, free.width() / free.height().max(1.0));
            bone_labels::show(ui.ctx(), state, &seen, free);
        });
        let window_size = self.surface.size();
        self.viewport = viewport_pixels(free, ui.pixels_per_point(), window_size.0, window_size.1);
        // What the panel and the keyboard asked for; a new model or clip.
        self.apply_requests();
        // Animation: Animator → Pose → model matrices, once.
        self.state.advance(dt);
        // The scene: palettes, skinning, upload, (difference read-back,) passes.
        self.update_gizmos();
        let view = self.state.view_options();
        let [_, _, width, height] = self.viewport;
        let camera = self
            .state
            .camera_view(&self.camera, width as f32 / height.max(1) as f32);
        let input = FrameInput {
            model: &self.state.model,
            pose: &self.state.pose,
            model_matrices: &self.state.joint_matrices,
            camera: &camera,
            view: &view,
        };
        let target = self.surface.scene_target(&self.gpu, &self.scene, (width, height));
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        let difference = render_frame(
            &self.gpu,
            &mut self.scene,
            &mut self.model_view,
            &input,
            target,
            &mut encoder,
        );
        self.state.inspection.skin_difference = difference;
        // Compose: the scene beside the panel, egui over it, the window onto the surface.
        self.surface.compose_scene(&mut encoder, self.viewport);
        let egui_commands = self.egui.paint(
            &self.gpu,
            &mut encoder,
            &self.surface.window_image_view,
            ui,
            window_size,
        );
        self.surface.present(&self.gpu, encoder, egui_commands);
        self.clock.frames += 1;
        if let Some((after, path)) = &options.screenshot
            && self.clock.frames >= *after
        {
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
        if std::mem::take(&mut self.state.requests.open_dialog) {
            let picked = rfd::FileDialog::new()
                .set_title("Open a model")
                .add_filter("Models", &all_extensions())
                .add_filter("All files", &["*"])
                .pick_file();
            if let Some(path) = picked {
                self.state.open(&path);
            }
        }
        if std::mem::take(&mut self.state.requests.environment_dialog) {
            let picked = rfd::FileDialog::new()
                .set_title("Light the scene with an environment")
                .add_filter("Radiance HDR", &["hdr"])
                .add_filter("All files", &["*"])
                .pick_file();
            if let Some(path) = picked {
                self.load_environment(&path);
            }
        }
        let requests = std::mem::take(&mut self.state.requests);
        if requests.studio_environment {
            self.scene
                .set_environment(&self.gpu, Environment::studio(&self.gpu, &self.scene.layouts));
            self.state.environment_name = self.scene.environment_name().to_owned();
            self.state.environment_error = None;
        }
        if self.uploaded_generation != self.state.model_generation {
            self.model_view = ModelView::new(&self.gpu, &self.scene, &self.state.model);
            self.state.render_notes = self.model_view.buffers.notes.clone();
            self.uploaded_generation = self.state.model_generation;
        }
        self.follow_clip();
        let aspect = self.viewport[2] as f32 / self.viewport[3].max(1) as f32;
        if requests.reset_camera || requests.view.is_some() {
            // A view asked for is the orbit camera's.
            self.state.file_camera = None;
        }
        if requests.reset_camera {
            self.camera = OrbitCamera::default();
            self.camera.frame(&self.model_view.bounds, aspect);
        }
        if let Some(preset) = requests.view {
            self.camera.look_from(preset.angles());
        }
        if requests.frame_model {
            self.camera.frame(&self.model_view.bounds, aspect);
        }
    }

    /// Lights the scene with the .hdr at `path`; on failure the panel says why and the
    /// environment stays.
    fn load_environment(&mut self, path: &Path) {
        match EnvironmentImage::read(path).map(|image| Environment::from_image(&self.gpu, &self.scene.layouts, &image))
        {
            Ok(environment) => {
                self.scene.set_environment(&self.gpu, environment);
                self.state.environment_name = self.scene.environment_name().to_owned();
                self.state.environment_error = None;
            }
            Err(error) => self.state.environment_error = Some(format!("{error:#}")),
        }
    }

    /// Measures the region the model moves in over the clip playing, when the clip changes.
    fn follow_clip(&mut self) {
        self.model_view
            .measure_bounds(&self.state.model, self.state.player.clip());
    }

    /// The selected joint, and the IK chains' targets and limits, drawn over the scene.
    fn update_gizmos(&mut self) {
        let gizmos = &mut self.scene.gizmos;
        gizmos.clear();
        let state = &self.state;
        if let Some(joint) = state.inspection.selected {
            let parent = state.model.skeleton.parent(joint);
            draw_selected_joint(gizmos, &state.joint_matrices, parent, joint, &self.model_view.bounds);
        }
        if !state.ik_editor.show_targets {
            return;
        }
        let poses = (
            &state.pose,
            state.model.skeleton.rest_pose(),
            state.joint_matrices.as_slice(),
        );
        let editor = &state.ik_editor;
        draw_ik_chains(
            gizmos,
            &state.player.animator.ik,
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
