//! `Pose::model_matrices` (local matrices built four joints at a time in SIMD lanes) against
//! the plain definition, a general `Mat4` product of each parent's model matrix and the
//! joint's `Transform::to_mat4`, on every sample asset: the rest pose and every clip at
//! several times, every joint within 1e-6 of the rig's size.

use crate::common;

use glam::Mat4;
use rigscope::anim::{Pose, joint_extent};
use rigscope::asset;

/// Each joint's model matrix by the definition, one joint at a time.
fn reference(pose: &Pose) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(pose.len());
    for (joint, local) in pose.local().iter().enumerate() {
        out.push(match pose.hierarchy().parent(joint) {
            Some(parent) => out[parent] * local.to_mat4(),
            None => local.to_mat4(),
        });
    }
    out
}

/// The largest difference of any matrix element, relative to the rig's size (1 for a rig of
/// one point), and the joint where it is.
fn worst_difference(pose: &Pose) -> (f32, usize) {
    let expected = reference(pose);
    let mut actual = vec![Mat4::ZERO; pose.len()];
    pose.model_matrices(&mut actual);
    let size = joint_extent(&expected).max(1.0);
    let mut worst = (0.0f32, 0);
    for (joint, (a, e)) in actual.iter().zip(&expected).enumerate() {
        let difference = (*a - *e).abs().to_cols_array().into_iter().fold(0.0, f32::max) / size;
        assert!(difference.is_finite(), "joint {joint}: {a} against {e}");
        if difference > worst.0 {
            worst = (difference, joint);
        }
    }
    worst
}

#[test]
fn every_joint_of_every_sample_pose_matches_the_per_joint_product() {
    let mut poses = 0;
    let mut joint_counts = Vec::new();
    for file in common::all_rig_files() {
        let model = asset::load(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rest = model.skeleton.rest_pose();
        joint_counts.push(rest.len());
        let (worst, joint) = worst_difference(rest);
        assert!(
            worst <= 1e-6,
            "{}: rest pose, joint {joint} off by {worst}",
            file.display()
        );
        poses += 1;
        for clip in &model.clips {
            let mut pose = rest.clone();
            for step in 0..5 {
                let time = clip.duration() * step as f32 / 4.0;
                clip.sample(time, &mut pose, &mut clip.cursor());
                let (worst, joint) = worst_difference(&pose);
                assert!(
                    worst <= 1e-6,
                    "{}: clip {:?} at {time} s, joint {joint} off by {worst}",
                    file.display(),
                    clip.name()
                );
                poses += 1;
            }
        }
    }
    assert!(poses > 20, "only {poses} poses: are the sample assets there?");
    assert!(
        joint_counts.iter().any(|count| count % 4 != 0),
        "the assets cover a joint count that is not a multiple of four: {joint_counts:?}"
    );
}
