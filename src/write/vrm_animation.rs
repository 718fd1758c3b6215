//! `VRMC_vrm_animation` (a `.vrma`) written back, the inverse of `asset::gltf::vrm_animation`:
//! the humanoid bones it animates, the nodes whose translation's x is each expression's weight
//! (presets are the names VRM 1.0 gives presets) and the node whose rotation is the gaze.

use serde_json::{Map, Value, json};

use crate::anim::avatar::PRESETS;
use crate::asset::avatar::VrmAnimation;

pub const EXTENSION: &str = "VRMC_vrm_animation";

/// `VRMC_vrm_animation`: presets are the expressions VRM 1.0 names so.
pub fn vrm_animation(animation: &VrmAnimation) -> Value {
    let bones: Map<String, Value> = (animation.humanoid.iter())
        .map(|&(bone, joint)| (bone.to_owned(), json!({ "node": joint })))
        .collect();
    let (mut preset, mut custom) = (Map::new(), Map::new());
    for (name, joint) in &animation.expressions {
        let kind = if PRESETS.contains(&name.as_str()) {
            &mut preset
        } else {
            &mut custom
        };
        kind.insert(name.clone(), json!({ "node": joint }));
    }
    let mut json = json!({
        "specVersion": "1.0",
        "humanoid": { "humanBones": bones },
        "expressions": { "preset": preset, "custom": custom },
    });
    if let Some(look_at) = animation.look_at {
        json["lookAt"] = json!({ "node": look_at });
    }
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::write::vrm::tests::round_trip;

    #[test]
    fn a_vrm_animation_reads_back_equal() {
        let mut model = demo_model();
        let joint = |name: &str| model.skeleton.find(name).unwrap();
        model.vrm_animation = VrmAnimation {
            humanoid: vec![("hips", joint("hips")), ("head", joint("head"))],
            expressions: vec![("happy".into(), joint("toe.L")), ("shrug".into(), joint("toe.R"))],
            look_at: Some(joint("wrist.L")),
        };
        let (read, json, _) = round_trip(&model, "written.vrma");
        assert_eq!(read.vrm_animation, model.vrm_animation);
        let expressions = &json["extensions"][EXTENSION]["expressions"];
        assert_eq!(expressions["custom"]["shrug"]["node"], json!(joint("toe.R")));
        let mut value_joints = vec![joint("toe.L"), joint("toe.R"), joint("wrist.L")];
        value_joints.sort_unstable();
        assert_eq!(read.value_joints, value_joints);
    }
}
