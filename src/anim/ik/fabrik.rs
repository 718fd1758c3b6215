//! Forward and backward reaching IK (Aristidou and Lasenby, 2011).
//!
//! The backward pass places the joints from the target back towards the root, each at its
//! bone's length from the next. The forward pass goes from the (fixed) root out, and instead
//! of moving points it turns each joint so that its bone points at the position the backward
//! pass found, limited by the joint's constraint. Positions therefore always come from the
//! rotations, so bone lengths cannot drift and constraints hold after every pass.

use glam::Vec3;

use super::Outcome;
use super::chain::IkChain;

/// Runs up to `iterations` backward/forward passes, stopping once the effector is within
/// `threshold` of `target` (model space). `reach` is scratch space of one point per chain
/// joint. A target beyond the chain's reach straightens the chain towards it in one pass.
pub fn solve_fabrik(chain: &mut IkChain, target: Vec3, iterations: u32, threshold: f32, reach: &mut [Vec3]) -> Outcome {
    let joints = chain.joints().len();
    assert_eq!(reach.len(), joints, "one scratch point per chain joint");
    let root = chain.position(0);
    let total_length = chain.length();
    for iteration in 0..iterations {
        if chain.end_position().distance(target) <= threshold {
            return Outcome::new(chain, target, threshold, iteration);
        }
        if root.distance(target) >= total_length {
            // Out of reach: every bone points from the root along the line to the target.
            let direction = (target - root).normalize_or_zero();
            reach[0] = root;
            for bone in 0..chain.bones() {
                reach[bone + 1] = reach[bone] + direction * chain.bone_length(bone);
            }
        } else {
            reach[joints - 1] = target;
            for joint in (0..joints - 1).rev() {
                let from_next = chain.position(joint) - reach[joint + 1];
                let direction = from_next
                    .try_normalize()
                    .unwrap_or_else(|| (chain.position(joint) - chain.position(joint + 1)).normalize_or_zero());
                reach[joint] = reach[joint + 1] + direction * chain.bone_length(joint);
            }
        }
        for bone in 0..chain.bones() {
            let origin = chain.position(bone);
            chain.rotate_towards(bone, chain.position(bone + 1) - origin, reach[bone + 1] - origin);
            chain.align_hinge_plane(bone, target);
        }
    }
    Outcome::new(chain, target, threshold, iterations)
}
