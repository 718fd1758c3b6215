//! `VRMC_vrm` (VRM 1.0) and `VRM` (VRM 0.x): the humanoid map and the meta, into one
//! `Avatar`. A bone name the specification does not have, a node the file does not have, or a
//! node mapped to two bones is a warning, and that bone is left out of the map.

use gltf_json::Root;

use serde_json::Value;

use super::scenes::NodeJoints;
use crate::anim::avatar::Expression;
use crate::asset::avatar::{Avatar, AvatarMeta, VRM_0_X_PERMISSIONS, VRM_1_0_PERMISSIONS, VrmVersion};
use crate::asset::human_bone::{HUMAN_BONES, from_vrm0, human_bone};

pub const EXTENSION_1_0: &str = "VRMC_vrm";
pub const EXTENSION_0_X: &str = "VRM";

/// The file's VRM extension and which version it is, when it is a VRM (1.0 wins over 0.x).
pub fn extension(root: &Root) -> Option<(VrmVersion, &Value)> {
    let others = &root.extensions.as_ref()?.others;
    match (others.get(EXTENSION_1_0), others.get(EXTENSION_0_X)) {
        (Some(extension), _) => Some((VrmVersion::V1, extension)),
        (None, Some(extension)) => Some((VrmVersion::V0, extension)),
        (None, None) => None,
    }
}

/// The avatar of a VRM file whose extension is `extension`, with its expressions.
pub fn load_avatar(
    (version, extension): (VrmVersion, &Value),
    root: &Root,
    joint_of_node: &NodeJoints,
    expressions: Vec<Expression>,
    warnings: &mut Vec<String>,
) -> Avatar {
    let text = |pointer: &str| {
        extension
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut spec_version = text("/specVersion");
    if spec_version.is_empty() {
        spec_version = text("/exporterVersion");
    }
    // (bone name as VRM 1.0 has it, node) pairs as the file lists them.
    let listed: Vec<(String, Option<u64>)> = match version {
        VrmVersion::V1 => (extension
            .pointer("/humanoid/humanBones")
            .and_then(Value::as_object)
            .into_iter())
        .flatten()
        .map(|(name, bone)| (name.clone(), bone.get("node").and_then(Value::as_u64)))
        .collect(),
        VrmVersion::V0 => (extension
            .pointer("/humanoid/humanBones")
            .and_then(Value::as_array)
            .into_iter())
        .flatten()
        .map(|bone| {
            let name = bone.get("bone").and_then(Value::as_str).unwrap_or_default();
            (from_vrm0(name), bone.get("node").and_then(Value::as_u64))
        })
        .collect(),
    };
    let mut humanoid: Vec<(&'static str, usize)> = Vec::new();
    for (name, node) in listed {
        let Some(bone) = human_bone(&name) else {
            warnings.push(format!(
                "{version} humanoid: '{name}' is not a humanoid bone (left out)"
            ));
            continue;
        };
        let joint = node.and_then(|n| joint_of_node.get(usize::try_from(n).ok()?));
        let Some(joint) = joint else {
            let node = node.map_or_else(
                || "no node".to_owned(),
                |n| format!("node {n}, which the file does not have"),
            );
            warnings.push(format!("{version} humanoid: bone '{name}' names {node} (left out)"));
            continue;
        };
        if let Some(&(other, _)) = humanoid.iter().find(|&&(other, j)| j == joint || other == bone.name) {
            warnings.push(format!(
                "{version} humanoid: bone '{name}' names the node of '{other}' or is listed twice (left out)"
            ));
            continue;
        }
        humanoid.push((bone.name, joint));
    }
    let order = |name: &str| HUMAN_BONES.iter().position(|b| b.name == name);
    humanoid.sort_by_key(|&(name, _)| order(name));
    Avatar {
        version,
        spec_version,
        humanoid,
        meta: meta(version, extension, root),
        expressions,
        look_at: None,
    }
}

/// The meta of either version, as one `AvatarMeta`.
fn meta(version: VrmVersion, extension: &Value, root: &Root) -> AvatarMeta {
    let Some(meta) = extension.get("meta") else {
        return AvatarMeta::default();
    };
    let index = |key: &str| meta.get(key)?.as_u64().and_then(|i| usize::try_from(i).ok());
    let thumbnail = match version {
        VrmVersion::V1 => index("thumbnailImage"),
        VrmVersion::V0 => index("texture").and_then(|t| Some(root.textures.get(t)?.source.value())),
    };
    let thumbnail = thumbnail.filter(|&image| image < root.images.len());
    let text = |key: &str| match meta.get(key) {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Bool(allowed)) => if *allowed { "allowed" } else { "not allowed" }.to_owned(),
        _ => String::new(),
    };
    let permissions = |fields: &[(&'static str, &str)]| {
        (fields.iter())
            .map(|&(about, key)| (about, text(key)))
            .filter(|(_, value)| !value.is_empty())
            .collect()
    };
    match version {
        VrmVersion::V1 => AvatarMeta {
            title: text("name"),
            version: text("version"),
            authors: (meta.get("authors").and_then(Value::as_array).into_iter().flatten())
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            contact: text("contactInformation"),
            licence: text("licenseUrl"),
            permissions: permissions(&VRM_1_0_PERMISSIONS),
            references: (meta.get("references").and_then(Value::as_array).into_iter().flatten())
                .filter_map(Value::as_str)
                .filter(|reference| !reference.is_empty())
                .map(str::to_owned)
                .collect(),
            thumbnail,
        },
        VrmVersion::V0 => AvatarMeta {
            title: text("title"),
            version: text("version"),
            authors: Some(text("author")).filter(|a| !a.is_empty()).into_iter().collect(),
            contact: text("contactInformation"),
            licence: text("licenseName"),
            permissions: permissions(&VRM_0_X_PERMISSIONS),
            references: Some(text("reference")).filter(|r| !r.is_empty()).into_iter().collect(),
            thumbnail,
        },
    }
}
