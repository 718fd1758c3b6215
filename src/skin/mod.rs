//! CPU skinning: matrix palettes, morph targets, linear blend and dual-quaternion skinning.
//!
//! The kernels (`palette`, `morph`, `linear`, `split_linear`, `dual_quat`) work on plain slices and write into buffers the
//! caller owns; [`Deformer`] applies them to every mesh instance of a [`Model`] for a pose and
//! keeps the results, allocating only when it is created.
//!
//! [`Model`]: crate::asset::Model

mod deformer;
pub mod dual_quat;
pub mod linear;
mod morph;
pub mod palette;
pub mod split;
pub mod split_linear;
mod vertex_registers;
pub mod workers;

#[cfg(any(test, feature = "internals"))]
pub use deformer::PARALLEL_MIN_VERTICES;
pub use deformer::{Deformer, PosedPrimitive, posed_order};

/// How joint transforms are blended at vertices with several influences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinningMethod {
    /// Linear blend skinning: the weighted sum of the joints' matrices.
    #[default]
    Linear,
    /// Dual-quaternion skinning: rotations blended on the sphere, so twists keep volume. Where
    /// the file mixes it with linear blend skinning per vertex (Maya's blended skinning,
    /// `SkinWeights::dual_quat_weights`), mixed as the file says.
    DualQuaternion,
}
