//! The root motion as curves over a clip, beside a joint's own in the curve view and
//! `rigscope curves`: the travel's speed over the ground (m/s) and the heading (degrees).

use super::travel::RootMotion;
use crate::inspect::{Curve, CurveGroup};

/// `root`'s speed and heading at `times` (clip seconds), each between the samples around it;
/// the speed of a stretch between two samples counts from its end.
pub fn root_motion_curves(root: &RootMotion, times: &[f32]) -> [Curve; 2] {
    let speeds: Vec<f32> = (0..root.times.len())
        .map(|i| {
            let (from, to) = if i == 0 { (0, 1) } else { (i - 1, i) };
            match (root.times.get(from), root.times.get(to)) {
                (Some(&t0), Some(&t1)) if t1 > t0 => root.travel[from].distance(root.travel[to]) / (t1 - t0),
                _ => 0.0,
            }
        })
        .collect();
    let curve = |name: &str, values: &[f32]| Curve {
        name: name.into(),
        group: CurveGroup::RootMotion,
        interpolation: "LINEAR",
        values: times.iter().map(|&t| between(&root.times, values, t)).collect(),
        keys: Vec::new(),
    };
    [curve("speed", &speeds), curve("heading", &root.heading)]
}

/// `values` (one per time of `times`, ascending) at `time`, linearly between its neighbours.
fn between(times: &[f32], values: &[f32], time: f32) -> f32 {
    let after = times.partition_point(|&t| t < time);
    match (after.checked_sub(1), times.get(after)) {
        (Some(before), Some(&t1)) => {
            let t0 = times[before];
            let share = if t1 > t0 { (time - t0) / (t1 - t0) } else { 0.0 };
            values[before] + (values[after] - values[before]) * share
        }
        (None, _) => values.first().copied().unwrap_or(0.0),
        (Some(_), None) => values.last().copied().unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::analyse;
    use crate::inspect::motion::test_walker::{Walk, walker};

    #[test]
    fn a_steady_walk_reads_its_speed_and_a_turn_its_heading() {
        let model = walker(Walk {
            turns: 0.25,
            ..Walk::default()
        });
        let root = analyse(&model, 0, None).unwrap().root.unwrap();
        let [speed, heading] = root_motion_curves(&root, &[0.0, 0.5, 1.0, 2.0]);
        assert_eq!((speed.name.as_str(), heading.name.as_str()), ("speed", "heading"));
        assert!(
            speed.values.iter().all(|v| (v - 1.5).abs() < 1e-2),
            "{:?}",
            speed.values
        );
        let expected = [0.0, 22.5, 45.0, 90.0];
        for (value, expected) in heading.values.iter().zip(expected) {
            assert!((value - expected).abs() < 0.1, "{:?}", heading.values);
        }
    }
}
