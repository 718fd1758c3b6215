//! Notices when the files a model was read from change on disk.
//!
//! notify's watcher runs on its own thread. It watches the folders that hold the files, not
//! the files themselves: editors and exporters (Blender among them) often write a new file
//! and rename it over the old one, which a watch on the old file would not see. Events are
//! debounced, so that a file still being written is not read half-way and one export (many
//! writes, a rename) is one change; then `wake` is called, so that a window waiting for events
//! looks at `take_changes`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, DebouncedEventKind, Debouncer, new_debouncer};

use crate::ui::state::reload::absolute;

/// How long a file must stay unchanged before it counts as changed.
pub const SETTLE_TIME: Duration = Duration::from_millis(250);

/// The files being watched and those that changed since the last look, shared with notify's
/// thread.
#[derive(Default)]
struct Shared {
    files: BTreeSet<PathBuf>,
    changed: BTreeSet<PathBuf>,
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
                if event.kind == DebouncedEventKind::Any && shared.files.contains(&event.path) {
                    shared.changed.insert(event.path);
                    any = true;
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

    /// Watches exactly `files` from now on (none: nothing). Folders that cannot be watched
    /// (gone, no permission) are skipped: watching is a convenience, never an error.
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
        shared.files = files;
    }

    /// The watched files that changed since the last call, as absolute paths.
    pub fn take_changes(&self) -> Vec<PathBuf> {
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut shared.changed).into_iter().collect()
    }
}
