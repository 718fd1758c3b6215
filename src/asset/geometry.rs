//! Format-neutral mesh preparation: topology conversion, computed normals and skin weights.

use glam::Vec3;

use super::model::{SkinWeights, Topology, VertexRepair};

/// The most influences per vertex the skinning code applies.
pub const MAX_INFLUENCES: usize = 8;

/// Weights whose sum is further than this from 1 count as "not normalised" in the file.
/// Float exporters land within 1e-6; 8-bit weights quantised correctly within 1/510.
pub const WEIGHT_SUM_TOLERANCE: f32 = 2e-3;

/// glTF primitive modes, before conversion to lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Points,
    Lines,
    LineLoop,
    LineStrip,
    Triangles,
    TriangleStrip,
    TriangleFan,
}

/// Converts indices in `mode` into a list of points, line pairs or triangle triples.
pub fn to_list(mode: Mode, mut indices: Vec<u32>) -> (Topology, Vec<u32>) {
    let n = indices.len();
    match mode {
        Mode::Points => (Topology::Points, indices),
        Mode::Lines => {
            indices.truncate(n - n % 2);
            (Topology::Lines, indices)
        }
        Mode::LineStrip | Mode::LineLoop => {
            let mut lines: Vec<u32> = indices.windows(2).flat_map(|w| [w[0], w[1]]).collect();
            if mode == Mode::LineLoop && n > 2 {
                lines.extend([indices[n - 1], indices[0]]);
            }
            (Topology::Lines, lines)
        }
        Mode::Triangles => {
            // Lists are kept as they are (no copy: a big mesh's indices are its largest array).
            indices.truncate(n - n % 3);
            (Topology::Triangles, indices)
        }
        Mode::TriangleStrip => {
            // Every other triangle is flipped so all keep the first one's winding (§3.7.2.1).
            let triangles = (0..n.saturating_sub(2))
                .flat_map(|i| {
                    let (a, b, c) = (indices[i], indices[i + 1], indices[i + 2]);
                    if i % 2 == 0 { [a, b, c] } else { [b, a, c] }
                })
                .collect();
            (Topology::Triangles, triangles)
        }
        Mode::TriangleFan => {
            let triangles = (1..n.saturating_sub(1))
                .flat_map(|i| [indices[i], indices[i + 1], indices[0]])
                .collect();
            (Topology::Triangles, triangles)
        }
    }
}

/// Area-weighted vertex normals from triangles (each face adds its unnormalised cross
/// product). Vertices on no triangle, or on degenerate ones only, get +Z.
pub fn compute_normals(positions: &[Vec3], triangles: &[u32]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for triangle in triangles.chunks_exact(3) {
        let [a, b, c] = [triangle[0], triangle[1], triangle[2]].map(|i| i as usize);
        let (Some(pa), Some(pb), Some(pc)) = (positions.get(a), positions.get(b), positions.get(c)) else {
            continue;
        };
        let face = (*pb - *pa).cross(*pc - *pa);
        normals[a] += face;
        normals[b] += face;
        normals[c] += face;
    }
    for normal in &mut normals {
        *normal = normal.try_normalize().unwrap_or(Vec3::Z);
    }
    normals
}

/// Builds per-vertex skin weights from the file's influences.
///
/// `influences_of(vertex, out)` appends that vertex's (joint, weight) pairs. Negative weights
/// count as zero; influences on a joint index `>= joint_limit` are dropped (`out_of_range`);
/// the strongest `MAX_INFLUENCES` are kept, strongest first (`truncated` counts vertices that
/// had more); the kept weights are scaled to sum to 1 (`renormalised` counts vertices whose
/// positive weights in the file did not); a vertex left with no weight is bound fully to the
/// skin's first joint (`unweighted`).
pub fn build_skin_weights(
    vertex_count: usize,
    joint_limit: usize,
    mut influences_of: impl FnMut(usize, &mut Vec<(u32, f32)>),
) -> SkinWeights {
    // Joint indices are stored in 16 bits, as glTF's largest joint component type allows.
    let joint_limit = joint_limit.min(u16::MAX as usize + 1);
    let mut result = SkinWeights {
        joints: Vec::with_capacity(vertex_count),
        weights: Vec::with_capacity(vertex_count),
        repairs: Vec::with_capacity(vertex_count),
        ..SkinWeights::default()
    };
    let mut influences = Vec::with_capacity(MAX_INFLUENCES);
    for vertex in 0..vertex_count {
        influences.clear();
        influences_of(vertex, &mut influences);
        for &(joint, weight) in &influences {
            result.negative += (weight < 0.0) as usize;
            result.zero_weight += (weight == 0.0 && joint != 0) as usize;
        }
        influences.retain(|&(_, weight)| weight > 0.0);
        // Summed in f64 so that huge weights cannot overflow to infinity.
        let sum_in_file: f64 = influences.iter().map(|&(_, w)| w as f64).sum();
        let before = influences.len();
        influences.retain(|&(joint, _)| (joint as usize) < joint_limit);
        result.out_of_range += before - influences.len();
        let mut repair = 0;
        influences.sort_by(|a, b| b.1.total_cmp(&a.1));
        if influences.len() > MAX_INFLUENCES {
            result.truncated += 1;
            repair |= VertexRepair::CAPPED;
            influences.truncate(MAX_INFLUENCES);
        }
        if influences.is_empty() {
            result.unweighted += 1;
            repair |= VertexRepair::NOT_NORMALISED;
            influences.push((0, 1.0));
        } else if (sum_in_file - 1.0).abs() > WEIGHT_SUM_TOLERANCE as f64 {
            result.renormalised += 1;
            repair |= VertexRepair::NOT_NORMALISED;
        }
        result.repairs.push(repair);
        let total: f64 = influences.iter().map(|&(_, w)| w as f64).sum();
        let mut joints = [[0u16; 4]; 2];
        let mut weights = [[0f32; 4]; 2];
        for (slot, &(joint, weight)) in influences.iter().enumerate() {
            joints[slot / 4][slot % 4] = joint as u16;
            weights[slot / 4][slot % 4] = (weight as f64 / total) as f32;
        }
        result.joints.push(joints[0]);
        result.weights.push(weights[0]);
        // Influences five to eight are stored only once a vertex has them (zeros before; the
        // first such vertex may be vertex 0, so the lists' length, not their emptiness, says
        // whether they are kept).
        if weights[1][0] > 0.0 || !result.weights_extra.is_empty() {
            result.joints_extra.resize(vertex, [0; 4]);
            result.weights_extra.resize(vertex, [0.0; 4]);
            result.joints_extra.push(joints[1]);
            result.weights_extra.push(weights[1]);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_lists_with_consistent_winding() {
        let (topology, strip) = to_list(Mode::TriangleStrip, vec![0, 1, 2, 3]);
        assert_eq!(topology, Topology::Triangles);
        assert_eq!(strip, vec![0, 1, 2, 2, 1, 3]);
        assert_eq!(to_list(Mode::TriangleFan, vec![0, 1, 2, 3]).1, vec![1, 2, 0, 2, 3, 0]);
        assert_eq!(to_list(Mode::LineLoop, vec![0, 1, 2]).1, vec![0, 1, 1, 2, 2, 0]);
        assert_eq!(
            to_list(Mode::Triangles, vec![0, 1, 2, 3]).1,
            vec![0, 1, 2],
            "a dangling index is dropped"
        );
    }

    #[test]
    fn normals_are_area_weighted_and_unit() {
        let positions = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(0.0, 0.0, 1.0)];
        let normals = compute_normals(&positions, &[0, 1, 2]);
        assert_eq!(normals[0], Vec3::Z);
        assert_eq!(normals[3], Vec3::Z, "a vertex on no triangle gets a default");
    }

    #[test]
    fn weights_are_sorted_capped_and_renormalised() {
        let weights = build_skin_weights(3, 10, |v, out| match v {
            0 => out.extend([(1, 0.25), (2, 0.75)]),
            1 => out.extend((0..10).map(|j| (j, 0.2))),
            _ => out.extend([(3, 0.0), (12, 0.5)]),
        });
        assert_eq!(weights.joints[0][..2], [2, 1]);
        assert_eq!(weights.weights[0], [0.75, 0.25, 0.0, 0.0]);
        assert_eq!(weights.truncated, 1);
        assert_eq!(weights.renormalised, 1, "vertex 1 summed to 2");
        let vertex1: f32 = weights.weights[1].iter().chain(&weights.weights_extra[1]).sum();
        assert!((vertex1 - 1.0).abs() < 1e-6);
        assert_eq!(weights.out_of_range, 1);
        assert_eq!(weights.unweighted, 1, "vertex 2 had no usable influence");
        assert_eq!(weights.max_influences(), 8);
        let (normalised, capped) = (VertexRepair::NOT_NORMALISED, VertexRepair::CAPPED);
        assert_eq!(weights.repairs, [0, normalised | capped, normalised]);
    }

    #[test]
    fn the_first_vertex_keeps_influences_five_to_eight() {
        // Vertex 0 is the first (and only) vertex with more than four influences.
        let weights = build_skin_weights(2, 8, |v, out| match v {
            0 => out.extend((0..8).map(|j| (j, 0.125))),
            _ => out.extend([(0, 1.0)]),
        });
        assert_eq!(weights.joints_extra.len(), 2);
        assert_eq!(weights.weights_extra[0], [0.125; 4]);
        assert_eq!(weights.weights_extra[1], [0.0; 4]);
        assert_eq!(weights.influences(0).count(), 8);
    }

    #[test]
    fn huge_and_negative_weights_stay_finite() {
        let weights = build_skin_weights(2, 4, |v, out| match v {
            0 => out.extend([(0, 3e38), (1, 3e38), (2, 3e38)]),
            _ => out.extend([(0, 1.2), (1, -0.2)]),
        });
        let third = 1.0 / 3.0;
        assert!(
            weights.weights[0][..3].iter().all(|w| (w - third).abs() < 1e-6),
            "{:?}",
            weights.weights[0]
        );
        assert_eq!(
            weights.weights[1],
            [1.0, 0.0, 0.0, 0.0],
            "negative weights count as zero"
        );
        assert_eq!(weights.renormalised, 2);
    }
}
