//! What a VRM avatar adds to its pose each frame, in the order VRM 1.0 gives: expressions (facial
//! poses over morph targets and material values), then spring bones (hair, skirts and tails
//! swinging behind the motion).

pub mod expression;
pub mod spring_bone;

pub use expression::{Expression, Override, PRESETS, apply_expressions};
pub use spring_bone::{Collider, ColliderShape, SpringBones, SpringJoint, SpringReplay, SpringSettings, SpringSimulation};
