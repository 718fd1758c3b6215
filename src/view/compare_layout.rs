//! Where the compare view puts its second model (B) beside the open one (A): on top of it, as a
//! translucent ghost, or beside it along +x. The GPU-free half of "Compare with…", shared by
//! the panel (which picks the layout), the window (which frames both) and the command line.

use glam::{Mat4, Vec3};

use super::bounds::Bounds;

/// The share of the wider model's width left empty between A and B side by side.
const SIDE_BY_SIDE_GAP: f32 = 0.25;

/// How B is shown against A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CompareLayout {
    /// B drawn over A, translucent and tinted, where A stands.
    #[default]
    Ghost,
    /// B lit like A, standing beside it along +x.
    SideBySide,
}

impl CompareLayout {
    /// Both layouts, in the order the panel offers them.
    pub const ALL: [CompareLayout; 2] = [CompareLayout::Ghost, CompareLayout::SideBySide];

    /// The panel's name for the layout.
    pub fn label(self) -> &'static str {
        match self {
            CompareLayout::Ghost => "Ghost",
            CompareLayout::SideBySide => "Side by side",
        }
    }

    /// The world → world translation that places B (whose rest region is `b`) against A
    /// (`a`): none for a ghost; side by side, B's left edge a gap past A's right edge
    /// (the gap a quarter of the wider model's width). An empty box (nothing to measure)
    /// moves nothing.
    pub fn placement(self, a: &Bounds, b: &Bounds) -> Mat4 {
        if self == CompareLayout::Ghost || a.is_empty() || b.is_empty() {
            return Mat4::IDENTITY;
        }
        let width = (a.max.x - a.min.x).max(b.max.x - b.min.x);
        let gap = (width * SIDE_BY_SIDE_GAP).max(1e-3);
        Mat4::from_translation(Vec3::X * (a.max.x + gap - b.min.x))
    }
}

/// The region `b` takes moved by `placement`.
pub fn placed_bounds(b: &Bounds, placement: Mat4) -> Bounds {
    let mut placed = Bounds::EMPTY;
    if !b.is_empty() {
        for corner in b.corners() {
            placed.include(placement.transform_point3(corner));
        }
    }
    placed
}

/// The region `a` and `b` take together: what the camera frames in the compare view.
pub fn both_bounds(a: &Bounds, b: &Bounds) -> Bounds {
    let mut both = *a;
    if !b.is_empty() {
        both.include(b.min);
        both.include(b.max);
    }
    both
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box_at(x: f32) -> Bounds {
        Bounds {
            min: Vec3::new(x - 0.5, 0.0, -0.5),
            max: Vec3::new(x + 0.5, 2.0, 0.5),
        }
    }

    #[test]
    fn a_ghost_stands_where_a_stands() {
        let placement = CompareLayout::Ghost.placement(&unit_box_at(0.0), &unit_box_at(3.0));
        assert_eq!(placement, Mat4::IDENTITY);
    }

    #[test]
    fn side_by_side_b_starts_a_gap_past_a_whatever_b_was_authored_at() {
        let a = unit_box_at(0.0);
        for b_at in [0.0, -7.0, 4.0] {
            let placement = CompareLayout::SideBySide.placement(&a, &unit_box_at(b_at));
            let b_left = placement.transform_point3(unit_box_at(b_at).min).x;
            assert!(
                (b_left - (0.5 + 0.25)).abs() < 1e-5,
                "B at {b_at}: its left edge at {b_left}"
            );
            assert_eq!(placement.transform_point3(Vec3::ZERO).y, 0.0, "only along x");
        }
    }

    #[test]
    fn nothing_to_measure_moves_nothing() {
        let placement = CompareLayout::SideBySide.placement(&unit_box_at(0.0), &Bounds::EMPTY);
        assert_eq!(placement, Mat4::IDENTITY);
    }

    #[test]
    fn the_camera_frames_both_models() {
        let (a, b) = (unit_box_at(0.0), unit_box_at(0.0));
        let placement = CompareLayout::SideBySide.placement(&a, &b);
        let both = both_bounds(&a, &placed_bounds(&b, placement));
        assert_eq!(both.min, a.min);
        assert!((both.max.x - 1.75).abs() < 1e-5, "{both:?}");
        assert_eq!(both_bounds(&a, &placed_bounds(&Bounds::EMPTY, placement)), a);
        assert_eq!(both_bounds(&Bounds::EMPTY, &a), a);
    }
}
