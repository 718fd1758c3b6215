//! glTF puts a skinned mesh's vertices in model space, and its inverse bind matrices map model
//! space to each joint; an FBX mesh's vertices are in its node's space, and its inverse bind
//! matrices map that space (`Model::skin_vertex_space`, `G`). Written as they are, such a file
//! deforms alike in every pose, but its bind pose, which readers build their bones' rest from
//! (Blender's edit bones), is turned by `G`. So the vertices (and morph targets) of those
//! meshes are written through `G`, and their skins' inverse bind matrices as `IBM · G⁻¹`:
//! `joint · IBM · G⁻¹ · G · v` deforms as before, and the bind pose is the file's.
//!
//! A mesh drawn by skins of different spaces, or also drawn unskinned, is written as it is.

use std::borrow::Cow;

use glam::{Mat3, Mat4};

use crate::asset::{Model, Primitive};

/// `model` with its skinned vertices in model space (itself when they are already).
pub fn skins_in_model_space(model: &Model) -> Cow<'_, Model> {
    let bind = model.skeleton.bind_pose().to_model_matrices();
    let spaces: Vec<Mat4> = model
        .skins
        .iter()
        .map(|skin| model.skin_vertex_space(skin, &bind))
        .collect();
    if spaces.iter().all(|space| *space == Mat4::IDENTITY) {
        return Cow::Borrowed(model);
    }
    // Each mesh's space: the one of every skin it is drawn with, where they agree.
    let mut mesh_space: Vec<Option<Option<Mat4>>> = vec![None; model.meshes.len()];
    for instance in &model.instances {
        let space = instance.skin.and_then(|skin| spaces.get(skin).copied());
        let Some(slot) = mesh_space.get_mut(instance.mesh) else {
            continue;
        };
        *slot = match *slot {
            None => Some(space),
            Some(seen) if seen == space => Some(seen),
            Some(_) => Some(None),
        };
    }
    // A mesh moves when its skins do, and a skin's matrices change when every mesh drawn with
    // it moves: narrowed until both agree.
    let mut mesh_moves: Vec<bool> = (mesh_space.iter())
        .map(|space| space.flatten().is_some_and(|space| space != Mat4::IDENTITY))
        .collect();
    let mut skin_moves = vec![true; model.skins.len()];
    // Each round only turns flags off, so it ends within as many rounds as there are flags.
    let mut changed = true;
    while changed {
        changed = false;
        for instance in &model.instances {
            let Some(skin) = instance.skin else { continue };
            let both = mesh_moves[instance.mesh] && skin_moves[skin];
            changed |= (mesh_moves[instance.mesh], skin_moves[skin]) != (both, both);
            (mesh_moves[instance.mesh], skin_moves[skin]) = (both, both);
        }
    }
    let mut moved = model.clone();
    for ((mesh, space), moves) in moved.meshes.iter_mut().zip(&mesh_space).zip(&mesh_moves) {
        if let (Some(Some(space)), true) = (space, moves) {
            mesh.primitives
                .iter_mut()
                .for_each(|primitive| transform(primitive, *space));
        }
    }
    for ((skin, space), moves) in moved.skins.iter_mut().zip(&spaces).zip(&skin_moves) {
        if *moves && *space != Mat4::IDENTITY {
            let back = space.inverse();
            skin.inverse_bind
                .iter_mut()
                .for_each(|inverse_bind| *inverse_bind = *inverse_bind * back);
        }
    }
    Cow::Owned(moved)
}

/// `primitive`'s positions, normals, tangents and morph targets through `space`.
fn transform(primitive: &mut Primitive, space: Mat4) {
    let linear = Mat3::from_mat4(space);
    let normal = linear.inverse().transpose();
    let handedness = linear.determinant().signum();
    primitive
        .positions
        .iter_mut()
        .for_each(|p| *p = space.transform_point3(*p));
    primitive
        .normals
        .iter_mut()
        .for_each(|n| *n = (normal * *n).normalize_or_zero());
    for tangent in &mut primitive.tangents {
        let turned = (linear * tangent.truncate()).normalize_or_zero();
        *tangent = turned.extend(tangent.w * handedness);
    }
    for target in &mut primitive.morph_targets {
        target.positions.iter_mut().for_each(|d| *d = linear * *d);
        target.normals.iter_mut().for_each(|d| *d = normal * *d);
        target.tangents.iter_mut().for_each(|d| *d = linear * *d);
    }
}
