//! egui in the window: it takes the window's events, lays out the panel each frame, and paints
//! it over the window image.

use winit::event::WindowEvent;
use winit::window::Window;

use std::time::Duration;

use super::egui_painter::EguiPainter;
use super::view_input::{self, EguiWants};
use crate::render::Gpu;

pub struct EguiLayer {
    ctx: egui::Context,
    state: egui_winit::State,
    painter: EguiPainter,
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
        crate::ui::system_fonts::install(&ctx);
        ctx.all_styles_mut(view_input::widen_panel_edges);
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        Self {
            ctx,
            state,
            painter: EguiPainter::new(&gpu.device, format),
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
        EguiWants::of(&self.ctx)
    }

    /// Lays out this frame's UI with `ui`.
    pub fn run(&mut self, window: &Window, ui: impl FnMut(&mut egui::Ui)) -> EguiFrame {
        let raw_input = self.state.take_egui_input(window);
        let mut output = self.ctx.run_ui(raw_input, ui);
        self.state
            .handle_platform_output(window, std::mem::take(&mut output.platform_output));
        EguiFrame { output }
    }

    /// Paints `frame` over `target` (`size` pixels) in `encoder`.
    pub fn paint(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: EguiFrame,
        size: (u32, u32),
    ) {
        self.painter.free_textures(&self.to_free);
        self.to_free.clear();
        let output = frame.output;
        let pixels_per_point = output.pixels_per_point;
        let jobs = self.ctx.tessellate(output.shapes, pixels_per_point);
        let mut textures = output.textures_delta;
        self.painter.set_textures(gpu, &textures);
        self.to_free.extend(textures.free.iter().copied());
        // Applied (egui checks that no delta is dropped unapplied).
        textures.clear();
        self.painter.paint(gpu, encoder, target, &jobs, size, pixels_per_point);
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
