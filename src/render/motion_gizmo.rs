//! Root motion and foot contacts on the ground: the travel's path with a tick each second and
//! a mark where the carrier is now, and a cross where each foot stands in each contact (a
//! sliding contact in red). Played in place, all of it slides back with the ground.

use glam::{Vec2, Vec3, Vec4};

use super::overlay::Overlay;
use crate::inspect::motion::MotionReport;

const PATH_COLOR: Vec4 = Vec4::new(0.95, 0.55, 0.15, 0.9);
const NOW_COLOR: Vec4 = Vec4::new(1.0, 1.0, 1.0, 1.0);
const STANDING_COLOR: Vec4 = Vec4::new(0.3, 0.85, 1.0, 0.9);
const SLIDING_COLOR: Vec4 = Vec4::new(1.0, 0.25, 0.2, 1.0);
/// Half sizes in clip units per w (0.01 is about 4 pixels on an 800-pixel-high image).
const TICK_SIZE: f32 = 0.006;
const NOW_SIZE: f32 = 0.01;

/// Adds `report`'s path and contacts at clip time `time` to `overlay`, on the ground at
/// height `ground`, slid back by `slide` (the travel taken out of the pose shown); a contact
/// sliding more than `slide_limit` (model units) is marked as sliding; crosses are `mark`
/// across.
pub fn draw_motion(
    overlay: &mut Overlay,
    report: &MotionReport,
    (time, slide): (f32, Vec2),
    (ground, mark, slide_limit): (f32, f32, f32),
) {
    let place = |x: f32, z: f32| Vec3::new(x - slide.x, ground, z - slide.y);
    if let Some(root) = &report.root {
        let at = |travel: Vec2| place(root.start.x + travel.x, root.start.z + travel.y);
        for pair in root.travel.windows(2) {
            overlay.line(at(pair[0]), at(pair[1]), PATH_COLOR);
        }
        let duration = root.times.last().copied().unwrap_or(0.0);
        for second in 0..=duration.floor() as usize {
            overlay.square(at(root.travel_at(second as f32)), PATH_COLOR, TICK_SIZE);
        }
        overlay.square(at(root.travel_at(time)), NOW_COLOR, NOW_SIZE);
    }
    for foot in &report.feet {
        for contact in &foot.contacts {
            let color = if contact.slide > slide_limit {
                SLIDING_COLOR
            } else {
                STANDING_COLOR
            };
            overlay.cross(place(contact.at.x, contact.at.z), mark, color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::analyse;
    use crate::inspect::motion::test_walker::{Walk, walker};

    #[test]
    fn the_path_its_seconds_now_and_each_contact_are_drawn_and_slide_with_the_ground() {
        let model = walker(Walk::default());
        let report = analyse(&model, 0, None).unwrap();
        let mut overlay = Overlay::default();
        draw_motion(&mut overlay, &report, (1.0, Vec2::ZERO), (0.0, 0.1, 0.02));
        let path_segments = report.root.as_ref().unwrap().travel.len() - 1;
        let contacts: usize = report.feet.iter().map(|f| f.contacts.len()).sum();
        assert_eq!(
            overlay.lines().len(),
            2 * path_segments + 6 * contacts,
            "a line per step, a cross per contact"
        );
        let mut squares = Vec::new();
        overlay.square_vertices(1.0, &mut squares);
        assert_eq!(squares.len(), 6 * (3 + 1), "ticks at 0, 1 and 2 s, and now");

        let mut slid = Overlay::default();
        draw_motion(&mut slid, &report, (1.0, Vec2::new(0.0, 1.5)), (0.0, 0.1, 0.02));
        let first = |o: &Overlay| Vec3::from(o.lines()[0].position);
        assert!((first(&overlay) - first(&slid) - Vec3::new(0.0, 0.0, 1.5)).length() < 1e-5);
    }
}
