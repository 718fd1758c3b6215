//! Key times and how a time maps onto them, shared by every kind of track.
//!
//! Interpolation follows glTF 2.0 (§3.11 and Appendix C):
//! - STEP holds each key's value until the next key.
//! - LINEAR interpolates vectors linearly and rotations by slerp along the shortest arc.
//! - CUBICSPLINE is a cubic Hermite spline whose tangents are stored per key as
//!   `[in-tangent, value, out-tangent]`; tangents are scaled by the key interval and rotations
//!   are normalised after interpolation.
//! - Before the first key a track holds the first value, after the last key the last value.
//!
//! `locate` takes a cursor, the index of the key span found last time: forward playback then
//! finds its span in one or two comparisons instead of a binary search.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    Step,
    Linear,
    CubicSpline,
}

impl Interpolation {
    /// Values stored per key: cubic splines keep an in- and an out-tangent beside the value.
    pub fn values_per_key(self) -> usize {
        match self {
            Interpolation::CubicSpline => 3,
            _ => 1,
        }
    }

    /// The name glTF uses.
    pub fn name(self) -> &'static str {
        match self {
            Interpolation::Step => "STEP",
            Interpolation::Linear => "LINEAR",
            Interpolation::CubicSpline => "CUBICSPLINE",
        }
    }
}

/// Why keys cannot make a track.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrackError {
    #[error("the track has no keys")]
    NoKeys,
    #[error("key {key} has a time that is not a finite number")]
    TimeNotFinite { key: usize },
    #[error("key {key} comes earlier than the key before it")]
    TimesDecrease { key: usize },
    #[error("the track has {found} values where its keys need {expected}")]
    ValueCount { expected: usize, found: usize },
    #[error("value {value} is not a finite number")]
    ValueNotFinite { value: usize },
}

/// Weights of (from, out-tangent, to, in-tangent) in glTF's cubic spline at fraction `t` of a
/// key interval `interval` seconds long.
#[inline]
pub fn hermite_basis(t: f32, interval: f32) -> [f32; 4] {
    let t2 = t * t;
    let t3 = t2 * t;
    [
        2.0 * t3 - 3.0 * t2 + 1.0,
        interval * (t3 - 2.0 * t2 + t),
        -2.0 * t3 + 3.0 * t2,
        interval * (t3 - t2),
    ]
}

/// Where a time falls among a track's keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeySpan {
    /// Before the first key, after the last, or on a track with one key.
    Clamped(usize),
    /// Between key `index` and `index + 1`, at fraction `t` of an `interval`-second span.
    Between { index: usize, t: f32, interval: f32 },
}

/// Finds the key span containing `time`. `cursor` is the span found last time; forward
/// playback usually stays in it or moves to the next, so those are tried before a binary
/// search. `times` must be non-empty and non-decreasing.
#[inline]
pub fn locate(times: &[f32], time: f32, cursor: &mut u32) -> KeySpan {
    let last = times.len() - 1;
    if last == 0 || time <= times[0] || time.is_nan() {
        return KeySpan::Clamped(0);
    }
    if time >= times[last] {
        return KeySpan::Clamped(last);
    }
    let mut index = (*cursor as usize).min(last - 1);
    if times[index] > time {
        index = times[..index].partition_point(|&key| key <= time) - 1;
    } else if times[index + 1] <= time {
        index += 1;
        if times[index + 1] <= time {
            index += times[index + 1..last].partition_point(|&key| key <= time);
        }
    }
    *cursor = index as u32;
    let interval = times[index + 1] - times[index];
    let t = if interval > 0.0 {
        (time - times[index]) / interval
    } else {
        0.0
    };
    KeySpan::Between { index, t, interval }
}

/// Checks what every track kind needs: keys exist, are finite and never go back in time, and
/// there are `width` finite values per key (three times that for cubic splines).
pub(super) fn validate_keys<V>(
    times: &[f32],
    interpolation: Interpolation,
    width: usize,
    values: &[V],
    is_finite: impl Fn(&V) -> bool,
) -> Result<(), TrackError> {
    if times.is_empty() {
        return Err(TrackError::NoKeys);
    }
    for (key, time) in times.iter().enumerate() {
        if !time.is_finite() {
            return Err(TrackError::TimeNotFinite { key });
        }
        if key > 0 && *time < times[key - 1] {
            return Err(TrackError::TimesDecrease { key });
        }
    }
    let expected = times.len() * interpolation.values_per_key() * width;
    if values.len() != expected {
        return Err(TrackError::ValueCount {
            expected,
            found: values.len(),
        });
    }
    match values.iter().position(|v| !is_finite(v)) {
        Some(value) => Err(TrackError::ValueNotFinite { value }),
        None => Ok(()),
    }
}
