//! At what frame rate a clip was keyed: the timeline's frame numbers and the step of "one
//! frame".
//!
//! Exporters key at a frame rate (24, 30, 60 fps…) but glTF stores only seconds, and
//! hand-keyed clips leave gaps between keys. The key rate is therefore, in this order:
//! the rate of the most common interval between keys (in whole frames per second) when it
//! is at least `MIN_KEYED_RATE` and every key falls on one of its frames (a clip baked at 15
//! fps, as MD5 files often are, steps at 15); else the first of the usual film, video and
//! game rates at which every key falls on a whole frame (hand-keyed clips with gaps); else
//! the most common interval's rate (keys from a simulation). A clip with fewer than two key
//! times has no rate of its own and gets `DEFAULT_KEY_RATE`. An array that several channels
//! share is read once for each of them.

/// Frames per second of a clip whose keys say nothing about their rate.
pub const DEFAULT_KEY_RATE: f32 = 30.0;

/// Common rates, most usual first: the first that fits every key wins, so keys one second
/// apart read as 30 fps rather than 1 fps, and keys at 1/60 s as 60 fps.
const USUAL_RATES: [f32; 9] = [30.0, 24.0, 25.0, 60.0, 50.0, 48.0, 120.0, 100.0, 240.0];

/// How far from a whole frame (in frames) a key may sit and still be on it (f32 seconds
/// round key times by far less than this).
const ON_FRAME: f32 = 0.01;

/// Below this, keys that far apart are gaps in a clip keyed at a faster rate, not its rate.
const MIN_KEYED_RATE: f32 = 10.0;

/// Fastest rate the fallback reports.
const MAX_RATE: usize = 1000;

/// The frame rate keys at `time_arrays` (each channel's key times) were made at, in frames per
/// second (see the module docs), from every key: `Clip::key_rate` keeps it for its clip.
/// Allocates nothing.
pub(super) fn measure_key_rate<'a>(time_arrays: impl Iterator<Item = &'a [f32]> + Clone) -> f32 {
    let Some(common) = most_common_interval_rate(time_arrays.clone()) else {
        return DEFAULT_KEY_RATE;
    };
    let on_frames = |rate: f32| {
        time_arrays.clone().all(|times| {
            times.iter().all(|&t| {
                let frame = t * rate;
                (frame - frame.round()).abs() <= ON_FRAME
            })
        })
    };
    if common >= MIN_KEYED_RATE && on_frames(common) {
        return common;
    }
    USUAL_RATES.into_iter().find(|&rate| on_frames(rate)).unwrap_or(common)
}

/// The rate of the most common interval between keys, in whole frames per second (the
/// slower of two equally common); none without two key times.
fn most_common_interval_rate<'a>(time_arrays: impl Iterator<Item = &'a [f32]>) -> Option<f32> {
    let mut votes = [0u32; MAX_RATE + 1];
    for times in time_arrays {
        for pair in times.windows(2) {
            let interval = pair[1] - pair[0];
            if interval > 0.0 {
                let rate = (1.0 / interval).round().clamp(1.0, MAX_RATE as f32) as usize;
                votes[rate] += 1;
            }
        }
    }
    let (rate, &count) = votes
        .iter()
        .enumerate()
        .max_by_key(|&(rate, &count)| (count, std::cmp::Reverse(rate)))?;
    (count > 0).then_some(rate as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key rate of channels keyed at `arrays`.
    fn rate(arrays: &[&[f32]]) -> f32 {
        measure_key_rate(arrays.iter().copied())
    }

    fn frames(count: usize, rate: f32) -> Vec<f32> {
        (0..count).map(|f| f as f32 / rate).collect()
    }

    #[test]
    fn the_key_rate_is_the_usual_rate_every_key_falls_on() {
        for fps in [24.0, 25.0, 30.0, 60.0] {
            assert_eq!(rate(&[&frames(50, fps)]), fps);
        }
        // Hand-keyed at frames 0, 7, 19 and 40 of 24 fps.
        assert_eq!(rate(&[&[0.0, 7.0 / 24.0, 19.0 / 24.0, 40.0 / 24.0]]), 24.0);
        // Baked at 15 or 12 fps (as MD5 files often are): 15 and 12, not 30 and 24.
        for fps in [15.0, 12.0] {
            assert_eq!(rate(&[&frames(20, fps)]), fps);
        }
        // Keys a second apart: 30 fps, not 1 fps.
        assert_eq!(rate(&[&[0.0, 1.0, 2.0]]), 30.0);
        // Channels at 24 and 12 fps: 24 fits both.
        assert_eq!(rate(&[&frames(10, 24.0), &frames(6, 12.0)]), 24.0);
    }

    #[test]
    fn an_unusual_rate_is_the_most_common_interval() {
        // 17 fps keys with one odd key (an exporter's end key): 17 fps.
        let mut times = frames(30, 17.0);
        times.push(times[29] + 0.013);
        assert_eq!(rate(&[&times]), 17.0);
    }

    #[test]
    fn a_clip_without_two_keys_gets_the_default_rate() {
        assert_eq!(rate(&[]), DEFAULT_KEY_RATE);
        assert_eq!(rate(&[&[0.4]]), DEFAULT_KEY_RATE);
    }
}
