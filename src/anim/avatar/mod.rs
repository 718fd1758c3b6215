//! What a VRM avatar adds to its pose each frame, in the order VRM 1.0 gives: expressions (facial
//! poses over morph targets and material values).

pub mod expression;

pub use expression::{Expression, Override, PRESETS, apply_expressions};
