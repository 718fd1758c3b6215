//! A VRM avatar's look-at from 1.0's `lookAt` or 0.x's `firstPerson`, as three-vrm reads it:
//! the type (bones or expressions), the four range maps (0.x: `xRange` the input, `yRange` the
//! output; its curves are not used), and the point offset from the head it looks from (0.x's
//! Z flipped from Unity's axes). Measured from the skeleton's rest pose, so it is read after
//! a 0.x avatar has been turned to face +Z.

use glam::Vec3;
use serde_json::Value;

use super::vrm_json::{number, vec3};

use crate::anim::Skeleton;
use crate::anim::avatar::{LookAt, LookAtKind, RangeMap};
use crate::asset::avatar::{Avatar, VrmVersion};

/// Not a pointer of the glTF JSON: where the avatar keeps the rotation its eyes look by, which
/// a VRM animation's look-at track sets.
pub const ROTATION_POINTER: &str = "/extensions/VRMC_vrm/lookAt/rotation";

/// The look-at of `avatar` (whose file extension is `extension`), if its head is mapped.
pub fn load_look_at(extension: &Value, avatar: &Avatar, skeleton: &Skeleton) -> Option<LookAt> {
    let head = avatar.joint("head")?;
    let (json, kind, keys, input_key, output_key) = match avatar.version {
        VrmVersion::V1 => {
            let json = extension.get("lookAt")?;
            let kind = match json.get("type").and_then(Value::as_str) {
                Some("expression") => LookAtKind::Expression,
                _ => LookAtKind::Bone,
            };
            let keys = [
                "rangeMapHorizontalInner",
                "rangeMapHorizontalOuter",
                "rangeMapVerticalDown",
                "rangeMapVerticalUp",
            ];
            (json, kind, keys, "inputMaxValue", "outputScale")
        }
        VrmVersion::V0 => {
            let json = extension.get("firstPerson")?;
            let kind = match json.get("lookAtTypeName").and_then(Value::as_str) {
                Some("BlendShape") => LookAtKind::Expression,
                _ => LookAtKind::Bone,
            };
            let keys = [
                "lookAtHorizontalInner",
                "lookAtHorizontalOuter",
                "lookAtVerticalDown",
                "lookAtVerticalUp",
            ];
            (json, kind, keys, "xRange", "yRange")
        }
    };
    let default_output = match kind {
        LookAtKind::Bone => 10.0,
        LookAtKind::Expression => 1.0,
    };
    let maps = keys.map(|key| {
        let value = |name: &str| json.get(key).and_then(|map| number(map, name));
        RangeMap {
            input_max: value(input_key).unwrap_or(90.0).max(0.01),
            output_scale: value(output_key).unwrap_or(default_output),
        }
    });
    let offset = match avatar.version {
        VrmVersion::V1 => vec3(json.get("offsetFromHeadBone")),
        VrmVersion::V0 => json.get("firstPersonBoneOffset").map(|o| {
            let component = |key: &str, default: f32| number(o, key).unwrap_or(default);
            Vec3::new(component("x", 0.0), component("y", 0.06), -component("z", 0.0))
        }),
    };
    let rest = skeleton.rest_pose();
    Some(LookAt::new(
        kind,
        head,
        [avatar.joint("leftEye"), avatar.joint("rightEye")],
        offset.unwrap_or(Vec3::new(0.0, 0.06, 0.0)),
        maps,
        rest,
        &rest.to_model_matrices(),
    ))
}
