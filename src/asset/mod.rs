//! File formats → [`Model`].
//!
//! [`load`] reads a file and picks its format by content (the GLB magic, or JSON) and then by
//! extension. Every problem becomes a [`LoadError`] naming the file; nothing in a file can make
//! the loader panic, and allocation sizes taken from a file are checked against the file's
//! size first.

pub(crate) mod animated;
pub mod avatar;
pub(crate) mod camera;
pub mod clips_from;
pub mod demo;
mod error;
mod fbx;
pub(crate) mod format;
mod geometry;
pub(crate) mod gltf;
pub mod human_bone;
pub mod image_decode;
mod light;
pub mod material;
pub mod md5;
pub(crate) mod mip_chain;
pub mod model;
pub mod mtoon;
pub mod tangents;
pub(crate) mod texture;
pub(crate) mod turn;

use std::path::Path;

pub use animated::AnimatedProperties;
#[cfg(any(test, feature = "internals"))]
pub use animated::{PropertySlot, PropertyTarget};
#[cfg(any(test, feature = "internals"))]
pub use avatar::AvatarMeta;
pub use avatar::{Avatar, VrmVersion};
pub use camera::{Camera, Projection};
#[cfg(any(test, feature = "internals"))]
pub use clips_from::add_clips_of;
pub use clips_from::{ClipsFromReport, add_clips_from};
pub use error::{LoadError, LoadErrorKind};
pub use format::Format;
#[cfg(any(test, feature = "internals"))]
pub use gltf::extensions::UnsupportedExtension;
pub use gltf::extensions::unsupported as unsupported_extensions;
pub use light::{LightKind, PunctualLight};
pub use material::Material;
pub use model::{
    DecodedGeometry, Mesh, MeshInstance, Model, MorphTarget, Primitive, SkinWeights, Topology, VertexAttribute,
    VertexRepair,
};
#[cfg(any(test, feature = "internals"))]
pub use model::{Image, InstanceCopies, SceneInfo, Skin};
pub use texture::TextureRef;

/// The file name of `path` for titles and messages (the whole path when it has none).
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Which of a file's scenes to show (glTF files may hold several; other formats hold one,
/// which only `FileDefault` names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SceneChoice {
    /// The file's `scene`, else its first.
    #[default]
    FileDefault,
    /// A scene's name, else its index written out (what the command line takes).
    Named(String),
    Index(usize),
}

impl std::fmt::Display for SceneChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::FileDefault => write!(f, "default"),
            Self::Named(name) => write!(f, "{name}"),
            Self::Index(index) => write!(f, "{index}"),
        }
    }
}

/// Loads a model from disk (external buffers and images are resolved next to it), showing
/// the file's default scene.
pub fn load(path: &Path) -> Result<Model, LoadError> {
    load_scene(path, &SceneChoice::FileDefault)
}

/// Loads a model from disk showing the scene `scene` chooses.
pub fn load_scene(path: &Path, scene: &SceneChoice) -> Result<Model, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        path: path.to_path_buf(),
        kind: LoadErrorKind::Read(e),
    })?;
    load_bytes_scene(path, &bytes, scene)
}

/// Adds the `.md5anim` at `path` to `model` (an MD5 model) as a clip named by its file stem.
pub fn add_md5_animation(model: &mut Model, path: &Path) -> Result<(), LoadError> {
    let error = |kind: LoadErrorKind| LoadError {
        path: path.to_path_buf(),
        kind,
    };
    if model.format != Some(Format::Md5Mesh) {
        return Err(error(LoadErrorKind::NotAnMd5Model));
    }
    let bytes = std::fs::read(path).map_err(|e| error(LoadErrorKind::Read(e)))?;
    let clip = md5::load_clip(model, path, &bytes).map_err(error)?;
    model.clips.push(clip);
    if !model.source_files.iter().any(|p| p == path) {
        model.source_files.push(path.to_path_buf());
    }
    Ok(())
}

/// Loads a model from the contents of `path` already in memory.
#[cfg(any(test, feature = "internals"))]
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Result<Model, LoadError> {
    load_bytes_scene(path, bytes, &SceneChoice::FileDefault)
}

fn load_bytes_scene(path: &Path, bytes: &[u8], scene: &SceneChoice) -> Result<Model, LoadError> {
    let format = Format::detect(path, bytes);
    let result = match format {
        Some(format) if format.is_gltf() => gltf::load(path, bytes, format, scene),
        Some(_) if *scene != SceneChoice::FileDefault => Err(LoadErrorKind::NoSuchScene {
            wanted: scene.to_string(),
            scenes: "the file has one, unnamed".into(),
        }),
        Some(Format::Md5Mesh) => md5::load(path, bytes),
        Some(format @ (Format::Fbx | Format::Obj)) => fbx::load(path, bytes, format),
        Some(Format::Md5Anim) => Err(LoadErrorKind::AnimationWithoutMesh),
        _ => {
            let extension = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            let known: Vec<String> = format::model_extensions().map(|e| format!(".{e}")).collect();
            let (last, others) = known.split_last().map_or(("", &[][..]), |(l, o)| (l.as_str(), o));
            Err(LoadErrorKind::UnsupportedType {
                extension,
                known: format!("{} and {last}", others.join(", ")),
            })
        }
    };
    let result = result.and_then(check_posed_size).map(|mut model| {
        tangents::generate_missing(&mut model);
        model
    });
    result.map_err(|kind| LoadError {
        path: path.to_path_buf(),
        kind,
    })
}

/// The most vertices all mesh instances together may have, each counted once per copy
/// (EXT_mesh_gpu_instancing): posing keeps a copy of each instance's vertices and every copy is
/// drawn, so a small file that instances a big mesh many times must not be able to ask for
/// unbounded memory or work.
pub const MAX_POSED_VERTICES: usize = 1 << 25;

fn check_posed_size(model: Model) -> Result<Model, LoadErrorKind> {
    let posed: usize = (model.instances.iter().enumerate())
        .map(|(index, i)| {
            let vertices: usize = model.meshes[i.mesh]
                .primitives
                .iter()
                .map(Primitive::vertex_count)
                .sum();
            let copies = model.copies_of(index).map_or(1, |c| c.transforms.len());
            vertices.saturating_mul(copies)
        })
        .fold(0, usize::saturating_add);
    if posed > MAX_POSED_VERTICES {
        return Err(LoadErrorKind::TooManyVertices(posed));
    }
    Ok(model)
}

/// The shared sample assets the unit tests read: `$RIGSCOPE_ASSETS`, else `../shared/assets`.
#[cfg(test)]
pub fn sample_assets() -> std::path::PathBuf {
    std::env::var_os("RIGSCOPE_ASSETS").map_or_else(|| "../shared/assets".into(), Into::into)
}

/// The sample glTF model `gltf/<relative>` of `sample_assets`, loaded (a unit test's fixture).
#[cfg(test)]
pub fn sample_gltf(relative: &str) -> Model {
    let path = sample_assets().join("gltf").join(relative);
    load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use glam::Mat4;

    use super::*;

    #[test]
    fn copies_count_towards_the_vertices_a_file_may_ask_for() {
        let mut model = demo::demo_model();
        let vertices = model.vertex_count();
        let copies = |count: usize| InstanceCopies {
            instance: 0,
            transforms: vec![Mat4::IDENTITY; count],
            custom: Vec::new(),
        };
        model.copies = vec![copies(MAX_POSED_VERTICES / vertices)];
        let model = check_posed_size(model).unwrap();
        let mut too_many = model.clone();
        too_many.copies = vec![copies(MAX_POSED_VERTICES / vertices + 1)];
        assert!(matches!(
            check_posed_size(too_many),
            Err(LoadErrorKind::TooManyVertices(_))
        ));
    }

    #[test]
    fn a_file_that_cannot_be_read_keeps_the_io_error_in_the_same_words() {
        let path = Path::new("/no/such/folder/rig.glb");
        let error = load(path).unwrap_err();
        let LoadErrorKind::Read(io_error) = &error.kind else {
            panic!("not a read error: {error:?}");
        };
        assert_eq!(io_error.kind(), std::io::ErrorKind::NotFound);
        assert!(std::error::Error::source(&error.kind).is_some_and(|source| source.is::<std::io::Error>()));
        assert_eq!(
            error.to_string(),
            format!("/no/such/folder/rig.glb: cannot read the file: {io_error}")
        );
        // The words end with the kind's, so the error names no source that would repeat them.
        assert!(std::error::Error::source(&error).is_none());
    }
}
