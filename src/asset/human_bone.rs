//! The humanoid bones of a VRM avatar (VRM 1.0's 55, which 0.x's names map onto), each with its
//! parent in the humanoid hierarchy and whether an avatar must map it.

/// A humanoid bone: its VRM 1.0 name and its parent bone (none for the hips).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanBone {
    pub name: &'static str,
    pub parent: Option<&'static str>,
}

const fn bone(name: &'static str, parent: &'static str) -> HumanBone {
    HumanBone {
        name,
        parent: Some(parent),
    }
}

/// Every humanoid bone, parents before children, in VRM 1.0's order.
pub const HUMAN_BONES: [HumanBone; 55] = [
    HumanBone {
        name: "hips",
        parent: None,
    },
    bone("spine", "hips"),
    bone("chest", "spine"),
    bone("upperChest", "chest"),
    bone("neck", "upperChest"),
    bone("head", "neck"),
    bone("leftEye", "head"),
    bone("rightEye", "head"),
    bone("jaw", "head"),
    bone("leftUpperLeg", "hips"),
    bone("leftLowerLeg", "leftUpperLeg"),
    bone("leftFoot", "leftLowerLeg"),
    bone("leftToes", "leftFoot"),
    bone("rightUpperLeg", "hips"),
    bone("rightLowerLeg", "rightUpperLeg"),
    bone("rightFoot", "rightLowerLeg"),
    bone("rightToes", "rightFoot"),
    bone("leftShoulder", "upperChest"),
    bone("leftUpperArm", "leftShoulder"),
    bone("leftLowerArm", "leftUpperArm"),
    bone("leftHand", "leftLowerArm"),
    bone("rightShoulder", "upperChest"),
    bone("rightUpperArm", "rightShoulder"),
    bone("rightLowerArm", "rightUpperArm"),
    bone("rightHand", "rightLowerArm"),
    bone("leftThumbMetacarpal", "leftHand"),
    bone("leftThumbProximal", "leftThumbMetacarpal"),
    bone("leftThumbDistal", "leftThumbProximal"),
    bone("leftIndexProximal", "leftHand"),
    bone("leftIndexIntermediate", "leftIndexProximal"),
    bone("leftIndexDistal", "leftIndexIntermediate"),
    bone("leftMiddleProximal", "leftHand"),
    bone("leftMiddleIntermediate", "leftMiddleProximal"),
    bone("leftMiddleDistal", "leftMiddleIntermediate"),
    bone("leftRingProximal", "leftHand"),
    bone("leftRingIntermediate", "leftRingProximal"),
    bone("leftRingDistal", "leftRingIntermediate"),
    bone("leftLittleProximal", "leftHand"),
    bone("leftLittleIntermediate", "leftLittleProximal"),
    bone("leftLittleDistal", "leftLittleIntermediate"),
    bone("rightThumbMetacarpal", "rightHand"),
    bone("rightThumbProximal", "rightThumbMetacarpal"),
    bone("rightThumbDistal", "rightThumbProximal"),
    bone("rightIndexProximal", "rightHand"),
    bone("rightIndexIntermediate", "rightIndexProximal"),
    bone("rightIndexDistal", "rightIndexIntermediate"),
    bone("rightMiddleProximal", "rightHand"),
    bone("rightMiddleIntermediate", "rightMiddleProximal"),
    bone("rightMiddleDistal", "rightMiddleIntermediate"),
    bone("rightRingProximal", "rightHand"),
    bone("rightRingIntermediate", "rightRingProximal"),
    bone("rightRingDistal", "rightRingIntermediate"),
    bone("rightLittleProximal", "rightHand"),
    bone("rightLittleIntermediate", "rightLittleProximal"),
    bone("rightLittleDistal", "rightLittleIntermediate"),
];

/// The bones VRM 1.0 requires: the torso's ends, the legs and the arms.
pub const REQUIRED_1_0: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
];
/// VRM 0.x requires the chest and the neck too.
pub const REQUIRED_0_X_MORE: [&str; 2] = ["chest", "neck"];

/// The bone named `name` (VRM 1.0's names).
pub fn human_bone(name: &str) -> Option<&'static HumanBone> {
    HUMAN_BONES.iter().find(|b| b.name == name)
}

/// VRM 0.x's name for a bone, as VRM 1.0 (and three-vrm) name it: 0.x's thumb bones are one
/// step further out (its proximal is 1.0's metacarpal, its intermediate 1.0's proximal).
pub fn from_vrm0(name: &str) -> String {
    for side in ["left", "right"] {
        if let Some(part) = name.strip_prefix(side).and_then(|rest| rest.strip_prefix("Thumb")) {
            let renamed = match part {
                "Proximal" => "Metacarpal",
                "Intermediate" => "Proximal",
                other => other,
            };
            return format!("{side}Thumb{renamed}");
        }
    }
    name.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_come_first_and_every_name_is_once() {
        for (index, bone) in HUMAN_BONES.iter().enumerate() {
            if let Some(parent) = bone.parent {
                let at = HUMAN_BONES.iter().position(|b| b.name == parent).unwrap();
                assert!(at < index, "{} before {}", parent, bone.name);
            }
            assert_eq!(HUMAN_BONES.iter().filter(|b| b.name == bone.name).count(), 1);
        }
        assert!(
            REQUIRED_1_0
                .iter()
                .chain(&REQUIRED_0_X_MORE)
                .all(|name| human_bone(name).is_some())
        );
        assert_eq!(from_vrm0("leftThumbProximal"), "leftThumbMetacarpal");
        assert_eq!(from_vrm0("rightThumbIntermediate"), "rightThumbProximal");
        assert_eq!(from_vrm0("rightThumbDistal"), "rightThumbDistal");
        assert_eq!(from_vrm0("leftIndexProximal"), "leftIndexProximal");
    }
}
