//! Time limits that hold on a busy machine. A debug build under parallel tests, or a CI machine
//! shared with other jobs, runs everything several times slower than a quiet one, so a fixed
//! limit fails by chance. `scaled` stretches a limit by how much slower than a quiet machine
//! this one is right now, timing a fixed piece of CPU work under the same load as the work the
//! test limits. What the limits catch (work unbounded by a file's size) is thousands of times
//! slower, not a few.

use std::time::{Duration, Instant};

/// Steps of the calibration work.
const CALIBRATION_STEPS: u64 = 20_000_000;
/// How long the calibration takes on a quiet machine (measured on the 2-core development
/// machine: 21.9 ms at best, in this test profile).
const QUIET_CALIBRATION: Duration = Duration::from_millis(20);

/// A dependent chain of multiplications the optimiser cannot skip.
fn calibration_work() -> u64 {
    let mut state = 1u64;
    for step in 0..CALIBRATION_STEPS {
        state = std::hint::black_box(state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(step));
    }
    state
}

/// How many times slower than a quiet machine this one runs now (at least 1): the median of
/// three timings of the calibration work.
pub fn slowdown() -> f64 {
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(calibration_work());
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[1].as_secs_f64() / QUIET_CALIBRATION.as_secs_f64()).max(1.0)
}

/// `limit` (right for a quiet machine) stretched by the machine's `slowdown` now.
pub fn scaled(limit: Duration) -> Duration {
    limit.mul_f64(slowdown())
}

/// Whether `elapsed` is within `limit` as `scaled` stretches it; the calibration runs only
/// when `elapsed` is over `limit` itself, so that a quick check stays quick.
pub fn within(elapsed: Duration, limit: Duration) -> bool {
    elapsed < limit || elapsed < scaled(limit)
}
