//! Keyframe tracks: the values of one animated property at a list of key times, sampled as
//! `keys` describes. Key times are shared (`Arc`) so that a clip whose channels use the same
//! timeline locates the key span once per frame for all of them (see `Clip`).

use std::sync::Arc;

use glam::{Quat, Vec3, Vec4};

use super::keys::{Interpolation, KeySpan, TrackError, hermite_basis, locate, validate_keys};
use super::quat::slerp_shortest;

/// A value a track can interpolate.
pub trait Keyframe: Copy + PartialEq {
    /// All components zero (a flat cubic-spline tangent).
    const ZERO: Self;
    fn linear(from: Self, to: Self, t: f32) -> Self;
    /// glTF's cubic Hermite: `from` and `to` are key values, `out_tangent` leaves `from`,
    /// `in_tangent` arrives at `to`, `interval` is the key spacing in seconds.
    fn cubic(from: Self, out_tangent: Self, in_tangent: Self, to: Self, t: f32, interval: f32) -> Self;
    fn is_finite(self) -> bool;
}

impl Keyframe for Vec3 {
    const ZERO: Self = Vec3::ZERO;

    #[inline]
    fn linear(from: Self, to: Self, t: f32) -> Self {
        from.lerp(to, t)
    }
    fn cubic(from: Self, out_tangent: Self, in_tangent: Self, to: Self, t: f32, interval: f32) -> Self {
        let [a, b, c, d] = hermite_basis(t, interval);
        from * a + out_tangent * b + to * c + in_tangent * d
    }
    fn is_finite(self) -> bool {
        Vec3::is_finite(self)
    }
}

impl Keyframe for Quat {
    const ZERO: Self = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);

    #[inline]
    fn linear(from: Self, to: Self, t: f32) -> Self {
        slerp_shortest(from, to, t)
    }
    fn cubic(from: Self, out_tangent: Self, in_tangent: Self, to: Self, t: f32, interval: f32) -> Self {
        let [a, b, c, d] = hermite_basis(t, interval);
        let value =
            Vec4::from(from) * a + Vec4::from(out_tangent) * b + Vec4::from(to) * c + Vec4::from(in_tangent) * d;
        // Tangents from a file can cancel the keys out; then hold the nearer key.
        match value.try_normalize() {
            Some(unit) => Quat::from_vec4(unit),
            None if t < 0.5 => from,
            None => to,
        }
    }
    fn is_finite(self) -> bool {
        Quat::is_finite(self)
    }
}

/// One animated property (translation, rotation or scale) of one joint.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    interpolation: Interpolation,
    times: Arc<[f32]>,
    /// One value per key, or `[in-tangent, value, out-tangent]` per key for cubic splines.
    values: Vec<T>,
}

impl<T: Keyframe> Track<T> {
    pub fn new(interpolation: Interpolation, times: impl Into<Arc<[f32]>>, values: Vec<T>) -> Result<Self, TrackError> {
        let times = times.into();
        validate_keys(&times, interpolation, 1, &values, |v| v.is_finite())?;
        Ok(Self {
            interpolation,
            times,
            values,
        })
    }

    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    pub fn times(&self) -> &Arc<[f32]> {
        &self.times
    }

    /// Replaces the key times with an equal, shared copy.
    pub(crate) fn share_times(&mut self, times: &Arc<[f32]>) {
        debug_assert_eq!(*self.times, **times);
        self.times = times.clone();
    }

    /// Keeps only the first key when every key holds the same value (and, for cubic splines,
    /// every tangent is zero): sampling then costs one comparison. The value at every time is
    /// unchanged.
    pub(crate) fn drop_redundant_keys(&mut self) {
        let per_key = self.interpolation.values_per_key();
        let first = self.value(0);
        let constant = self.values.chunks(per_key).all(|key| match self.interpolation {
            Interpolation::CubicSpline => key[1] == first && key[0] == T::ZERO && key[2] == T::ZERO,
            _ => key[0] == first,
        });
        if constant && self.times.len() > 1 {
            self.times = Arc::from(&self.times[..1]);
            self.values.truncate(per_key);
        }
    }

    pub fn end_time(&self) -> f32 {
        self.times[self.times.len() - 1]
    }

    /// The same keys with every value mapped by `value` and every cubic-spline tangent by
    /// `tangent`. Sampling the result equals mapping the samples when `value` is affine and
    /// `tangent` its linear part (for rotations: a constant unit-quaternion product). Fails
    /// when a mapped value is not finite.
    pub fn map_keys(&self, value: impl Fn(T) -> T, tangent: impl Fn(T) -> T) -> Result<Self, TrackError> {
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let values = (self.values.iter().enumerate())
            .map(|(i, &v)| if cubic && i % 3 != 1 { tangent(v) } else { value(v) })
            .collect();
        Self::new(self.interpolation, self.times.clone(), values)
    }

    /// The stored values: one per key, or `[in-tangent, value, out-tangent]` per key for cubic
    /// splines (tangents in units per second). What clip edits copy keys from.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The value of each key, in time order (without cubic-spline tangents).
    pub fn key_values(&self) -> impl Iterator<Item = T> + '_ {
        (0..self.times.len()).map(|key| self.value(key))
    }

    #[inline]
    fn value(&self, key: usize) -> T {
        match self.interpolation {
            Interpolation::CubicSpline => self.values[key * 3 + 1],
            _ => self.values[key],
        }
    }

    /// The track's value at `time` seconds.
    #[inline]
    pub fn sample(&self, time: f32, cursor: &mut u32) -> T {
        self.sample_span(locate(&self.times, time, cursor))
    }

    /// The track's value in a key span found by `locate` on this track's times.
    #[inline]
    pub fn sample_span(&self, span: KeySpan) -> T {
        match span {
            KeySpan::Clamped(key) => self.value(key),
            KeySpan::Between { index, t, interval } => match self.interpolation {
                Interpolation::Step => self.values[index],
                Interpolation::Linear => T::linear(self.values[index], self.values[index + 1], t),
                Interpolation::CubicSpline => {
                    let from = index * 3;
                    let to = from + 3;
                    T::cubic(
                        self.values[from + 1],
                        self.values[from + 2],
                        self.values[to],
                        self.values[to + 1],
                        t,
                        interval,
                    )
                }
            },
        }
    }
}

impl Track<glam::Vec3> {
    /// The track of one component (0: x) as a track of one weight, keys and tangents alike.
    pub fn component(&self, axis: usize) -> Result<WeightsTrack, TrackError> {
        let values = self.values.iter().map(|v| v[axis]).collect();
        WeightsTrack::new(self.interpolation, self.times.clone(), 1, values)
    }
}

impl Track<glam::Quat> {
    /// The track as a track of four weights (x, y, z, w), keys and tangents alike.
    pub fn components(&self) -> Result<WeightsTrack, TrackError> {
        let values = self.values.iter().flat_map(|q| q.to_array()).collect();
        WeightsTrack::new(self.interpolation, self.times.clone(), 4, values)
    }
}

/// Morph-target weights: `width` weights per key (one per target), interpolated like vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsTrack {
    interpolation: Interpolation,
    times: Arc<[f32]>,
    width: usize,
    /// `width` weights per value; cubic splines store in-tangents, values and out-tangents.
    values: Vec<f32>,
}

impl WeightsTrack {
    pub fn new(
        interpolation: Interpolation,
        times: impl Into<Arc<[f32]>>,
        width: usize,
        values: Vec<f32>,
    ) -> Result<Self, TrackError> {
        let times = times.into();
        validate_keys(&times, interpolation, width, &values, |v| v.is_finite())?;
        Ok(Self {
            interpolation,
            times,
            width,
            values,
        })
    }

    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn times(&self) -> &Arc<[f32]> {
        &self.times
    }

    /// Replaces the key times with an equal, shared copy.
    pub(crate) fn share_times(&mut self, times: &Arc<[f32]>) {
        debug_assert_eq!(*self.times, **times);
        self.times = times.clone();
    }

    pub fn end_time(&self) -> f32 {
        self.times[self.times.len() - 1]
    }

    /// The same keys with `offset(i)` added to weight `i` of every key value (cubic-spline
    /// tangents unchanged), so that sampling the result gives the samples plus the offsets.
    /// Fails when a sum is not finite.
    pub fn offset_keys(&self, offset: impl Fn(usize) -> f32) -> Result<Self, TrackError> {
        let cubic = self.interpolation == Interpolation::CubicSpline;
        // `values` is empty when `width` is 0.
        let width = self.width.max(1);
        let values = (self.values.iter().enumerate())
            .map(|(i, &v)| {
                if cubic && (i / width) % 3 != 1 {
                    v
                } else {
                    v + offset(i % width)
                }
            })
            .collect();
        Self::new(self.interpolation, self.times.clone(), self.width, values)
    }

    /// The stored weights: `width` per value, one value per key, or `[in-tangent, value,
    /// out-tangent]` per key for cubic splines. What clip edits copy keys from.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    fn key(&self, value_index: usize) -> &[f32] {
        &self.values[value_index * self.width..(value_index + 1) * self.width]
    }

    /// Writes the weights at `time` into `out` (`width` entries).
    pub fn sample_into(&self, time: f32, cursor: &mut u32, out: &mut [f32]) {
        self.sample_span_into(locate(&self.times, time, cursor), out);
    }

    /// Writes the weights in a key span found by `locate` on this track's times into `out`.
    pub fn sample_span_into(&self, span: KeySpan, out: &mut [f32]) {
        let per_key = self.interpolation.values_per_key();
        let middle = per_key / 2;
        match span {
            KeySpan::Clamped(key) => out.copy_from_slice(self.key(key * per_key + middle)),
            KeySpan::Between { index, t, interval } => match self.interpolation {
                Interpolation::Step => out.copy_from_slice(self.key(index)),
                Interpolation::Linear => {
                    let (from, to) = (self.key(index), self.key(index + 1));
                    for ((o, a), b) in out.iter_mut().zip(from).zip(to) {
                        *o = a + (b - a) * t;
                    }
                }
                Interpolation::CubicSpline => {
                    let [a, b, c, d] = hermite_basis(t, interval);
                    let (from, out_tangent) = (self.key(index * 3 + 1), self.key(index * 3 + 2));
                    let (in_tangent, to) = (self.key(index * 3 + 3), self.key(index * 3 + 4));
                    for (i, o) in out.iter_mut().enumerate() {
                        *o = from[i] * a + out_tangent[i] * b + to[i] * c + in_tangent[i] * d;
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vec_track(interpolation: Interpolation, values: Vec<Vec3>) -> Track<Vec3> {
        let keys = values.len() / interpolation.values_per_key();
        Track::new(interpolation, (0..keys).map(|k| k as f32).collect::<Vec<_>>(), values).unwrap()
    }

    #[test]
    fn clamps_outside_the_keys() {
        let track = vec_track(Interpolation::Linear, vec![Vec3::X, Vec3::Y]);
        let mut cursor = 0;
        assert_eq!(track.sample(-5.0, &mut cursor), Vec3::X);
        assert_eq!(track.sample(7.0, &mut cursor), Vec3::Y);
        assert_eq!(track.sample(f32::NAN, &mut cursor), Vec3::X);
    }

    #[test]
    fn step_holds_until_the_next_key() {
        let track = vec_track(Interpolation::Step, vec![Vec3::X, Vec3::Y, Vec3::Z]);
        let mut cursor = 0;
        assert_eq!(track.sample(0.99, &mut cursor), Vec3::X);
        assert_eq!(track.sample(1.0, &mut cursor), Vec3::Y);
        assert_eq!(track.sample(1.5, &mut cursor), Vec3::Y);
    }

    #[test]
    fn linear_interpolates_between_keys() {
        let track = vec_track(Interpolation::Linear, vec![Vec3::ZERO, Vec3::splat(2.0), Vec3::ZERO]);
        let mut cursor = 0;
        assert!(track.sample(0.25, &mut cursor).abs_diff_eq(Vec3::splat(0.5), 1e-6));
        assert!(track.sample(1.5, &mut cursor).abs_diff_eq(Vec3::splat(1.0), 1e-6));
    }

    #[test]
    fn linear_rotation_takes_the_shortest_arc() {
        let a = Quat::from_rotation_y(0.2);
        let b = -Quat::from_rotation_y(0.6);
        let track = Track::new(Interpolation::Linear, vec![0.0, 1.0], vec![a, b]).unwrap();
        let middle = track.sample(0.5, &mut 0);
        let expected = Quat::from_rotation_y(0.4);
        assert!(middle.dot(expected).abs() > 1.0 - 1e-6, "{middle} vs {expected}");
    }

    #[test]
    fn cubic_spline_scales_tangents_by_the_key_interval() {
        // Keys 2 s apart, value 0 → 1, out-tangent 1 per second, in-tangent 0.
        let values = vec![
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::ONE, // key 0: in, value, out
            Vec3::ZERO,
            Vec3::ONE,
            Vec3::ZERO, // key 1: in, value, out
        ];
        let track = Track::new(Interpolation::CubicSpline, vec![0.0, 2.0], values).unwrap();
        let s: f32 = 0.25;
        let expected = 2.0 * (s.powi(3) - 2.0 * s * s + s) + (-2.0 * s.powi(3) + 3.0 * s * s);
        let sampled = track.sample(0.5, &mut 0);
        assert!((sampled.x - expected).abs() < 1e-6, "{sampled} vs {expected}");
        assert_eq!(
            track.sample(2.0, &mut 0),
            Vec3::ONE,
            "the last key's value, not a tangent"
        );
    }

    #[test]
    fn cubic_rotations_come_out_normalised() {
        let q = Quat::from_rotation_x(1.0);
        let t = Quat::from_xyzw(0.3, 0.0, 0.0, 0.0);
        let track = Track::new(
            Interpolation::CubicSpline,
            vec![0.0, 1.0],
            vec![t, Quat::IDENTITY, t, t, q, t],
        )
        .unwrap();
        assert!((track.sample(0.3, &mut 0).length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn only_truly_constant_tracks_lose_keys() {
        let q = Quat::from_rotation_x(0.5);
        let identity_tangents = vec![Quat::IDENTITY, q, Quat::IDENTITY, Quat::IDENTITY, q, Quat::IDENTITY];
        let mut curved = Track::new(Interpolation::CubicSpline, vec![0.0, 1.0], identity_tangents).unwrap();
        let before = curved.sample(0.5, &mut 0);
        curved.drop_redundant_keys();
        assert_eq!(
            curved.times().len(),
            2,
            "non-zero tangents bend the curve between equal keys"
        );
        assert_eq!(curved.sample(0.5, &mut 0), before);

        let zero = Quat::ZERO;
        let mut flat = Track::new(
            Interpolation::CubicSpline,
            vec![0.0, 1.0],
            vec![zero, q, zero, zero, q, zero],
        )
        .unwrap();
        flat.drop_redundant_keys();
        assert_eq!(flat.times().len(), 1);
        assert_eq!(flat.sample(0.5, &mut 0), q);
    }

    #[test]
    fn cubic_rotation_that_cancels_out_holds_the_nearer_key() {
        // Keys q and -q with flat tangents: the Hermite sum is exactly zero half-way.
        let (q, zero) = (Quat::from_rotation_x(0.5), Quat::ZERO);
        let track = Track::new(
            Interpolation::CubicSpline,
            vec![0.0, 1.0],
            vec![zero, q, zero, zero, -q, zero],
        )
        .unwrap();
        assert_eq!(track.sample(0.5, &mut 0), -q);
        assert!((track.sample(0.49, &mut 0).length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn cursor_gives_the_same_answer_as_a_fresh_search() {
        let times: Vec<f32> = (0..50).map(|k| k as f32 * 0.1).collect();
        let values: Vec<Vec3> = (0..50).map(|k| Vec3::splat((k * k) as f32)).collect();
        let track = Track::new(Interpolation::Linear, times, values).unwrap();
        let mut cursor = 0;
        let probe_times = [0.05, 0.07, 0.19, 0.31, 2.5, 0.01, 4.85, 4.9, 1.0, 1.0, 3.33];
        for time in probe_times {
            let fresh = track.sample(time, &mut 0);
            assert_eq!(track.sample(time, &mut cursor), fresh, "at {time}");
        }
    }

    #[test]
    fn rejects_bad_tracks() {
        assert_eq!(
            Track::<Vec3>::new(Interpolation::Linear, vec![], vec![]),
            Err(TrackError::NoKeys)
        );
        assert_eq!(
            Track::new(Interpolation::Linear, vec![0.0, 1.0, 0.5], vec![Vec3::ZERO; 3]),
            Err(TrackError::TimesDecrease { key: 2 })
        );
        assert_eq!(
            Track::new(Interpolation::CubicSpline, vec![0.0, 1.0], vec![Vec3::ZERO; 2]),
            Err(TrackError::ValueCount { expected: 6, found: 2 })
        );
        assert_eq!(
            Track::new(Interpolation::Step, vec![0.0], vec![Vec3::NAN]),
            Err(TrackError::ValueNotFinite { value: 0 })
        );
    }

    #[test]
    fn weights_interpolate_every_target() {
        let track = WeightsTrack::new(Interpolation::Linear, vec![0.0, 1.0], 2, vec![0.0, 1.0, 1.0, 0.0]).unwrap();
        let mut out = [0.0; 2];
        track.sample_into(0.25, &mut 0, &mut out);
        assert_eq!(out, [0.25, 0.75]);
        track.sample_into(3.0, &mut 0, &mut out);
        assert_eq!(out, [1.0, 0.0]);
    }
}
