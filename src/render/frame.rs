//! A frame, stage by stage, as `pose_and_upload` and `draw` run them; a caller showing the
//! difference view measures it between the two (`ModelView::measure_skin_difference`). Before it, the caller
//! has run the animation (Animator → Pose) and computed the pose's joint → model matrices once;
//! from there:
//!
//! 0. at Fast quality: simplified copies of the meshes, made in the background and taken as
//!    they come (`ModelBuffers::update_detail`);
//!    with the wireframe shown, once: the triangles' edges (`ModelBuffers::make_wireframe_edges`);
//! 1. palettes per skin (model matrix × inverse bind matrix) and CPU skinning of the draws
//!    the GPU does not skin (`ModelView::pose`);
//! 2. the GPU upload: the skins' matrices (palettes in a storage buffer, or the `pose` uniform
//!    array), every draw's uniform, CPU-skinned vertices; and the blended draws sorted back
//!    to front (`ModelView::upload`);
//! 3. only for the CPU-vs-GPU difference view: the GPU's skinning read back and compared, in a
//!    submission of its own (`ModelView::measure_skin_difference`);
//! 4. for a crowd: every instance's matrices, nearest first with each draw's level of detail
//!    per instance, and the CPU posing of the draws the GPU does not skin, once per instance
//!    (`ModelView::upload_crowd`; the caller animated the crowd, see `view::crowd`);
//! 5. at Fast quality, the copy each mesh draws within the frame's triangle budget
//!    (`ModelBuffers::choose_detail`);
//! 6. the frame's uniforms and overlays (`SceneRenderer::prepare`), then the passes, which
//!    record and nothing else (`SceneRenderer::record`).

use glam::Mat4;
use wgpu::CommandEncoder;

use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::model_view::ModelView;
use super::scene::{DrawnModels, SceneRenderer};
use super::target::SceneTarget;
use crate::view::compare_layout::{both_bounds, placed_bounds};
use crate::view::{Bounds, CameraView};

/// Stages 0 to 2: what the frame's pose puts on the GPU. After it, a caller showing the
/// difference view measures it (stage 3, `ModelView::measure_skin_difference`), then `draw`s.
pub fn pose_and_upload(gpu: &Gpu, renderer: &SceneRenderer, model_view: &mut ModelView, input: &FrameInput) {
    if renderer.quality.triangle_budget.is_some() {
        model_view.buffers.update_detail(&gpu.device, input.model, false);
    }
    if input.view.wireframe {
        model_view.buffers.make_wireframe_edges(&gpu.device, input.model);
    }
    model_view.pose(input);
    model_view.show_crowd(gpu, &renderer.layouts, input);
    model_view.upload(gpu, input);
}

/// Stages 4 to 6: the crowd's instances, the meshes' detail, the frame's uniforms and
/// overlays, and the passes into `target`, recorded into `encoder` (the caller submits it).
/// A `second` model (the compare view's) is drawn with the first: its detail chosen within a
/// budget of its own, the ground and the shadow sized for both, and, unless it is a ghost, its
/// shadow cast.
pub fn draw(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    (model_view, input): (&mut ModelView, &FrameInput),
    second: Option<SecondModel>,
    target: &SceneTarget,
    encoder: &mut CommandEncoder,
) {
    model_view.upload_crowd(gpu, input, target.height);
    let mut bounds = input.crowd.map_or(model_view.bounds, |crowd| crowd.bounds);
    let budget = renderer.quality.triangle_budget;
    let scale = pixels_per_unit(&model_view.bounds, input.camera, target.height);
    (model_view.buffers).choose_detail(budget, scale, input.camera, input.model_matrices);
    let second = match second {
        Some(SecondModel {
            view,
            input: second_input,
            placement,
        }) => {
            let placed = placed_bounds(&view.bounds, placement);
            bounds = both_bounds(&bounds, &placed);
            let scale = pixels_per_unit(&placed, input.camera, target.height);
            let matrices = second_input.model_matrices;
            (view.buffers).choose_detail(budget, scale, input.camera, matrices);
            let view: &ModelView = view;
            Some((&view.buffers, second_input))
        }
        None => None,
    };
    let size = (target.width, target.height);
    let second_casters = second.filter(|(buffers, _)| buffers.ghost.is_none());
    renderer.prepare(gpu, input, (&bounds, &model_view.buffers, second_casters), size);
    let models = DrawnModels {
        first: &model_view.buffers,
        crowd: model_view.crowd.as_ref(),
        second: second.map(|(buffers, _)| buffers),
    };
    renderer.record(encoder, target, models, input.view);
}

/// The compare view's second model: posed and uploaded by `pose_and_upload` with `input` (whose
/// matrices place it already), then drawn with the first by `draw`.
pub struct SecondModel<'a> {
    pub view: &'a mut ModelView,
    pub input: &'a FrameInput<'a>,
    /// World → world: where it stands against the first (its measured bounds move by it).
    pub placement: Mat4,
}

/// Pixels per world unit at the nearest point of `bounds` in a picture `height` pixels high
/// (what the triangle budget's levels of detail are chosen by); from inside the box (a scene
/// walked through), at its middle; infinite for an empty box.
fn pixels_per_unit(bounds: &Bounds, camera: &CameraView, height: u32) -> f32 {
    if bounds.is_empty() {
        return f32::INFINITY;
    }
    let at = |radius: f32| camera.pixels_per_unit(bounds.center(), radius, height as f32);
    let nearest = at(bounds.radius());
    if nearest.is_finite() { nearest } else { at(0.0) }
}
