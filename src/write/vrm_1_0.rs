//! `VRMC_vrm` (VRM 1.0) written back, the inverse of `asset::gltf::vrm`, `vrm_look_at` and
//! `vrm_expressions`: the meta (its thumbnail an image of its own), the humanoid map (joint i
//! is node i), the look-at and the expressions (`vrm_expressions`).

use serde_json::{Map, Value, json};

use super::document::Document;
use super::vrm_expressions::{MorphPlaces, expressions_1_0};
use super::vrm_thumbnail::thumbnail_image;
use crate::anim::avatar::{LookAt, LookAtKind, RangeMap};
use crate::asset::Model;
use crate::asset::avatar::VRM_1_0_PERMISSIONS;
use crate::asset::avatar::{Avatar, AvatarMeta};

pub const EXTENSION: &str = "VRMC_vrm";

/// `VRMC_vrm` for `avatar` of `model`.
pub fn vrm_1_0(model: &Model, avatar: &Avatar, places: &MorphPlaces, document: &mut Document) -> Value {
    let bones: Map<String, Value> = (avatar.humanoid.iter())
        .map(|&(bone, joint)| (bone.to_owned(), json!({ "node": joint })))
        .collect();
    let spec_version = match avatar.spec_version.as_str() {
        "" => "1.0",
        given => given,
    };
    let thumbnail = (avatar.meta.thumbnail).and_then(|image| thumbnail_image(document, model, image));
    let mut json = json!({
        "specVersion": spec_version,
        "meta": meta_1_0(&avatar.meta, thumbnail),
        "humanoid": { "humanBones": bones },
        "expressions": expressions_1_0(model, &avatar.expressions, places, document),
    });
    if let Some(look_at) = &avatar.look_at {
        json["lookAt"] = look_at_1_0(look_at);
    }
    json
}

/// The meta, its thumbnail written as `thumbnail`: a permission the loader read as "allowed"
/// or "not allowed" was a boolean.
fn meta_1_0(meta: &AvatarMeta, thumbnail: Option<gltf_json::Index<gltf_json::Image>>) -> Value {
    let mut json = json!({
        "name": meta.title,
        "version": meta.version,
        "authors": meta.authors,
        "contactInformation": meta.contact,
        "licenseUrl": meta.licence,
    });
    if let Some(image) = thumbnail {
        json["thumbnailImage"] = json!(image.value());
    }
    if !meta.references.is_empty() {
        json["references"] = json!(meta.references);
    }
    for (about, value) in &meta.permissions {
        let Some(&(_, key)) = VRM_1_0_PERMISSIONS.iter().find(|(a, _)| a == about) else {
            continue;
        };
        json[key] = match value.as_str() {
            "allowed" => json!(true),
            "not allowed" => json!(false),
            text => json!(text),
        };
    }
    json
}

/// The look-at: its type, the point it looks from and the four range maps.
fn look_at_1_0(look_at: &LookAt) -> Value {
    let map = |map: RangeMap| json!({ "inputMaxValue": map.input_max, "outputScale": map.output_scale });
    json!({
        "offsetFromHeadBone": look_at.offset_from_head.to_array(),
        "type": match look_at.kind {
            LookAtKind::Bone => "bone",
            LookAtKind::Expression => "expression",
        },
        "rangeMapHorizontalInner": map(look_at.horizontal_inner),
        "rangeMapHorizontalOuter": map(look_at.horizontal_outer),
        "rangeMapVerticalDown": map(look_at.vertical_down),
        "rangeMapVerticalUp": map(look_at.vertical_up),
    })
}
