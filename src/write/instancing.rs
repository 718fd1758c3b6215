//! `EXT_mesh_gpu_instancing`: a mesh instance drawn as many copies gets, on the node that holds
//! its mesh, one accessor per part of the copies' placements (translation, rotation, scale),
//! each left out where every copy has the identity's, so it comes back drawn as often as it
//! was read.
//!
//! A skinned mesh's node is a root of its own here (see `nodes`), not its joint, so its copies
//! are written in the joint's rest space moved to the root's: where the joint moves, they are
//! placed as at rest, and a warning says so.

use glam::{Mat4, Quat, Vec3};
use gltf_json as json;

use super::document::{Document, Usage};
use crate::anim::ChannelTrack;
use crate::asset::Model;

const EXTENSION: &str = "EXT_mesh_gpu_instancing";

/// How far a copy's matrix may be from its translation, rotation and scale recomposed, in
/// proportion to its largest element, before it counts as sheared.
const SHEAR_TOLERANCE: f32 = 1e-4;

/// Writes every instance's copies on its node. `meshes`: per model mesh, its glTF mesh (none:
/// not written, and its instances have no node); `mesh_nodes`: `nodes::write_nodes`'s (joint,
/// node) per instance whose mesh was written, in `model.instances` order.
pub fn write_copies(
    document: &mut Document,
    model: &Model,
    meshes: &[Option<json::Index<json::Mesh>>],
    mesh_nodes: &[(usize, usize)],
) {
    let written_instances = (model.instances.iter().enumerate())
        .filter(|(_, instance)| meshes.get(instance.mesh).copied().flatten().is_some())
        .map(|(index, _)| index);
    let node_of_instance: Vec<(usize, usize)> = written_instances
        .zip(mesh_nodes)
        .map(|(instance, &(_, node))| (instance, node))
        .collect();
    let rest = model.skeleton.rest_pose().to_model_matrices();
    for copies in &model.copies {
        let Some(instance) = model.instances.get(copies.instance) else {
            continue;
        };
        let mesh_name = model.meshes.get(instance.mesh).map_or("", |m| m.name.as_str());
        let Some(&(_, node)) = node_of_instance.iter().find(|(i, _)| *i == copies.instance) else {
            continue;
        };
        if !copies.custom.is_empty() {
            document.warn(format!(
                "mesh '{mesh_name}': its copies' own attributes {} are not written (the model does not keep them)",
                copies.custom.join(", ")
            ));
        }
        if copies.transforms.is_empty() {
            document.warn(format!(
                "mesh '{mesh_name}': it was drawn as no copies, and is written drawn once"
            ));
            continue;
        }
        let transforms = match instance.skin {
            Some(_) => {
                if moves(model, instance.joint) {
                    document.warn(format!(
                        "mesh '{mesh_name}': its copies are placed as its joint '{}' is at rest (a skinned mesh's \
                         node is at the root in glTF)",
                        model.skeleton.name(instance.joint)
                    ));
                }
                // Placed in the root's space as they were in the joint's at rest.
                let joint = rest.get(instance.joint).copied().unwrap_or(Mat4::IDENTITY);
                copies.placements(joint).collect()
            }
            None => copies.transforms.clone(),
        };
        let (extension, sheared) = write_attributes(document, &transforms);
        if sheared > 0 {
            document.warn(format!(
                "mesh '{mesh_name}': {sheared} of its copies are sheared, which glTF cannot place (written without \
                 the shear)"
            ));
        }
        let node = &mut document.root.nodes[node];
        let extensions = node.extensions.get_or_insert_with(Default::default);
        extensions.others.insert(EXTENSION.into(), extension);
        document.use_extension(EXTENSION, false);
    }
}

/// Whether any clip moves `joint` or one of its ancestors.
fn moves(model: &Model, joint: usize) -> bool {
    let skeleton = &model.skeleton;
    let moved = |joint: usize| {
        (model.clips.iter().flat_map(|clip| clip.channels())).any(|channel| {
            channel.joint == joint
                && matches!(
                    channel.track,
                    ChannelTrack::Translation(_) | ChannelTrack::Rotation(_) | ChannelTrack::Scale(_)
                )
        })
    };
    std::iter::successors(Some(joint), |&j| skeleton.parent(j)).any(moved)
}

/// The extension's object for `transforms`, with its accessors written, and how many of the
/// transforms were sheared (written as the nearest translation, rotation and scale).
fn write_attributes(document: &mut Document, transforms: &[Mat4]) -> (serde_json::Value, usize) {
    let mut sheared = 0;
    let (mut translations, mut rotations, mut scales) = (Vec::new(), Vec::new(), Vec::new());
    for transform in transforms {
        let (scale, rotation, translation) = transform.to_scale_rotation_translation();
        let rotation = rotation.normalize();
        let recomposed = Mat4::from_scale_rotation_translation(scale, rotation, translation);
        let largest = transform.to_cols_array().iter().fold(1.0f32, |m, e| m.max(e.abs()));
        if !recomposed.abs_diff_eq(*transform, SHEAR_TOLERANCE * largest) {
            sheared += 1;
        }
        translations.push(translation);
        rotations.push(rotation);
        scales.push(scale);
    }
    let identity = 1e-6;
    let translation = !translations.iter().all(|t| t.abs_diff_eq(Vec3::ZERO, identity));
    let rotation = !rotations.iter().all(|r| r.abs_diff_eq(Quat::IDENTITY, identity));
    let scale = !scales.iter().all(|s| s.abs_diff_eq(Vec3::ONE, identity));
    let mut attributes = serde_json::Map::new();
    // The extension asks for at least one attribute: copies all at the node's place keep
    // their (zero) translations.
    if translation || !(rotation || scale) {
        let accessor = document.accessor(&translations, Usage::Other, false);
        attributes.insert("TRANSLATION".into(), accessor.value().into());
    }
    if rotation {
        let accessor = document.accessor(&rotations, Usage::Other, false);
        attributes.insert("ROTATION".into(), accessor.value().into());
    }
    if scale {
        let accessor = document.accessor(&scales, Usage::Other, false);
        attributes.insert("SCALE".into(), accessor.value().into());
    }
    (serde_json::json!({ "attributes": attributes }), sheared)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes' names and each one's accessor's element count.
    fn attributes(document: &Document, extension: &serde_json::Value) -> Vec<(String, u64)> {
        let attributes = extension["attributes"].as_object().unwrap();
        (attributes.iter())
            .map(|(name, accessor)| {
                let accessor = &document.root.accessors[accessor.as_u64().unwrap() as usize];
                (name.clone(), accessor.count.0)
            })
            .collect()
    }

    #[test]
    fn only_the_parts_that_differ_from_the_identity_are_written() {
        let mut document = Document::new("test".into());
        let moved = [Mat4::from_translation(Vec3::X), Mat4::from_translation(Vec3::Y)];
        let (extension, sheared) = write_attributes(&mut document, &moved);
        assert_eq!(attributes(&document, &extension), [("TRANSLATION".into(), 2)]);
        assert_eq!(sheared, 0);
        let turned = [Mat4::from_rotation_z(0.5), Mat4::from_scale(Vec3::splat(2.0))];
        let (extension, _) = write_attributes(&mut document, &turned);
        let names: Vec<String> = attributes(&document, &extension).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["ROTATION", "SCALE"]);
        let (extension, _) = write_attributes(&mut document, &[Mat4::IDENTITY]);
        assert_eq!(
            attributes(&document, &extension),
            [("TRANSLATION".into(), 1)],
            "at least one attribute"
        );
    }

    #[test]
    fn sheared_copies_are_counted() {
        let mut document = Document::new("test".into());
        let shear = Mat4::from_cols_array(&[
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ]);
        let (_, sheared) = write_attributes(&mut document, &[shear, Mat4::from_rotation_x(1.0)]);
        assert_eq!(sheared, 1);
    }
}
