//! `rigscope install-desktop [--user|--system]` and `uninstall-desktop`: the freedesktop.org
//! entries that make a Linux desktop open models with rigscope and show their thumbnails.
//!
//! Installed under the XDG data directory ($XDG_DATA_HOME or ~/.local/share for --user,
//! /usr/local/share for --system):
//! - `applications/rigscope.desktop`: the application, for .glb, .gltf, .vrm, .vrma, .fbx,
//!   .obj and .md5mesh files;
//! - `icons/hicolor/scalable/apps/rigscope.svg`, and PNGs of it in `icons/hicolor/SIZExSIZE/apps`;
//! - `mime/packages/rigscope.xml`: model/gltf-binary (*.glb, and the "glTF" magic),
//!   model/gltf+json (*.gltf), model/x-vrm (*.vrm) and model/x-vrm-animation (*.vrma), both
//!   GLB, application/vnd.autodesk.fbx (*.fbx, and the "Kaydara FBX Binary" magic),
//!   model/obj (*.obj), model/x-md5mesh and model/x-md5anim (an MD5 animation is not opened
//!   on its own: it is added to an open model);
//! - `thumbnailers/rigscope.thumbnailer`: `rigscope thumbnail %i -o %o --size %s`, for the types
//!   the application opens;
//! - `rigscope/installed.json`: what was written, so that uninstalling removes exactly that.
//!
//! The entries themselves come from `desktop_files`, as `package-data` (the Debian package)
//! writes them.
//!
//! For --user, rigscope also becomes the default application for those types in
//! $XDG_CONFIG_HOME/mimeapps.list, only for types that have no default yet. The MIME and
//! desktop databases are refreshed when their tools are installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::desktop_files::{DESKTOP_ID, desktop_files, model_mime_types};

const MANIFEST: &str = "rigscope/installed.json";

#[derive(Args, Debug)]
pub struct DesktopArgs {
    /// For the current user (the default): under $XDG_DATA_HOME, or ~/.local/share.
    #[arg(long, conflicts_with = "system")]
    pub user: bool,
    /// For every user: under /usr/local/share (needs write access there).
    #[arg(long)]
    pub system: bool,
}

/// What an installation wrote, kept beside it.
#[derive(Serialize, Deserialize, Default, Debug)]
struct Manifest {
    files: Vec<PathBuf>,
    /// The mimeapps.list given default entries, and for which types.
    mimeapps: Option<PathBuf>,
    /// Whether the installation created that file (uninstalling removes it only then).
    #[serde(default)]
    created_mimeapps: bool,
    defaults: Vec<String>,
    /// Folders the installation created, removed again when empty.
    folders: Vec<PathBuf>,
}

/// Where the entries go.
struct Places {
    data: PathBuf,
    /// The user's mimeapps.list (none for a system install).
    mimeapps: Option<PathBuf>,
}

impl Places {
    fn new(args: &DesktopArgs) -> anyhow::Result<Self> {
        if !cfg!(target_os = "linux") {
            bail!("install-desktop is for Linux desktops; the README explains file associations on Windows and macOS");
        }
        if args.system {
            return Ok(Self {
                data: PathBuf::from("/usr/local/share"),
                mimeapps: None,
            });
        }
        let home = || std::env::var_os("HOME").map(PathBuf::from);
        let xdg = |variable: &str, fallback: &str| {
            std::env::var_os(variable)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| home().map(|h| h.join(fallback)))
                .with_context(|| format!("neither ${variable} nor $HOME is set"))
        };
        Ok(Self {
            data: xdg("XDG_DATA_HOME", ".local/share")?,
            mimeapps: Some(xdg("XDG_CONFIG_HOME", ".config")?.join("mimeapps.list")),
        })
    }
}

pub fn install(args: &DesktopArgs, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let places = Places::new(args)?;
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("cannot find the rigscope executable")?;
    let exe = exe.to_str().context("the executable's path is not UTF-8")?;
    let manifest_path = places.data.join(MANIFEST);
    let mut manifest = read_manifest(&manifest_path).unwrap_or_default();
    // Whatever happens, the manifest lists what was written, so that uninstalling finds it.
    let result = install_entries(&places, exe, &mut manifest, out);
    if !manifest.files.is_empty() {
        create_folders(&manifest_path, &mut manifest.folders)?;
        write_file(&manifest_path, &serde_json::to_string_pretty(&manifest)?)?;
    }
    result?;
    refresh_databases(&places.data, out)
}

fn install_entries(
    places: &Places,
    exe: &str,
    manifest: &mut Manifest,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    for (relative, contents) in desktop_files(exe)? {
        let path = places.data.join(relative);
        create_folders(&path, &mut manifest.folders)?;
        write_file(&path, contents)?;
        writeln!(out, "wrote {}", path.display())?;
        if !manifest.files.contains(&path) {
            manifest.files.push(path);
        }
    }
    let Some(mimeapps) = &places.mimeapps else {
        return Ok(());
    };
    let existed = mimeapps.exists();
    let text = match std::fs::read_to_string(mimeapps) {
        Ok(text) => text,
        Err(_) if !existed => String::new(),
        Err(error) => {
            // Never replace a file that cannot be read; the entries work without defaults.
            writeln!(out, "left {} alone ({error}): no defaults set", mimeapps.display())?;
            return Ok(());
        }
    };
    create_folders(mimeapps, &mut manifest.folders)?;
    let added = set_defaults(mimeapps, &text)?;
    if !added.is_empty() {
        writeln!(
            out,
            "{DESKTOP_ID} opens {} by default ({})",
            added.join(", "),
            mimeapps.display()
        )?;
        manifest.created_mimeapps |= !existed;
    }
    manifest.defaults.extend(added);
    manifest.defaults.sort();
    manifest.defaults.dedup();
    manifest.mimeapps = Some(mimeapps.clone());
    Ok(())
}

pub fn uninstall(args: &DesktopArgs, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let places = Places::new(args)?;
    let manifest_path = places.data.join(MANIFEST);
    let manifest = read_manifest(&manifest_path).with_context(|| {
        format!(
            "nothing to uninstall: {} is missing or unreadable",
            manifest_path.display()
        )
    })?;
    for path in &manifest.files {
        match std::fs::remove_file(path) {
            Ok(()) => writeln!(out, "removed {}", path.display())?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error).with_context(|| format!("cannot remove {}", path.display())),
        }
    }
    if let Some(mimeapps) = &manifest.mimeapps {
        remove_defaults(mimeapps, &manifest.defaults, manifest.created_mimeapps)?;
    }
    std::fs::remove_file(&manifest_path).with_context(|| format!("cannot remove {}", manifest_path.display()))?;
    refresh_databases(&places.data, out)?;
    // Deepest first; a folder that holds anything else (a database the refresh rewrote, other
    // applications' files) stays.
    let mut folders = manifest.folders;
    folders.sort_by_key(|f| std::cmp::Reverse(f.components().count()));
    for folder in folders {
        let _ = std::fs::remove_dir(folder);
    }
    Ok(())
}

/// Creates the folders above `path` that are missing, noting them in `created` (once each).
fn create_folders(path: &Path, created: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let missing: Vec<&Path> = path.ancestors().skip(1).take_while(|folder| !folder.exists()).collect();
    for folder in missing.into_iter().rev() {
        std::fs::create_dir(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        if !created.iter().any(|c| c == folder) {
            created.push(folder.to_path_buf());
        }
    }
    Ok(())
}

fn read_manifest(path: &Path) -> Option<Manifest> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    std::fs::write(path, contents).with_context(|| format!("cannot write {}", path.display()))
}

/// Makes rigscope the default for each of its types that has no default in `mimeapps`, whose
/// contents are `text`; returns the types it set.
fn set_defaults(mimeapps: &Path, text: &str) -> anyhow::Result<Vec<String>> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let section = lines.iter().position(|l| l.trim() == "[Default Applications]");
    let (start, end) = match section {
        Some(start) => (start + 1, section_end(&lines, start + 1)),
        None => {
            if lines.last().is_some_and(|l| !l.trim().is_empty()) {
                lines.push(String::new());
            }
            lines.push("[Default Applications]".into());
            (lines.len(), lines.len())
        }
    };
    let has_default = |lines: &[String], mime: &str| {
        lines[start..end]
            .iter()
            .any(|l| l.split_once('=').is_some_and(|(key, _)| key.trim() == mime))
    };
    let added: Vec<String> = model_mime_types()
        .iter()
        .filter(|mime| !has_default(&lines, mime))
        .map(|mime| mime.to_string())
        .collect();
    for (offset, mime) in added.iter().enumerate() {
        lines.insert(end + offset, format!("{mime}={DESKTOP_ID};"));
    }
    if !added.is_empty() {
        write_file(mimeapps, &(lines.join("\n") + "\n"))?;
    }
    Ok(added)
}

/// Removes the default entries `set_defaults` added, where they still name rigscope, and the
/// file itself when the installation `created` it and nothing else was added to it since.
fn remove_defaults(mimeapps: &Path, types: &[String], created: bool) -> anyhow::Result<()> {
    let Ok(text) = std::fs::read_to_string(mimeapps) else {
        return Ok(());
    };
    let ours: Vec<String> = types.iter().map(|t| format!("{t}={DESKTOP_ID};")).collect();
    let mut in_defaults = false;
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| {
            if line.trim_start().starts_with('[') {
                in_defaults = line.trim() == "[Default Applications]";
            }
            !(in_defaults && ours.iter().any(|o| o == line.trim()))
        })
        .collect();
    let only_header = kept
        .iter()
        .all(|l| l.trim().is_empty() || l.trim() == "[Default Applications]");
    if created && only_header {
        return std::fs::remove_file(mimeapps).with_context(|| format!("cannot remove {}", mimeapps.display()));
    }
    write_file(mimeapps, &(kept.join("\n") + "\n"))
}

/// Index of the line after the section that starts at `start`, before its trailing blanks.
fn section_end(lines: &[String], start: usize) -> usize {
    let mut end = lines[start..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| start + i);
    // Keep the blank lines that separate sections after the new entries.
    while end > start && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    end
}

/// Runs update-mime-database and update-desktop-database on the data directory when they are
/// installed, so that the new types and the application are known at once.
fn refresh_databases(data: &Path, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    for (tool, folder) in [
        ("update-mime-database", "mime"),
        ("update-desktop-database", "applications"),
    ] {
        let folder = data.join(folder);
        if !folder.is_dir() {
            continue;
        }
        match Command::new(tool).arg(&folder).output() {
            Ok(output) if output.status.success() => writeln!(out, "ran {tool} {}", folder.display())?,
            Ok(output) => writeln!(
                out,
                "{tool} {} failed: {}",
                folder.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            )?,
            Err(_) => writeln!(
                out,
                "{tool} is not installed; the desktop picks the changes up at next login"
            )?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_added_only_where_none_exist_and_removed_exactly() {
        let dir = std::env::temp_dir().join(format!("rigscope-mimeapps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mimeapps.list");
        let before = "[Added Associations]\ntext/plain=gedit.desktop;\n\n[Default Applications]\nmodel/gltf-binary=blender.desktop;\n\n[Removed Associations]\n";
        std::fs::write(&path, before).unwrap();
        let added = set_defaults(&path, before).unwrap();
        assert_eq!(
            added,
            [
                "model/gltf+json",
                "model/x-vrm",
                "model/x-vrm-animation",
                "model/x-md5mesh",
                "application/vnd.autodesk.fbx",
                "model/obj"
            ]
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("model/gltf-binary=blender.desktop;"),
            "an existing default stays"
        );
        assert!(
            text.contains(
                "[Default Applications]\nmodel/gltf-binary=blender.desktop;\nmodel/gltf+json=rigscope.desktop;"
            )
        );
        assert!(
            set_defaults(&path, &text).unwrap().is_empty(),
            "a second install adds nothing"
        );
        remove_defaults(&path, &added, false).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        // A file of the user's left with only its header stays; one the installation created
        // goes.
        let header = "[Default Applications]\n";
        std::fs::write(&path, header).unwrap();
        let added = set_defaults(&path, header).unwrap();
        remove_defaults(&path, &added, false).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), header);
        std::fs::remove_file(&path).unwrap();
        let added = set_defaults(&path, "").unwrap();
        remove_defaults(&path, &added, true).unwrap();
        assert!(!path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
