//! A fixed pool of threads that CPU skinning splits big primitives over, and a crowd its
//! instances.
//!
//! Why not rayon or `std::thread::scope`: spawning threads allocates, and rayon's global pool
//! allocates a queue block every 63 jobs handed to it from outside the pool (the frame loop's
//! thread), so neither keeps the frame loop allocation-free. This pool starts its threads once
//! (on first use, one fewer than the machine's cores: the caller is the last worker) and then
//! only locks, waits and wakes: no allocation per call.
//!
//! A call hands out task indices `0..count` from an atomic counter, so threads that finish
//! early take more (chunks of a mesh differ in cost with their influence counts). When the
//! pool is already running another caller's tasks, the new caller runs its own inline rather
//! than wait (so calls never deadlock and never block each other).

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread;

/// A call's task as the background threads hold it (see `Call::task`).
type Task = dyn Fn(usize) + Sync + 'static;

/// The pool: `threads() - 1` background threads plus the calling thread.
pub struct Workers {
    shared: Arc<Shared>,
    background: usize,
    /// Held for a whole call: one caller at a time uses the background threads.
    busy: Mutex<()>,
}

struct Shared {
    call: Mutex<Call>,
    /// Signalled when a call starts (background threads wait on it).
    started: Condvar,
    /// Signalled when the last background thread leaves a call (the caller waits on it).
    finished: Condvar,
    next_index: AtomicUsize,
}

#[derive(Default)]
struct Call {
    /// Bumped per call, so a thread joins each call once.
    generation: u64,
    /// The call's task, lifetime erased: valid until `running` drops to zero (see `for_each`).
    task: Option<&'static Task>,
    count: usize,
    /// Background threads still inside the current call.
    running: usize,
    panicked: bool,
    /// Set when the pool is dropped: background threads end.
    closing: bool,
}

thread_local! {
    static IS_WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the calling thread is a background thread of some pool: lets a counting
/// allocator (tests/steady_state.rs) charge the pool's allocations to the frame that made them.
#[cfg(any(test, feature = "internals"))]
pub fn is_worker_thread() -> bool {
    IS_WORKER.try_with(|is| is.get()).unwrap_or(false)
}

/// The pool every deformer shares, started on first use with one thread per core.
pub fn global() -> &'static Workers {
    static POOL: OnceLock<Workers> = OnceLock::new();
    POOL.get_or_init(|| Workers::new(thread::available_parallelism().map_or(1, |n| n.get())))
}

impl Workers {
    /// A pool of `threads` threads in all, counting the caller (so `threads - 1` are started).
    pub fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared {
            call: Mutex::new(Call::default()),
            started: Condvar::new(),
            finished: Condvar::new(),
            next_index: AtomicUsize::new(0),
        });
        // A thread the system refuses is left out: the others and the caller run every task.
        let background = (1..threads)
            .filter(|index| {
                let shared = Arc::clone(&shared);
                thread::Builder::new()
                    .name(format!("rigscope-skin-{index}"))
                    .spawn(move || shared.serve())
                    .is_ok()
            })
            .count();
        Self {
            shared,
            background,
            busy: Mutex::new(()),
        }
    }

    /// How many threads a call can use, the caller's included.
    pub fn threads(&self) -> usize {
        self.background + 1
    }

    /// Runs `each` on every item of `items` (chunks of outputs, say), the pool's threads and
    /// the calling thread each taking the next item until none are left.
    pub fn for_each_item<I>(&self, items: I, each: &(dyn Fn(I::Item) + Sync))
    where
        I: Iterator + Send,
        I::Item: Send,
    {
        let items = Mutex::new(items);
        let next = || lock(&items).next();
        self.for_each(self.threads(), &|_| {
            while let Some(item) = next() {
                each(item);
            }
        });
    }

    /// Runs `task(i)` for every `i` in `0..count`, spread over the pool and the calling
    /// thread, and returns when all have run. A panic in a task is raised again here.
    pub fn for_each(&self, count: usize, task: &(dyn Fn(usize) + Sync)) {
        let guard = match self.busy.try_lock() {
            Ok(guard) if self.background > 0 && count > 1 => guard,
            _ => return (0..count).for_each(task),
        };
        // SAFETY: the erased borrow is stored in `call.task` only until every background
        // thread has left this call (`running == 0`, awaited below even when a task panics),
        // and is cleared before this function returns, so it never outlives `task`.
        let erased: &'static Task = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static Task>(task) };
        self.shared.next_index.store(0, Ordering::Relaxed);
        {
            let mut call = lock(&self.shared.call);
            call.generation += 1;
            call.task = Some(erased);
            call.count = count;
            call.running = self.background;
            call.panicked = false;
        }
        self.shared.started.notify_all();
        let own = catch_unwind(AssertUnwindSafe(|| self.shared.take_tasks(task, count)));
        let mut call = lock(&self.shared.call);
        while call.running > 0 {
            call = self.shared.finished.wait(call).unwrap_or_else(|e| e.into_inner());
        }
        call.task = None;
        let panicked = call.panicked;
        drop(call);
        drop(guard);
        if let Err(payload) = own {
            resume_unwind(payload);
        }
        assert!(!panicked, "a skinning task panicked on a worker thread");
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        let mut call = lock(&self.shared.call);
        call.closing = true;
        call.generation += 1;
        drop(call);
        self.shared.started.notify_all();
    }
}

impl Shared {
    /// A background thread's life: wait for a call, take its tasks, report, repeat.
    fn serve(&self) {
        IS_WORKER.with(|is| is.set(true));
        let mut seen = 0;
        loop {
            let (task, count) = {
                let mut call = lock(&self.call);
                while call.generation == seen {
                    call = self.started.wait(call).unwrap_or_else(|e| e.into_inner());
                }
                seen = call.generation;
                if call.closing {
                    return;
                }
                match call.task {
                    Some(task) => (task, call.count),
                    None => continue,
                }
            };
            let result = catch_unwind(AssertUnwindSafe(|| self.take_tasks(task, count)));
            let mut call = lock(&self.call);
            call.panicked |= result.is_err();
            call.running -= 1;
            if call.running == 0 {
                self.finished.notify_one();
            }
        }
    }

    /// Runs tasks until the call's indices run out.
    fn take_tasks(&self, task: &(dyn Fn(usize) + Sync), count: usize) {
        loop {
            let index = self.next_index.fetch_add(1, Ordering::Relaxed);
            if index >= count {
                return;
            }
            task(index);
        }
    }
}

/// Locks `mutex`, going on past a panic elsewhere (the state stays consistent: every field is
/// written under the lock in one step).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn runs_every_task_once() {
        let workers = Workers::new(3);
        assert_eq!(workers.threads(), 3);
        for count in [0, 1, 2, 7, 100] {
            let runs: Vec<AtomicU32> = (0..count).map(|_| AtomicU32::new(0)).collect();
            workers.for_each(count, &|i| {
                runs[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1), "{count} tasks");
        }
    }

    #[test]
    fn uses_the_background_threads() {
        let workers = Workers::new(2);
        let caller = thread::current().id();
        let elsewhere = AtomicU32::new(0);
        // Enough slow tasks that the background thread wakes and takes some.
        workers.for_each(64, &|_| {
            thread::sleep(std::time::Duration::from_millis(1));
            if thread::current().id() != caller {
                elsewhere.fetch_add(1, Ordering::Relaxed);
            }
        });
        assert!(elsewhere.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn a_panicking_task_panics_the_caller_and_the_pool_goes_on() {
        let workers = Workers::new(2);
        let result = catch_unwind(AssertUnwindSafe(|| {
            workers.for_each(16, &|i| {
                thread::sleep(std::time::Duration::from_millis(1));
                assert!(i != 5, "task 5 fails");
            })
        }));
        assert!(result.is_err());
        let runs = AtomicU32::new(0);
        workers.for_each(16, &|_| {
            runs.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(runs.load(Ordering::Relaxed), 16);
    }
}
