//! Still images of one model in any number of poses, for the headless commands (`render`,
//! `thumbnail`, `sheet`): the model is uploaded once and every image goes through the same
//! frame stages as the window.

use anyhow::bail;
use glam::Mat4;

use super::capture::read_rgba;
use super::frame::render_frame;
use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::model_view::ModelView;
use super::scene::SceneRenderer;
use super::target::SceneTarget;
use crate::anim::Pose;
use crate::asset::Model;
use crate::inspect::SkinDifference;
use crate::view::{Bounds, OrbitCamera, ViewOptions};

pub struct StillRenderer<'a> {
    gpu: &'a Gpu,
    model: &'a Model,
    model_view: ModelView,
    /// The pose's model matrices, one buffer for every image.
    model_matrices: Vec<Mat4>,
    /// The last image's target, reused while the size stays (a contact sheet's cells).
    target: Option<SceneTarget>,
    /// What the last image's difference view measured, when it showed one.
    pub skin_difference: Option<Result<SkinDifference, String>>,
}

impl<'a> StillRenderer<'a> {
    pub fn new(gpu: &'a Gpu, renderer: &SceneRenderer, model: &'a Model) -> Self {
        Self {
            gpu,
            model,
            model_view: ModelView::new(gpu, renderer, model),
            model_matrices: vec![Mat4::IDENTITY; model.skeleton.len()],
            target: None,
            skin_difference: None,
        }
    }

    /// Frames the following images on the region the model occupies over clip `clip` (its
    /// rest pose without one), so every image of that clip is framed alike; returns that
    /// region.
    pub fn frame_clip(&mut self, clip: Option<usize>) -> Bounds {
        self.model_view.measure_bounds(self.model, clip);
        self.model_view.bounds
    }

    /// The model in `pose`, framed as `frame_clip` said, as a `width` x `height` image.
    pub fn render(
        &mut self,
        renderer: &mut SceneRenderer,
        pose: &Pose,
        (width, height): (u32, u32),
        view: &ViewOptions,
    ) -> anyhow::Result<image::RgbaImage> {
        let gpu = self.gpu;
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if width > max_side || height > max_side {
            bail!("{width}x{height} is larger than this graphics device renders ({max_side} pixels a side)");
        }
        if self
            .target
            .as_ref()
            .is_some_and(|t| (t.width, t.height) != (width, height))
        {
            self.target = None;
        }
        let target = &*self
            .target
            .get_or_insert_with(|| renderer.target(&gpu.device, width, height));
        pose.model_matrices(&mut self.model_matrices);
        let camera = framed_camera(&self.model_view.bounds, (width, height));
        let input = FrameInput {
            model: self.model,
            pose,
            model_matrices: &self.model_matrices,
            camera: &camera,
            view,
        };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("still") });
        self.skin_difference = render_frame(gpu, renderer, &mut self.model_view, &input, target, &mut encoder);
        gpu.queue.submit([encoder.finish()]);
        read_rgba(gpu, &target.resolved, width, height)
    }
}

/// The camera every still image of a model framed on `bounds` uses, at `width` x `height`.
pub fn framed_camera(bounds: &Bounds, (width, height): (u32, u32)) -> OrbitCamera {
    let mut camera = OrbitCamera::default();
    camera.frame(bounds, width as f32 / height as f32);
    camera
}
