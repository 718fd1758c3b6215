//! The one error type of the facade: what went wrong, in the command line's words, sorted into
//! the kinds a caller handles differently (the Python module maps each to an exception class).

use std::io;

use crate::asset::{LoadError, LoadErrorKind};
use crate::cli::launch::error_message;

/// Why a facade call failed. `Display` gives the words `rigscope` prints after `rigscope: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The file exists but could not be read (permissions, a folder, an I/O error).
    #[error("{0}")]
    Unreadable(String),
    /// The file's data is wrong: not the format its name says, broken JSON, bad indices, ...
    #[error("{0}")]
    Invalid(String),
    /// A file rigscope does not read, or a feature of it that rigscope does not support.
    #[error("{0}")]
    Unsupported(String),
    /// An option does not fit the model: an unknown clip or expression, a time that is not a
    /// number, words the command line would refuse.
    #[error("{0}")]
    Options(String),
    /// The picture could not be drawn (no graphics adapter, a GPU error).
    #[error("{0}")]
    Render(String),
    /// The output could not be written.
    #[error("{0}")]
    Write(String),
}

impl Error {
    /// The load error's kind, in its own words (which name the file).
    pub(crate) fn from_load(error: &LoadError) -> Self {
        let message = error.to_string();
        match &error.kind {
            LoadErrorKind::Read(source) if source.kind() == io::ErrorKind::NotFound => Self::NotFound(message),
            LoadErrorKind::Read(..) => Self::Unreadable(message),
            LoadErrorKind::UnsupportedType { .. }
            | LoadErrorKind::AnimationWithoutMesh
            | LoadErrorKind::NotAnMd5Model
            | LoadErrorKind::RequiredExtension(..)
            | LoadErrorKind::TooManyVertices(..) => Self::Unsupported(message),
            _ => Self::Invalid(message),
        }
    }

    /// A command's error: a load error keeps its kind, anything else becomes `otherwise`, both
    /// in the words the command line prints.
    pub(crate) fn from_command(error: &anyhow::Error, otherwise: fn(String) -> Self) -> Self {
        match error.chain().find_map(|cause| cause.downcast_ref::<LoadError>()) {
            Some(load) => match Self::from_load(load) {
                // The command's own words (with its context), the load error's kind.
                Self::NotFound(_) => Self::NotFound(error_message(error)),
                Self::Unreadable(_) => Self::Unreadable(error_message(error)),
                Self::Unsupported(_) => Self::Unsupported(error_message(error)),
                _ => Self::Invalid(error_message(error)),
            },
            None => otherwise(error_message(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_missing_file_is_not_found_and_a_folder_is_unreadable() {
        let missing = crate::asset::load(Path::new("/no/such/rig.glb")).unwrap_err();
        let error = Error::from_load(&missing);
        assert!(matches!(error, Error::NotFound(_)), "{error:?}");
        assert_eq!(error.to_string(), missing.to_string());
        let folder = crate::asset::load(&std::env::temp_dir()).unwrap_err();
        assert!(matches!(
            Error::from_load(&folder),
            Error::Unreadable(_) | Error::Unsupported(_)
        ));
    }

    #[test]
    fn broken_data_is_invalid_and_an_unknown_type_unsupported() {
        let folder = std::env::temp_dir().join(format!("rigscope-api-error-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let broken = folder.join("broken.glb");
        std::fs::write(&broken, b"not a glb at all").unwrap();
        let error = Error::from_load(&crate::asset::load(&broken).unwrap_err());
        assert!(matches!(error, Error::Invalid(_)), "{error:?}");
        let unknown = folder.join("model.xyz");
        std::fs::write(&unknown, b"?").unwrap();
        let error = Error::from_load(&crate::asset::load(&unknown).unwrap_err());
        assert!(matches!(error, Error::Unsupported(_)), "{error:?}");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_command_error_keeps_the_load_kind_and_the_command_words() {
        let missing = crate::asset::load(Path::new("/no/such/rig.glb")).unwrap_err();
        let error = anyhow::Error::from(missing).context("cannot lint");
        let error = Error::from_command(&error, Error::Render);
        assert!(
            matches!(&error, Error::NotFound(text) if text.starts_with("cannot lint: /no/such/rig.glb")),
            "{error:?}"
        );
        let other = Error::from_command(&anyhow::anyhow!("no adapter"), Error::Render);
        assert_eq!(other, Error::Render("no adapter".into()));
    }
}
