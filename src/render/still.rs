//! Still images of one model in any number of poses, for the headless commands (`render`,
//! `thumbnail`, `sheet`): the model is uploaded once and every image goes through the same
//! frame stages as the window.

use glam::{Mat4, Vec2};

use super::capture::read_rgba;
use super::error::RenderError;
use super::frame::{draw, pose_and_upload};
use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::gpu_timer::GpuTimer;
use super::model_view::ModelView;
use super::scene::SceneRenderer;
use super::target::SceneTarget;
use crate::anim::Pose;
use crate::asset::Model;
use crate::inspect::SkinDifference;
use crate::inspect::motion::InPlace;
use crate::view::crowd::{Crowd, CrowdOptions};
use crate::view::file_camera::model_camera_view;
use crate::view::{Bounds, CameraView, OrbitCamera, ViewAngles, ViewOptions, ViewPreset};

/// One benchmarked frame: its wall time (animation, upload, drawing and waiting for the GPU)
/// and, where the adapter has timestamps, the GPU's part of it.
pub struct FrameTime {
    pub wall_s: f32,
    pub gpu_s: Option<f32>,
}

pub struct StillRenderer<'a> {
    gpu: &'a Gpu,
    model: &'a Model,
    model_view: ModelView,
    /// The pose's model matrices, one buffer for every image.
    model_matrices: Vec<Mat4>,
    /// The last image's animated property values (a file camera's animated projection).
    properties: Vec<f32>,
    /// The last image's target, reused while the size stays (a contact sheet's cells).
    target: Option<SceneTarget>,
    /// What the last image's difference view measured, when it showed one.
    pub skin_difference: Option<Result<SkinDifference, String>>,
    /// Where the images are seen from.
    pub viewpoint: Viewpoint,
    /// Copies of the model drawn beside it (see `show_crowd`).
    crowd: Option<Crowd>,
    /// Seconds of animation for `render`: the crowd's clock (each instance plays from its
    /// phase) and what moves with time in the materials (MToon's texture scroll).
    pub time: f32,
    /// The clip played in place: `frame_clip` frames it so.
    pub in_place: Option<InPlace>,
    /// How far the ground's grid has slid back under a clip played in place (the travel
    /// taken out of the next image's pose).
    pub ground_slide: Vec2,
}

/// Where still images are seen from: the orbit camera from a direction, framed on the model,
/// or one of the file's cameras (an index into `Model::cameras`), following its joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Viewpoint {
    Orbit(ViewAngles),
    FileCamera(usize),
}

impl Default for Viewpoint {
    fn default() -> Self {
        Viewpoint::Orbit(ViewPreset::ThreeQuarter.angles())
    }
}

impl<'a> StillRenderer<'a> {
    pub fn new(gpu: &'a Gpu, renderer: &SceneRenderer, model: &'a Model) -> Self {
        Self {
            gpu,
            model,
            model_view: ModelView::new(gpu, renderer, model),
            model_matrices: vec![Mat4::IDENTITY; model.skeleton.len()],
            properties: Vec::new(),
            target: None,
            skin_difference: None,
            viewpoint: Viewpoint::default(),
            crowd: None,
            time: 0.0,
            in_place: None,
            ground_slide: Vec2::ZERO,
        }
    }

    /// Copies of the model drawn (1: the model alone).
    pub fn crowd_len(&self) -> usize {
        self.crowd.as_ref().map_or(1, Crowd::len)
    }

    /// Triangles the last image's lit pass drew (see `ModelView::triangles_drawn`).
    pub fn triangles_drawn(&self, view: &ViewOptions) -> u64 {
        self.model_view.triangles_drawn(view)
    }

    /// Draws the following images as a crowd of the model (`options.count` of 1: the model
    /// alone), the others playing their clips (a uniform crowd plays `clip`), framed on the
    /// whole grid. Call after `frame_clip`: the grid is spaced by the model's region.
    pub fn show_crowd(&mut self, options: CrowdOptions, clip: Option<usize>) {
        self.crowd = (options.count > 1).then(|| Crowd::new(self.model, options, clip, &self.model_view.bounds));
    }

    /// What uploading the model met (textures that could not be decoded, skins too big for the
    /// GPU path), for the commands to pass on.
    pub fn notes(&self) -> &[String] {
        &self.model_view.buffers.notes
    }

    /// Frames the following images on the region the model occupies over clip `clip` (its
    /// rest pose without one), so every image of that clip is framed alike; returns that
    /// region.
    pub fn frame_clip(&mut self, clip: Option<usize>) -> Bounds {
        self.model_view.measure_bounds(self.model, clip, self.in_place);
        self.model_view.bounds
    }

    /// The model in `pose`, framed as `frame_clip` said, as a `width` x `height` image; a
    /// crowd's other instances at `time`.
    pub fn render(
        &mut self,
        renderer: &mut SceneRenderer,
        pose: &Pose,
        (width, height): (u32, u32),
        view: &ViewOptions,
    ) -> Result<image::RgbaImage, RenderError> {
        let gpu = self.gpu;
        self.draw(renderer, pose, (width, height), view, self.time, None)?;
        let target = self.target.as_ref().expect("drawn just now");
        read_rgba(gpu, &target.resolved)
    }

    /// Draws `frames` frames of the crowd (or the model) in `pose` with crowd time running at
    /// 60 frames a second from `time`, waiting for the GPU after each; returns each frame's
    /// times (see `FrameTime`).
    pub fn time_frames(
        &mut self,
        renderer: &mut SceneRenderer,
        pose: &Pose,
        size: (u32, u32),
        view: &ViewOptions,
        frames: usize,
    ) -> Result<Vec<FrameTime>, RenderError> {
        let time = self.time;
        let mut timer = GpuTimer::new(self.gpu);
        let mut times = Vec::with_capacity(frames);
        for frame in 0..frames {
            let start = std::time::Instant::now();
            self.draw(renderer, pose, size, view, time + frame as f32 / 60.0, timer.as_mut())?;
            self.gpu
                .device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(RenderError::FrameUnfinished)?;
            let wall_s = start.elapsed().as_secs_f32();
            // The frame has finished, so its timestamps are ready to read.
            let gpu_s = timer.as_mut().and_then(|timer| timer.read(self.gpu));
            times.push(FrameTime { wall_s, gpu_s });
        }
        Ok(times)
    }

    /// Records and submits one frame into the target (made or remade for `width` x `height`);
    /// the crowd, if any, posed at crowd time `time`; `timer` measures the GPU's part.
    fn draw(
        &mut self,
        renderer: &mut SceneRenderer,
        pose: &Pose,
        (width, height): (u32, u32),
        view: &ViewOptions,
        time: f32,
        mut timer: Option<&mut GpuTimer>,
    ) -> Result<(), RenderError> {
        let gpu = self.gpu;
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if width > max_side || height > max_side {
            return Err(RenderError::TooLarge {
                width,
                height,
                max_side,
            });
        }
        pose.model_matrices(&mut self.model_matrices);
        self.properties.clear();
        self.properties.extend_from_slice(pose.properties());
        if let Some(crowd) = &mut self.crowd {
            crowd.animate(self.model, time, &self.model_matrices);
        }
        let camera = self.camera_view((width, height));
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
        let input = FrameInput {
            model: self.model,
            pose,
            model_matrices: &self.model_matrices,
            camera: &camera,
            view,
            crowd: self.crowd.as_ref(),
            time,
            ground_slide: self.ground_slide,
        };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("still") });
        if let Some(timer) = timer.as_deref_mut() {
            timer.begin(&mut encoder);
        }
        if renderer.quality.triangle_budget.is_some() {
            // A still is one frame: its simplified copies are made before it, not after.
            (self.model_view.buffers).update_detail(&gpu.device, self.model, true);
        }
        pose_and_upload(gpu, renderer, &mut self.model_view, &input);
        self.skin_difference =
            (view.measures_skin_difference()).then(|| self.model_view.measure_skin_difference(gpu, renderer));
        draw(
            gpu,
            renderer,
            (&mut self.model_view, &input),
            None,
            target,
            &mut encoder,
        );
        if let Some(timer) = timer.as_deref_mut() {
            timer.end(&mut encoder);
        }
        gpu.queue.submit([encoder.finish()]);
        if let Some(timer) = timer {
            timer.submitted();
        }
        Ok(())
    }
}

impl StillRenderer<'_> {
    /// What an image at `width` x `height` is seen through: the viewpoint's camera (a file
    /// camera where the last image's pose put it), for the labels over the image too. A file
    /// camera index out of range falls back to the default view.
    pub fn camera_view(&self, (width, height): (u32, u32)) -> CameraView {
        let aspect = width as f32 / height.max(1) as f32;
        if let Viewpoint::FileCamera(index) = self.viewpoint
            && let Some(view) = model_camera_view(self.model, index, &self.model_matrices, &self.properties, aspect)
        {
            return view;
        }
        let angles = match self.viewpoint {
            Viewpoint::Orbit(angles) => angles,
            Viewpoint::FileCamera(_) => ViewPreset::ThreeQuarter.angles(),
        };
        let mut camera = OrbitCamera::default();
        camera.look_from(angles);
        let bounds = self
            .crowd
            .as_ref()
            .map_or(&self.model_view.bounds, |crowd| &crowd.bounds);
        camera.frame(bounds, aspect);
        camera.camera_view(aspect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::view::Quality;

    /// Draws `model` as a 64 x 48 still seen as `view`; returns which of its target's images
    /// made when first needed were made (`SceneTarget::made`), and the picture.
    fn images_made(
        gpu: &Gpu,
        renderer: &mut SceneRenderer,
        model: &Model,
        view: &ViewOptions,
    ) -> (Option<[bool; 3]>, image::RgbaImage) {
        let mut still = StillRenderer::new(gpu, renderer, model);
        still.frame_clip(None);
        let picture = (still.render(renderer, model.skeleton.rest_pose(), (64, 48), view)).unwrap();
        (still.target.as_ref().map(SceneTarget::made), picture)
    }

    /// Each image a still draws into is made when a frame first needs it (a software
    /// rasteriser clears every byte of a texture it makes): a multisampled still goes straight
    /// into the multisampled displayed image, without the HDR images; glass, which refracts the
    /// linear scene behind it, into the HDR images and their copy behind it, and what is drawn
    /// over them (the wireframe) into the multisampled displayed image; at one sample, straight
    /// into the displayed image, with none of them.
    #[test]
    fn a_still_makes_only_the_images_its_frames_draw_into() {
        let gpu = Gpu::headless().unwrap();
        let mut renderer = SceneRenderer::new(&gpu);
        let model = demo_model();
        let mut glass = demo_model();
        for material in &mut glass.materials {
            material.layers.transmission = 1.0;
        }
        let plain = ViewOptions::default();
        let wireframe = ViewOptions {
            wireframe: true,
            ..plain
        };
        assert!(renderer.sample_count > 1, "the renderer multisamples at best quality");
        let (images, _) = images_made(&gpu, &mut renderer, &model, &plain);
        assert_eq!(
            images,
            Some([false, false, true]),
            "a plain still: the displayed samples alone"
        );
        let (images, glass_alone) = images_made(&gpu, &mut renderer, &glass, &plain);
        assert_eq!(
            images,
            Some([true, true, false]),
            "glass: the HDR images and the copy behind it"
        );
        let (images, glass_over) = images_made(&gpu, &mut renderer, &glass, &wireframe);
        assert_eq!(images, Some([true, true, true]), "the wireframe drawn over glass");
        assert_ne!(glass_alone, glass_over, "the wireframe shows");
        renderer.set_quality(&gpu, Quality::Fast);
        let (images, _) = images_made(&gpu, &mut renderer, &model, &plain);
        assert_eq!(
            images,
            Some([false, false, false]),
            "one sample: the displayed image alone"
        );
    }

    /// A renderer made for a thumbnail's size fills a 1024² shadow map, not best quality's
    /// 2048², and draws the same picture but for the shadow's edge.
    #[test]
    fn a_renderer_for_a_small_picture_draws_it_from_a_coarser_shadow_map() {
        let gpu = Gpu::headless().unwrap();
        let model = crate::asset::sample_gltf("Fox/glTF-Binary/Fox.glb");
        // As `thumbnail` draws it: without the ground.
        let view = ViewOptions {
            grid: false,
            ..ViewOptions::default()
        };
        let size = (256, 256);
        let picture = |renderer: &mut SceneRenderer| {
            let mut still = StillRenderer::new(&gpu, renderer, &model);
            still.frame_clip(None);
            still.render(renderer, model.skeleton.rest_pose(), size, &view).unwrap()
        };
        let mut fitted = SceneRenderer::for_picture(&gpu, None, size);
        let mut best = SceneRenderer::new(&gpu);
        assert_eq!(fitted.quality.shadow_map_size, 1024);
        assert_eq!(best.quality.shadow_map_size, 2048);
        let (coarser, finer) = (picture(&mut fitted), picture(&mut best));
        let (coarser, finer) = (coarser.as_raw(), finer.as_raw());
        let total: u64 = (coarser.iter().zip(finer))
            .map(|(a, b)| u64::from(a.abs_diff(*b)))
            .sum();
        let mean = total as f64 / coarser.len() as f64;
        assert!(mean > 0.0, "the shadow map's size changes nothing");
        assert!(mean < 0.05, "mean difference {mean} levels");
    }
}
