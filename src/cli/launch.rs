//! What the launcher says around a command: the nearest command to a mistyped one (clap's own
//! suggestions cannot fire, as a first word that is no command is taken for the viewer's FILE),
//! a missing display in words, and errors without the build machine's source paths.

use std::ffi::OsString;
use std::path::Path;

use clap::CommandFactory;

use super::Cli;

/// When the first argument is neither a command nor an existing file, what to say instead of
/// opening the viewer on it or clap's "the subcommand ... cannot be used with '[FILE]'": the
/// nearest command's name when one is close, else that it is neither. `arguments` are the
/// program's, its own name first.
pub fn mistyped_command(arguments: &[OsString]) -> Option<String> {
    let first = arguments.get(1)?.to_str()?;
    // A path (a separator, an extension) is the viewer's file, found or not: the viewer
    // says when it is missing. Command names have neither.
    let path = Path::new(first);
    if first.starts_with('-') || path.exists() || first.contains(['/', '\\']) || path.extension().is_some() {
        return None;
    }
    let cli = Cli::command();
    let names: Vec<&str> = cli
        .get_subcommands()
        .flat_map(|command| std::iter::once(command.get_name()).chain(command.get_all_aliases()))
        .collect();
    if names.contains(&first) {
        return None;
    }
    let nearest = names
        .iter()
        .map(|name| (edit_distance(first, name), *name))
        .min()
        .filter(|&(distance, name)| distance <= 2 && distance < name.len() / 2);
    match nearest {
        Some((_, name)) => Some(format!(
            "'{first}' is not a command, nor a file; did you mean '{name}'?\n\n  rigscope {name} --help\n"
        )),
        // A lone argument is the viewer's file: the viewer says it is missing.
        None if arguments.len() > 2 => Some(format!(
            "'{first}' is neither a command nor a file (the commands: rigscope --help)"
        )),
        None => None,
    }
}

/// The edits (insertions, deletions, substitutions, swaps of neighbours) from `a` to `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the optimal-string-alignment table: two back, one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            current[j] = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Why the viewer cannot open a window, before winit says it with its own source path: on
/// Linux and the BSDs, when neither X11 nor Wayland is named in the environment.
pub fn missing_display() -> Option<String> {
    let unix_desktop = cfg!(all(unix, not(target_os = "macos"), not(target_os = "android")));
    let named = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()));
    (unix_desktop && !named).then(|| {
        "no display to open the viewer's window on (neither DISPLAY nor WAYLAND_DISPLAY is set); \
         the commands work without one: rigscope --help"
            .to_owned()
    })
}

/// `error` as the launcher prints it: its causes joined by ": ", with the source locations
/// some libraries put in their messages ("os error at /root/.cargo/registry/…/mod.rs:765: ")
/// left out, as they name the build machine's files.
pub fn error_message(error: &anyhow::Error) -> String {
    let text = format!("{error:#}");
    let mut message = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(" at /") {
        let location_end = rest[at..].find(".rs:").and_then(|rs| {
            let after = &rest[at + rs + 4..];
            let digits = after.find(|c: char| !c.is_ascii_digit())?;
            after[digits..].starts_with(": ").then_some(at + rs + 4 + digits + 2)
        });
        match location_end {
            Some(end) => {
                // winit's "os error at …: " goes whole; another "… at …: " keeps its words.
                match rest[..at].strip_suffix("os error") {
                    Some(before) => message.push_str(before),
                    None => {
                        message.push_str(&rest[..at]);
                        message.push_str(": ");
                    }
                }
                rest = &rest[end..];
            }
            None => {
                message.push_str(&rest[..at + 5]);
                rest = &rest[at + 5..];
            }
        }
    }
    message.push_str(rest);
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(words: &[&str]) -> Vec<OsString> {
        std::iter::once("rigscope")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn a_mistyped_command_gets_the_nearest_name() {
        let said = mistyped_command(&arguments(&["inspekt", "Fox.glb"])).unwrap();
        assert!(
            said.starts_with("'inspekt' is not a command, nor a file; did you mean 'inspect'?"),
            "{said}"
        );
        let said = mistyped_command(&arguments(&["thumbnial"])).unwrap();
        assert!(said.contains("did you mean 'thumbnail'?"), "{said}");
        let said = mistyped_command(&arguments(&["frobnicate", "Fox.glb"])).unwrap();
        assert!(said.contains("neither a command nor a file"), "{said}");
    }

    #[test]
    fn commands_files_options_and_missing_files_are_left_to_clap_and_the_viewer() {
        let existing = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        for words in [
            &["inspect", "Missing.glb"][..],
            &["--paused", "Missing.glb"],
            &[existing, "extra"],
            &["Missing.glb"],
            &["/no/such/model.glb", "--paused"],
            &["model.vrm", "--select", "hips"],
            &[],
        ] {
            assert_eq!(mistyped_command(&arguments(words)), None, "{words:?}");
        }
    }

    #[test]
    fn distances_count_single_edits_and_swaps() {
        assert_eq!(edit_distance("inspekt", "inspect"), 1);
        assert_eq!(edit_distance("rendr", "render"), 1);
        assert_eq!(edit_distance("thumbnial", "thumbnail"), 1);
        assert_eq!(edit_distance("", "lint"), 4);
        assert_eq!(edit_distance("pose", "pose"), 0);
    }

    #[test]
    fn errors_leave_out_source_paths() {
        let winit = anyhow::anyhow!(
            "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set."
        )
        .context("cannot open a window (no display?)");
        assert_eq!(
            error_message(&winit),
            "cannot open a window (no display?): neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set."
        );
        let file = anyhow::anyhow!("cannot read /home/me/walk at /tmp/x.glb");
        assert_eq!(error_message(&file), "cannot read /home/me/walk at /tmp/x.glb");
    }
}
