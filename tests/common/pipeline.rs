//! A model through the pipeline, shared by the mutation smoke test and the `pipeline` fuzz
//! target (which includes this file).

use rigscope::asset::Model;
use rigscope::skin::{Deformer, SkinningMethod};

/// Everything the commands do with a model that loads: every clip sampled at its ends,
/// middle and outside it, CPU skinning by both methods, and lint.
pub fn exercise(model: &Model) {
    let rest = model.skeleton.rest_pose();
    let mut pose = rest.clone();
    let mut deformer = Deformer::new(model);
    for method in [SkinningMethod::Linear, SkinningMethod::DualQuaternion] {
        deformer.update_all(model, &pose, method);
    }
    for clip in &model.clips {
        let mut cursor = clip.cursor();
        let duration = clip.duration();
        for time in [-1.0, 0.0, duration * 0.5, duration, duration + 1.0] {
            pose.copy_from(rest);
            clip.sample(time, &mut pose, &mut cursor);
            deformer.update_all(model, &pose, SkinningMethod::Linear);
        }
    }
    rigscope::lint::lint(model);
}
