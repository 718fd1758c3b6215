//! The headless commands the Python module offers, each through the command's own code: the
//! same JSON, the same findings, the same pixels.

use std::path::Path;

use clap::Parser;
use serde::Serialize;

use super::Error;
use crate::asset::{self, Model};
use crate::cli::{self, Cli, Command};
use crate::diff::{self, Tolerance};
use crate::lint::{Finding, Severity, count};

/// `rigscope inspect FILE --json`: the summary as the command prints it.
pub fn inspect(path: &Path) -> Result<String, Error> {
    let command = Command::Inspect {
        files: vec![path.to_path_buf()],
        json: true,
    };
    let mut out = Vec::new();
    cli::run(command, &mut out).map_err(|error| Error::from_command(&error, Error::Invalid))?;
    String::from_utf8(out).map_err(|e| Error::Invalid(e.to_string()))
}

/// One model's lint: `lint --json`'s line for it, less `file` and `ok`.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct LintReport {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    pub findings: Vec<Finding>,
}

/// Lints a loaded model (`rigscope lint --json`'s findings).
pub fn lint(model: &Model) -> LintReport {
    let findings = crate::lint::lint(model);
    LintReport {
        errors: count(&findings, Severity::Error),
        warnings: count(&findings, Severity::Warning),
        notes: count(&findings, Severity::Note),
        findings,
    }
}

/// A lint report as JSON, in `lint --json`'s field names.
pub fn lint_json(report: &LintReport) -> String {
    // A report of strings and numbers always serialises.
    serde_json::to_string(report).unwrap_or_default()
}

/// What `render` draws: its size, pose and any other `rigscope render` options.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RenderOptions {
    pub width: u32,
    pub height: u32,
    /// A clip by name or index; `None` for the first clip, as `render` does.
    pub clip: Option<String>,
    pub time: f32,
    /// More `rigscope render` options, as words (`["--skeleton", "--yaw", "30"]`).
    pub extra: Vec<String>,
}

impl Default for RenderOptions {
    /// `render`'s defaults: 800 x 600, the first clip at 0 s.
    fn default() -> Self {
        Self {
            width: 800,
            height: 600,
            clip: None,
            time: 0.0,
            extra: Vec::new(),
        }
    }
}

/// A picture: RGBA, 8 bits a channel, rows top to bottom.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// `rigscope render FILE -o out.png` with `options`: the same pixels, not written to a file.
pub fn render(path: &Path, options: &RenderOptions) -> Result<Picture, Error> {
    let mut words: Vec<String> = vec!["rigscope".into(), "render".into(), path.display().to_string()];
    words.extend([
        "-o".into(),
        "-".into(),
        format!("--size={}x{}", options.width, options.height),
    ]);
    words.push(format!("--time={}", options.time));
    words.extend(options.clip.iter().map(|clip| format!("--clip={clip}")));
    words.extend(options.extra.iter().cloned());
    let arguments = Cli::try_parse_from(words).map_err(|e| Error::Options(e.to_string()))?;
    let Some(Command::Render(arguments)) = arguments.command else {
        return Err(Error::Options("not a render command".into()));
    };
    let image = cli::render::picture(&arguments).map_err(|error| Error::from_command(&error, Error::Render))?;
    Ok(Picture {
        width: image.width(),
        height: image.height(),
        rgba: image.into_raw(),
    })
}

/// `rigscope diff A B --json` with the default tolerances: the comparison as JSON (whether or
/// not the rigs differ; its `differs` says).
pub fn diff(a: &Path, b: &Path) -> Result<String, Error> {
    let load = |path: &Path| asset::load(path).map_err(|error| Error::from_load(&error));
    let (a, b) = (load(a)?, load(b)?);
    let comparison = diff::compare(&a, &b, &Tolerance::default());
    serde_json::to_string(&comparison).map_err(|e| Error::Invalid(e.to_string()))
}

/// `rigscope convert IN -o OUT --json` with more `convert` options as words: writes the glTF
/// and returns the command's JSON report.
pub fn convert(input: &Path, output: &Path, extra: &[String]) -> Result<String, Error> {
    let mut words: Vec<String> = vec!["rigscope".into(), "convert".into(), input.display().to_string()];
    words.extend(["-o".into(), output.display().to_string(), "--json".into()]);
    words.extend(extra.iter().cloned());
    let arguments = Cli::try_parse_from(words).map_err(|e| Error::Options(e.to_string()))?;
    let Some(command @ Command::Convert(_)) = arguments.command else {
        return Err(Error::Options("not a convert command".into()));
    };
    let mut out = Vec::new();
    cli::run(command, &mut out).map_err(|error| Error::from_command(&error, Error::Write))?;
    String::from_utf8(out).map_err(|e| Error::Write(e.to_string()))
}
