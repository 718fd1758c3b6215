//! File formats → [`Model`].
//!
//! [`load`] reads a file and picks its format by content (the GLB magic, or JSON) and then by
//! extension. Every problem becomes a [`LoadError`] naming the file; nothing in a file can make
//! the loader panic, and allocation sizes taken from a file are checked against the file's
//! size first.

pub mod demo;
pub mod geometry;
mod gltf;
pub mod model;

use std::path::{Path, PathBuf};

pub use model::{
    Image, Material, Mesh, MeshInstance, Model, MorphTarget, Primitive, Skin, SkinWeights, TextureRef, Topology,
};

/// Why a file could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

/// Loads a model from disk (external buffers and images are resolved next to it).
pub fn load(path: &Path) -> Result<Model, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        path: path.to_path_buf(),
        message: format!("cannot read the file: {e}"),
    })?;
    load_bytes(path, &bytes)
}

/// Loads a model from the contents of `path` already in memory.
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Result<Model, LoadError> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let looks_like_json = bytes.trim_ascii_start().starts_with(b"{");
    let result = if gltf::is_glb(bytes) || looks_like_json || matches!(extension.as_str(), "glb" | "gltf") {
        gltf::load(path, bytes)
    } else {
        Err(format!(
            "unsupported file type '.{extension}' (rigscope reads .glb and .gltf files)"
        ))
    };
    result.and_then(check_posed_size).map_err(|message| LoadError {
        path: path.to_path_buf(),
        message,
    })
}

/// The most vertices all mesh instances together may have: posing keeps a copy of each
/// instance's vertices, so a small file that instances a big mesh many times must not be able
/// to ask for unbounded memory.
pub const MAX_POSED_VERTICES: usize = 1 << 25;

fn check_posed_size(model: Model) -> Result<Model, String> {
    let posed: usize = model
        .instances
        .iter()
        .map(|i| {
            model.meshes[i.mesh]
                .primitives
                .iter()
                .map(Primitive::vertex_count)
                .sum::<usize>()
        })
        .fold(0, usize::saturating_add);
    if posed > MAX_POSED_VERTICES {
        return Err(format!(
            "its mesh instances add up to {posed} vertices, more than rigscope poses ({MAX_POSED_VERTICES})"
        ));
    }
    Ok(model)
}
