//! A VRM avatar's humanoid map: the bones the specification requires (1.0: hips, spine, head,
//! the legs and arms; 0.x also the chest and neck), each bone's node below the node of its
//! nearest mapped humanoid ancestor (a map that breaks the order poses a VRM animation into a
//! knot), and the T-pose the rest pose must be (upper arms straight out sideways: +X for the
//! left arm, the avatar facing +Z, as a 0.x avatar does too once loaded).

use glam::Vec3;

use super::{Findings, Rest, Rule, joint_name};
use crate::asset::human_bone::{REQUIRED_0_X_MORE, REQUIRED_1_0, human_bone};
use crate::asset::{Avatar, Model, VrmVersion};

/// How far an upper arm may point from straight out sideways and still be a T-pose.
const T_POSE_TOLERANCE_DEGREES: f32 = 15.0;

pub(super) fn check(model: &Model, rest: &Rest, findings: &mut Findings) {
    let Some(avatar) = &model.avatar else { return };
    let subject = format!("{} humanoid", avatar.version);
    let extra: &[&str] = match avatar.version {
        VrmVersion::V1 => &[],
        VrmVersion::V0 => &REQUIRED_0_X_MORE,
    };
    for bone in REQUIRED_1_0.iter().chain(extra) {
        if avatar.joint(bone).is_none() {
            findings.add(
                Rule::HumanoidBoneMissing,
                &subject,
                format!("required bone '{bone}' is not mapped to a node"),
                1,
            );
        }
    }
    for &(bone, joint) in &avatar.humanoid {
        let Some((ancestor, ancestor_joint)) = mapped_ancestor(avatar, bone) else {
            continue;
        };
        if !is_below(model, joint, ancestor_joint) {
            findings.add(
                Rule::HumanoidOrderBroken,
                format!("{subject} bone '{bone}'"),
                format!(
                    "its node {} is not below {}, the node of '{ancestor}'",
                    joint_name(model, joint),
                    joint_name(model, ancestor_joint)
                ),
                1,
            );
        }
    }
    for (side, outwards) in [("left", Vec3::X), ("right", Vec3::NEG_X)] {
        let (Some(upper), Some(lower)) = (
            avatar.joint(&format!("{side}UpperArm")),
            avatar.joint(&format!("{side}LowerArm")),
        ) else {
            continue;
        };
        let arm = rest.matrices[lower].w_axis.truncate() - rest.matrices[upper].w_axis.truncate();
        let Some(direction) = arm.try_normalize() else { continue };
        let degrees = direction.angle_between(outwards).to_degrees();
        if degrees > T_POSE_TOLERANCE_DEGREES {
            findings.add(
                Rule::HumanoidNotTPose,
                format!("{subject} bone '{side}UpperArm'"),
                format!(
                    "the rest pose is not a T-pose: the upper arm points {degrees:.0}° away from {} (the avatar's {side}, facing +Z)",
                    axis_name(outwards),
                ),
                1,
            );
        }
    }
}

/// The nearest humanoid ancestor of `bone` that the avatar maps, and its joint.
fn mapped_ancestor(avatar: &Avatar, bone: &str) -> Option<(&'static str, usize)> {
    let mut parent = human_bone(bone)?.parent;
    while let Some(name) = parent {
        if let Some(joint) = avatar.joint(name) {
            return Some((name, joint));
        }
        parent = human_bone(name)?.parent;
    }
    None
}

/// Whether `joint` is `ancestor` or below it.
fn is_below(model: &Model, joint: usize, ancestor: usize) -> bool {
    joint == ancestor
        || model
            .skeleton
            .hierarchy()
            .ancestors(joint)
            .any(|above| above == ancestor)
}

fn axis_name(axis: Vec3) -> &'static str {
    if axis.x > 0.0 { "+X" } else { "-X" }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use crate::anim::{JointDesc, Skeleton, Transform};
    use crate::asset::avatar::AvatarMeta;
    use crate::asset::demo::demo_model;
    use crate::asset::{Avatar, Model, VrmVersion};
    use crate::lint::{Rule, lint};

    /// A stick figure whose joints are the fifteen bones VRM 1.0 requires, each mapped to the
    /// joint of its name; the left lower arm and hand lie along `left_arm` from the upper arm
    /// (the right arm mirrors it).
    fn stick_figure(version: VrmVersion, left_arm: Vec3) -> Model {
        let mirrored = left_arm * Vec3::new(-1.0, 1.0, 1.0);
        let joints: [(&'static str, Option<u32>, Vec3); 15] = [
            ("hips", None, Vec3::new(0.0, 1.0, 0.0)),
            ("spine", Some(0), Vec3::new(0.0, 0.2, 0.0)),
            ("head", Some(1), Vec3::new(0.0, 0.4, 0.0)),
            ("leftUpperLeg", Some(0), Vec3::new(0.1, 0.0, 0.0)),
            ("leftLowerLeg", Some(3), Vec3::new(0.0, -0.45, 0.0)),
            ("leftFoot", Some(4), Vec3::new(0.0, -0.45, 0.0)),
            ("rightUpperLeg", Some(0), Vec3::new(-0.1, 0.0, 0.0)),
            ("rightLowerLeg", Some(6), Vec3::new(0.0, -0.45, 0.0)),
            ("rightFoot", Some(7), Vec3::new(0.0, -0.45, 0.0)),
            ("leftUpperArm", Some(1), Vec3::new(0.2, 0.3, 0.0)),
            ("leftLowerArm", Some(9), left_arm),
            ("leftHand", Some(10), left_arm),
            ("rightUpperArm", Some(1), Vec3::new(-0.2, 0.3, 0.0)),
            ("rightLowerArm", Some(12), mirrored),
            ("rightHand", Some(13), mirrored),
        ];
        let descs = joints.iter().map(|&(name, parent, translation)| JointDesc {
            name: name.into(),
            parent,
            rest: Transform::new(translation, Quat::IDENTITY, Vec3::ONE),
            bind_model: None,
            morph_weights: Vec::new(),
        });
        let mut model = demo_model();
        (model.meshes, model.instances, model.skins, model.clips) = Default::default();
        model.skeleton = Skeleton::new(descs.collect()).unwrap();
        model.file_node = (0..joints.len()).collect();
        let humanoid = joints.iter().enumerate();
        let humanoid =
            humanoid.map(|(joint, &(name, _, _))| (crate::asset::human_bone::human_bone(name).unwrap().name, joint));
        model.avatar = Some(Avatar {
            version,
            spec_version: String::new(),
            humanoid: humanoid.collect(),
            meta: AvatarMeta::default(),
            expressions: Vec::new(),
            look_at: None,
        });
        model
    }

    fn humanoid_findings(model: &Model) -> Vec<(Rule, String)> {
        lint(model)
            .into_iter()
            .filter(|f| {
                matches!(
                    f.rule,
                    Rule::HumanoidBoneMissing | Rule::HumanoidOrderBroken | Rule::HumanoidNotTPose
                )
            })
            .map(|f| (f.rule, format!("{}: {}", f.subject, f.message)))
            .collect()
    }

    #[test]
    fn a_complete_avatar_in_t_pose_has_no_findings_and_each_problem_is_named() {
        let out_left = Vec3::new(0.3, 0.0, 0.0);
        assert_eq!(humanoid_findings(&stick_figure(VrmVersion::V1, out_left)), []);
        // A 0.x avatar requires the chest and neck too.
        let found = humanoid_findings(&stick_figure(VrmVersion::V0, out_left));
        let missing: Vec<&str> = found.iter().map(|(_, text)| text.as_str()).collect();
        assert_eq!(
            missing,
            [
                "VRM 0.x humanoid: required bone 'chest' is not mapped to a node",
                "VRM 0.x humanoid: required bone 'neck' is not mapped to a node"
            ]
        );
        // Arms down, or facing -Z: not a T-pose, the angle named.
        let down = humanoid_findings(&stick_figure(VrmVersion::V1, Vec3::new(0.0, -0.3, 0.0)));
        assert_eq!(down.len(), 2, "{down:?}");
        assert!(
            down[0].1.contains("'leftUpperArm'") && down[0].1.contains("90° away from +X"),
            "{down:?}"
        );
        let turned = humanoid_findings(&stick_figure(VrmVersion::V1, -out_left));
        assert!(
            turned
                .iter()
                .any(|(rule, text)| *rule == Rule::HumanoidNotTPose && text.contains("180° away from +X"))
        );
        // A required bone missing; the hand mapped above the lower arm.
        let mut model = stick_figure(VrmVersion::V1, out_left);
        let avatar = model.avatar.as_mut().unwrap();
        avatar.humanoid.retain(|(bone, _)| *bone != "head");
        for (bone, joint) in &mut avatar.humanoid {
            match *bone {
                "leftLowerArm" => *joint = 11,
                "leftHand" => *joint = 10,
                _ => {}
            }
        }
        let found = humanoid_findings(&model);
        let rules: Vec<Rule> = found.iter().map(|(rule, _)| *rule).collect();
        assert_eq!(
            rules,
            [Rule::HumanoidBoneMissing, Rule::HumanoidOrderBroken],
            "{found:?}"
        );
        assert!(
            found[0].1.contains("'head'") && found[1].1.contains("bone 'leftHand'"),
            "{found:?}"
        );
    }
}
