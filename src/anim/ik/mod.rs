//! Inverse kinematics on a chain of joints, applied after blending.
//!
//! A chain is an end joint (the effector) and the `length` ancestors above it. The solvers
//! change only the rotations of the chain's joints, never translations or scales, so bone
//! lengths stay as animated; the effector's own rotation is left alone. Targets and distances
//! are in model space. Each joint above the effector may carry a constraint (`constraint`),
//! measured from its rest rotation, which the solvers apply after every turn, so the solved
//! rotations respect the limits. (A chain left as animated, because its effector is already at
//! the target, keeps whatever the animation does; with weight below 1 the blend of animated
//! and solved rotations may leave the limits too.)
//!
//! - `ccd`: cyclic coordinate descent; cheap per iteration, favours the joints near the end.
//! - `fabrik`: forward and backward reaching; converges in fewer iterations with a more even
//!   bend.
//!
//! Both stop when the effector is within the threshold of the target or after the given
//! number of iterations; when it already is within the threshold nothing changes. An
//! `IkLayer` blends the solved rotations over the animated ones by its weight.

mod ccd;
mod chain;
mod constraint;
mod fabrik;
mod layer;

use glam::Vec3;

pub use chain::{ChainError, IkChain};
pub use constraint::JointConstraint;
pub use layer::IkLayer;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    Ccd,
    #[default]
    Fabrik,
}

impl Solver {
    /// The iteration limit a chain starts with: enough for ordinary targets. FABRIK moves the
    /// whole chain each pass and reaches most in a few, those near the edge of reach in about
    /// ten; CCD turns one joint at a time and creeps towards targets that need the whole
    /// chain to bend (30 to 70 sweeps on Fox's foreleg).
    pub fn default_iterations(self) -> u32 {
        match self {
            Self::Ccd => 100,
            Self::Fabrik => 20,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Ccd => "CCD",
            Self::Fabrik => "FABRIK",
        }
    }
}

/// What a solve achieved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Iterations run (0 when the effector was already at the target).
    pub iterations: u32,
    /// Model-space distance left between the effector and the target.
    pub distance: f32,
    /// Whether that distance is within the threshold.
    pub reached: bool,
}

impl Outcome {
    fn new(chain: &IkChain, target: Vec3, threshold: f32, iterations: u32) -> Self {
        let distance = chain.end_position().distance(target);
        Self {
            iterations,
            distance,
            reached: distance <= threshold,
        }
    }
}
