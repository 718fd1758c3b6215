//! Notices when the files a model was read from change on disk: once per change of their
//! content, never for a read.
//!
//! notify's watcher runs on its own thread. It watches the folders that hold the files, not
//! the files themselves: editors and exporters (Blender among them) often write a new file
//! and rename it over the old one, or delete it and write it again, which a watch on the old
//! file would not see. Events are debounced, so that a file still being written is not read
//! half-way and one export (many writes, a rename) is one change.
//!
//! An event alone does not make a change: inotify also reports opening a file, so every read
//! (rigscope's own, when it reloads, or anyone's) would otherwise reload the model, whose
//! reading would reload it again, for ever. A file counts as changed only when its `Stamp`
//! (size, modification time, inode) differs from the one last seen; then `wake` is called, so
//! that a window waiting for events looks at `take_changes`. A file that is gone (deleted, to
//! be written again) keeps its last stamp until it is back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, DebouncedEventKind, Debouncer, new_debouncer};

use crate::ui::state::reload::absolute;

/// How long a file must stay unchanged before it counts as changed.
pub const SETTLE_TIME: Duration = Duration::from_millis(250);

/// What tells one version of a file from another without reading it: a write changes the
/// modification time (nanoseconds on Linux) and usually the size; a file written anew and
/// renamed over the old one has another inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    /// The stamp of the file at `path`; none while there is no file there.
    fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Self {
            size: metadata.len(),
            modified: metadata.modified().ok(),
            inode,
        })
    }
}

/// The files being watched with their last stamps (none: absent when first watched), and
/// those that changed since the last look, shared with notify's thread.
#[derive(Default)]
struct Shared {
    files: BTreeMap<PathBuf, Option<Stamp>>,
    changed: BTreeSet<PathBuf>,
}

impl Shared {
    /// Notes that notify saw `path` settle; true when it is a watched file whose content
    /// changed.
    fn settled(&mut self, path: &Path) -> bool {
        let Some(last) = self.files.get_mut(path) else {
            return false;
        };
        let Some(now) = Stamp::of(path) else {
            // Deleted (perhaps to be written again): nothing to read yet.
            return false;
        };
        if *last == Some(now) {
            return false;
        }
        *last = Some(now);
        self.changed.insert(path.to_path_buf());
        true
    }
}

pub struct FileWatch {
    debouncer: Debouncer<RecommendedWatcher>,
    shared: Arc<Mutex<Shared>>,
    /// The folders watched now.
    folders: BTreeSet<PathBuf>,
}

impl FileWatch {
    /// Starts notify's thread; `wake` is called (on that thread) after a watched file changed.
    pub fn new(wake: impl Fn() + Send + 'static) -> anyhow::Result<Self> {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let seen = Arc::clone(&shared);
        let debouncer = new_debouncer(SETTLE_TIME, move |result: DebounceEventResult| {
            // An error from the watcher (e.g. too many inotify watches) leaves nothing to act on.
            let Ok(events) = result else { return };
            let mut shared = seen.lock().unwrap_or_else(PoisonError::into_inner);
            let mut any = false;
            for event in events {
                // A file still being written reports "continuous" events until it settles.
                if event.kind == DebouncedEventKind::Any {
                    any |= shared.settled(&event.path);
                }
            }
            drop(shared);
            if any {
                wake();
            }
        })?;
        Ok(Self {
            debouncer,
            shared,
            folders: BTreeSet::new(),
        })
    }

    /// Watches exactly `files` from now on (none: nothing). A file watched already keeps its
    /// stamp; a new one is stamped now, as the model that was just read from it. Folders that
    /// cannot be watched (gone, no permission) are skipped: watching is a convenience, never
    /// an error.
    pub fn watch(&mut self, files: &[PathBuf]) {
        let files: BTreeSet<PathBuf> = files.iter().filter_map(|f| absolute(f)).collect();
        let folders: BTreeSet<PathBuf> = files.iter().filter_map(|f| f.parent().map(Path::to_path_buf)).collect();
        let watcher = self.debouncer.watcher();
        for gone in self.folders.difference(&folders) {
            let _ = watcher.unwatch(gone);
        }
        let mut watched = BTreeSet::new();
        for folder in folders {
            if self.folders.contains(&folder) || watcher.watch(&folder, RecursiveMode::NonRecursive).is_ok() {
                watched.insert(folder);
            }
        }
        self.folders = watched;
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        shared.changed.retain(|f| files.contains(f));
        let mut stamped = std::mem::take(&mut shared.files);
        shared.files = (files.into_iter())
            .map(|file| {
                let stamp = stamped.remove(&file).unwrap_or_else(|| Stamp::of(&file));
                (file, stamp)
            })
            .collect();
    }

    /// The watched files that changed since the last call, as absolute paths.
    pub fn take_changes(&self) -> Vec<PathBuf> {
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut shared.changed).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rigscope-stamp-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        absolute(&path).unwrap()
    }

    fn watching(path: &Path) -> Shared {
        let mut shared = Shared::default();
        shared.files.insert(path.to_path_buf(), Stamp::of(path));
        shared
    }

    #[test]
    fn a_read_is_no_change_and_a_write_is_one() {
        let path = temp_file("read.glb", b"one");
        let mut shared = watching(&path);
        std::fs::read(&path).unwrap();
        assert!(!shared.settled(&path), "reading changes nothing");
        std::fs::write(&path, b"two, longer").unwrap();
        assert!(shared.settled(&path));
        assert!(!shared.settled(&path), "the same change counts once");
        assert_eq!(shared.changed.len(), 1);
        assert!(!shared.settled(&path.with_extension("bin")), "not a watched file");
    }

    #[test]
    fn a_file_deleted_and_written_again_changes_once_it_is_back() {
        let path = temp_file("resaved.glb", b"one");
        let mut shared = watching(&path);
        std::fs::remove_file(&path).unwrap();
        assert!(!shared.settled(&path), "gone: nothing to read yet");
        std::fs::write(&path, b"one").unwrap();
        assert!(shared.settled(&path), "back, as another file");
    }

    #[test]
    fn touching_a_file_is_a_change() {
        let path = temp_file("touched.glb", b"one");
        let mut shared = watching(&path);
        let later = SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(shared.settled(&path));
    }
}
