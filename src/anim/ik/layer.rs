//! IK as a layer of the animator: one chain, its target, solver settings and weight.

use glam::Vec3;

use super::ccd::solve_ccd;
use super::chain::{ChainError, IkChain};
use super::fabrik::solve_fabrik;
use super::{Outcome, Solver};
use crate::anim::pose::{Hierarchy, Pose};

/// Default threshold as a fraction of the chain's length.
pub const DEFAULT_RELATIVE_THRESHOLD: f32 = 1e-3;

#[derive(Clone, Debug, PartialEq)]
pub struct IkLayer {
    pub chain: IkChain,
    /// Where the effector should be, in model space.
    pub target: Vec3,
    /// 0 leaves the animated pose as it is, 1 applies the solved rotations fully; between,
    /// each chain joint's rotation is slerped from animated to solved.
    pub weight: f32,
    pub solver: Solver,
    pub iterations: u32,
    /// Model-space distance at which the target counts as reached. When `None`, 0.1% of the
    /// chain's length (so it suits rigs in metres and in centimetres alike).
    pub threshold: Option<f32>,
    /// The last solve: the iterations it ran and where the solved chain (at full weight) left
    /// the effector; with weight below 1 the pose written lies between the animation and that.
    /// At weight 0, where the animation leaves it.
    pub outcome: Outcome,
    reach: Vec<Vec3>,
}

impl IkLayer {
    /// A full-weight FABRIK layer on the `length` bones above `end`.
    pub fn new(hierarchy: &Hierarchy, end: usize, length: usize, target: Vec3) -> Result<Self, ChainError> {
        let chain = IkChain::new(hierarchy, end, length)?;
        let reach = vec![Vec3::ZERO; chain.joints().len()];
        Ok(Self {
            chain,
            target,
            weight: 1.0,
            solver: Solver::default(),
            iterations: Solver::default().default_iterations(),
            threshold: None,
            outcome: Outcome::default(),
            reach,
        })
    }

    /// Switches to `solver`; a chain still at the old solver's iteration limit takes the new
    /// one's (a limit someone chose stays).
    pub fn set_solver(&mut self, solver: Solver) {
        if self.iterations == self.solver.default_iterations() {
            self.iterations = solver.default_iterations();
        }
        self.solver = solver;
    }

    /// Solves the chain on `pose` (the animated pose) and blends the result in by `weight`.
    /// `rest` gives the rotations the constraints measure from. Allocates nothing.
    pub fn apply(&mut self, rest: &Pose, pose: &mut Pose) {
        self.outcome = Outcome::default();
        if !self.target.is_finite() {
            return;
        }
        self.chain.load(pose, rest);
        let threshold = self.threshold();
        let weight = self.weight.clamp(0.0, 1.0);
        if weight == 0.0 {
            // Nothing is solved; the outcome says where the animation leaves the effector.
            self.outcome = Outcome::new(&self.chain, self.target, threshold, 0);
            return;
        }
        self.outcome = match self.solver {
            Solver::Ccd => solve_ccd(&mut self.chain, self.target, self.iterations, threshold),
            Solver::Fabrik => solve_fabrik(
                &mut self.chain,
                self.target,
                self.iterations,
                threshold,
                &mut self.reach,
            ),
        };
        if self.outcome.iterations > 0 {
            self.chain.store(pose, weight);
        }
    }

    /// The threshold in use: the one set, or 0.1% of the chain's length as last loaded.
    pub fn threshold(&self) -> f32 {
        self.threshold
            .unwrap_or_else(|| self.chain.length() * DEFAULT_RELATIVE_THRESHOLD)
    }
}
