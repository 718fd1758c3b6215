//! Work done on a few threads, its results taken one at a time in the order the work was
//! listed: the caller hands each on (a GPU upload) while the workers make the next ones, and
//! while the result it waits for is not ready it makes the next one it may start itself rather
//! than wait idle. What is held at once stays bounded: a job starts only while fewer than
//! `Bound::held` are running or waiting to be taken, and only while their costs (the memory they
//! will hold) fit a budget; a job runs alone when it alone is over it.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

/// How many threads work, how many jobs may be held at once, and how much they may cost
/// together.
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    /// Worker threads besides the caller's (at least one).
    pub workers: usize,
    /// How many jobs may be running or waiting to be taken at once (at least one): neither a
    /// worker nor the caller starts one beyond it. `workers + 1` leaves the caller one to help
    /// with; where every result is kept anyway, it need not bound anything.
    pub held: usize,
    /// What the jobs running or waiting may cost together (their memory, say); one job
    /// always may start when no other is held.
    pub budget: u64,
}

/// The jobs' progress, shared by the workers and the caller taking results.
struct State<R> {
    /// The first job no worker has started.
    next_job: usize,
    /// The first job whose result the caller has not taken.
    next_taken: usize,
    /// Each job's result once finished, until taken (a panic carried to the caller).
    results: Vec<Option<thread::Result<R>>>,
    /// The costs of the jobs started and not yet taken.
    cost_held: u64,
    /// The caller takes no more: the workers stop.
    abandoned: bool,
}

/// The state and its signal to waiting threads: a result finished or taken.
struct Shared<R> {
    state: Mutex<State<R>>,
    changed: Condvar,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        // A panic is never raised with the lock held (jobs run outside it).
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State<R>>) -> MutexGuard<'a, State<R>> {
        self.changed
            .wait(state)
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The results of `map`'s jobs, taken in their order.
pub struct Results<'s, R> {
    shared: &'s Shared<R>,
    costs: &'s [u64],
    bound: Bound,
    /// Job `i`'s work, for the caller to do while it waits.
    work: &'s (dyn Fn(usize) -> R + Sync),
}

impl<R> Results<'_, R> {
    /// The index of the job whose result `next` gives; None once all are taken.
    pub fn upcoming(&self) -> Option<usize> {
        let next = self.shared.lock().next_taken;
        (next < self.costs.len()).then_some(next)
    }
}

impl<R> Iterator for Results<'_, R> {
    type Item = (usize, R);

    /// The next job's index and result, making later ones while it is not ready (or making it,
    /// where no worker has started it); None once all are taken. A job that panicked panics here.
    fn next(&mut self) -> Option<(usize, R)> {
        let mut state = self.shared.lock();
        let index = state.next_taken;
        if index == self.costs.len() {
            return None;
        }
        let result = loop {
            if let Some(result) = state.results[index].take() {
                break result;
            }
            match claim(&mut state, self.costs, self.bound) {
                Some(job) => {
                    drop(state);
                    let result = panic::catch_unwind(AssertUnwindSafe(|| (self.work)(job)));
                    state = self.shared.lock();
                    state.results[job] = Some(result);
                }
                None => state = self.shared.wait(state),
            }
        };
        state.next_taken += 1;
        state.cost_held -= self.costs[index];
        drop(state);
        self.shared.changed.notify_all();
        match result {
            Ok(result) => Some((index, result)),
            Err(panic) => panic::resume_unwind(panic),
        }
    }
}

impl<R> Drop for Results<'_, R> {
    /// The caller is done (or unwinding): workers start nothing more, so the scope can end.
    fn drop(&mut self) {
        self.shared.lock().abandoned = true;
        self.shared.changed.notify_all();
    }
}

/// Runs `work` on each of `items` on `bound.workers` threads (at least one) and on the caller's
/// while it waits, `costs[i]` being what item `i`'s result holds, while `take` takes the
/// results in the items' order; what `take` returns. Jobs start in order; once `take` returns,
/// no further job starts (those the workers have started run to their end).
pub fn map<T: Sync, R: Send, Out>(
    items: &[T],
    costs: &[u64],
    bound: Bound,
    work: impl Fn(&T) -> R + Sync,
    take: impl FnOnce(Results<'_, R>) -> Out,
) -> Out {
    assert_eq!(items.len(), costs.len(), "one cost per item");
    let shared = Shared {
        state: Mutex::new(State {
            next_job: 0,
            next_taken: 0,
            results: items.iter().map(|_| None).collect(),
            cost_held: 0,
            abandoned: false,
        }),
        changed: Condvar::new(),
    };
    let bound = Bound {
        held: bound.held.max(1),
        ..bound
    };
    let work = |index: usize| work(&items[index]);
    thread::scope(|scope| {
        for _ in 0..bound.workers.max(1).min(items.len()) {
            scope.spawn(|| {
                while let Some(index) = start_next(&shared, costs, bound) {
                    let result = panic::catch_unwind(AssertUnwindSafe(|| work(index)));
                    shared.lock().results[index] = Some(result);
                    shared.changed.notify_all();
                }
            });
        }
        take(Results {
            shared: &shared,
            costs,
            bound,
            work: &work,
        })
    })
}

/// Waits until the next job may start within `bound` and claims it; None once there is none
/// left or the caller is done.
fn start_next<R>(shared: &Shared<R>, costs: &[u64], bound: Bound) -> Option<usize> {
    let mut state = shared.lock();
    loop {
        if state.abandoned || state.next_job == costs.len() {
            return None;
        }
        if let Some(index) = claim(&mut state, costs, bound) {
            return Some(index);
        }
        state = shared.wait(state);
    }
}

/// Claims the next job where it may start within `bound` now. The job the caller waits for can
/// always start: every job before it has been taken, so none is held.
fn claim<R>(state: &mut State<R>, costs: &[u64], bound: Bound) -> Option<usize> {
    let index = state.next_job;
    if state.abandoned || index == costs.len() {
        return None;
    }
    let held = index - state.next_taken;
    let fits = held == 0 || (held < bound.held && state.cost_held + costs[index] <= bound.budget);
    fits.then(|| {
        state.next_job += 1;
        state.cost_held += costs[index];
        index
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// Counts the results alive (made and not yet dropped) and their costs, and the most of each.
    #[derive(Default)]
    struct Live {
        count: AtomicUsize,
        most: AtomicUsize,
        cost: AtomicU64,
        most_cost: AtomicU64,
    }

    /// A result that counts itself in `Live` from its job's start to its drop.
    struct Counted<'a> {
        live: &'a Live,
        cost: u64,
        index: usize,
    }

    impl<'a> Counted<'a> {
        fn new(live: &'a Live, cost: u64, index: usize) -> Self {
            let count = live.count.fetch_add(1, Ordering::SeqCst) + 1;
            live.most.fetch_max(count, Ordering::SeqCst);
            let cost_now = live.cost.fetch_add(cost, Ordering::SeqCst) + cost;
            live.most_cost.fetch_max(cost_now, Ordering::SeqCst);
            // Jobs of uneven length, so later ones often finish first.
            thread::sleep(Duration::from_millis(if index.is_multiple_of(3) { 6 } else { 1 }));
            Self { live, cost, index }
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.live.count.fetch_sub(1, Ordering::SeqCst);
            self.live.cost.fetch_sub(self.cost, Ordering::SeqCst);
        }
    }

    #[test]
    fn results_come_in_the_items_order_whatever_the_workers() {
        let items: Vec<u32> = (0..40).collect();
        let costs = vec![1; items.len()];
        for workers in [1, 2, 4] {
            let bound = Bound {
                workers,
                held: workers + 1,
                budget: 100,
            };
            let taken = map(
                &items,
                &costs,
                bound,
                |&item| item * 10,
                |mut results| {
                    let mut taken = Vec::new();
                    while let Some((index, result)) = results.next() {
                        assert_eq!(results.upcoming(), (index + 1 < items.len()).then_some(index + 1));
                        taken.push((index, result));
                    }
                    taken
                },
            );
            let expected: Vec<(usize, u32)> = (0..40).map(|i| (i as usize, i * 10)).collect();
            assert_eq!(taken, expected, "{workers} workers");
        }
    }

    #[test]
    fn no_more_than_one_result_per_worker_and_the_one_taken_is_held_within_the_budget() {
        let live = Live::default();
        // Two jobs cost the whole budget: never held together; the small ones share it.
        let costs: Vec<u64> = (0..30).map(|i| if i % 5 == 0 { 64 } else { 8 }).collect();
        let items: Vec<usize> = (0..costs.len()).collect();
        let bound = Bound {
            workers: 3,
            held: 3,
            budget: 64,
        };
        map(
            &items,
            &costs,
            bound,
            |&index| Counted::new(&live, costs[index], index),
            |mut results| {
                while let Some((index, counted)) = results.next() {
                    assert_eq!(counted.index, index);
                    // The caller holds the result a while (an upload) before taking the next.
                    thread::sleep(Duration::from_millis(2));
                }
            },
        );
        assert_eq!(live.count.load(Ordering::SeqCst), 0, "every result dropped");
        let most = live.most.load(Ordering::SeqCst);
        assert!(most <= bound.held + 1, "{most} results held at once");
        assert!(most > 1, "the workers ran side by side");
        // The budget bounds the jobs running or waiting; the result the caller took comes on top.
        let most_cost = live.most_cost.load(Ordering::SeqCst);
        assert!(most_cost <= bound.budget + 64, "{most_cost} held at once");
    }

    #[test]
    fn a_job_over_the_budget_runs_alone() {
        let (running, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let costs = vec![100; 6];
        let items: Vec<usize> = (0..costs.len()).collect();
        let bound = Bound {
            workers: 4,
            held: 4,
            budget: 64,
        };
        let work = |_: &usize| {
            most.fetch_max(running.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(2));
            running.fetch_sub(1, Ordering::SeqCst);
        };
        let taken = map(&items, &costs, bound, work, |mut results| {
            let mut taken = 0;
            while results.next().is_some() {
                taken += 1;
            }
            taken
        });
        assert_eq!(taken, items.len());
        // The next starts only once the one before is taken: never two at once.
        assert_eq!(most.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn results_left_untaken_stop_the_workers() {
        let started = AtomicUsize::new(0);
        let items: Vec<usize> = (0..50).collect();
        let costs = vec![1; items.len()];
        let bound = Bound {
            workers: 2,
            held: 2,
            budget: 100,
        };
        let first = map(
            &items,
            &costs,
            bound,
            |&item| {
                started.fetch_add(1, Ordering::SeqCst);
                item
            },
            |mut results| results.next(),
        );
        assert_eq!(first, Some((0, 0)));
        assert!(
            started.load(Ordering::SeqCst) <= 1 + bound.held,
            "jobs ran past the one taken"
        );
    }

    #[test]
    #[should_panic(expected = "job 3 failed")]
    fn a_panicking_job_panics_where_its_result_is_taken() {
        let items: Vec<usize> = (0..6).collect();
        let costs = vec![1; items.len()];
        let bound = Bound {
            workers: 2,
            held: 3,
            budget: 100,
        };
        map(
            &items,
            &costs,
            bound,
            |&item| {
                assert_ne!(item, 3, "job 3 failed");
                item
            },
            |mut results| while results.next().is_some() {},
        );
    }

    #[test]
    fn the_caller_makes_later_results_while_the_one_it_waits_for_is_made() {
        let caller = thread::current().id();
        let items: Vec<usize> = (0..8).collect();
        let costs = vec![1; items.len()];
        let bound = Bound {
            workers: 1,
            held: 2,
            budget: 100,
        };
        let first_started = std::sync::atomic::AtomicBool::new(false);
        let work = |&item: &usize| {
            // The first job is slow: the caller, waiting for it, makes the next ones.
            first_started.fetch_or(item == 0, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(if item == 0 { 40 } else { 1 }));
            (item, thread::current().id() == caller)
        };
        let taken: Vec<(usize, bool)> = map(&items, &costs, bound, work, |results| {
            // The worker has the first job: what the caller makes comes after it.
            while !first_started.load(Ordering::SeqCst) {
                thread::yield_now();
            }
            results.map(|(_, r)| r).collect()
        });
        assert_eq!(
            taken.iter().map(|&(item, _)| item).collect::<Vec<_>>(),
            items,
            "in order"
        );
        assert!(
            taken.iter().any(|&(item, by_caller)| by_caller && item > 0),
            "{taken:?}"
        );
    }

    #[test]
    fn a_slow_job_holds_up_no_worker_where_any_number_of_results_may_wait() {
        let finished = AtomicUsize::new(0);
        let items: Vec<usize> = (0..12).collect();
        let costs = vec![0; items.len()];
        let bound = Bound {
            workers: 2,
            held: usize::MAX,
            budget: u64::MAX,
        };
        let work = |&item: &usize| {
            if item == 0 {
                // Waits (a while at most) for every other job: they run meanwhile.
                let start = std::time::Instant::now();
                while finished.load(Ordering::SeqCst) < items.len() - 1 && start.elapsed() < Duration::from_secs(5) {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            finished.fetch_add(1, Ordering::SeqCst)
        };
        let first = map(&items, &costs, bound, work, |mut results| results.next());
        assert_eq!(first, Some((0, items.len() - 1)), "the slow job finished last");
    }
}
