//! Morph targets: `out = base + Σ weight_k · delta_k`, applied before skinning.

use glam::Vec3;

/// Writes `base` plus each target's weighted deltas into `out`. A target with an empty delta
/// list (it does not touch this attribute) or a zero weight is skipped.
pub fn morph<'a>(base: &[Vec3], targets: impl Iterator<Item = (&'a [Vec3], f32)>, out: &mut [Vec3]) {
    out.copy_from_slice(base);
    for (deltas, weight) in targets {
        if weight == 0.0 || deltas.len() != out.len() {
            continue;
        }
        for (value, delta) in out.iter_mut().zip(deltas) {
            *value += *delta * weight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_weighted_deltas() {
        let base = [Vec3::ZERO, Vec3::X];
        let a = [Vec3::Y, Vec3::Y];
        let b = [Vec3::Z, Vec3::Z];
        let mut out = [Vec3::ZERO; 2];
        morph(
            &base,
            [(&a[..], 0.5), (&b[..], 0.0), (&[][..], 1.0)].into_iter(),
            &mut out,
        );
        assert_eq!(out, [Vec3::new(0.0, 0.5, 0.0), Vec3::new(1.0, 0.5, 0.0)]);
    }
}
