//! CPU skinning: matrix palettes, morph targets and linear blend skinning.
//!
//! The kernels (`palette`, `morph`, `linear`) work on plain slices and write into buffers the
//! caller owns; [`Deformer`] applies them to every mesh instance of a [`Model`] for a pose and
//! keeps the results, allocating only when it is created.
//!
//! [`Model`]: crate::asset::Model

mod deformer;
pub mod linear;
pub mod morph;
pub mod palette;

pub use deformer::{Deformer, PosedPrimitive, posed_order};
