//! A primitive's influences regrouped for fast linear blend skinning, once, when a
//! [`Deformer`](super::Deformer) is made: as ozz-animation's mesh tools do, vertices are
//! split by how many joints move them (one, two, three, four, more), so each count has a
//! kernel without per-vertex branches that reads only the influences it uses.
//!
//! The vertex range is cut into chunks of [`CHUNK_VERTICES`] consecutive vertices, each split
//! on its own: chunks are the unit that threads share (each writes its own slice of the
//! outputs, so the results keep the original vertex order that the GPU buffers and picking
//! use), and indices within a chunk fit in a `u16`.

use super::linear::Influences;

/// Vertices per chunk: small enough that a million-vertex mesh gives every core many chunks,
/// large enough that a chunk's call overhead is lost in its work; at most `u16::MAX + 1`.
pub const CHUNK_VERTICES: usize = 8192;

/// Vertices moved by `J` joints: their indices in the chunk, joints and weights.
///
/// The skinning kernels read the vertices' attributes and the joints' palette entries without
/// a bounds check each, after checking `vertex_end` and `joint_end` once. That is sound
/// because only `push` writes the fields: the three lists are equally long, every vertex is
/// below `vertex_end` and every joint below `joint_end`.
#[derive(Clone, Debug, Default)]
pub struct Group<const J: usize> {
    vertices: Vec<u16>,
    joints: Vec<[u16; J]>,
    weights: Vec<[f32; J]>,
    vertex_end: usize,
    joint_end: usize,
}

impl<const J: usize> Group<J> {
    fn push(&mut self, vertex: u16, joints: &[u16], weights: &[f32]) {
        let joints: [u16; J] = std::array::from_fn(|i| joints[i]);
        self.vertex_end = self.vertex_end.max(usize::from(vertex) + 1);
        self.joint_end = joints
            .iter()
            .map(|&j| usize::from(j) + 1)
            .fold(self.joint_end, usize::max);
        self.vertices.push(vertex);
        self.joints.push(joints);
        self.weights.push(std::array::from_fn(|i| weights[i]));
    }

    /// Each vertex's index in the chunk.
    pub fn vertices(&self) -> &[u16] {
        &self.vertices
    }

    /// Each vertex's joints: its influences of non-zero weight, in the file's order.
    pub fn joints(&self) -> &[[u16; J]] {
        &self.joints
    }

    /// Each vertex's weights, in the order of its joints.
    pub fn weights(&self) -> &[[f32; J]] {
        &self.weights
    }

    /// One past the highest vertex index.
    pub fn vertex_end(&self) -> usize {
        self.vertex_end
    }

    /// One past the highest joint index.
    pub fn joint_end(&self) -> usize {
        self.joint_end
    }

    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }
}

/// Consecutive vertices moved rigidly by one joint (most of a robot's, a prop's, a hard
/// surface's): skinned with one matrix load and no per-vertex indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RigidRun {
    /// Index of the run's first vertex in the chunk.
    pub start: u16,
    pub len: u16,
    pub joint: u16,
}

/// One chunk's vertices, by influence count.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    /// Index of the chunk's first vertex in the primitive.
    pub start: usize,
    pub len: usize,
    pub one: Vec<RigidRun>,
    pub two: Group<2>,
    pub three: Group<3>,
    pub four: Group<4>,
    /// Vertices with five to eight influences, skinned from the primitive's own arrays.
    pub more: Vec<u16>,
}

/// A primitive's influences, regrouped (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct InfluenceSplit {
    pub chunks: Vec<Chunk>,
    #[cfg(any(test, feature = "internals"))]
    vertices: usize,
}

impl InfluenceSplit {
    /// Regroups `influences` (one entry per vertex). A vertex's influence count is its number
    /// of non-zero weights; one with none is bound to its first joint, as the general kernel does.
    pub fn new(influences: Influences) -> Self {
        let vertices = influences.joints.len().min(influences.weights.len());
        let chunks = (0..vertices)
            .step_by(CHUNK_VERTICES)
            .map(|start| split_chunk(&influences, start, CHUNK_VERTICES.min(vertices - start)))
            .collect();
        Self {
            chunks,
            #[cfg(any(test, feature = "internals"))]
            vertices,
        }
    }

    /// How many vertices the split covers.
    #[cfg(any(test, feature = "internals"))]
    pub fn vertex_count(&self) -> usize {
        self.vertices
    }
}

fn split_chunk(influences: &Influences, start: usize, len: usize) -> Chunk {
    let mut chunk = Chunk {
        start,
        len,
        ..Chunk::default()
    };
    for offset in 0..len {
        let v = start + offset;
        let vertex = offset as u16;
        let extra = influences
            .weights_extra
            .get(v)
            .is_some_and(|w| w.iter().any(|&w| w != 0.0));
        if extra {
            chunk.more.push(vertex);
            continue;
        }
        // Influences are kept strongest first; gather the non-zero ones in case a file's are not.
        let (mut joints, mut weights, mut count) = ([0u16; 4], [0f32; 4], 0);
        for (&joint, &weight) in influences.joints[v].iter().zip(&influences.weights[v]) {
            if weight != 0.0 {
                (joints[count], weights[count]) = (joint, weight);
                count += 1;
            }
        }
        match count {
            0 => extend_run(&mut chunk.one, vertex, influences.joints[v][0]),
            1 => extend_run(&mut chunk.one, vertex, joints[0]),
            2 => chunk.two.push(vertex, &joints, &weights),
            3 => chunk.three.push(vertex, &joints, &weights),
            _ => chunk.four.push(vertex, &joints, &weights),
        }
    }
    chunk
}

/// Adds `vertex` (moved by `joint` alone) to the last run if it continues it, else starts one.
fn extend_run(runs: &mut Vec<RigidRun>, vertex: u16, joint: u16) {
    match runs.last_mut() {
        Some(run) if run.joint == joint && run.start + run.len == vertex => run.len += 1,
        _ => runs.push(RigidRun {
            start: vertex,
            len: 1,
            joint,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_go_to_their_influence_count() {
        let joints = [
            [3, 0, 0, 0],
            [1, 2, 0, 0],
            [1, 0, 2, 5],
            [4, 5, 6, 7],
            [9, 0, 0, 0],
            [2, 1, 0, 0],
        ];
        let weights = [
            [1.0, 0.0, 0.0, 0.0],
            [0.75, 0.25, 0.0, 0.0],
            // A zero weight between non-zero ones is skipped.
            [0.5, 0.0, 0.3, 0.2],
            [0.4, 0.3, 0.2, 0.1],
            [0.0; 4],
            [0.5, 0.25, 0.0, 0.0],
        ];
        let mut joints_extra = [[0u16; 4]; 6];
        let mut weights_extra = [[0f32; 4]; 6];
        joints_extra[5] = [8, 0, 0, 0];
        weights_extra[5] = [0.25, 0.0, 0.0, 0.0];
        let split = InfluenceSplit::new(Influences {
            joints: &joints,
            weights: &weights,
            joints_extra: &joints_extra,
            weights_extra: &weights_extra,
        });
        assert_eq!(split.vertex_count(), 6);
        let [chunk] = &split.chunks[..] else {
            panic!("one chunk")
        };
        let run = |start, len, joint| RigidRun { start, len, joint };
        assert_eq!(chunk.one, [run(0, 1, 3), run(4, 1, 9)], "no weights: the first joint");
        assert_eq!(chunk.two.vertices(), [1]);
        assert_eq!(
            (chunk.two.joints(), chunk.two.weights()),
            (&[[1, 2]][..], &[[0.75, 0.25]][..])
        );
        assert_eq!(chunk.three.vertices(), [2]);
        assert_eq!(
            (chunk.three.joints(), chunk.three.weights()),
            (&[[1, 2, 5]][..], &[[0.5, 0.3, 0.2]][..])
        );
        assert_eq!(
            (chunk.four.joints(), chunk.four.weights()),
            (&[[4, 5, 6, 7]][..], &[[0.4, 0.3, 0.2, 0.1]][..])
        );
        let ends = |group: &Group<3>| (group.vertex_end(), group.joint_end());
        assert_eq!(ends(&chunk.three), (3, 6));
        assert_eq!(ends(&Group::default()), (0, 0));
        assert_eq!(chunk.more, [5]);
    }

    #[test]
    fn big_primitives_are_cut_into_chunks() {
        let vertices = CHUNK_VERTICES * 2 + 5;
        let joints = vec![[0u16; 4]; vertices];
        let weights = vec![[1.0f32, 0.0, 0.0, 0.0]; vertices];
        let split = InfluenceSplit::new(Influences {
            joints: &joints,
            weights: &weights,
            joints_extra: &[],
            weights_extra: &[],
        });
        let spans: Vec<_> = split.chunks.iter().map(|c| (c.start, c.len, &c.one[..])).collect();
        let run = |len| {
            [RigidRun {
                start: 0,
                len,
                joint: 0,
            }]
        };
        assert_eq!(
            spans,
            [
                (0, CHUNK_VERTICES, &run(CHUNK_VERTICES as u16)[..]),
                (CHUNK_VERTICES, CHUNK_VERTICES, &run(CHUNK_VERTICES as u16)[..]),
                (2 * CHUNK_VERTICES, 5, &run(5)[..])
            ]
        );
    }
}
