//! Cyclic coordinate descent: each sweep turns every joint, from the one nearest the end
//! effector back to the root, so that the effector points at the target as seen from that
//! joint, and limits the turn by the joint's constraint.

use glam::Vec3;

use super::Outcome;
use super::chain::IkChain;

/// Runs up to `iterations` sweeps, stopping once the effector is within `threshold` of
/// `target` (model space). Sweeps that find it already there change nothing.
pub fn solve_ccd(chain: &mut IkChain, target: Vec3, iterations: u32, threshold: f32) -> Outcome {
    for iteration in 0..iterations {
        if chain.end_position().distance(target) <= threshold {
            return Outcome::new(chain, target, threshold, iteration);
        }
        for joint in (0..chain.bones()).rev() {
            let origin = chain.position(joint);
            chain.rotate_towards(joint, chain.end_position() - origin, target - origin);
            chain.align_hinge_plane(joint, target);
        }
    }
    Outcome::new(chain, target, threshold, iterations)
}
