//! Why a file could not be loaded: the file, and what is wrong with it in a plain sentence
//! that names the object at fault (a JSON pointer such as `/animations/0/samplers/0/input` in
//! glTF, a line in MD5).

use std::path::PathBuf;

use super::MAX_POSED_VERTICES;

/// A file that could not be loaded, and why. Its words end with `kind`'s, so it names no
/// `source` of its own (a chain printed with `{:#}` would say them twice): match on `kind`
/// (`LoadErrorKind::Read` carries the `io::Error`).
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
#[non_exhaustive]
pub struct LoadError {
    pub path: PathBuf,
    pub kind: LoadErrorKind,
}

/// What is wrong with a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file system's error: `NotFound` for a missing file, `PermissionDenied`, ...
    #[error("cannot read the file: {0}")]
    Read(#[source] std::io::Error),
    /// `known` lists the extensions rigscope reads.
    #[error("unsupported file type '.{extension}' (rigscope reads {known} files)")]
    UnsupportedType { extension: String, known: String },
    #[error(
        "an .md5anim holds only motion: open its .md5mesh (the animations beside it load too), \
         or drop the .md5anim on an open MD5 model"
    )]
    AnimationWithoutMesh,
    #[error("an .md5anim can only be added to an MD5 model (.md5mesh)")]
    NotAnMd5Model,
    #[error("not a GLB file (bad magic: it starts with {found}, not \"glTF\")")]
    BadMagic { found: String },
    #[error("not valid JSON ({0})")]
    Json(String),
    #[error("the file is not text (bad UTF-8 at byte {0})")]
    NotText(usize),
    #[error("the file requires extension {0}, which holds its geometry and which rigscope does not read")]
    RequiredExtension(String),
    /// Something the file describes is wrong: `object` names it.
    #[error("{object}: {problem}")]
    Invalid { object: String, problem: String },
    /// The scene asked for is not one of the file's.
    #[error("no scene '{wanted}' ({scenes})")]
    NoSuchScene { wanted: String, scenes: String },
    #[error(
        "its mesh instances (and their copies) add up to {0} vertices, more than rigscope poses ({MAX_POSED_VERTICES})"
    )]
    TooManyVertices(usize),
}

impl LoadErrorKind {
    /// `problem` with the object it concerns.
    pub fn invalid(object: impl Into<String>, problem: impl Into<String>) -> Self {
        Self::Invalid {
            object: object.into(),
            problem: problem.into(),
        }
    }
}
