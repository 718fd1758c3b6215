//! The region a model occupies over an animation, for framing the camera and sizing the
//! ground and shadow.

use super::bounds::Bounds;
use crate::anim::{Clip, Pose};
use crate::asset::Model;
use crate::skin::{Deformer, SkinningMethod};

/// Samples per clip when measuring its bounds.
const SAMPLES: usize = 32;

/// Bounds of what is drawn over `clip`, sampled evenly, or in the rest pose when there is no
/// clip: the posed vertices, or the joints of a model without any vertex (a skeleton). Joints
/// do not count beside a mesh: a camera or light node far away would shrink the model.
/// Vertices are skinned by linear blending whatever the view uses: the framing stays put when
/// the method changes (dual quaternions move vertices far less than the margin around a
/// framed model).
pub fn animation_bounds(model: &Model, clip: Option<&Clip>, deformer: &mut Deformer) -> Bounds {
    let mut bounds = Bounds::EMPTY;
    let mut pose = model.skeleton.rest_pose().clone();
    let skeleton_only = model.vertex_count() == 0;
    let mut measure = |pose: &Pose, deformer: &mut Deformer| {
        deformer.update_all(model, pose, SkinningMethod::Linear);
        for posed in deformer.primitives() {
            posed.positions.iter().for_each(|p| bounds.include(*p));
        }
        if skeleton_only {
            for matrix in deformer.model_matrices() {
                bounds.include(matrix.w_axis.truncate());
            }
        }
    };
    match clip {
        Some(clip) => {
            let mut cursor = clip.cursor();
            for step in 0..=SAMPLES {
                pose.copy_from(model.skeleton.rest_pose());
                clip.sample(clip.duration() * step as f32 / SAMPLES as f32, &mut pose, &mut cursor);
                measure(&pose, deformer);
            }
        }
        None => measure(&pose, deformer),
    }
    bounds
}
