//! What `inspect` says about a file's glTF extensions: each one once, whether the file
//! requires it, and whether rigscope reads it.

use std::io::Write;

use serde::Serialize;

use crate::asset::{Model, unsupported_extensions};

#[derive(Serialize)]
pub struct ExtensionReport {
    name: String,
    required: bool,
    supported: bool,
}

/// Every extension `model`'s file uses or requires, by name.
pub fn extension_reports(model: &Model) -> Vec<ExtensionReport> {
    let unsupported = unsupported_extensions(&model.extensions_used, &model.extensions_required);
    let mut names: Vec<&String> = model.extensions_used.iter().chain(&model.extensions_required).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| ExtensionReport {
            name: name.clone(),
            required: model.extensions_required.contains(name),
            supported: !unsupported.iter().any(|u| &u.name == name),
        })
        .collect()
}

/// One line per extension: `extension NAME: required, supported`.
pub fn write_text(extensions: &[ExtensionReport], out: &mut dyn Write) -> std::io::Result<()> {
    for extension in extensions {
        let need = if extension.required { "required" } else { "used" };
        let read = if extension.supported {
            "supported"
        } else {
            "not supported (drawn without it)"
        };
        writeln!(out, "  extension {}: {need}, {read}", extension.name)?;
    }
    Ok(())
}
