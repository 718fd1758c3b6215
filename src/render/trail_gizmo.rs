//! Motion trails in the view: each joint's path as a polyline, its past dimmer than its
//! future, a small square at each key and a larger one where the joint is now; the
//! root-motion trail in its own colour, flattened onto the ground plane.

use glam::{Vec3, Vec4};

use super::overlay::Overlay;
use crate::inspect::{JointTrail, TrailClock, TrailWindow, Trails};

const PAST_COLOR: Vec4 = Vec4::new(0.25, 0.75, 1.0, 0.55);
const FUTURE_COLOR: Vec4 = Vec4::new(1.0, 0.85, 0.2, 1.0);
const ROOT_PAST_COLOR: Vec4 = Vec4::new(0.3, 0.9, 0.45, 0.55);
const ROOT_FUTURE_COLOR: Vec4 = Vec4::new(0.45, 1.0, 0.55, 1.0);
const NOW_COLOR: Vec4 = Vec4::new(1.0, 1.0, 1.0, 1.0);
/// Half sizes in clip units per w (0.01 is about 4 pixels on an 800-pixel-high image).
const TICK_SIZE: f32 = 0.004;
const NOW_SIZE: f32 = 0.009;

/// Adds `trails` as they look through `window` to `overlay`; the root-motion trail lies at
/// height `ground` (the ground plane's y).
pub fn draw_trails(overlay: &mut Overlay, trails: &Trails, window: TrailWindow, ground: f32) {
    let Some(clock) = trails.clock() else { return };
    let colors = [PAST_COLOR, FUTURE_COLOR];
    for (trail, now) in trails.joint_trails() {
        draw_trail(overlay, (trail, now), (window, clock), colors, |p| p);
    }
    if let Some(root) = trails.root_trail() {
        let on_ground = |p: Vec3| Vec3::new(p.x, ground, p.z);
        draw_trail(
            overlay,
            root,
            (window, clock),
            [ROOT_PAST_COLOR, ROOT_FUTURE_COLOR],
            on_ground,
        );
    }
}

/// One trail, each point placed by `place`; `colors` are the past's and the future's.
fn draw_trail(
    overlay: &mut Overlay,
    (trail, now): (&JointTrail, Vec3),
    (window, clock): (TrailWindow, TrailClock),
    [past, future]: [Vec4; 2],
    place: impl Fn(Vec3) -> Vec3,
) {
    let color = |in_past: bool| if in_past { past } else { future };
    for (from, to, in_past) in trail.segments(window, clock) {
        overlay.line(place(from), place(to), color(in_past));
    }
    for (at, in_past) in trail.ticks(window, clock) {
        overlay.square(place(at), color(in_past), TICK_SIZE);
    }
    overlay.square(place(now), NOW_COLOR, NOW_SIZE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Playback;
    use crate::asset::demo::demo_model;
    use crate::inspect::TrailTime;

    #[test]
    fn trails_draw_lines_ticks_and_now_and_the_root_lies_on_the_ground() {
        let model = demo_model();
        let wrist = model.skeleton.find("wrist.L").unwrap();
        let mut trails = Trails::default();
        let at = TrailTime {
            clip: Some(1),
            time: 0.2,
            mode: Playback::Loop,
        };
        trails.update(&model, 0, at, [wrist].into_iter(), false);
        let mut overlay = Overlay::default();
        draw_trails(&mut overlay, &trails, TrailWindow::WholeClip, -5.0);
        let (trail, _) = trails.joint_trails().next().unwrap();
        assert_eq!(overlay.lines().len(), 2 * (trail.points().len() - 1));
        let mut squares = Vec::new();
        overlay.square_vertices(1.0, &mut squares);
        let keys = trail.points().iter().filter(|p| p.key).count();
        assert_eq!(squares.len(), 6 * (keys + 1), "a tick per key and now");

        trails.update(&model, 0, at, std::iter::empty(), true);
        overlay.clear();
        draw_trails(&mut overlay, &trails, TrailWindow::WholeClip, -5.0);
        assert!(!overlay.lines().is_empty());
        assert!(overlay.lines().iter().all(|v| v.position[1] == -5.0), "on the ground");
    }
}
