//! Model → glTF 2.0: the one writer behind `convert` and the viewer's "Save as GLB…".
//!
//! The document mirrors the model: one node per joint, in the skeleton's order (parents
//! first), with its rest transform and name; meshes on their joints' nodes, or on nodes of
//! their own after the joints (skinned meshes at the root; see `nodes`); skins with their joints and
//! inverse bind matrices; a mesh's copies on its node (`instancing`); every clip as an
//! animation at its own keys, interpolated as read;
//! materials, textures and the images' own bytes; cameras and lights on their nodes. The
//! model's units and axes are glTF's already (every reader converts on load), which the
//! output's `asset.extras` says with what the source said of itself.
//!
//! A VRM avatar, its spring bones and node constraints, and a VRM animation are written back
//! as the VRM extensions they were read from, a VRM 0.x avatar as 0.x (`vrm`).
//!
//! What glTF cannot hold, or this writer does not write yet, is a warning in words: nothing
//! is dropped silently.

mod animations;
mod cameras;
mod clip_times;
mod container;
mod document;
mod draco;
mod instancing;
mod lights;
mod materials;
mod meshes;
mod meshopt;
mod morph_channels;
mod nodes;
mod options;
mod pointers;
mod skin_space;
mod skins;
mod texture_info;
mod textures;
mod vertices;
mod vrm;
mod vrm_0_x;
mod vrm_0_x_materials;
mod vrm_1_0;
mod vrm_animation;
mod vrm_constraints;
mod vrm_expressions;
mod vrm_mtoon;
mod vrm_springs;
mod vrm_thumbnail;

use std::path::{Path, PathBuf};

use crate::asset::Model;
use document::Document;
pub use options::{Compression, WriteOptions};

/// A model written: the files (the `.gltf` and its `.bin`, or one GLB), their bytes in all,
/// and what could not be written as it was read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub bytes: u64,
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    #[error("{}: cannot write the file: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the glTF JSON could not be written: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the model needs {bytes} bytes, more than a GLB file can hold (4 GiB)")]
    TooLarge { bytes: u64 },
    #[error("{}: rigscope writes .glb, .gltf, .vrm and .vrma files", path.display())]
    UnknownExtension { path: PathBuf },
}

/// The model as one GLB file's bytes, and the warnings.
pub fn to_glb(model: &Model, options: &WriteOptions) -> Result<(Vec<u8>, Vec<String>), WriteError> {
    let (json, bin, warnings) = document(model, options).finish(None)?;
    Ok((container::glb(&json, &bin)?, warnings))
}

/// Writes the model to `path`: a GLB for `.glb`, `.vrm` and `.vrma`; for `.gltf`, the JSON
/// and a `.bin` of the same name beside it. Each file is written under a temporary name in
/// its folder and renamed into place, so a failure leaves no half-written file behind.
pub fn save(model: &Model, path: &Path, options: &WriteOptions) -> Result<Written, WriteError> {
    let extension = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    let files = match extension.as_deref() {
        Some("glb" | "vrm" | "vrma") => {
            let (glb, warnings) = to_glb(model, options)?;
            return Ok(Written {
                bytes: glb.len() as u64,
                files: vec![write_file(path, &glb)?],
                warnings,
            });
        }
        Some("gltf") => {
            let bin_path = path.with_extension("bin");
            let bin_name = bin_path.file_name().map(|n| n.to_string_lossy().into_owned());
            let uri = bin_name.as_deref().map(uri_escaped);
            let (json, bin, warnings) = document(model, options).finish(uri)?;
            let mut files = vec![write_file(path, &json)?];
            if !bin.is_empty() {
                files.push(write_file(&bin_path, &bin)?);
            }
            (files, (json.len() + bin.len()) as u64, warnings)
        }
        _ => return Err(WriteError::UnknownExtension { path: path.to_owned() }),
    };
    let (files, bytes, warnings) = files;
    Ok(Written { files, bytes, warnings })
}

/// The glTF document of `model`.
fn document(model: &Model, options: &WriteOptions) -> Document {
    let facing = vrm::facing_as_read(model);
    let from_zero = clip_times::clips_from_zero(&facing);
    let in_model_space = skin_space::skins_in_model_space(&from_zero);
    let model = &*in_model_space;
    let mut document = Document::new(format!("rigscope {}", env!("CARGO_PKG_VERSION")));
    document.root.asset.extras = source_extras(model);
    materials::write_materials(&mut document, model, options);
    let meshes = meshes::write_meshes(&mut document, model, options);
    skins::write_skins(&mut document, model);
    let cameras = cameras::write_cameras(&mut document, model);
    let lights = lights::write_lights(&mut document, model);
    let attached = nodes::Attached {
        meshes: &meshes,
        cameras: &cameras,
        lights: &lights,
    };
    let mesh_nodes = nodes::write_nodes(&mut document, model, &attached);
    instancing::write_copies(&mut document, model, &meshes, &mesh_nodes);
    pointers::write_node_visibility(&mut document, model, &mesh_nodes);
    animations::write_animations(&mut document, model, &mesh_nodes, &cameras);
    vrm::write_vrm(&mut document, model, &meshes, &mesh_nodes);
    for warning in &model.warnings {
        document.warn(format!("read with a warning, written as repaired: {warning}"));
    }
    document
}

/// `asset.extras`: which file the model came from, in which format, and what it said of its
/// axes and units (an FBX's converted axes, for one), so a reader of the output knows.
fn source_extras(model: &Model) -> json::Extras {
    let source = serde_json::json!({
        "rigscope": {
            "source": crate::asset::file_name(&model.path),
            "sourceFormat": model.format.map(|f| f.info().description),
            "sourceFacts": model.file_facts,
            "axes": "+Y up, +Z forward (glTF)",
            "unit": "metre",
        }
    });
    serde_json::value::to_raw_value(&source).ok()
}

use gltf_json as json;

/// A file name as a relative URI: what RFC 3986 does not allow in a path is percent-encoded.
fn uri_escaped(name: &str) -> String {
    let mut escaped = String::with_capacity(name.len());
    for byte in name.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => escaped.push(byte as char),
            _ => escaped.push_str(&format!("%{byte:02X}")),
        }
    }
    escaped
}

/// Writes `bytes` to `path` by `export::output`'s convention: through a temporary file in
/// the same folder, renamed into place (removed on errors and signals), through a link.
fn write_file(path: &Path, bytes: &[u8]) -> Result<PathBuf, WriteError> {
    crate::export::output::write_file(path, bytes).map_err(|source| WriteError::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_relative_uris() {
        assert_eq!(uri_escaped("Fox model.bin"), "Fox%20model.bin");
        assert_eq!(uri_escaped("a-b_c.bin"), "a-b_c.bin");
    }
}
