//! A primitive's vertex data as the model holds it, before it is written, and the narrowest
//! types it fits: shared by the plain, meshopt and Draco writers of `meshes`.

use glam::{Vec2, Vec3, Vec4};

/// The largest index a 16-bit index accessor may hold (65535 is the primitive-restart value).
const LAST_U16_INDEX: usize = 65_534;

/// One vertex attribute of a primitive as the model holds it, before it is written.
#[derive(Clone, Copy, Debug)]
pub enum Vertices<'a> {
    Positions(&'a [Vec3]),
    Normals(&'a [Vec3]),
    /// xyz and the handedness in w.
    Tangents(&'a [Vec4]),
    TexCoords(&'a [Vec2]),
    /// Linear RGBA.
    Colors(&'a [Vec4]),
    /// One influence set's joints (indices into the skin's joints).
    Joints(&'a [[u16; 4]]),
    /// One influence set's weights (all sets of a vertex sum to 1).
    Weights(&'a [[f32; 4]]),
}

/// Joint indices as unsigned bytes when every one fits (none: they stay unsigned shorts).
pub fn narrow_joints(joints: &[[u16; 4]]) -> Option<Vec<[u8; 4]>> {
    (joints.iter().flatten().all(|&joint| joint <= u16::from(u8::MAX)))
        .then(|| joints.iter().map(|j| j.map(|joint| joint as u8)).collect())
}

/// Whether indices into `vertices` vertices fit 16 bits.
pub fn short_indices(vertices: usize) -> bool {
    vertices <= LAST_U16_INDEX + 1
}
