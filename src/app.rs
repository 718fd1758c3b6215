//! The window: a winit event loop that owns the wgpu surface, the scene renderer, egui and the
//! viewer state. Each frame: egui lays out the panel (which leaves the 3D viewport), playback
//! advances, the scene renders into its offscreen target, which is copied into the window
//! image beside the panel, egui paints over it, and the window image goes to the surface.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, anyhow};
use glam::Vec2;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::{Window, WindowId};

use crate::asset::Model;
use crate::asset::demo::demo_model;
use crate::render::blit::{Blit, Encoding};
use crate::render::capture::read_rgba;
use crate::render::framing::animation_bounds;
use crate::render::ik_gizmo::draw_ik_chains;
use crate::render::joint_gizmo::draw_selected_joint;
use crate::render::{Bounds, Gpu, ModelGpu, OrbitCamera, SceneRenderer, SceneTarget, Viewport};
use crate::skin::Deformer;
use crate::ui::{Shortcut, ViewerState, bone_labels, panel};

/// The window image is gamma-encoded RGBA, as egui paints.
const WINDOW_IMAGE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// The model to open; the built-in demo rig when absent.
    pub file: Option<PathBuf>,
    /// Save the window's image after this many frames to this PNG, then exit (for tests).
    pub screenshot: Option<(u32, PathBuf)>,
    /// Time this many frames (after a warm-up), print their statistics as JSON, then exit.
    pub benchmark_frames: Option<usize>,
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
        && let Some(timings) = &running.timings
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

/// The 3D view: mouse drags in progress and the camera.
#[derive(Default)]
struct Pointer {
    position: Vec2,
    orbiting: bool,
    panning: bool,
    /// Where the main button went down to orbit: released within `CLICK_SLOP` pixels of it,
    /// it was a click (which selects a joint) rather than a drag.
    pressed_at: Option<Vec2>,
}

/// How far (pixels) the pointer may move between press and release for a click.
const CLICK_SLOP: f32 = 4.0;

struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    scene: SceneRenderer,
    target: SceneTarget,
    window_image: wgpu::Texture,
    window_image_view: wgpu::TextureView,
    scene_to_window: Blit,
    scene_source: wgpu::BindGroup,
    window_to_surface: Blit,
    window_source: wgpu::BindGroup,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    state: ViewerState,
    model_gpu: ModelGpu,
    deformer: Deformer,
    uploaded_generation: u64,
    camera: OrbitCamera,
    bounds: Bounds,
    bounds_clip: Option<usize>,
    pointer: Pointer,
    modifiers: ModifiersState,
    /// The 3D viewport in physical pixels: x, y, width, height.
    viewport: [u32; 4],
    last_frame: Instant,
    frames: u32,
    /// Frame times for `--benchmark-frames`.
    timings: Option<FrameTimings>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let Some(model) = self.model.take() else {
            return;
        };
        match Running::new(event_loop, model) {
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
            && running.window.is_minimized() != Some(true)
        {
            running.window.request_redraw();
        }
    }
}

impl Running {
    fn new(event_loop: &ActiveEventLoop, model: Model) -> anyhow::Result<Self> {
        let attributes = Window::default_attributes()
            .with_title("rigscope")
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 800.0));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .context("cannot create the window")?,
        );
        let surface_window = window.clone();
        let (gpu, surface) = Gpu::for_display(Box::new(event_loop.owned_display_handle()), move |instance| {
            instance
                .create_surface(surface_window)
                .context("cannot draw into the window")
        })?;
        let size = window.inner_size();
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = *capabilities
            .formats
            .first()
            .ok_or_else(|| anyhow!("the window offers no pixel format"))?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: capabilities.alpha_modes[0],
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);

        let mut state = ViewerState::new(model);
        state.adapter = gpu.describe();
        let scene = SceneRenderer::new(&gpu);
        let model_gpu = scene.upload_model(&gpu, &state.model);
        state.render_notes = model_gpu.notes.clone();
        let mut deformer = Deformer::new(&state.model);
        let clip = state.player.clip();
        let bounds = animation_bounds(&state.model, clip.map(|c| &state.model.clips[c]), &mut deformer);
        let mut camera = OrbitCamera::default();
        camera.frame(&bounds, config.width as f32 / config.height as f32);

        let target = scene.target(&gpu.device, config.width, config.height);
        let (window_image, window_image_view) = window_image(&gpu.device, config.width, config.height);
        let scene_to_window = Blit::new(&gpu.device, &scene.layouts, WINDOW_IMAGE_FORMAT);
        let window_to_surface = Blit::new(&gpu.device, &scene.layouts, format);
        let surface_encoding = surface_encoding(format);
        let scene_source =
            scene_to_window.source(&gpu.device, &scene.layouts, &target.resolved_view, Encoding::EncodeSrgb);
        let window_source = window_to_surface.source(&gpu.device, &scene.layouts, &window_image_view, surface_encoding);

        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &*window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(
            &gpu.device,
            WINDOW_IMAGE_FORMAT,
            egui_wgpu::RendererOptions {
                msaa_samples: 1,
                depth_stencil_format: None,
                dithering: true,
                predictable_texture_filtering: false,
            },
        );
        Ok(Self {
            viewport: [0, 0, config.width, config.height],
            window,
            gpu,
            surface,
            config,
            scene,
            target,
            window_image,
            window_image_view,
            scene_to_window,
            scene_source,
            window_to_surface,
            window_source,
            egui_ctx,
            egui_state,
            egui_renderer,
            uploaded_generation: state.model_generation,
            state,
            model_gpu,
            deformer,
            camera,
            bounds,
            bounds_clip: clip,
            pointer: Pointer::default(),
            modifiers: ModifiersState::empty(),
            last_frame: Instant::now(),
            frames: 0,
            timings: None,
        })
    }

    /// Handles one window event; `Ok(false)` asks to close.
    fn handle(&mut self, event: WindowEvent, options: &AppOptions) -> anyhow::Result<bool> {
        let egui_response = self.egui_state.on_window_event(&self.window, &event);
        match event {
            WindowEvent::CloseRequested => return Ok(false),
            WindowEvent::Resized(size) => {
                if size.width > 0 && size.height > 0 {
                    self.config.width = size.width;
                    self.config.height = size.height;
                    self.surface.configure(&self.gpu.device, &self.config);
                    let (image, view) = window_image(&self.gpu.device, size.width, size.height);
                    let encoding = surface_encoding(self.config.format);
                    self.window_source =
                        self.window_to_surface
                            .source(&self.gpu.device, &self.scene.layouts, &view, encoding);
                    (self.window_image, self.window_image_view) = (image, view);
                }
            }
            WindowEvent::DroppedFile(path) => self.state.open(&path),
            WindowEvent::HoveredFile(path) => self.state.hovered_file = Some(path),
            WindowEvent::HoveredFileCancelled => self.state.hovered_file = None,
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput { event, .. }
                if !egui_response.consumed && event.state == ElementState::Pressed =>
            {
                // Holding a step key steps repeatedly; other keys act once per press.
                if let Some(shortcut) = shortcut_for(&event.logical_key, self.modifiers)
                    && (!event.repeat || matches!(shortcut, Shortcut::StepBack | Shortcut::StepForward))
                {
                    self.state.shortcut(shortcut);
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let pressed = state == ElementState::Pressed && !egui_response.consumed;
                match button {
                    MouseButton::Left if pressed => {
                        // IK editing (a target grabbed, a joint picked) comes before orbiting.
                        let (cursor, view) = self.view_cursor();
                        self.pointer.orbiting = !self.state.press_in_view(cursor, &view);
                        self.pointer.pressed_at = self.pointer.orbiting.then_some(self.pointer.position);
                    }
                    MouseButton::Left => {
                        self.pointer.orbiting = false;
                        self.state.release_in_view();
                        if let Some(pressed_at) = self.pointer.pressed_at.take()
                            && pressed_at.distance(self.pointer.position) <= CLICK_SLOP
                        {
                            let (cursor, view) = self.view_cursor();
                            self.state.click_in_view(cursor, &view);
                        }
                    }
                    MouseButton::Right | MouseButton::Middle => self.pointer.panning = pressed,
                    _ => {}
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let position = Vec2::new(position.x as f32, position.y as f32);
                let delta = position - self.pointer.position;
                self.pointer.position = position;
                if self.state.ik_editor.dragging.is_some() {
                    let (cursor, view) = self.view_cursor();
                    self.state.drag_in_view(cursor, &view);
                } else if self.pointer.orbiting {
                    self.camera.orbit(delta.x, delta.y);
                } else if self.pointer.panning {
                    self.camera.pan(delta.x, delta.y, self.viewport[3] as f32);
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !egui_response.consumed => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                self.camera.zoom(steps);
            }
            WindowEvent::RedrawRequested => return self.frame(options),
            _ => {}
        }
        Ok(true)
    }

    /// The cursor in the 3D view's pixels, and the view as the camera sees it now.
    fn view_cursor(&self) -> (Vec2, Viewport) {
        let [x, y, width, height] = self.viewport;
        let view = Viewport::new(&self.camera, width as f32, height as f32);
        (self.pointer.position - Vec2::new(x as f32, y as f32), view)
    }

    /// Carries out what the panel or keyboard asked for, and follows model and clip changes.
    fn apply_requests(&mut self) {
        // The dialog first: a file it opens asks for framing, which the requests taken below
        // then include.
        if std::mem::take(&mut self.state.requests.open_dialog) {
            let picked = rfd::FileDialog::new()
                .set_title("Open a model")
                .add_filter("Models", &["glb", "gltf", "md5mesh", "md5anim"])
                .add_filter("All files", &["*"])
                .pick_file();
            if let Some(path) = picked {
                self.state.open(&path);
            }
        }
        let requests = std::mem::take(&mut self.state.requests);
        if self.uploaded_generation != self.state.model_generation {
            self.model_gpu = self.scene.upload_model(&self.gpu, &self.state.model);
            self.state.render_notes = self.model_gpu.notes.clone();
            self.deformer = Deformer::new(&self.state.model);
            self.uploaded_generation = self.state.model_generation;
            self.bounds_clip = None;
            self.update_bounds();
        }
        if self.bounds_clip != self.state.player.clip() {
            self.update_bounds();
        }
        let aspect = self.viewport[2] as f32 / self.viewport[3].max(1) as f32;
        if requests.reset_camera {
            self.camera = OrbitCamera::default();
            self.camera.frame(&self.bounds, aspect);
        }
        if requests.frame_model {
            self.camera.frame(&self.bounds, aspect);
        }
    }

    /// The selected joint, and the IK chains' targets and limits, drawn over the scene.
    fn update_gizmos(&mut self) {
        let gizmos = &mut self.scene.gizmos;
        gizmos.clear();
        let state = &self.state;
        if let Some(joint) = state.inspection.selected {
            let parent = state.model.skeleton.parent(joint);
            draw_selected_joint(gizmos, &state.joint_matrices, parent, joint, &self.bounds);
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

    fn update_bounds(&mut self) {
        let clip = self.state.player.clip();
        self.bounds = animation_bounds(
            &self.state.model,
            clip.map(|c| &self.state.model.clips[c]),
            &mut self.deformer,
        );
        self.bounds_clip = clip;
    }

    fn frame(&mut self, options: &AppOptions) -> anyhow::Result<bool> {
        let now = Instant::now();
        let interval = (now - self.last_frame).as_secs_f32();
        let dt = interval.min(0.1);
        self.last_frame = now;
        if let Some(count) = options.benchmark_frames {
            let timings = self.timings.get_or_insert_with(|| FrameTimings::new(count));
            if timings.record(self.frames, interval) {
                return Ok(false);
            }
        }
        if self.window.is_minimized() == Some(true) {
            return Ok(true);
        }
        // Lay out the panel first: it decides where the 3D viewport is.
        let raw_input = self.egui_state.take_egui_input(&self.window);
        let (state, camera) = (&mut self.state, &self.camera);
        let mut free = egui::Rect::NOTHING;
        let full_output = self.egui_ctx.run_ui(raw_input, |ui| {
            free = panel::show(ui, state);
            bone_labels::show(ui.ctx(), state, camera, free);
        });
        self.egui_state
            .handle_platform_output(&self.window, full_output.platform_output);
        let ppp = full_output.pixels_per_point;
        self.viewport = viewport_pixels(free, ppp, self.config.width, self.config.height);
        self.apply_requests();
        self.state.advance(dt);

        let [_, _, width, height] = self.viewport;
        if self.target.width != width || self.target.height != height {
            self.target = self.scene.target(&self.gpu.device, width, height);
            self.scene_source = self.scene_to_window.source(
                &self.gpu.device,
                &self.scene.layouts,
                &self.target.resolved_view,
                Encoding::EncodeSrgb,
            );
        }
        self.update_gizmos();
        let view = self.state.view_options();
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        self.scene.draw(
            &self.gpu,
            &mut encoder,
            &self.target,
            &self.state.model,
            &self.state.pose,
            &mut self.model_gpu,
            &mut self.deformer,
            &self.camera,
            &view,
            &self.bounds,
        );
        self.state.inspection.skin_difference = self.scene.skin_difference.take();
        self.scene_to_window.draw(
            &mut encoder,
            &self.scene_source,
            &self.window_image_view,
            Some(self.viewport),
        );

        let paint_jobs = self.egui_ctx.tessellate(full_output.shapes, ppp);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: ppp,
        };
        let mut textures = full_output.textures_delta;
        for (id, deltas) in textures.set.drain() {
            for delta in deltas {
                self.egui_renderer
                    .update_texture(&self.gpu.device, &self.gpu.queue, id, &delta);
            }
        }
        let egui_commands =
            self.egui_renderer
                .update_buffers(&self.gpu.device, &self.gpu.queue, &mut encoder, &paint_jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.window_image_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            self.egui_renderer
                .render(&mut pass.forget_lifetime(), &paint_jobs, &screen);
        }

        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(frame) | wgpu::CurrentSurfaceTexture::Suboptimal(frame) => Some(frame),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                None
            }
            _ => None,
        };
        if let Some(frame) = &frame {
            let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
            self.window_to_surface
                .draw(&mut encoder, &self.window_source, &view, None);
        }
        self.gpu
            .queue
            .submit(egui_commands.into_iter().chain([encoder.finish()]));
        if let Some(frame) = frame {
            self.window.pre_present_notify();
            self.gpu.queue.present(frame);
        }
        for id in textures.free.drain() {
            self.egui_renderer.free_texture(&id);
        }
        self.frames += 1;
        if let Some((after, path)) = &options.screenshot
            && self.frames >= *after
        {
            let image = read_rgba(&self.gpu, &self.window_image, self.config.width, self.config.height)?;
            image
                .save(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(false);
        }
        Ok(true)
    }
}

/// Frames drawn before `--benchmark-frames` starts timing (shader compilation, first uploads).
const WARM_UP_FRAMES: u32 = 10;

/// The intervals between frames for `--benchmark-frames`, allocated up front.
struct FrameTimings {
    intervals_ms: Vec<f32>,
    wanted: usize,
}

impl FrameTimings {
    fn new(wanted: usize) -> Self {
        Self {
            intervals_ms: Vec::with_capacity(wanted),
            wanted,
        }
    }

    /// Records the interval before frame `frame`; true once enough are recorded.
    fn record(&mut self, frame: u32, interval_s: f32) -> bool {
        if frame > WARM_UP_FRAMES {
            self.intervals_ms.push(interval_s * 1000.0);
        }
        self.intervals_ms.len() >= self.wanted
    }

    fn to_json(&self, adapter: &str) -> String {
        let mut sorted = self.intervals_ms.clone();
        sorted.sort_by(f32::total_cmp);
        let at = |q: f32| sorted.get(((sorted.len() as f32 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
        let mean = sorted.iter().sum::<f32>() / sorted.len().max(1) as f32;
        serde_json::json!({
            "frames": sorted.len(),
            "median_ms": at(0.5),
            "p95_ms": at(0.95),
            "mean_ms": mean,
            "adapter": adapter,
        })
        .to_string()
    }
}

/// How the window image (gamma-encoded) goes onto a surface of `format`: as it is, or decoded
/// so that an sRGB surface encodes it back.
fn surface_encoding(format: wgpu::TextureFormat) -> Encoding {
    if format.is_srgb() {
        Encoding::DecodeSrgb
    } else {
        Encoding::Copy
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
        _ => None,
    }
}

fn window_image(device: &wgpu::Device, width: u32, height: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("window image"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: WINDOW_IMAGE_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    (texture, view)
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
    }

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
