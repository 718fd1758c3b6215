//! How much the renderer spends on a frame. A software rasteriser (Mesa's llvmpipe on a
//! machine without a GPU) pays per pixel and per sample on its CPU cores, so the viewer starts
//! there at `Fast`; a GPU gets `Best`. The panel and `--quality` choose explicitly.

use super::triangle_budget::FAST_TRIANGLE_BUDGET;

/// Fast's shadow map side in texels. The map covers three times the model's radius, so a texel
/// is about a pixel of fast's half-resolution picture of the framed model, and its hard one-tap
/// shadow differs from a 1024² map's by under a fifth of a level on average. A software
/// rasteriser fills every texel that casters cover, each frame an animated scene moves: a
/// quarter of the texels took LittlestTokyo's frame to 0.92 of its time (docs/PERFORMANCE.md).
const FAST_SHADOW_MAP_SIZE: u32 = 512;

/// The coarsest shadow map a still picture gets (`QualitySettings::fit_to_picture`).
const MIN_STILL_SHADOW_MAP_SIZE: u32 = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quality {
    /// No multisampling, the 3D view rendered at half its width and height and scaled up, a
    /// hard-edged shadow from a 512² map, meshes simplified: for software renderers.
    Fast,
    /// No multisampling, full resolution, a lightly filtered shadow.
    Balanced,
    /// 4x multisampling, full resolution, a 2048² shadow map with wide soft filtering.
    Best,
}

/// What a `Quality` sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QualitySettings {
    /// MSAA samples per pixel wanted (the adapter may offer fewer).
    pub samples: u32,
    /// The 3D view's resolution as a fraction of its size in pixels.
    pub render_scale: f32,
    /// The shadow map's side in texels.
    pub shadow_map_size: u32,
    /// Percentage-closer filtering: the shadow is averaged over (2r + 1)² samples, r being
    /// this on the model and on the ground (whose contact shadow is wider).
    pub shadow_filter_reach: [u32; 2],
    /// The most shadow map layers the file's lights may take (a directional or spot light, or
    /// a point light outside the model, takes one; a point light inside it six).
    pub shadow_layers: u32,
    /// The triangles a frame may draw: meshes are drawn from simplified copies chosen every
    /// frame to fit it (view/triangle_budget.rs); None: every mesh whole.
    pub triangle_budget: Option<u32>,
}

impl Quality {
    pub const ALL: [Quality; 3] = [Quality::Fast, Quality::Balanced, Quality::Best];

    /// Where the viewer starts: `Fast` on a software rasteriser, `Best` on a GPU.
    pub fn for_adapter(software: bool) -> Self {
        if software { Quality::Fast } else { Quality::Best }
    }

    pub fn settings(self) -> QualitySettings {
        match self {
            Quality::Fast => QualitySettings {
                samples: 1,
                render_scale: 0.5,
                shadow_map_size: FAST_SHADOW_MAP_SIZE,
                shadow_filter_reach: [0, 0],
                shadow_layers: 2,
                triangle_budget: Some(FAST_TRIANGLE_BUDGET),
            },
            Quality::Balanced => QualitySettings {
                samples: 1,
                render_scale: 1.0,
                shadow_map_size: 1024,
                shadow_filter_reach: [1, 1],
                shadow_layers: 8,
                triangle_budget: None,
            },
            Quality::Best => QualitySettings {
                samples: 4,
                render_scale: 1.0,
                shadow_map_size: 2048,
                shadow_filter_reach: [1, 3],
                shadow_layers: 8,
                triangle_budget: None,
            },
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Quality::Fast => "Fast",
            Quality::Balanced => "Balanced",
            Quality::Best => "Best",
        }
    }
}

impl QualitySettings {
    /// "4x antialiasing, full resolution, 2048² shadow map filtered over 3x3 samples".
    pub fn describe(&self) -> String {
        let antialiasing = match self.samples {
            1 => "no antialiasing".to_owned(),
            samples => format!("{samples}x antialiasing"),
        };
        let resolution = if self.render_scale >= 1.0 {
            "full resolution".to_owned()
        } else {
            format!("{:.0}% resolution, scaled up", self.render_scale * 100.0)
        };
        let side = 2 * self.shadow_filter_reach[0] + 1;
        let simplified = match self.triangle_budget {
            Some(budget) => format!(", meshes simplified to fit {budget} triangles"),
            None => String::new(),
        };
        format!(
            "{antialiasing}, {resolution}, {size}² shadow map filtered over {side}x{side} samples{simplified}",
            size = self.shadow_map_size
        )
    }

    /// These settings for a still picture of `size` pixels: the shadow map four texels for each
    /// pixel of the picture's longer side, rounded up to a power of two, from 512 up to this
    /// quality's map, so that a texel covers about as much of the picture as best quality's
    /// 2048² map's does at 640x480 (3.2 texels a pixel) and the shadow's edge looks alike. A
    /// 256² thumbnail then clears and fills a 1024² map, not a 2048² one: 0.92 of its CPU time
    /// and 13 MB less memory on llvmpipe (docs/PERFORMANCE.md).
    pub fn fit_to_picture(self, (width, height): (u32, u32)) -> Self {
        let fitted = (4 * width.max(height))
            .next_power_of_two()
            .max(MIN_STILL_SHADOW_MAP_SIZE);
        Self {
            shadow_map_size: fitted.min(self.shadow_map_size),
            ..self
        }
    }

    /// The 3D view's render size for a viewport of `width` x `height` pixels (at least 1 x 1).
    pub fn render_size(&self, (width, height): (u32, u32)) -> (u32, u32) {
        let scale = |side: u32| ((side as f32 * self.render_scale).round() as u32).max(1);
        (scale(width), scale(height))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn software_starts_fast_and_gpus_best() {
        assert_eq!(Quality::for_adapter(true), Quality::Fast);
        assert_eq!(Quality::for_adapter(false), Quality::Best);
    }

    #[test]
    fn each_step_up_costs_more() {
        let [fast, balanced, best] = Quality::ALL.map(Quality::settings);
        let pixels = |s: &QualitySettings| s.samples as f32 * s.render_scale * s.render_scale;
        assert!(pixels(&fast) < pixels(&balanced) && pixels(&balanced) < pixels(&best));
        assert!(fast.shadow_filter_reach <= balanced.shadow_filter_reach);
        assert!(balanced.shadow_map_size <= best.shadow_map_size);
    }

    #[test]
    fn fast_fills_a_quarter_of_balanced_s_shadow_texels() {
        let [fast, balanced, _] = Quality::ALL.map(Quality::settings);
        assert_eq!(4 * fast.shadow_map_size.pow(2), balanced.shadow_map_size.pow(2));
        assert!(fast.describe().contains("512² shadow map"), "{}", fast.describe());
    }

    #[test]
    fn a_still_s_shadow_map_follows_its_size_up_to_the_quality_s() {
        let best = Quality::Best.settings();
        let side = |size| best.fit_to_picture(size).shadow_map_size;
        assert_eq!(side((640, 480)), 2048, "the command's usual pictures keep best's map");
        assert_eq!(side((800, 600)), 2048);
        assert_eq!(side((8192, 8192)), 2048, "never finer than the quality's");
        assert_eq!(side((256, 256)), 1024, "a thumbnail's");
        assert_eq!(
            side((300, 200)),
            2048,
            "four texels a pixel, rounded up to a power of two"
        );
        assert_eq!(side((1, 1)), 512);
        let fitted = best.fit_to_picture((256, 256));
        assert_eq!(
            QualitySettings {
                shadow_map_size: 2048,
                ..fitted
            },
            best,
            "nothing else changes"
        );
    }

    #[test]
    fn render_size_scales_and_never_vanishes() {
        let fast = Quality::Fast.settings();
        assert_eq!(fast.render_size((1000, 800)), (500, 400));
        assert_eq!(fast.render_size((1, 1)), (1, 1));
        assert_eq!(Quality::Best.settings().render_size((990, 800)), (990, 800));
    }
}
