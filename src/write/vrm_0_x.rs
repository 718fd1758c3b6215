//! A VRM 0.x avatar written as VRM 0.x: the `VRM` extension with its meta, humanoid (1.0's
//! thumb names back to 0.x's), first person (the look-at, its offset's Z flipped to Unity's
//! axes), blend shape master (`vrm_expressions`), secondary animation (`vrm_springs`) and
//! material properties (`vrm_0_x_materials`), each the inverse of the loader's reading.

use serde_json::{Value, json};

use super::document::Document;
use super::vrm_0_x_materials::material_properties;
use super::vrm_expressions::{MorphPlaces, blend_shape_groups};
use super::vrm_springs::secondary_animation;
use super::vrm_thumbnail::thumbnail_image;
use crate::anim::avatar::{LookAt, LookAtKind, RangeMap};
use crate::asset::Model;
use crate::asset::avatar::VRM_0_X_PERMISSIONS;
use crate::asset::avatar::{Avatar, AvatarMeta};

const EXTENSION: &str = "VRM";

/// Writes `avatar` (of `model`, turned to face -Z) as the `VRM` extension.
pub fn write(document: &mut Document, model: &Model, avatar: &Avatar, places: &MorphPlaces) {
    let bones: Vec<Value> = (avatar.humanoid.iter())
        .map(|&(bone, joint)| json!({ "bone": to_vrm0(bone), "node": joint, "useDefaultValues": true }))
        .collect();
    let spec_version = match avatar.spec_version.as_str() {
        "" => "0.0",
        given => given,
    };
    let mut json = json!({
        "specVersion": spec_version,
        "exporterVersion": document.root.asset.generator,
        "meta": meta(model, &avatar.meta, document),
        "humanoid": { "humanBones": bones },
        "blendShapeMaster": blend_shape_groups(model, &avatar.expressions, places, document),
        "secondaryAnimation": secondary_animation(&model.spring_bones, &model.skeleton, document),
        "materialProperties": material_properties(document, &model.materials),
    });
    if let Some(look_at) = &avatar.look_at {
        json["firstPerson"] = first_person(look_at);
    }
    document.set_root_extension(EXTENSION, json);
}

/// VRM 1.0's bone name as 0.x has it: 0.x's thumb bones are one step further in (its proximal
/// is 1.0's metacarpal, its intermediate 1.0's proximal).
fn to_vrm0(name: &str) -> String {
    for side in ["left", "right"] {
        if let Some(part) = name.strip_prefix(side).and_then(|rest| rest.strip_prefix("Thumb")) {
            let renamed = match part {
                "Metacarpal" => "Proximal",
                "Proximal" => "Intermediate",
                other => other,
            };
            return format!("{side}Thumb{renamed}");
        }
    }
    name.to_owned()
}

/// The meta (`model`'s avatar's), its thumbnail a texture: 0.x has one author and one
/// reference.
fn meta(model: &Model, meta: &AvatarMeta, document: &mut Document) -> Value {
    if meta.authors.len() > 1 {
        document.warn(format!(
            "VRM 0.x meta: its {} authors are written as one",
            meta.authors.len()
        ));
    }
    if meta.references.len() > 1 {
        document.warn(format!(
            "VRM 0.x meta: its {} references are written as one",
            meta.references.len()
        ));
    }
    let mut json = json!({
        "title": meta.title,
        "version": meta.version,
        "author": meta.authors.join(", "),
        "contactInformation": meta.contact,
        "licenseName": meta.licence,
    });
    if !meta.references.is_empty() {
        json["reference"] = json!(meta.references.join(", "));
    }
    let thumbnail = (meta.thumbnail).and_then(|image| thumbnail_image(document, model, image));
    if let Some(image) = thumbnail {
        let texture = document.root.push(gltf_json::Texture {
            name: None,
            sampler: None,
            source: image,
            extensions: None,
            extras: None,
        });
        json["texture"] = json!(texture.value());
    }
    for (about, value) in &meta.permissions {
        if let Some(&(_, key)) = VRM_0_X_PERMISSIONS.iter().find(|(a, _)| a == about) {
            json[key] = json!(value);
        }
    }
    json
}

/// The look-at: `xRange` the input, `yRange` the output (the curves are not read; written
/// straight).
fn first_person(look_at: &LookAt) -> Value {
    let map = |map: RangeMap| json!({ "curve": [0, 0, 0, 1, 1, 1, 1, 0], "xRange": map.input_max, "yRange": map.output_scale });
    let offset = look_at.offset_from_head;
    json!({
        "firstPersonBone": look_at.head,
        "firstPersonBoneOffset": { "x": offset.x, "y": offset.y, "z": -offset.z },
        "meshAnnotations": [],
        "lookAtTypeName": match look_at.kind {
            LookAtKind::Bone => "Bone",
            LookAtKind::Expression => "BlendShape",
        },
        "lookAtHorizontalInner": map(look_at.horizontal_inner),
        "lookAtHorizontalOuter": map(look_at.horizontal_outer),
        "lookAtVerticalDown": map(look_at.vertical_down),
        "lookAtVerticalUp": map(look_at.vertical_up),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::human_bone::{HUMAN_BONES, from_vrm0};

    #[test]
    fn bone_names_go_back_to_0_x_and_read_as_they_were() {
        for bone in HUMAN_BONES {
            assert_eq!(from_vrm0(&to_vrm0(bone.name)), bone.name);
        }
        assert_eq!(to_vrm0("leftThumbMetacarpal"), "leftThumbProximal");
        assert_eq!(to_vrm0("rightThumbProximal"), "rightThumbIntermediate");
    }
}
