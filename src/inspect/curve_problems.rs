//! Problems an animator looks for on a joint's curves, found on the curves of `CurveSet`.
//!
//! - **Sign flip**: two consecutive rotation keys `q[k]`, `q[k+1]` with `q[k]·q[k+1] < 0`.
//!   glTF's slerp takes the shortest path, so rigscope plays them right, but engines that
//!   interpolate components (or skip the shortest-path test) spin the long way round. Marked
//!   on `quaternion.w` at key `k+1`.
//! - **Pop**: on a translation, rotation, scale or weight channel with more than `MIN_SPANS`
//!   keys, let `d[i]` be the change over span `i` (`|v[i+1] − v[i]|` per component, the angle
//!   between the two key rotations for rotations, so Euler swings near gimbal lock do not count)
//!   and `r[i] = d[i] / max(t[i+1] − t[i], T)` its rate, where `T` is the median key interval
//!   (so a long gap between keys may change more, and keys at the same time count as one usual
//!   interval). A span *moves* when `d[i]` is more than the group's noise floor (`noise`).
//!   The usual rate `U` is the median rate of the moving spans when at least `MIN_SPANS`
//!   spans move, else 0 (a curve that holds still but for a jump). A moving span pops when
//!   `r[i] > POP_RATIO · U` and either it is more than `POP_RATIO` times the rate of both
//!   neighbouring spans (a jump in one span), or it and a neighbour go out to a single stray
//!   key and back (a component changes sign; a rotation's key `i+2` is nearer key `i` than
//!   half the smaller span's angle), both more than `POP_RATIO` times as fast as the spans on
//!   either side of the pair. A fast gesture moves fast over several spans in a row, so it
//!   does not pop. Marked at the later key (for rotations, on the Euler curve that changes
//!   most over the span).
//! - **Open seam**: the curve's value at the clip's end differs from its value at 0, so a
//!   looping clip jumps where it wraps. For translation, scale and weights: by more than the
//!   noise floor and more than `SEAM_SHARE` of the curve's range. For rotations: the
//!   rotations at 0 and at the end are more than `SEAM_DEGREES` apart; marked at the end on
//!   the Euler curve that differs most.

use glam::Quat;
use serde::Serialize;

use super::curve::{Curve, CurveGroup};
use super::curve_pops::{KeyChanges, Pop, find_pops};
use crate::anim::{ChannelTrack, Clip};

/// A seam is open when its gap is more than this share of the curve's range.
pub const SEAM_SHARE: f32 = 0.01;
/// A rotation seam is open when the two ends are more than this many degrees apart.
pub const SEAM_DEGREES: f32 = 0.5;

/// Changes smaller than this are float noise, per group (scene units, degrees, weights).
fn noise(group: CurveGroup) -> f32 {
    match group {
        CurveGroup::Translation | CurveGroup::Scale => 1e-4,
        CurveGroup::Rotation => 0.05,
        CurveGroup::Quaternion | CurveGroup::Weights | CurveGroup::Properties | CurveGroup::RootMotion => 1e-3,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    SignFlip,
    Pop,
    OpenSeam,
}

impl ProblemKind {
    pub fn label(self) -> &'static str {
        match self {
            ProblemKind::SignFlip => "sign flip",
            ProblemKind::Pop => "pop",
            ProblemKind::OpenSeam => "open loop seam",
        }
    }
}

/// A problem, marked at `time` on the curve named `curve` (whose value there is `value`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    pub kind: ProblemKind,
    pub curve: String,
    pub time: f32,
    pub value: f32,
    pub message: String,
}

/// The problems of `joint`'s channels in `clip`, whose curves sampled at `times` are `curves`.
pub fn find_problems(clip: &Clip, joint: usize, times: &[f32], curves: &[Curve]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for channel in clip.channels().iter().filter(|c| c.joint == joint) {
        if let ChannelTrack::Rotation(track) = &channel.track {
            let keys: Vec<Quat> = track.key_values().collect();
            sign_flips(track.times(), &keys, curves, &mut problems);
            rotation_pops(track.times(), &keys, curves, &mut problems);
            rotation_seam(curves, times, &mut problems);
        }
    }
    // Animated properties (colours, lights, ...) are not motion: no pops or seams there.
    let vectors = [CurveGroup::Translation, CurveGroup::Scale, CurveGroup::Weights];
    for curve in curves.iter().filter(|c| vectors.contains(&c.group)) {
        vector_pops(curve, &mut problems);
        vector_seam(curve, times, &mut problems);
    }
    problems
}

fn sign_flips(times: &[f32], keys: &[Quat], curves: &[Curve], problems: &mut Vec<Problem>) {
    let w = curves.iter().find(|c| c.name == "quaternion.w");
    for (k, pair) in keys.windows(2).enumerate() {
        let dot = pair[0].dot(pair[1]);
        if dot >= 0.0 {
            continue;
        }
        let time = times.get(k + 1).copied().unwrap_or_default();
        let value = w.and_then(|w| w.keys.get(k + 1)).map_or(pair[1].w, |key| key.value);
        problems.push(Problem {
            kind: ProblemKind::SignFlip,
            curve: "quaternion.w".into(),
            time,
            value,
            message: format!(
                "rotation keys {k} and {} (at {:.3} s and {time:.3} s) have opposite signs (dot {dot:.3}): \
                 engines that do not take the shortest path spin the long way",
                k + 1,
                times.get(k).copied().unwrap_or_default()
            ),
        });
    }
}

/// Pops of a translation, scale or weight curve, compared component by component.
fn vector_pops(curve: &Curve, problems: &mut Vec<Problem>) {
    let times: Vec<f32> = curve.keys.iter().map(|k| k.time).collect();
    let deltas: Vec<f32> = curve.keys.windows(2).map(|k| k[1].value - k[0].value).collect();
    let keys = KeyChanges {
        times: &times,
        changes: deltas.iter().map(|d| d.abs()).collect(),
        returns: deltas.windows(2).map(|d| d[0] * d[1] < 0.0).collect(),
        noise: noise(curve.group),
    };
    for pop in find_pops(&keys) {
        let (from, to) = (curve.keys[pop.span], curve.keys[pop.span + 1]);
        let what = format!("{} jumps by {:.4}", curve.name, pop.change);
        problems.push(pop_problem(&pop, what, (from.time, to.time), curve, to.value));
    }
}

/// Pops of a rotation, compared by the angle between keys (so Euler angles near gimbal lock,
/// which swing while the rotation barely moves, do not pop); marked on the Euler curve that
/// changes most over the span.
fn rotation_pops(times: &[f32], rotations: &[Quat], curves: &[Curve], problems: &mut Vec<Problem>) {
    let degrees = |a: Quat, b: Quat| a.angle_between(b).to_degrees();
    let changes: Vec<f32> = rotations.windows(2).map(|q| degrees(q[0], q[1])).collect();
    let returns = rotations
        .windows(3)
        .zip(changes.windows(2))
        .map(|(q, c)| degrees(q[0], q[2]) < 0.5 * c[0].min(c[1]))
        .collect();
    let keys = KeyChanges {
        times,
        changes,
        returns,
        noise: noise(CurveGroup::Rotation),
    };
    let euler: Vec<&Curve> = curves.iter().filter(|c| c.group == CurveGroup::Rotation).collect();
    for pop in find_pops(&keys) {
        let change = |curve: &&Curve| match (curve.keys.get(pop.span), curve.keys.get(pop.span + 1)) {
            (Some(a), Some(b)) => (b.value - a.value).abs(),
            _ => 0.0,
        };
        let Some(curve) = euler.iter().max_by(|a, b| change(a).total_cmp(&change(b))) else {
            continue;
        };
        let (Some(&from), Some(&to)) = (times.get(pop.span), curve.keys.get(pop.span + 1)) else {
            continue;
        };
        let what = format!("the rotation turns by {:.2}°", pop.change);
        problems.push(pop_problem(&pop, what, (from, to.time), curve, to.value));
    }
}

fn pop_problem(pop: &Pop, what: String, (from, to): (f32, f32), curve: &Curve, value: f32) -> Problem {
    let compared = match pop.ratio {
        Some(ratio) => format!("{ratio:.0} times as fast as it usually changes between keys"),
        None => "where it otherwise holds still".to_owned(),
    };
    Problem {
        kind: ProblemKind::Pop,
        curve: curve.name.clone(),
        time: to,
        value,
        message: format!("{what} between the keys at {from:.3} s and {to:.3} s, {compared}"),
    }
}

fn vector_seam(curve: &Curve, times: &[f32], problems: &mut Vec<Problem>) {
    let (Some(&first), Some(&last), Some(&end)) = (curve.values.first(), curve.values.last(), times.last()) else {
        return;
    };
    let (low, high) = curve
        .values
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    let gap = (last - first).abs();
    if gap > noise(curve.group) && gap > SEAM_SHARE * (high - low) {
        problems.push(Problem {
            kind: ProblemKind::OpenSeam,
            curve: curve.name.clone(),
            time: end,
            value: last,
            message: format!(
                "{} ends at {last:.4} but starts at {first:.4}: looping jumps by {gap:.4}",
                curve.name
            ),
        });
    }
}

/// The rotation's ends, compared as rotations (the Euler curves may differ by whole turns).
fn rotation_seam(curves: &[Curve], times: &[f32], problems: &mut Vec<Problem>) {
    let component = |name: &str, at_end: bool| {
        let values = &curves.iter().find(|c| c.name == name)?.values;
        if at_end {
            values.last().copied()
        } else {
            values.first().copied()
        }
    };
    let quat = |at_end: bool| -> Option<Quat> {
        let [x, y, z, w] = ["x", "y", "z", "w"].map(|axis| component(&format!("quaternion.{axis}"), at_end));
        Some(Quat::from_xyzw(x?, y?, z?, w?))
    };
    let (Some(start), Some(end)) = (quat(false), quat(true)) else {
        return;
    };
    let degrees = start.angle_between(end).to_degrees();
    if degrees <= SEAM_DEGREES {
        return;
    }
    // The Euler curve with the largest gap, measured modulo whole turns.
    fn wrapped_gap(curve: &Curve) -> Option<(f32, &Curve)> {
        let (first, last) = (curve.values.first().copied()?, curve.values.last().copied()?);
        let gap = (last - first).rem_euclid(360.0);
        Some((gap.min(360.0 - gap), curve))
    }
    let euler = curves.iter().filter(|c| c.group == CurveGroup::Rotation);
    let Some((_, curve)) = euler.filter_map(wrapped_gap).max_by(|a, b| a.0.total_cmp(&b.0)) else {
        return;
    };
    let (Some(&value), Some(&time)) = (curve.values.last(), times.last()) else {
        return;
    };
    problems.push(Problem {
        kind: ProblemKind::OpenSeam,
        curve: curve.name.clone(),
        time,
        value,
        message: format!("the rotation ends {degrees:.2}° away from where it starts: looping jumps"),
    });
}

#[cfg(test)]
mod tests {
    use std::f32::consts::TAU;
    use std::sync::Arc;

    use glam::{Quat, Vec3};

    use super::*;
    use crate::anim::{Channel, Hierarchy, Interpolation, Pose, Track, Transform};
    use crate::inspect::CurveSet;

    const KEYS: usize = 31;

    fn key_time(key: usize) -> f32 {
        key as f32 / 30.0
    }

    /// One second keyed at 30 fps: a sway in X and a turn about Y, one whole period, so the
    /// loop closes; `edit` changes the keys first.
    fn clip(edit: impl FnOnce(&mut [Vec3], &mut [Quat])) -> Clip {
        let phase = |key: usize| (key as f32 / (KEYS - 1) as f32 * TAU).sin();
        let mut translations: Vec<Vec3> = (0..KEYS).map(|k| Vec3::new(phase(k), 1.0, 0.0)).collect();
        let mut rotations: Vec<Quat> = (0..KEYS).map(|k| Quat::from_rotation_y(0.5 * phase(k))).collect();
        edit(&mut translations, &mut rotations);
        let times: Vec<f32> = (0..KEYS).map(key_time).collect();
        let channels = vec![
            Channel {
                joint: 0,
                track: ChannelTrack::Translation(
                    Track::new(Interpolation::Linear, times.clone(), translations).unwrap(),
                ),
            },
            Channel {
                joint: 0,
                track: ChannelTrack::Rotation(Track::new(Interpolation::Linear, times, rotations).unwrap()),
            },
        ];
        Clip::new("sway".into(), channels)
    }

    fn curves(clip: &Clip) -> CurveSet {
        let rest = Pose::new(
            Arc::new(Hierarchy::new(vec![None]).unwrap()),
            vec![Transform::IDENTITY],
            Vec::new(),
        )
        .unwrap();
        CurveSet::new(clip, &rest, 0)
    }

    fn of_kind(set: &CurveSet, kind: ProblemKind) -> Vec<&Problem> {
        set.problems.iter().filter(|p| p.kind == kind).collect()
    }

    #[test]
    fn a_clean_looping_clip_has_no_problems() {
        let set = curves(&clip(|_, _| {}));
        assert_eq!(set.problems, Vec::new());
    }

    #[test]
    fn a_key_with_the_opposite_sign_is_a_flip_and_nothing_else() {
        // From key 12 on the same rotations written with the other sign: plays the same.
        let set = curves(&clip(|_, rotations| rotations[12..].iter_mut().for_each(|q| *q = -*q)));
        let flips = of_kind(&set, ProblemKind::SignFlip);
        assert_eq!(flips.len(), 1, "{:?}", set.problems);
        assert_eq!(flips[0].time, key_time(12));
        assert_eq!(flips[0].curve, "quaternion.w");
        let w = set.curve("quaternion.w").unwrap();
        assert_eq!(flips[0].value, w.keys[12].value, "marked on the curve");
        assert_eq!(
            of_kind(&set, ProblemKind::Pop),
            Vec::<&Problem>::new(),
            "Euler curves stay smooth"
        );
    }

    #[test]
    fn a_stray_key_pops_on_its_curve_only() {
        let set = curves(&clip(|translations, _| translations[10].x += 2.0));
        let pops = of_kind(&set, ProblemKind::Pop);
        assert!(!pops.is_empty());
        assert!(pops.iter().all(|p| p.curve == "translation.x"), "{pops:?}");
        // Into the stray key and back out of it.
        let times: Vec<f32> = pops.iter().map(|p| p.time).collect();
        assert_eq!(times, [key_time(10), key_time(11)]);
        assert!(of_kind(&set, ProblemKind::SignFlip).is_empty());
    }

    #[test]
    fn a_fast_gesture_is_not_a_pop() {
        // Still, then a quick swing over several keys, then still again.
        let set = curves(&clip(|translations, _| {
            for (key, t) in translations.iter_mut().enumerate() {
                t.x = ((key as f32 - 12.0) / 6.0).clamp(0.0, 1.0) * 3.0 * (1.0 - key as f32 / 30.0);
            }
        }));
        assert!(of_kind(&set, ProblemKind::Pop).is_empty(), "{:?}", set.problems);
    }

    #[test]
    fn a_curve_that_holds_still_for_a_while_does_not_pop_where_it_moves() {
        // Still for the first half, then one smooth swing (as Fox's spine in its walk).
        let set = curves(&clip(|translations, _| {
            for (key, t) in translations.iter_mut().enumerate() {
                t.x = if key < 15 {
                    0.0
                } else {
                    (key as f32 - 15.0) / 15.0 * TAU
                }
                .sin();
            }
        }));
        assert!(of_kind(&set, ProblemKind::Pop).is_empty(), "{:?}", set.problems);
    }

    #[test]
    fn a_stray_key_on_a_still_curve_pops() {
        let set = curves(&clip(|translations, _| {
            translations.iter_mut().for_each(|t| t.x = 0.0);
            translations[20].x = 0.3;
        }));
        let pops = of_kind(&set, ProblemKind::Pop);
        let times: Vec<f32> = pops.iter().map(|p| p.time).collect();
        assert_eq!(times, [key_time(20), key_time(21)], "{pops:?}");
        assert!(
            pops[0].message.ends_with("where it otherwise holds still"),
            "{}",
            pops[0].message
        );
    }

    #[test]
    fn a_stray_rotation_key_pops_on_the_euler_curve_that_moves() {
        let set = curves(&clip(|_, rotations| {
            rotations[8] = Quat::from_rotation_x(0.6) * rotations[8]
        }));
        let pops = of_kind(&set, ProblemKind::Pop);
        let marked: Vec<(&str, f32)> = pops.iter().map(|p| (p.curve.as_str(), p.time)).collect();
        assert_eq!(
            marked,
            [("rotation.x", key_time(8)), ("rotation.x", key_time(9))],
            "{pops:?}"
        );
        assert!(
            pops[0].message.starts_with("the rotation turns by 34.38°"),
            "{}",
            pops[0].message
        );
    }

    #[test]
    fn a_turn_through_gimbal_lock_does_not_pop() {
        // Pitching through 90° about Y while turning about X: the Euler X and Z swing apart.
        let set = curves(&clip(|_, rotations| {
            for (key, q) in rotations.iter_mut().enumerate() {
                let t = key as f32 / 30.0;
                *q = Quat::from_rotation_y(1.2 + 0.8 * t) * Quat::from_rotation_x(0.4 * t);
            }
        }));
        assert!(of_kind(&set, ProblemKind::Pop).is_empty(), "{:?}", set.problems);
    }

    #[test]
    fn a_gap_between_keys_may_change_more_without_popping() {
        // A steady ramp keyed every frame, with frames 11 to 15 left out.
        let times: Vec<f32> = (0..20).filter(|k| !(11..16).contains(k)).map(key_time).collect();
        let values = times.iter().map(|&t| Vec3::new(t, 0.0, 0.0)).collect();
        let track = Track::new(Interpolation::Linear, times, values).unwrap();
        let clip = Clip::new(
            "ramp".into(),
            vec![Channel {
                joint: 0,
                track: ChannelTrack::Translation(track),
            }],
        );
        let set = curves(&clip);
        assert!(of_kind(&set, ProblemKind::Pop).is_empty(), "{:?}", set.problems);
        assert_eq!(of_kind(&set, ProblemKind::OpenSeam).len(), 1, "a ramp does not loop");
    }

    #[test]
    fn ends_that_differ_leave_the_seam_open() {
        let set = curves(&clip(|translations, rotations| {
            translations[KEYS - 1].z = 0.5;
            rotations[KEYS - 1] = Quat::from_rotation_x(0.3);
        }));
        let seams = of_kind(&set, ProblemKind::OpenSeam);
        let curves: Vec<&str> = seams.iter().map(|p| p.curve.as_str()).collect();
        assert_eq!(curves, ["rotation.x", "translation.z"], "{seams:?}");
        assert!(seams.iter().all(|p| p.time == 1.0));
        assert!(seams[0].message.contains("17.19°"), "{}", seams[0].message);
    }
}
