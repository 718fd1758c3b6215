//! The region a model occupies over an animation, for framing the camera and sizing the
//! ground and shadow.

use super::bounds::Bounds;
use crate::anim::{Clip, Pose};
use crate::asset::Model;
use crate::inspect::motion::InPlace;
use crate::skin::{Deformer, SkinningMethod, posed_order};

/// Samples per clip when measuring its bounds.
const SAMPLES: usize = 32;

/// Bounds of what is drawn over `clip`, sampled evenly (played in place by `in_place` when
/// given), or in the rest pose when there is no clip: the posed vertices (and the boxes of each instance's copies, EXT_mesh_gpu_instancing),
/// or the bones of a model without any vertex (a skeleton). Joints do not count beside a mesh:
/// a camera or light node far away would shrink the model.
/// Vertices are skinned by linear blending whatever the view uses: the framing stays put when
/// the method changes (dual quaternions move vertices far less than the margin around a
/// framed model).
pub fn animation_bounds(
    model: &Model,
    clip: Option<&Clip>,
    in_place: Option<&InPlace>,
    deformer: &mut Deformer,
) -> Bounds {
    let mut bounds = Bounds::EMPTY;
    let mut pose = model.skeleton.rest_pose().clone();
    let skeleton_only = model.vertex_count() == 0;
    let framed_joints = skeleton_only.then(|| bones(model));
    let mut measure = |pose: &Pose, deformer: &mut Deformer| {
        deformer.update_all(model, pose, SkinningMethod::Linear);
        for ((instance, _), posed) in posed_order(model).zip(deformer.primitives()) {
            let mut own = Bounds::EMPTY;
            posed.positions.iter().for_each(|p| own.include(*p));
            match model.copies_of(instance).filter(|_| !own.is_empty()) {
                Some(copies) => {
                    let joint = deformer.model_matrices()[model.instances[instance].joint];
                    for placement in copies.placements(joint) {
                        (own.corners().iter()).for_each(|c| bounds.include(placement.transform_point3(*c)));
                    }
                }
                None => own.corners().iter().for_each(|c| bounds.include(*c)),
            }
        }
        if let Some(framed) = &framed_joints {
            for (matrix, _) in deformer.model_matrices().iter().zip(framed).filter(|(_, f)| **f) {
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
                if let Some(in_place) = in_place {
                    in_place.apply(&mut pose);
                }
                measure(&pose, deformer);
            }
        }
        None => measure(&pose, deformer),
    }
    bounds
}

/// Per joint, whether it is a bone: every joint but those that only carry values.
fn bones(model: &Model) -> Vec<bool> {
    let mut bones = vec![true; model.skeleton.len()];
    for &joint in &model.value_joints {
        bones[joint] = false;
    }
    bones
}
