//! The model's punctual lights as `KHR_lights_punctual`, one per light, on their joints' nodes.

use super::document::Document;
use crate::asset::{LightKind, Model};

const EXTENSION: &str = "KHR_lights_punctual";

/// Writes the lights into the root's extension; returns, per joint, the light its node holds.
pub fn write_lights(document: &mut Document, model: &Model) -> Vec<Option<usize>> {
    let mut on_joint = vec![None; model.skeleton.len()];
    if model.lights.is_empty() {
        return on_joint;
    }
    let mut lights = Vec::with_capacity(model.lights.len());
    for (index, light) in model.lights.iter().enumerate() {
        let mut json = serde_json::json!({
            "name": light.name,
            "type": light.kind.name(),
            "color": light.color.to_array(),
            "intensity": light.intensity,
        });
        if let Some(range) = light.range {
            json["range"] = range.into();
        }
        if let LightKind::Spot { inner, outer } = light.kind {
            json["spot"] = serde_json::json!({ "innerConeAngle": inner, "outerConeAngle": outer });
        }
        lights.push(json);
        if let Some(slot) = on_joint.get_mut(light.joint) {
            *slot = Some(index);
        }
    }
    document.set_root_extension(EXTENSION, serde_json::json!({ "lights": lights }));
    on_joint
}

/// The node's side of the extension: which light it holds.
pub fn node_light(light: usize) -> (String, serde_json::Value) {
    (EXTENSION.into(), serde_json::json!({ "light": light }))
}
