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

use wgpu::CommandEncoder;

use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::model_view::ModelView;
use super::scene::SceneRenderer;
use super::target::SceneTarget;

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
pub fn draw(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    model_view: &mut ModelView,
    input: &FrameInput,
    target: &SceneTarget,
    encoder: &mut CommandEncoder,
) {
    model_view.upload_crowd(gpu, input, target.height);
    let bounds = input.crowd.map_or(model_view.bounds, |crowd| crowd.bounds);
    let model = &model_view.bounds;
    // At the model's nearest point; from inside it (a scene walked through), at its middle.
    let at = |radius: f32| (input.camera).pixels_per_unit(model.center(), radius, target.height as f32);
    let pixels_per_unit = if model.is_empty() {
        f32::INFINITY
    } else {
        let nearest = at(model.radius());
        if nearest.is_finite() { nearest } else { at(0.0) }
    };
    let budget = renderer.quality.triangle_budget;
    (model_view.buffers).choose_detail(budget, pixels_per_unit, input.camera, input.model_matrices);
    let size = (target.width, target.height);
    renderer.prepare(gpu, input, (&bounds, &model_view.buffers), size);
    renderer.record(
        encoder,
        target,
        &model_view.buffers,
        input.view,
        model_view.crowd.as_ref(),
    );
}
