//! Where rigscope's files go, one convention for every command, the viewer's exports and the
//! glTF writer:
//!
//! - `-` names standard output, for the formats that stream (PNG, JSON, CSV, GIF, APNG, GLB);
//!   what cannot (a PNG sequence, an MP4 whose index comes last, a `.gltf` with its `.bin`) is
//!   refused in words by the caller.
//! - A file is written under a temporary name in its own folder (`.NAME.PID.partial`) and
//!   renamed over NAME once complete, so no reader ever sees half a file and a failure leaves
//!   an existing file as it was. The temporary is removed on an error, and on Ctrl-C, SIGTERM
//!   and SIGHUP once `remove_partial_files_on_signals` has run.
//! - A NAME that is a symbolic link is written where the link points; the link stays a link.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The name that means standard output.
pub const STANDARD_OUTPUT: &str = "-";

/// Symbolic links followed before giving up (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// The temporary files being written now, removed by the signal watcher. The lock also
/// orders a rename against the watcher: a file is either renamed into place or removed.
static PARTIAL_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// `path` names standard output.
pub fn is_standard_output(path: &Path) -> bool {
    path.as_os_str() == STANDARD_OUTPUT
}

/// `path` for messages: "standard output" for `-`.
pub fn describe(path: &Path) -> String {
    match is_standard_output(path) {
        true => "standard output".to_owned(),
        false => path.display().to_string(),
    }
}

/// A file being written under a temporary name beside its destination; `commit` renames it
/// into place, and dropping it uncommitted removes it.
#[derive(Debug)]
pub struct PartialFile {
    temporary: PathBuf,
    destination: PathBuf,
}

impl PartialFile {
    /// Creates the temporary file for `path` (for the file a link at `path` points to) and
    /// returns it with the file to write into.
    pub fn create(path: &Path) -> io::Result<(Self, File)> {
        let destination = through_links(path)?;
        let name = destination
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the name is a folder, not a file"))?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.partial", std::process::id()));
        let temporary = destination.with_file_name(temporary_name);
        let mut registry = PARTIAL_FILES.lock().unwrap_or_else(PoisonError::into_inner);
        let file = File::create(&temporary)?;
        registry.push(temporary.clone());
        Ok((Self { temporary, destination }, file))
    }

    /// Renames the complete file into place.
    pub fn commit(self) -> io::Result<()> {
        let mut registry = PARTIAL_FILES.lock().unwrap_or_else(PoisonError::into_inner);
        let renamed = std::fs::rename(&self.temporary, &self.destination);
        if renamed.is_ok() {
            registry.retain(|path| *path != self.temporary);
        }
        // On failure `drop` removes the temporary.
        drop(registry);
        renamed
    }
}

impl Drop for PartialFile {
    /// An unfinished file (an error, a panic) leaves nothing behind.
    fn drop(&mut self) {
        let mut registry = PARTIAL_FILES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = registry.iter().position(|path| *path == self.temporary) {
            registry.swap_remove(at);
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Writes `bytes` to `path` (standard output for `-`) by the module's convention.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (mut writer, partial) = open(path)?;
    writer.write_all(bytes)?;
    finish(writer, partial)
}

/// Opens `path` (standard output for `-`) for writing: the writer, and for a file the
/// temporary to `finish` with it.
pub fn open(path: &Path) -> io::Result<(Box<dyn Write + Send>, Option<PartialFile>)> {
    if is_standard_output(path) {
        return Ok((Box::new(BufWriter::new(io::stdout())), None));
    }
    let (partial, file) = PartialFile::create(path)?;
    Ok((Box::new(BufWriter::new(file)), Some(partial)))
}

/// Flushes `writer` and renames its file into place.
pub fn finish(mut writer: Box<dyn Write + Send>, partial: Option<PartialFile>) -> io::Result<()> {
    writer.flush()?;
    drop(writer);
    partial.map_or(Ok(()), PartialFile::commit)
}

/// Refuses to write binary data (a picture, a video, a GLB) to standard output when it is a
/// terminal, as gzip does; `what` names the data.
pub fn refuse_binary_on_terminal(path: &Path, what: &str) -> io::Result<()> {
    if is_standard_output(path) && io::stdout().is_terminal() {
        return Err(io::Error::other(format!(
            "-o - would write {what} to the terminal: redirect standard output to a file or a pipe"
        )));
    }
    Ok(())
}

/// The path `path`'s symbolic links lead to (itself when it is no link); the last link may
/// point to a file not there yet. Relative link targets are read from the link's folder.
fn through_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                let folder = path.parent().unwrap_or(Path::new(""));
                path = folder.join(target);
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// Removes every temporary file still being written when the process gets SIGINT (Ctrl-C),
/// SIGTERM or SIGHUP, then dies of that signal as it would have without this (the exit status
/// says which). A thread does the work; the signal handler only wakes it, through a pipe.
#[cfg(unix)]
pub fn remove_partial_files_on_signals() -> io::Result<()> {
    signals::install()
}

/// Elsewhere the temporaries are removed on errors only.
#[cfg(not(unix))]
pub fn remove_partial_files_on_signals() -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
mod signals {
    use std::io::{self, Read};
    use std::os::fd::IntoRawFd;
    use std::os::unix::net::UnixStream;
    use std::sync::PoisonError;
    use std::sync::atomic::{AtomicI32, Ordering};

    use super::PARTIAL_FILES;

    /// The signals that end a command early.
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// The pipe end the handler writes the signal's number to (-1 before `install`).
    static WAKE: AtomicI32 = AtomicI32::new(-1);

    pub fn install() -> io::Result<()> {
        let (mut receiver, sender) = UnixStream::pair()?;
        // The sending end lives as long as the process.
        if WAKE
            .compare_exchange(-1, sender.into_raw_fd(), Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return Ok(());
        }
        std::thread::Builder::new()
            .name("rigscope-signals".to_owned())
            .spawn(move || {
                let mut signal = [0u8];
                if receiver.read_exact(&mut signal).is_ok() {
                    remove_and_die(libc::c_int::from(signal[0]));
                }
            })?;
        for signal in SIGNALS {
            // SAFETY: `on_signal` only loads an atomic and calls write(2), both
            // async-signal-safe; the sigaction struct is zeroed and then filled in.
            let installed = unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut())
            };
            if installed != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    extern "C" fn on_signal(signal: libc::c_int) {
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is one live byte.
        unsafe {
            libc::write(WAKE.load(Ordering::SeqCst), (&raw const byte).cast(), 1);
        }
    }

    /// Removes the temporaries and ends the process with `signal`, holding the registry's
    /// lock so that no rename slips in between.
    fn remove_and_die(signal: libc::c_int) {
        let registry = PARTIAL_FILES.lock().unwrap_or_else(PoisonError::into_inner);
        for path in registry.iter() {
            let _ = std::fs::remove_file(path);
        }
        // SAFETY: resetting a signal to its default action and raising it are plain libc
        // calls with valid arguments.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
        // Not reached for the signals above, whose default action ends the process.
        std::process::exit(128 + signal);
    }

    /// The file descriptor the handler writes to, for the test that it was installed.
    #[cfg(test)]
    pub fn wake_descriptor() -> i32 {
        WAKE.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rigscope-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_appears_only_when_committed_and_an_uncommitted_one_leaves_nothing() {
        let dir = folder("commit");
        let path = dir.join("a.json");
        let (partial, mut file) = PartialFile::create(&path).unwrap();
        file.write_all(b"{}").unwrap();
        assert_eq!(names(&dir), [format!(".a.json.{}.partial", std::process::id())]);
        partial.commit().unwrap();
        assert_eq!(names(&dir), ["a.json"]);
        let (partial, mut file) = PartialFile::create(&path).unwrap();
        file.write_all(b"half").unwrap();
        drop(partial);
        assert_eq!(names(&dir), ["a.json"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"{}", "the old file stays as it was");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_stays_a_link() {
        let dir = folder("link");
        std::fs::create_dir(dir.join("real")).unwrap();
        std::os::unix::fs::symlink("real/target.csv", dir.join("link.csv")).unwrap();
        std::os::unix::fs::symlink("link.csv", dir.join("link2.csv")).unwrap();
        write_file(&dir.join("link2.csv"), b"a,b\n").unwrap();
        assert_eq!(std::fs::read(dir.join("real/target.csv")).unwrap(), b"a,b\n");
        for link in ["link.csv", "link2.csv"] {
            let kind = std::fs::symlink_metadata(dir.join(link)).unwrap().file_type();
            assert!(kind.is_symlink(), "{link}");
        }
        assert_eq!(names(&dir.join("real")), ["target.csv"]);
        std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
        let error = write_file(&dir.join("loop"), b"").unwrap_err().to_string();
        assert!(error.contains("symbolic links"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_dash_is_standard_output() {
        assert!(is_standard_output(Path::new("-")));
        assert!(!is_standard_output(Path::new("./-")));
        assert_eq!(describe(Path::new("-")), "standard output");
        let (_, partial) = open(Path::new("-")).unwrap();
        assert!(partial.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn the_signal_watcher_installs_once() {
        remove_partial_files_on_signals().unwrap();
        let descriptor = signals::wake_descriptor();
        assert!(descriptor >= 0);
        remove_partial_files_on_signals().unwrap();
        assert_eq!(signals::wake_descriptor(), descriptor);
    }
}
