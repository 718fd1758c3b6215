//! One drawn model: its GPU buffers, its CPU deformer, the region it moves in, and the
//! difference view's capture texture. The window and the headless renderer both draw a model
//! through it, one frame stage at a time (see `frame.rs`).

use super::crowd_buffers::CrowdBuffers;
use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::layouts::Layouts;
use super::model_buffers::ModelBuffers;
use super::scene::SceneRenderer;
use super::skin_compare::CaptureTarget;
use crate::anim::Clip;
use crate::asset::Model;
use crate::inspect::SkinDifference;
use crate::inspect::motion::InPlace;
use crate::skin::Deformer;
use crate::view::framing::animation_bounds;
use crate::view::{Bounds, ViewOptions};

pub struct ModelView {
    pub buffers: ModelBuffers,
    pub deformer: Deformer,
    /// The region the model moves in over the clip it was framed for (it frames the camera
    /// and sizes the ground and the shadow).
    pub bounds: Bounds,
    /// The clip `bounds` were measured over (the inner `None`: the rest pose).
    measured_for: Option<(Option<usize>, Option<InPlace>)>,
    /// The difference view's texture, made when the view is first shown (or why it cannot be).
    capture: Option<Result<CaptureTarget, String>>,
    /// The crowd's buffers while one is drawn (remade when its size changes).
    pub crowd: Option<CrowdBuffers>,
}

impl ModelView {
    /// Uploads `model` for drawing with `renderer`.
    pub fn new(gpu: &Gpu, renderer: &SceneRenderer, model: &Model) -> Self {
        Self {
            buffers: ModelBuffers::new(&gpu.device, &gpu.queue, &renderer.layouts, model, gpu.texture_side),
            deformer: Deformer::new(model),
            bounds: Bounds::EMPTY,
            measured_for: None,
            capture: None,
            crowd: None,
        }
    }

    /// Measures `bounds` over clip `clip` of `model` (its rest pose without one; played in
    /// place by `in_place` when given), unless they were measured so already.
    pub fn measure_bounds(&mut self, model: &Model, clip: Option<usize>, in_place: Option<InPlace>) {
        if self.measured_for == Some((clip, in_place)) {
            return;
        }
        let animation: Option<&Clip> = clip.and_then(|c| model.clips.get(c));
        self.bounds = animation_bounds(model, animation, in_place.as_ref(), &mut self.deformer);
        self.measured_for = Some((clip, in_place));
    }

    /// Stage: which draws the pose hides (KHR_node_visibility), every skin's palette, and CPU
    /// skinning (by the view's method) of the shown draws that read CPU vertices, and of every
    /// skinned draw while the difference view measures.
    pub fn pose(&mut self, input: &FrameInput) {
        let buffers = &mut self.buffers;
        if buffers.animated.update_visibility(input.model, input.pose) {
            for draw in &mut buffers.draws {
                draw.hidden = !buffers.animated.is_visible(draw.joint);
            }
        }
        let (view, draws) = (input.view, &buffers.draws);
        let compare = view.measures_skin_difference();
        let shown_on_cpu = |i: usize| !draws[i].hidden && draws[i].uses_cpu_vertices(view.gpu_skinning);
        self.deformer.update(
            input.model,
            input.pose,
            input.model_matrices,
            view.skinning_method,
            |i| shown_on_cpu(i) || (compare && draws[i].skin.is_some()),
        );
    }

    /// Stage: uploads the skins' matrices, the draw uniforms, the CPU-posed vertices and the
    /// animated materials.
    pub fn upload(&mut self, gpu: &Gpu, input: &FrameInput) {
        let buffers = &mut self.buffers;
        buffers.upload(
            &gpu.queue,
            input.model,
            input.model_matrices,
            &self.deformer,
            input.view,
        );
        buffers.sort_by_distance(input.model_matrices, &input.camera.view);
        (buffers.animated).upload_materials(&gpu.queue, input.model, input.pose, &mut buffers.materials);
    }

    /// Stage: makes (or drops) the crowd's buffers for the crowd `input` shows, and tells the
    /// draws' uniforms where their instances' matrices are.
    pub fn show_crowd(&mut self, gpu: &Gpu, layouts: &Layouts, input: &FrameInput) {
        let Some(crowd) = input.crowd.filter(|c| c.len() > 1) else {
            self.crowd = None;
            self.buffers.crowd_blocks = None;
            return;
        };
        if self
            .crowd
            .as_ref()
            .is_none_or(|buffers| buffers.instances() != crowd.len())
        {
            let buffers = CrowdBuffers::new(gpu, layouts, input.model, &self.buffers, crowd);
            self.buffers.crowd_blocks = Some(buffers.blocks(input.model, crowd));
            self.crowd = Some(buffers);
        }
    }

    /// Stage: a crowd's matrices, and the draws the GPU does not skin posed per instance;
    /// `height` is the picture's, in pixels (it sets each instance's level of detail).
    pub fn upload_crowd(&mut self, gpu: &Gpu, input: &FrameInput, height: u32) {
        let (Some(buffers), Some(crowd)) = (&mut self.crowd, input.crowd) else {
            return;
        };
        buffers.upload_matrices(&gpu.queue, (input.model, crowd), input.camera, height);
        let document = (input.model, crowd, input.pose);
        buffers.pose_on_cpu(gpu, document, &self.buffers.draws, &mut self.deformer, input.view);
    }

    /// Triangles the lit pass draws (every instance's, for a crowd) as `view` shows the model,
    /// each mesh at the level of detail chosen for the last frame.
    pub fn triangles_drawn(&self, view: &ViewOptions) -> u64 {
        if !view.mesh {
            return 0;
        }
        let drawn = (self.buffers.draws.iter().enumerate()).filter(|(_, draw)| draw.shown_triangles());
        let indices: u64 = drawn
            .map(|(index, draw)| {
                let (_, count) = draw.detail.indices((&draw.indices, draw.index_count), draw.detail.lit);
                match &self.crowd {
                    Some(crowd) => crowd.indices_drawn((index, draw), count, view.crowd_detail, view.gpu_skinning),
                    None => u64::from(count),
                }
            })
            .sum();
        indices / 3
    }

    /// Stage: the difference view's read-back (its own submission, which waits for the GPU):
    /// the GPU's skinning of every vertex against the deformer's. On failure every vertex is
    /// coloured "not measured".
    pub fn measure_skin_difference(
        &mut self,
        gpu: &Gpu,
        renderer: &mut SceneRenderer,
    ) -> Result<SkinDifference, String> {
        let size = if self.bounds.is_empty() {
            1.0
        } else {
            self.bounds.radius() * 2.0
        };
        let measured = match renderer.skin_compare(gpu) {
            Ok((compare, layouts)) => {
                let buffers = &self.buffers;
                match self
                    .capture
                    .get_or_insert_with(|| CaptureTarget::new(gpu, layouts, buffers).map_err(|e| e.to_string()))
                {
                    Ok(target) => compare
                        .measure(gpu, &mut self.buffers, target, &self.deformer, size)
                        .map_err(|e| e.to_string()),
                    Err(error) => Err(error.clone()),
                }
            }
            Err(error) => Err(error),
        };
        if measured.is_err() {
            // Grey, not the colours of whatever the values were before.
            self.buffers.mark_unmeasured(&gpu.queue);
        }
        measured
    }
}
