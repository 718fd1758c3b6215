//! Still images of one model in any number of poses, for the headless commands (`render`,
//! `thumbnail`, `sheet`): the model is uploaded once and every image uses the same renderer as
//! the window.

use anyhow::bail;

use super::camera::{Bounds, OrbitCamera};
use super::capture::read_rgba;
use super::framing::animation_bounds;
use super::gpu::Gpu;
use super::model_gpu::ModelGpu;
use super::scene::{SceneRenderer, SceneTarget, ViewOptions};
use crate::anim::Pose;
use crate::asset::Model;
use crate::skin::Deformer;

pub struct StillRenderer<'a> {
    gpu: &'a Gpu,
    model: &'a Model,
    model_gpu: ModelGpu,
    deformer: Deformer,
    /// The last image's target, reused while the size stays (a contact sheet's cells).
    target: Option<SceneTarget>,
}

impl<'a> StillRenderer<'a> {
    pub fn new(gpu: &'a Gpu, renderer: &SceneRenderer, model: &'a Model) -> Self {
        Self {
            gpu,
            model,
            model_gpu: renderer.upload_model(gpu, model),
            deformer: Deformer::new(model),
            target: None,
        }
    }

    /// The region the model occupies over clip `clip` (its rest pose without one), to frame
    /// every image of that clip alike.
    pub fn bounds(&mut self, clip: Option<usize>) -> Bounds {
        let clip = clip.and_then(|c| self.model.clips.get(c));
        animation_bounds(self.model, clip, &mut self.deformer)
    }

    /// The model in `pose`, framed on `bounds`, as a `width` x `height` image.
    pub fn render(
        &mut self,
        renderer: &mut SceneRenderer,
        pose: &Pose,
        bounds: &Bounds,
        (width, height): (u32, u32),
        view: &ViewOptions,
    ) -> anyhow::Result<image::RgbaImage> {
        let gpu = self.gpu;
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if width > max_side || height > max_side {
            bail!("{width}x{height} is larger than this graphics device renders ({max_side} pixels a side)");
        }
        let camera = framed_camera(bounds, (width, height));
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
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("still") });
        renderer.draw(
            gpu,
            &mut encoder,
            target,
            self.model,
            pose,
            &mut self.model_gpu,
            &mut self.deformer,
            &camera,
            view,
            bounds,
        );
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
