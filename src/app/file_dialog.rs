//! "Open…", "Compare with…", "Load .hdr…", "Export clip…" and "Save as GLB…": the desktop's
//! file dialog when there is one, else the built-in browser (`ui::file_browser`).
//!
//! On Linux rfd asks the XDG desktop portal over D-Bus and falls back to zenity; with neither,
//! it returns at once as if the user had cancelled. So rfd is asked only when one of them can
//! answer: a session bus with the portal's D-Bus service installed (how the bus starts it on
//! demand; inside Flatpak the portal is always there), or zenity on the PATH.
//! RIGSCOPE_FILE_BROWSER=builtin picks the built-in browser regardless.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::asset::format::all_extensions;
use crate::ui::ViewerState;
use crate::ui::file_browser::Purpose;

/// What the panel says when the built-in browser stands in.
pub const NO_DESKTOP_DIALOG: &str = "no desktop file dialog (XDG portal) is available; using the built-in browser";

/// Asks for a file for `purpose`: with the desktop's dialog, returning what was picked; or by
/// opening the built-in browser, which hands its pick to `state` later.
pub fn pick_file(state: &mut ViewerState, purpose: Purpose) -> Option<PathBuf> {
    let (folder, name) = match purpose {
        // A file that failed to open is the one being looked for, else the open model's.
        Purpose::Model | Purpose::Compare | Purpose::Environment => {
            let near = (state.watching.failed_file.as_deref()).unwrap_or(&state.document.model.path);
            (start_folder(near), String::new())
        }
        Purpose::Export => export_folder_and_name(state),
        Purpose::SaveModel => (start_folder(&state.document.model.path), state.save_name()),
    };
    if !desktop_dialog_available(&|name| std::env::var_os(name)) {
        state.browser.open(purpose, &folder, &name, NO_DESKTOP_DIALOG);
        return None;
    }
    let dialog = rfd::FileDialog::new().set_directory(folder);
    match purpose {
        Purpose::Model => dialog
            .set_title("Open a model")
            .add_filter("Models", &all_extensions())
            .add_filter("All files", &["*"])
            .pick_file(),
        Purpose::Compare => dialog
            .set_title("Compare with a model")
            .add_filter("Models", &all_extensions())
            .add_filter("All files", &["*"])
            .pick_file(),
        Purpose::Environment => dialog
            .set_title("Light the scene with an environment")
            .add_filter("Radiance HDR", &["hdr"])
            .add_filter("All files", &["*"])
            .pick_file(),
        Purpose::Export => dialog
            .set_title("Export clip")
            .set_file_name(name)
            .add_filter("MP4 video (H.264)", &["mp4"])
            .add_filter("Animated GIF", &["gif"])
            .add_filter("Animated PNG", &["png", "apng"])
            .save_file(),
        Purpose::SaveModel => dialog
            .set_title("Save as glTF")
            .set_file_name(name)
            .add_filter("glTF binary", &["glb"])
            .add_filter("glTF with its .bin", &["gltf"])
            .add_filter("VRM", &["vrm", "vrma"])
            .save_file(),
    }
}

/// Where the export's dialog starts: the folder of the panel's path (the last export's, once
/// there was one), else the open model's; and the name it suggests.
fn export_folder_and_name(state: &ViewerState) -> (PathBuf, String) {
    let typed = PathBuf::from(&state.clip_export.path);
    let folder = match typed.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) => folder.to_path_buf(),
        None => start_folder(&state.document.model.path),
    };
    let name = typed.file_name().map(|n| n.to_string_lossy().into_owned());
    (folder, name.unwrap_or_default())
}

/// The folder of `file`, else the current one.
fn start_folder(file: &Path) -> PathBuf {
    file.parent()
        .filter(|folder| folder.is_dir())
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}

/// Whether rfd can show a dialog, judged from the environment `env` gives.
fn desktop_dialog_available(env: &dyn Fn(&str) -> Option<OsString>) -> bool {
    if env("RIGSCOPE_FILE_BROWSER").is_some_and(|v| v == "builtin") {
        return false;
    }
    if !cfg!(target_os = "linux") {
        // Windows and macOS always have their native dialogs.
        return true;
    }
    portal_available(env) || on_path(env, "zenity")
}

fn portal_available(env: &dyn Fn(&str) -> Option<OsString>) -> bool {
    if Path::new("/.flatpak-info").exists() {
        return true;
    }
    let runtime_bus = env("XDG_RUNTIME_DIR").map(|dir| PathBuf::from(dir).join("bus"));
    let session_bus =
        env("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty()) || runtime_bus.is_some_and(|bus| bus.exists());
    if !session_bus {
        return false;
    }
    // The XDG base directory spec's search path for data, where D-Bus finds its services.
    let home_data = env("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|home| PathBuf::from(home).join(".local/share")));
    let data_dirs = env("XDG_DATA_DIRS")
        .filter(|dirs| !dirs.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    home_data
        .into_iter()
        .chain(std::env::split_paths(&data_dirs))
        .any(|dir| {
            dir.join("dbus-1/services/org.freedesktop.portal.Desktop.service")
                .is_file()
        })
}

fn on_path(env: &dyn Fn(&str) -> Option<OsString>, program: &str) -> bool {
    env("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake environment: `vars`, with a data folder that holds the portal's service file
    /// when `portal` is set.
    fn check(vars: &[(&str, &str)], portal: bool) -> bool {
        let data = std::env::temp_dir().join(format!("rigscope-portal-{}-{portal}", std::process::id()));
        let services = data.join("dbus-1/services");
        std::fs::create_dir_all(&services).unwrap();
        let service = services.join("org.freedesktop.portal.Desktop.service");
        if portal {
            std::fs::write(&service, "[D-BUS Service]\n").unwrap();
        }
        let data_dirs = data.display().to_string();
        let env = |name: &str| {
            let value = match name {
                "XDG_DATA_DIRS" => Some(data_dirs.as_str()),
                "PATH" => Some("/nonexistent"),
                _ => vars.iter().find(|(n, _)| *n == name).map(|(_, v)| *v),
            };
            value.map(OsString::from)
        };
        let available = desktop_dialog_available(&env);
        std::fs::remove_dir_all(&data).unwrap();
        available
    }

    #[test]
    fn an_export_starts_in_the_folder_of_the_last_one() {
        let mut state = ViewerState::new(crate::asset::demo::demo_model());
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            export_folder_and_name(&state),
            (here, "clip.mp4".into()),
            "the demo: here"
        );
        let folder = std::env::temp_dir();
        state.clip_export.path = folder.join("walk.gif").display().to_string();
        assert_eq!(export_folder_and_name(&state), (folder, "walk.gif".into()));
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_desktop_dialog_needs_a_session_bus_with_the_portal() {
        let bus = ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus");
        assert!(check(&[bus], true));
        assert!(!check(&[bus], false), "no portal service");
        assert!(!check(&[], true), "no session bus");
        assert!(
            !check(&[bus, ("RIGSCOPE_FILE_BROWSER", "builtin")], true),
            "asked for the built-in one"
        );
    }
}
