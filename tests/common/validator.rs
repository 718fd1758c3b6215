//! The Khronos glTF-Validator (npm `gltf-validator`, pinned in `tools/validate/`), run with node
//! on glTF and GLB files: what checks that the files rigscope writes are valid glTF 2.0. The
//! tests fail (not skip) when node or the package is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// The severity of an error in a message (the validator's numbering).
pub const ERROR: u8 = 0;
/// The severity of a warning.
pub const WARNING: u8 = 1;
/// The severity of an info.
pub const INFO: u8 = 2;
/// The severity of a hint.
pub const HINT: u8 = 3;

/// What installs the validator, named in the failure when it is missing.
const INSTALL: &str = "npm ci --prefix tools/validate";

/// The validator's findings on one file, as `tools/validate/validate.mjs` prints them.
#[derive(Debug, Clone, Deserialize)]
pub struct KhronosReport {
    /// The file as it was given to the validator.
    pub file: PathBuf,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hints: usize,
    /// The first 100 messages, in the validator's order (the counts above are complete).
    pub messages: Vec<KhronosMessage>,
    /// Whether there were more messages than `messages` holds.
    pub truncated: bool,
}

/// One issue the validator found.
#[derive(Debug, Clone, Deserialize)]
pub struct KhronosMessage {
    /// The code, e.g. `ACCESSOR_ANIMATION_INPUT_NON_INCREASING`.
    pub code: String,
    /// `ERROR`, `WARNING`, `INFO` or `HINT`.
    pub severity: u8,
    pub message: String,
    /// Where in the JSON (a JSON pointer), for most issues.
    pub pointer: Option<String>,
    /// Where in a GLB file (a byte offset), for the container's issues.
    pub offset: Option<u64>,
}

impl KhronosReport {
    /// The codes of the messages of `severity` (`ERROR`, `WARNING`, ...), in the validator's
    /// order, repeated as often as they occur.
    pub fn codes_of_severity(&self, severity: u8) -> Vec<&str> {
        self.messages
            .iter()
            .filter(|m| m.severity == severity)
            .map(|m| m.code.as_str())
            .collect()
    }

    /// Fails the test, listing every message, when the validator found an error.
    pub fn assert_no_errors(&self) {
        assert!(self.errors == 0, "{}", self.describe());
    }

    /// The counts and every message, one a line, for a failing test's message.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "Khronos glTF-Validator on {}: {} errors, {} warnings, {} infos, {} hints",
            self.file.display(),
            self.errors,
            self.warnings,
            self.infos,
            self.hints
        );
        for message in &self.messages {
            let severity = ["error", "warning", "info", "hint"]
                .get(usize::from(message.severity))
                .unwrap_or(&"?");
            let place = match (&message.pointer, message.offset) {
                (Some(pointer), _) => pointer.clone(),
                (None, Some(offset)) => format!("byte {offset}"),
                (None, None) => String::new(),
            };
            text += &format!("\n  {severity} {} at {place}: {}", message.code, message.message);
        }
        if self.truncated {
            text += "\n  (more messages left out)";
        }
        text
    }
}

/// Validates one GLB or `.gltf` file (its external buffers and images read from beside it).
pub fn khronos_validate(path: &Path) -> KhronosReport {
    let mut reports = khronos_validate_all(&[path]);
    reports
        .pop()
        .unwrap_or_else(|| panic!("no report for {}", path.display()))
}

/// Validates many files with one node process (the validator takes about 0.3 s to start), in
/// the order given.
pub fn khronos_validate_all<P: AsRef<Path>>(paths: &[P]) -> Vec<KhronosReport> {
    khronos_validate_all_with(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/validate"), paths)
}

/// `khronos_validate_all` with the validator's folder (`tools/validate`, its script and its
/// `node_modules`) at `tool_dir`: the tests of this helper point it where the package is not.
pub fn khronos_validate_all_with<P: AsRef<Path>>(tool_dir: &Path, paths: &[P]) -> Vec<KhronosReport> {
    assert!(
        tool_dir.join("node_modules/gltf-validator/package.json").is_file(),
        "the Khronos glTF-Validator is not installed in {} (run `{INSTALL}` in the repository, which .ci/run does)",
        tool_dir.display()
    );
    let output = Command::new("node")
        .arg(tool_dir.join("validate.mjs"))
        .args(paths.iter().map(AsRef::as_ref))
        .output()
        .unwrap_or_else(|e| panic!("cannot run node ({e}): the tests need Node.js 20 and npm, then `{INSTALL}`"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // validate.mjs: 1 when a file could not be validated at all (its line says why), 2 when the
    // validator cannot run.
    match output.status.code() {
        Some(0) => {}
        Some(1) => panic!("the Khronos glTF-Validator could not validate every file:\n{stdout}{stderr}"),
        _ => panic!(
            "the Khronos glTF-Validator cannot run ({}); install it with `{INSTALL}`\n{stdout}{stderr}",
            output.status
        ),
    }
    let reports: Vec<KhronosReport> = stdout
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("unexpected line from the Khronos glTF-Validator ({e}): {line}"))
        })
        .collect();
    assert_eq!(
        reports.len(),
        paths.len(),
        "the Khronos glTF-Validator reported on {} of {} files:\n{stdout}{stderr}",
        reports.len(),
        paths.len()
    );
    reports
}
