//! The rest pose and the bind pose of paired joints compared, in model space.
//!
//! - **Rest**: each joint's rest model matrix (`Skeleton::rest_pose`, joint space → model
//!   space). A joint turned at rest carries its children along, so a joint is reported where
//!   its own transform changed: it moved in model space and its parent did not, or its local
//!   transform (relative to its parent) changed too. The joints below it that only follow are
//!   counted in its finding.
//! - **Bind**: each joint's bind matrix in model space (`Skeleton::bind_pose`, made from the
//!   skins' inverse bind matrices in the model's frame). Bind matrices do not depend on one
//!   another, so every joint whose bind moved is reported. Joints in no skin have none.
//!
//! A change is a distance between the matrices' translations (metres) and the angle of the
//! rotation from one's rotation to the other's (degrees).

use glam::{Mat4, Quat, Vec3};

use super::joints::JointComparison;
use super::report_text::{format_angle, format_distance};
use super::{Finding, JointChange, Section, Tolerance, beyond};
use crate::anim::Transform;
use crate::asset::Model;

/// How far one transform is from another.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Offset {
    /// Between the translations, in metres.
    pub distance: f32,
    /// Of the rotation from one to the other, in degrees.
    pub angle_degrees: f32,
}

impl Offset {
    /// The offset between two joint-space → model-space (or parent-space) matrices.
    pub fn between_matrices(a: &Mat4, b: &Mat4) -> Offset {
        let (_, rotation_a, translation_a) = a.to_scale_rotation_translation();
        let (_, rotation_b, translation_b) = b.to_scale_rotation_translation();
        Offset::between(translation_a, rotation_a, translation_b, rotation_b)
    }

    pub fn between_transforms(a: &Transform, b: &Transform) -> Offset {
        Offset::between(a.translation, a.rotation, b.translation, b.rotation)
    }

    fn between(translation_a: Vec3, rotation_a: Quat, translation_b: Vec3, rotation_b: Quat) -> Offset {
        Offset {
            distance: translation_a.distance(translation_b),
            angle_degrees: angle_degrees(rotation_a, rotation_b),
        }
    }

    /// Whether it is beyond `tolerance` in distance or angle (NaN counts as beyond).
    pub fn beyond(&self, tolerance: &Tolerance) -> bool {
        beyond(self.distance, tolerance.distance) || beyond(self.angle_degrees, tolerance.angle_degrees)
    }

    /// "moved 1.00 cm, turned 5.00°", naming only what is beyond `tolerance`.
    pub fn describe(&self, tolerance: &Tolerance) -> String {
        let moved =
            beyond(self.distance, tolerance.distance).then(|| format!("moved {}", format_distance(self.distance)));
        let turned = beyond(self.angle_degrees, tolerance.angle_degrees)
            .then(|| format!("turned {}", format_angle(self.angle_degrees)));
        moved.into_iter().chain(turned).collect::<Vec<_>>().join(", ")
    }
}

/// The angle of the rotation taking `a` to `b`, in degrees, 0 to 180. Worked out from the
/// relative rotation's sine and cosine: `acos` of a dot product near 1 loses the small angles
/// a tolerance of a hundredth of a degree needs.
pub fn angle_degrees(a: Quat, b: Quat) -> f32 {
    let relative = a.inverse() * b;
    (2.0 * relative.xyz().length().atan2(relative.w.abs())).to_degrees()
}

/// Each joint's bind matrix (joint space → model space in the bind pose: the skeleton's bind
/// pose, which the loaders make from the skins' inverse bind matrices in the model's frame; an
/// FBX's inverse bind matrices map its mesh node's space, not the model's) for the joints some
/// skin lists; None for joints in no skin.
fn bind_matrices(model: &Model) -> Vec<Option<Mat4>> {
    let bind = model.skeleton.bind_pose().to_model_matrices();
    let mut binds = vec![None; model.skeleton.len()];
    for &joint in model.skins.iter().flat_map(|skin| &skin.joints) {
        if let (Some(slot), Some(matrix)) = (binds.get_mut(joint), bind.get(joint)) {
            *slot = Some(*matrix);
        }
    }
    binds
}

/// Compares the rest and bind transforms of the paired joints, adding a `JointChange::Moved`
/// per joint that moved and the findings.
pub fn compare(a: &Model, b: &Model, joints: &mut JointComparison, tolerance: &Tolerance, findings: &mut Vec<Finding>) {
    let rest = a.skeleton.rest_pose().to_model_matrices();
    let rest_b = b.skeleton.rest_pose().to_model_matrices();
    let (local, local_b) = (a.skeleton.rest_pose().local(), b.skeleton.rest_pose().local());
    let (binds, binds_b) = (bind_matrices(a), bind_matrices(b));

    let mut rest_offsets = vec![Offset::default(); a.skeleton.len()];
    let mut bind_offsets = vec![Offset::default(); a.skeleton.len()];
    for (joint, joint_b) in joints.pairs.iter().enumerate().filter_map(|(j, p)| Some((j, (*p)?))) {
        rest_offsets[joint] = Offset::between_matrices(&rest[joint], &rest_b[joint_b]);
        if let (Some(bind), Some(bind_b)) = (binds[joint], binds_b[joint_b]) {
            bind_offsets[joint] = Offset::between_matrices(&bind, &bind_b);
        }
    }
    let rest_moved: Vec<bool> = rest_offsets.iter().map(|o| o.beyond(tolerance)).collect();

    // A moved joint is where a change starts when its parent stayed, or its own local
    // transform changed; the others follow the nearest such joint above them.
    let mut starts = vec![false; a.skeleton.len()];
    for (joint, joint_b) in joints.pairs.iter().enumerate().filter_map(|(j, p)| Some((j, (*p)?))) {
        let parent_stayed = a.skeleton.parent(joint).is_none_or(|parent| !rest_moved[parent]);
        let local_changed = Offset::between_transforms(&local[joint], &local_b[joint_b]).beyond(tolerance);
        starts[joint] = rest_moved[joint] && (parent_stayed || local_changed);
    }
    let mut followers = vec![(0usize, 0.0f32); a.skeleton.len()];
    for joint in (0..a.skeleton.len()).filter(|&j| rest_moved[j] && !starts[j]) {
        if let Some(start) = a.skeleton.hierarchy().ancestors(joint).find(|&j| starts[j]) {
            let (count, farthest) = &mut followers[start];
            *count += 1;
            *farthest = farthest.max(rest_offsets[joint].distance);
        }
    }

    for (joint, joint_b) in joints.pairs.iter().enumerate().filter_map(|(j, p)| Some((j, (*p)?))) {
        let name = a.skeleton.name(joint);
        if starts[joint] {
            let mut text = format!("'{name}': rest {}", rest_offsets[joint].describe(tolerance));
            let (count, farthest) = followers[joint];
            if count > 0 {
                let (joints, follow) = if count == 1 {
                    ("joint", "follows")
                } else {
                    ("joints", "follow")
                };
                text += &format!(
                    "; {count} {joints} below it {follow} (up to {})",
                    format_distance(farthest)
                );
            }
            findings.push(bind_finding(text, joint));
        }
        let bind_moved = bind_offsets[joint].beyond(tolerance);
        if bind_moved {
            let text = format!("'{name}': bind {}", bind_offsets[joint].describe(tolerance));
            findings.push(bind_finding(text, joint));
        }
        if rest_moved[joint] || bind_moved {
            joints.changes.push(JointChange::Moved {
                joint,
                joint_b,
                rest_distance: rest_offsets[joint].distance,
                rest_angle_degrees: rest_offsets[joint].angle_degrees,
                bind_distance: bind_offsets[joint].distance,
                bind_angle_degrees: bind_offsets[joint].angle_degrees,
            });
        }
    }
    joints.summary.rest_moved = starts.iter().filter(|&&s| s).count();
    joints.summary.bind_moved = bind_offsets.iter().filter(|o| o.beyond(tolerance)).count();
    // A's joints in order (each joint's changes as found), then the joints only in B.
    (joints.changes).sort_by_key(|change| (change.joint().unwrap_or(usize::MAX), change.joint_b()));
}

fn bind_finding(text: String, joint: usize) -> Finding {
    Finding {
        section: Section::Binds,
        text,
        joint: Some(joint),
        clip: None,
        time: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_angles_are_measured_exactly() {
        let turned = Quat::from_rotation_y(0.005f32.to_radians());
        assert!((angle_degrees(Quat::IDENTITY, turned) - 0.005).abs() < 1e-5);
        assert_eq!(angle_degrees(turned, turned), 0.0);
        // q and −q are the same rotation.
        assert!(angle_degrees(turned, -turned) < 1e-6);
    }

    #[test]
    fn an_offset_names_only_what_is_beyond_tolerance() {
        let tolerance = Tolerance::default();
        let moved = Offset {
            distance: 0.01,
            angle_degrees: 0.001,
        };
        assert_eq!(moved.describe(&tolerance), "moved 1.00 cm");
        let turned = Offset {
            distance: 0.0,
            angle_degrees: 5.0,
        };
        assert_eq!(turned.describe(&tolerance), "turned 5.00°");
        assert!(!Offset::default().beyond(&tolerance));
    }
}
