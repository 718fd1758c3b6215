//! The file formats rigscope reads, in one table: their extensions and MIME types, how the
//! loader recognises them by content, and which of them are models on their own. The loader,
//! the open dialog, directory searches, the desktop integration and lint all read it.

use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// glTF 2.0 binary (`.glb`), recognised by its magic.
    GltfBinary,
    /// glTF 2.0 JSON (`.gltf`), recognised by a leading JSON object.
    GltfJson,
    /// A VRM avatar (`.vrm`): a GLB file with the VRM extensions.
    Vrm,
    /// A VRM animation (`.vrma`): a GLB file of joints and one clip, without a mesh.
    VrmAnimation,
    /// Doom 3 MD5 mesh (`.md5mesh`).
    Md5Mesh,
    /// Doom 3 MD5 animation (`.md5anim`): added to an open MD5 model, not opened alone.
    Md5Anim,
    /// Autodesk FBX (`.fbx`), binary (recognised by its magic) or ASCII.
    Fbx,
    /// Wavefront OBJ (`.obj`, with its `.mtl`).
    Obj,
}

/// What is known of a format.
#[derive(Debug)]
pub struct FormatInfo {
    pub format: Format,
    /// Lower case, without the dot.
    pub extension: &'static str,
    pub mime_type: &'static str,
    /// How the desktop names files of the format.
    pub description: &'static str,
    /// A model on its own: opened, found by directory searches, given thumbnails.
    pub is_model: bool,
}

/// In the order of `Format`'s variants (`Format::info` indexes it).
pub const FORMATS: [FormatInfo; 8] = [
    FormatInfo {
        format: Format::GltfBinary,
        extension: "glb",
        mime_type: "model/gltf-binary",
        description: "glTF binary model",
        is_model: true,
    },
    FormatInfo {
        format: Format::GltfJson,
        extension: "gltf",
        mime_type: "model/gltf+json",
        description: "glTF model",
        is_model: true,
    },
    FormatInfo {
        format: Format::Vrm,
        extension: "vrm",
        mime_type: "model/x-vrm",
        description: "VRM avatar",
        is_model: true,
    },
    FormatInfo {
        format: Format::VrmAnimation,
        extension: "vrma",
        mime_type: "model/x-vrm-animation",
        description: "VRM animation",
        is_model: true,
    },
    FormatInfo {
        format: Format::Md5Mesh,
        extension: "md5mesh",
        mime_type: "model/x-md5mesh",
        description: "Doom 3 MD5 model",
        is_model: true,
    },
    FormatInfo {
        format: Format::Md5Anim,
        extension: "md5anim",
        mime_type: "model/x-md5anim",
        description: "Doom 3 MD5 animation",
        is_model: false,
    },
    FormatInfo {
        format: Format::Fbx,
        extension: "fbx",
        mime_type: "application/vnd.autodesk.fbx",
        description: "Autodesk FBX model",
        is_model: true,
    },
    FormatInfo {
        format: Format::Obj,
        extension: "obj",
        mime_type: "model/obj",
        description: "Wavefront OBJ model",
        is_model: true,
    },
];

/// The first bytes of a binary FBX file.
pub const FBX_MAGIC: &[u8] = b"Kaydara FBX Binary";

/// The first four bytes of a GLB file.
pub const GLB_MAGIC: &[u8; 4] = b"glTF";

impl Format {
    pub fn info(self) -> &'static FormatInfo {
        &FORMATS[self as usize]
    }

    /// The format a path's extension names (any case).
    pub fn from_extension(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?;
        FORMATS
            .iter()
            .find(|info| info.extension.eq_ignore_ascii_case(extension))
            .map(|info| info.format)
    }

    /// The format of `bytes` read from `path`: by content first (the GLB magic, a JSON
    /// object: glTF whatever the file is called; the binary FBX magic), then by extension. A
    /// GLB file named `.vrm` or `.vrma` is that kind of GLB file.
    pub fn detect(path: &Path, bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(FBX_MAGIC) {
            Some(Self::Fbx)
        } else if bytes.starts_with(GLB_MAGIC) {
            let named = Self::from_extension(path).filter(|f| f.is_glb());
            Some(named.unwrap_or(Self::GltfBinary))
        } else if bytes.trim_ascii_start().starts_with(b"{") {
            Some(Self::GltfJson)
        } else {
            Self::from_extension(path)
        }
    }

    /// Read by the glTF loader: glTF itself and the formats made of it.
    pub fn is_gltf(self) -> bool {
        self == Self::GltfJson || self.is_glb()
    }

    /// A GLB container (binary glTF), whatever the file is called.
    pub fn is_glb(self) -> bool {
        matches!(self, Self::GltfBinary | Self::Vrm | Self::VrmAnimation)
    }
}

/// The formats that are models on their own.
pub fn model_formats() -> impl Iterator<Item = &'static FormatInfo> {
    FORMATS.iter().filter(|f| f.is_model)
}

/// Extensions of the files that are models on their own.
pub fn model_extensions() -> impl Iterator<Item = &'static str> {
    model_formats().map(|f| f.extension)
}

/// Every extension rigscope opens, for the open dialog (an animation is added to the open
/// model).
pub fn all_extensions() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.extension).collect()
}

/// Whether `path` is named like a model file (what a directory search picks up).
pub fn is_model_file(path: &Path) -> bool {
    Format::from_extension(path).is_some_and(|f| f.info().is_model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_comes_before_the_extension() {
        let glb = Path::new("model.gltf");
        assert_eq!(Format::detect(glb, b"glTF\x02\0\0\0"), Some(Format::GltfBinary));
        assert_eq!(
            Format::detect(Path::new("x.bin"), b"  {\"asset\":{}}"),
            Some(Format::GltfJson)
        );
        assert_eq!(
            Format::detect(Path::new("Bob.MD5MESH"), b"MD5Version 10"),
            Some(Format::Md5Mesh)
        );
        assert_eq!(
            Format::detect(Path::new("walk.md5anim"), b"MD5Version 10"),
            Some(Format::Md5Anim)
        );
        assert_eq!(Format::detect(Path::new("notes.txt"), b"hello"), None);
        assert_eq!(Format::detect(Path::new("a.VRM"), b"glTF\x02\0\0\0"), Some(Format::Vrm));
        assert_eq!(
            Format::detect(Path::new("wave.vrma"), b"glTF\x02\0\0\0"),
            Some(Format::VrmAnimation)
        );
        // A .vrm that is glTF JSON is read as what it is.
        assert_eq!(Format::detect(Path::new("a.vrm"), b"{}"), Some(Format::GltfJson));
        assert_eq!(
            Format::detect(Path::new("walk.bin"), b"Kaydara FBX Binary  \0"),
            Some(Format::Fbx)
        );
        assert_eq!(Format::detect(Path::new("walk.FBX"), b"; FBX 7.4.0"), Some(Format::Fbx));
        assert_eq!(Format::detect(Path::new("box.obj"), b"v 0 0 0"), Some(Format::Obj));
    }

    #[test]
    fn every_format_is_in_the_table_once() {
        for info in &FORMATS {
            assert_eq!(info.format.info().extension, info.extension);
            assert_eq!(
                Format::from_extension(Path::new(&format!("a.{}", info.extension))),
                Some(info.format)
            );
        }
        assert_eq!(
            model_extensions().collect::<Vec<_>>(),
            ["glb", "gltf", "vrm", "vrma", "md5mesh", "fbx", "obj"]
        );
        assert!(is_model_file(Path::new("a/b.GLB")) && !is_model_file(Path::new("a/walk.md5anim")));
    }
}
