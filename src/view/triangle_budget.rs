//! Fast quality's triangle budget. A software rasteriser (llvmpipe) shades every vertex and
//! sets up every triangle on one thread, whatever its size on screen: on a 2-core machine each
//! triangle drawn cost about 2.7 µs a frame (shadow and lit passes together) when the budget
//! was set, and the rest of a frame about 25 ms (13-18 ms since frames reach X11 through shared
//! memory). So at Fast the renderer draws each mesh from one of its simplified copies
//! (render/simplified.rs), chosen every frame: all of them within one deviation on screen, the
//! smallest deviation at which the frame's triangles fit the budget (but never finer than a
//! pixel, which no one sees, nor coarser than four, which everyone does). One deviation for
//! every mesh spends the triangles where they show: a part that is large on screen or curved keeps more of them
//! than a small or flat one. The shadow pass, whose texels are seen through a filter, draws
//! copies twice as coarse.

/// Triangles a frame may draw at Fast: with the fixed cost, about 33 ms a frame on a 2-core
/// machine without a GPU.
pub const FAST_TRIANGLE_BUDGET: u32 = 4_000;
/// The deviation every copy may have however few triangles the meshes draw, in pixels of the
/// picture drawn (Fast's is half the view's size and scaled up, without antialiasing): at one
/// pixel, a copy draws what the whole mesh draws up to an edge pixel here and there.
const LEAST_PIXELS: f32 = 1.0;
/// The deviation no copy may pass, whatever the budget, in pixels of the picture drawn: past
/// it, thin parts vanish and open sheets part (a maze's walls, an avatar's ears). A file that
/// does not fit the budget within it draws more triangles, slower but whole.
const MOST_PIXELS: f32 = 4.0;
/// The shadow pass's copies may deviate this many times as far as the lit pass's.
const SHADOW_COARSENING: f32 = 2.0;

/// One way to draw a mesh: the triangles it draws, and how far (world units) it may lie from
/// the whole mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub triangles: u32,
    pub deviation: f32,
}

/// The coarsest of `levels` (the whole mesh first, then coarser and coarser copies) that
/// lies within `deviation`; 0 when there are none.
fn level_within(levels: &[Level], deviation: f32) -> usize {
    levels
        .iter()
        .rposition(|level| level.deviation <= deviation)
        .unwrap_or(0)
}

/// Triangles drawn when every mesh (each a list of levels) draws its coarsest level within
/// `deviation`.
fn triangles_within<'a>(meshes: impl Iterator<Item = &'a [Level]>, deviation: f32) -> u64 {
    meshes
        .filter(|levels| !levels.is_empty())
        .map(|levels| u64::from(levels[level_within(levels, deviation)].triangles))
        .sum()
}

/// The deviation (world units) every mesh may draw within this frame: the least one, at
/// least `least`, at which the meshes' triangles fit `budget`; the largest any copy has when
/// even the coarsest copies do not fit. Allocates nothing: it bisects over the deviation.
fn deviation_for_budget<'a, M>(meshes: M, budget: u32, least: f32) -> f32
where
    M: Iterator<Item = &'a [Level]> + Clone,
{
    let budget = u64::from(budget);
    let least = least.max(0.0);
    if triangles_within(meshes.clone(), least) <= budget {
        return least;
    }
    let most = (meshes.clone().flatten()).fold(least, |most, level| most.max(level.deviation));
    let (mut fits, mut over) = (most, least);
    // The triangles drawn only change where the deviation passes a level's: halving the
    // interval 32 times lands within a millionth of the interval of that level.
    for _ in 0..32 {
        let middle = 0.5 * (fits + over);
        if triangles_within(meshes.clone(), middle) <= budget {
            fits = middle;
        } else {
            over = middle;
        }
    }
    fits
}

/// The deviation (world units) every mesh may draw within this frame, at `pixels_per_unit`:
/// the least at which `meshes` fit `budget`, from `LEAST_PIXELS` to `MOST_PIXELS`.
pub fn frame_deviation<'a, M>(meshes: M, budget: u32, pixels_per_unit: f32) -> f32
where
    M: Iterator<Item = &'a [Level]> + Clone,
{
    let least = LEAST_PIXELS / pixels_per_unit;
    deviation_for_budget(meshes, budget, least).min(MOST_PIXELS / pixels_per_unit)
}

/// The levels a mesh draws in the lit and the shadow pass at `deviation`: within it and within
/// `SHADOW_COARSENING` times it; a mesh the camera does not `see` draws its coarsest in the lit
/// pass (its shadow may still fall in the picture).
pub fn lit_and_shadow_levels(levels: &[Level], deviation: f32, seen: bool) -> (usize, usize) {
    let lit = match seen {
        true => level_within(levels, deviation),
        false => levels.len().saturating_sub(1),
    };
    (lit, level_within(levels, deviation * SHADOW_COARSENING))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(triangles: u32, deviation: f32) -> Level {
        Level { triangles, deviation }
    }

    /// A large curved mesh (its copies deviate little for the triangles they shed) and a small
    /// one.
    fn meshes() -> [Vec<Level>; 2] {
        [
            vec![
                level(8000, 0.0),
                level(4000, 0.001),
                level(2000, 0.004),
                level(1000, 0.02),
            ],
            vec![level(1000, 0.0), level(500, 0.002), level(250, 0.003)],
        ]
    }

    #[test]
    fn the_coarsest_copy_within_the_deviation_is_drawn() {
        let [big, _] = meshes();
        assert_eq!(level_within(&big, 0.0), 0);
        assert_eq!(level_within(&big, 0.0039), 1);
        assert_eq!(level_within(&big, 0.004), 2);
        assert_eq!(level_within(&big, 1.0), 3);
        assert_eq!(level_within(&[], 1.0), 0);
    }

    #[test]
    fn the_least_deviation_that_fits_the_budget_is_chosen() {
        let meshes = meshes();
        let all = || meshes.iter().map(Vec::as_slice);
        // Everything fits: no deviation beyond the least asked for.
        assert_eq!(deviation_for_budget(all(), 9000, 0.0), 0.0);
        assert_eq!(deviation_for_budget(all(), 9000, 0.0005), 0.0005);
        // 4000 + 500 = 4500 fits at 0.002; 4000 + 1000 does not fit 4600.
        let deviation = deviation_for_budget(all(), 4600, 0.0);
        assert!((0.002..0.0021).contains(&deviation), "{deviation}");
        // 2000 + 250 at 0.004.
        let deviation = deviation_for_budget(all(), 2500, 0.0);
        assert!((0.004..0.0041).contains(&deviation), "{deviation}");
        let drawn: u32 = meshes.iter().map(|m| m[level_within(m, deviation)].triangles).sum();
        assert_eq!(drawn, 2250);
    }

    #[test]
    fn an_unreachable_budget_draws_the_coarsest_copies() {
        let meshes = meshes();
        let deviation = deviation_for_budget(meshes.iter().map(Vec::as_slice), 10, 0.0);
        assert_eq!(deviation, 0.02);
        assert_eq!(level_within(&meshes[0], deviation), 3);
        assert_eq!(level_within(&meshes[1], deviation), 2);
    }

    #[test]
    fn the_deviation_stays_between_one_and_four_pixels() {
        let meshes = meshes();
        let all = || meshes.iter().map(Vec::as_slice);
        // 1,000 pixels a unit: everything fits at a pixel (0.001), the budget's least.
        assert_eq!(frame_deviation(all(), 100_000, 1000.0), LEAST_PIXELS / 1000.0);
        // 10 triangles fit nowhere: the coarsest copies lie 0.02 away, 20 pixels; four is all
        // a frame may show.
        assert_eq!(frame_deviation(all(), 10, 1000.0), MOST_PIXELS / 1000.0);
    }

    #[test]
    fn the_shadow_draws_coarser_and_an_unseen_mesh_its_coarsest() {
        let [big, _] = meshes();
        assert_eq!(lit_and_shadow_levels(&big, 0.002, true), (1, 2));
        assert_eq!(lit_and_shadow_levels(&big, 0.002, false), (3, 2));
        assert_eq!(lit_and_shadow_levels(&[], 0.002, true), (0, 0));
    }

    #[test]
    fn a_flat_mesh_sheds_its_triangles_before_a_curved_one_loses_any() {
        // A flat mesh's copy of a tenth of its triangles lies almost on it; the curved mesh's
        // half copy deviates ten times as far. The budget is met from the flat one.
        let curved = vec![level(8000, 0.0), level(4000, 0.001)];
        let flat = vec![level(1000, 0.0), level(100, 0.0001)];
        let deviation = deviation_for_budget([curved.as_slice(), flat.as_slice()].into_iter(), 8200, 0.0);
        assert_eq!(level_within(&curved, deviation), 0);
        assert_eq!(level_within(&flat, deviation), 1);
    }
}
