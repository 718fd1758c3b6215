//! Dropping keys from one track while every dropped key stays within a tolerance of what the
//! kept keys give at its time: Ramer–Douglas–Peucker on the track's own values, as
//! ozz-animation's `AnimationOptimizer` does.
//!
//! The first and last keys are always kept, and so are both keys of a jump (two keys at one
//! time). "Within" is a length for vectors, the angle of the rotation between the two (radians)
//! for rotations, and the largest difference of one weight for weights.
//!
//! - LINEAR: between two kept keys, the key farthest from what interpolating the two gives at its
//!   time is kept when it is farther than the tolerance, and the two halves are examined the same
//!   way. The kept keys are some of the original's, so the difference between the two tracks is
//!   linear between the original's keys and largest at one of them (for rotations nearly so:
//!   slerp is not linear): checking the keys checks the whole track.
//! - STEP: a kept key holds its value until the next, so a key is dropped when its value lies
//!   within the tolerance of the kept key before it (one pass, the fewest keys): a step change
//!   larger than the tolerance always keeps its key.
//! - CUBICSPLINE tracks are left as they are (`decimated_*` returns `None`): dropping a key of a
//!   spline changes the curve on both sides of it, and its tangents would have to be fitted again.

use glam::{Quat, Vec3, Vec4};

use super::keys::Interpolation;
use super::track::{Keyframe, Track, WeightsTrack};

/// Which keys a track keeps, and the work list that finds them: kept between tracks so that
/// decimating a clip allocates only its output.
#[derive(Default)]
pub(super) struct Decimation {
    keep: Vec<bool>,
    /// Spans `(first, last)` of kept keys whose keys between are still to be examined.
    spans: Vec<(usize, usize)>,
}

impl Decimation {
    /// Marks the keys of a track keyed at `times` to keep (see the module docs), where
    /// `error(a, b, k)` says how far key `k` lies from what keys `a` and `b` alone give at its
    /// time (for STEP, `b` is `k`), and returns the marks.
    fn mark(
        &mut self,
        times: &[f32],
        interpolation: Interpolation,
        tolerance: f32,
        error: impl Fn(usize, usize, usize) -> f32,
    ) -> &[bool] {
        let count = times.len();
        self.keep.clear();
        self.keep.resize(count, false);
        self.keep[0] = true;
        self.keep[count - 1] = true;
        for key in 1..count {
            if times[key] == times[key - 1] {
                self.keep[key - 1] = true;
                self.keep[key] = true;
            }
        }
        if interpolation == Interpolation::Step {
            let mut held = 0;
            for key in 1..count {
                if self.keep[key] || error(held, key, key) > tolerance {
                    self.keep[key] = true;
                    held = key;
                }
            }
            return &self.keep;
        }
        self.spans.clear();
        let mut first = 0;
        for key in 1..count {
            if self.keep[key] {
                if key - first > 1 {
                    self.spans.push((first, key));
                }
                first = key;
            }
        }
        while let Some((first, last)) = self.spans.pop() {
            let (farthest, distance) = ((first + 1)..last).map(|key| (key, error(first, last, key))).fold(
                (first, f32::NEG_INFINITY),
                |far, next| if next.1 > far.1 { next } else { far },
            );
            // NaN never is: the values are finite, and so are their distances.
            if distance > tolerance {
                self.keep[farthest] = true;
                if farthest - first > 1 {
                    self.spans.push((first, farthest));
                }
                if last - farthest > 1 {
                    self.spans.push((farthest, last));
                }
            }
        }
        &self.keep
    }

    /// The track with only the keys `mark` keeps, each dropped key within `tolerance` of the
    /// result as `distance` measures it; `None` for a cubic spline (kept as it is).
    fn decimated<T: Keyframe>(
        &mut self,
        track: &Track<T>,
        tolerance: f32,
        distance: impl Fn(T, T) -> f32,
    ) -> Option<Track<T>> {
        let (interpolation, times, values) = (track.interpolation(), track.times(), track.values());
        if interpolation == Interpolation::CubicSpline {
            return None;
        }
        let error = |first: usize, last: usize, key: usize| {
            let between = match interpolation {
                Interpolation::Step => values[first],
                _ => T::linear(values[first], values[last], fraction(times, first, last, key)),
            };
            distance(between, values[key])
        };
        let keep = self.mark(times, interpolation, tolerance, error);
        let (kept_times, kept_values) = (kept(times, keep), kept(values, keep));
        // A subset of valid keys is valid.
        Track::new(interpolation, kept_times, kept_values).ok()
    }

    /// The translation or scale track without the keys that lie within `tolerance` (a length)
    /// of the rest; `None` for a cubic spline.
    pub(super) fn decimated_vectors(&mut self, track: &Track<Vec3>, tolerance: f32) -> Option<Track<Vec3>> {
        self.decimated(track, tolerance, Vec3::distance)
    }

    /// The rotation track without the keys that lie within `tolerance` (radians) of the rest;
    /// `None` for a cubic spline.
    pub(super) fn decimated_rotations(&mut self, track: &Track<Quat>, tolerance: f32) -> Option<Track<Quat>> {
        self.decimated(track, tolerance, rotation_angle)
    }

    /// The weights track without the keys whose every weight lies within `tolerance` of the
    /// rest; `None` for a cubic spline.
    pub(super) fn decimated_weights(&mut self, track: &WeightsTrack, tolerance: f32) -> Option<WeightsTrack> {
        let (interpolation, times, values, width) =
            (track.interpolation(), track.times(), track.values(), track.width());
        if interpolation == Interpolation::CubicSpline {
            return None;
        }
        let key = |index: usize| &values[index * width..(index + 1) * width];
        let error = |first: usize, last: usize, index: usize| {
            let t = match interpolation {
                Interpolation::Step => 0.0,
                _ => fraction(times, first, last, index),
            };
            let (from, to, value) = (key(first), key(last), key(index));
            (0..width)
                .map(|i| (from[i] + (to[i] - from[i]) * t - value[i]).abs())
                .fold(0.0, f32::max)
        };
        let keep = self.mark(times, interpolation, tolerance, error);
        let kept_times = kept(times, keep);
        let mut kept_values = Vec::with_capacity(kept_times.len() * width);
        for (index, _) in keep.iter().enumerate().filter(|(_, keep)| **keep) {
            kept_values.extend_from_slice(key(index));
        }
        WeightsTrack::new(interpolation, kept_times, width, kept_values).ok()
    }
}

/// Where key `key`'s time falls between keys `first` and `last` (which are at different times),
/// from 0 to 1.
fn fraction(times: &[f32], first: usize, last: usize, key: usize) -> f32 {
    (times[key] - times[first]) / (times[last] - times[first])
}

/// The angle (radians) of the rotation from `a` to `b`, unit quaternions of either sign. Taken
/// from the chord and the sum rather than the dot product, whose arc cosine cannot tell angles
/// below about 0.03° from zero in `f32`.
pub(super) fn rotation_angle(a: Quat, b: Quat) -> f32 {
    let (a, mut b) = (Vec4::from(a), Vec4::from(b));
    if a.dot(b) < 0.0 {
        b = -b;
    }
    4.0 * (a - b).length().atan2((a + b).length())
}

/// The items whose `keep` is set, in order.
fn kept<T: Copy>(items: &[T], keep: &[bool]) -> Vec<T> {
    items
        .iter()
        .zip(keep)
        .filter(|(_, keep)| **keep)
        .map(|(item, _)| *item)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times(count: usize) -> Vec<f32> {
        (0..count).map(|k| k as f32 / 10.0).collect()
    }

    fn key_times<T: Keyframe>(track: &Track<T>) -> Vec<f32> {
        track.times().to_vec()
    }

    #[test]
    fn the_rotation_angle_is_exact_for_tiny_angles_and_either_sign() {
        let a = Quat::from_rotation_y(0.3);
        for angle in [1e-6f32, 1e-4, 0.01, 1.0, 3.0] {
            let b = Quat::from_rotation_y(0.3 + angle);
            assert!((rotation_angle(a, b) - angle).abs() < 1e-6 + angle * 1e-4, "{angle}");
            assert!((rotation_angle(a, -b) - angle).abs() < 1e-6 + angle * 1e-4, "{angle}");
        }
    }

    #[test]
    fn keys_on_a_line_are_dropped_and_corners_kept() {
        let values: Vec<Vec3> = [0.0, 1.0, 2.0, 3.0, 2.0, 1.0].iter().map(|&x| Vec3::splat(x)).collect();
        let track = Track::new(Interpolation::Linear, times(6), values).unwrap();
        // On the line within float rounding.
        let decimated = Decimation::default().decimated_vectors(&track, 1e-6).unwrap();
        assert_eq!(key_times(&decimated), [0.0, 0.3, 0.5]);
    }

    #[test]
    fn step_changes_larger_than_the_tolerance_keep_their_keys() {
        let values: Vec<Vec3> = [0.0, 0.0, 0.00005, 1.0, 1.0, 1.002]
            .iter()
            .map(|&x| Vec3::new(x, 0.0, 0.0))
            .collect();
        let track = Track::new(Interpolation::Step, times(6), values).unwrap();
        let decimated = Decimation::default().decimated_vectors(&track, 0.001).unwrap();
        assert_eq!(decimated.interpolation(), Interpolation::Step);
        assert_eq!(
            key_times(&decimated),
            [0.0, 0.3, 0.5],
            "the step to 1 and the last key stay"
        );
        // The farthest key from the first is key 5, but the step is at key 3: one kept key per step.
        let values = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0005, 1.0, 0.0]
            .iter()
            .map(|&x| Vec3::new(x, 0.0, 0.0))
            .collect();
        let track = Track::new(Interpolation::Step, times(8), values).unwrap();
        let decimated = Decimation::default().decimated_vectors(&track, 0.001).unwrap();
        assert_eq!(key_times(&decimated), [0.0, 0.3, 0.7]);
    }

    #[test]
    fn both_keys_of_a_jump_are_kept() {
        let times = vec![0.0, 0.5, 0.5, 1.0];
        let values = vec![Vec3::ZERO, Vec3::ZERO, Vec3::ONE, Vec3::ONE];
        let track = Track::new(Interpolation::Linear, times.clone(), values).unwrap();
        let decimated = Decimation::default().decimated_vectors(&track, 10.0).unwrap();
        assert_eq!(key_times(&decimated), times);
    }

    #[test]
    fn rotations_on_one_arc_reduce_to_its_ends() {
        let rotations = (0..11).map(|k| Quat::from_rotation_z(k as f32 * 0.1)).collect();
        let track = Track::new(Interpolation::Linear, times(11), rotations).unwrap();
        let decimated = Decimation::default().decimated_rotations(&track, 1e-5).unwrap();
        assert_eq!(key_times(&decimated), [0.0, 1.0]);
    }

    #[test]
    fn weights_keep_the_keys_where_any_weight_strays() {
        // Weight 0 is a line, weight 1 bends at key 2.
        let values = vec![0.0, 0.0, 0.1, 0.25, 0.2, 0.5, 0.3, 0.45, 0.4, 0.4];
        let track = WeightsTrack::new(Interpolation::Linear, times(5), 2, values).unwrap();
        let decimated = Decimation::default().decimated_weights(&track, 0.01).unwrap();
        assert_eq!(decimated.times().to_vec(), [0.0, 0.2, 0.4]);
        assert_eq!(decimated.values(), [0.0, 0.0, 0.2, 0.5, 0.4, 0.4]);
    }

    #[test]
    fn cubic_splines_are_left_alone() {
        let values = vec![Vec3::ZERO; 9];
        let track = Track::new(Interpolation::CubicSpline, times(3), values).unwrap();
        assert!(Decimation::default().decimated_vectors(&track, 1.0).is_none());
    }
}
