//! The model's skins: each skin's joints (nodes are joints, by the same index) and inverse
//! bind matrices, in the skin's order, which the vertices' joint indices refer to.

use glam::Mat4;
use gltf_json as json;

use super::document::{Document, Usage};
use crate::asset::Model;

/// Writes every skin (glTF skin i is the model's skin i).
pub fn write_skins(document: &mut Document, model: &Model) {
    for skin in &model.skins {
        let inverse_bind: Vec<Mat4> = skin.inverse_bind.iter().map(affine).collect();
        let inverse_bind_matrices =
            (skin.inverse_bind_given).then(|| document.accessor(&inverse_bind, Usage::Other, false));
        let joints = skin.joints.iter().map(|&joint| node(joint)).collect();
        document.root.push(json::Skin {
            extensions: None,
            extras: None,
            inverse_bind_matrices,
            joints,
            name: (!skin.name.is_empty()).then(|| skin.name.clone()),
            skeleton: roots_all(model, skin.root, &skin.joints).then(|| node(skin.root)),
        });
    }
}

/// Whether `root` is every joint's ancestor or the joint itself: glTF's `skeleton` must be (a
/// file that did not name one got the topmost joint, which need not be).
fn roots_all(model: &Model, root: usize, joints: &[usize]) -> bool {
    let hierarchy = model.skeleton.rest_pose().hierarchy();
    joints
        .iter()
        .all(|&joint| joint == root || hierarchy.ancestors(joint).any(|ancestor| ancestor == root))
}

/// `matrix` with its last row exactly (0, 0, 0, 1), as glTF requires of inverse bind
/// matrices: one computed by inverting (an MD5 rig's) can be off there by a rounding error.
fn affine(matrix: &Mat4) -> Mat4 {
    let mut affine = *matrix;
    (affine.x_axis.w, affine.y_axis.w, affine.z_axis.w, affine.w_axis.w) = (0.0, 0.0, 0.0, 1.0);
    affine
}

/// The node of joint `joint`.
pub fn node(joint: usize) -> json::Index<json::Node> {
    // The skeleton's length came from a file whose node count fits in u32.
    json::Index::new(joint as u32)
}
