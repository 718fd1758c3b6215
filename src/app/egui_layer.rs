//! egui in the window: it takes the window's events, lays out the panel each frame, and paints
//! it over the window image.

use winit::event::WindowEvent;
use winit::window::Window;

use std::time::Duration;

use super::view_input::EguiWants;
use crate::render::Gpu;

pub struct EguiLayer {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    /// Textures the last frame released, freed once that frame was submitted.
    to_free: Vec<egui::TextureId>,
}

/// A laid-out frame of egui, waiting to be painted.
pub struct EguiFrame {
    output: egui::FullOutput,
}

impl EguiLayer {
    /// egui for `window`, painting into images of `format`.
    pub fn new(window: &Window, gpu: &Gpu, format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(
            &gpu.device,
            format,
            egui_wgpu::RendererOptions {
                msaa_samples: 1,
                depth_stencil_format: None,
                dithering: true,
                predictable_texture_filtering: false,
            },
        );
        Self {
            ctx,
            state,
            renderer,
            to_free: Vec::new(),
        }
    }

    /// Gives egui a window event; the response says whether egui consumed it (the 3D view
    /// ignores it) and whether the panel must be drawn again.
    pub fn on_window_event(&mut self, window: &Window, event: &WindowEvent) -> egui_winit::EventResponse {
        self.state.on_window_event(window, event)
    }

    /// What egui wants of the input now (asked after it saw an event), for the 3D view to
    /// leave alone.
    pub fn wants(&self) -> EguiWants {
        EguiWants {
            pointer: self.ctx.egui_wants_pointer_input(),
            keyboard: self.ctx.egui_wants_keyboard_input(),
        }
    }

    /// Lays out this frame's UI with `ui`.
    pub fn run(&mut self, window: &Window, ui: impl FnMut(&mut egui::Ui)) -> EguiFrame {
        let raw_input = self.state.take_egui_input(window);
        let mut output = self.ctx.run_ui(raw_input, ui);
        self.state
            .handle_platform_output(window, std::mem::take(&mut output.platform_output));
        EguiFrame { output }
    }

    /// Paints `frame` over `target` (`size` pixels) in `encoder`; returns the command buffers
    /// egui's own uploads need, to be submitted before `encoder`.
    pub fn paint(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: EguiFrame,
        (width, height): (u32, u32),
    ) -> Vec<wgpu::CommandBuffer> {
        for id in self.to_free.drain(..) {
            self.renderer.free_texture(&id);
        }
        let output = frame.output;
        let ppp = output.pixels_per_point;
        let paint_jobs = self.ctx.tessellate(output.shapes, ppp);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [width, height],
            pixels_per_point: ppp,
        };
        let mut textures = output.textures_delta;
        for (id, deltas) in textures.set.drain() {
            for delta in deltas {
                self.renderer.update_texture(&gpu.device, &gpu.queue, id, &delta);
            }
        }
        self.to_free.extend(textures.free.drain());
        let commands = self
            .renderer
            .update_buffers(&gpu.device, &gpu.queue, encoder, &paint_jobs, &screen);
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        self.renderer.render(&mut pass.forget_lifetime(), &paint_jobs, &screen);
        commands
    }
}

impl EguiFrame {
    pub fn pixels_per_point(&self) -> f32 {
        self.output.pixels_per_point
    }

    /// How soon egui wants to be laid out again (an animation runs, a tooltip waits), or
    /// `None` when only an event will change it.
    pub fn repaint_delay(&self) -> Option<Duration> {
        self.output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map(|viewport| viewport.repaint_delay)
            .filter(|delay| *delay != Duration::MAX)
    }
}
