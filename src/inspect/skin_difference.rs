//! The CPU-vs-GPU difference view's measurement, without the GPU: how far the two skinnings
//! are apart, and how a distance becomes a vertex view value (a logarithmic scale of the
//! model's size). `render::skin_compare` reads the GPU's skinning back and fills it in.

/// Distances at or below this fraction of the model's size are blue (float rounding)...
pub const QUIET: f32 = 1e-7;
/// ...and at or above this one red (a difference anyone would see).
pub const LOUD: f32 = 1e-2;
/// The value of vertices nothing was measured for (drawn grey): draws only the CPU skins,
/// unskinned ones, and every vertex when the measurement failed.
pub const NOT_MEASURED: f32 = -1.0;

/// How far the CPU's and the GPU's skinning are apart, over the draws both skin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SkinDifference {
    /// Vertices compared.
    pub vertices: usize,
    /// Largest and mean distance, in model units.
    pub max: f32,
    pub mean: f32,
    /// The draw (in the deformer's primitive order) and vertex of the largest distance.
    pub worst: Option<(usize, usize)>,
    /// Skinned draws the GPU cannot skin (morph targets, too many joints): not compared.
    pub cpu_only: usize,
    /// The model's size the colours are scaled by (the diagonal of its bounds).
    pub size: f32,
}

impl std::fmt::Display for SkinDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CPU vs GPU skinning: {} vertices compared, largest difference {:.3e} ({:.2e} of the model's size), mean {:.3e}",
            self.vertices,
            self.max,
            self.max / self.size.max(f32::MIN_POSITIVE),
            self.mean
        )?;
        if let Some((draw, vertex)) = self.worst {
            write!(f, "; largest at vertex {vertex} of draw {draw}")?;
        }
        if self.cpu_only > 0 {
            write!(f, "; {} skinned draws only the CPU skins (not compared)", self.cpu_only)?;
        }
        Ok(())
    }
}

/// A distance as a fraction of the model's size, on the heat ramp: `QUIET` and below 0,
/// `LOUD` and above 1, logarithmic between.
pub fn heat_value(relative: f32) -> f32 {
    if relative <= QUIET {
        return 0.0;
    }
    ((relative / QUIET).log10() / (LOUD / QUIET).log10()).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_map_to_the_ramp_logarithmically() {
        assert_eq!(heat_value(0.0), 0.0);
        assert_eq!(heat_value(QUIET), 0.0);
        assert!((heat_value(QUIET * 10.0) - 0.2).abs() < 1e-5);
        assert_eq!(heat_value(LOUD), 1.0);
        assert_eq!(heat_value(f32::INFINITY), 1.0);
    }
}
