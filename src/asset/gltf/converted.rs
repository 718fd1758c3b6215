//! What a file rigscope wrote says of its source (`asset.extras.rigscope`, see `write`): which
//! file and format it was converted from, and what that file said of its axes and units, for
//! `inspect` and the panel's facts.

use gltf_json::Root;
use serde_json::Value;

/// The facts a converted file carries: "Converted by rigscope 0.2.0 from Fox.fbx (Autodesk
/// FBX)", then each fact its source stated; none for other files.
pub fn conversion_facts(root: &Root) -> Vec<String> {
    let Some(source) = rigscope_extras(root) else {
        return Vec::new();
    };
    let name = source.get("source").and_then(Value::as_str).unwrap_or("a model");
    let by = root.asset.generator.as_deref().unwrap_or("rigscope");
    let mut facts = vec![match source.get("sourceFormat").and_then(Value::as_str) {
        Some(format) => format!("Converted by {by} from {name} ({format})"),
        None => format!("Converted by {by} from {name}"),
    }];
    let stated = source.get("sourceFacts").and_then(Value::as_array);
    let stated = stated.into_iter().flatten().filter_map(Value::as_str);
    facts.extend(stated.map(|fact| format!("Its source said: {fact}")));
    facts
}

/// `asset.extras.rigscope`, when the file has it.
fn rigscope_extras(root: &Root) -> Option<Value> {
    let extras: Value = serde_json::from_str(root.asset.extras.as_ref()?.get()).ok()?;
    extras.get("rigscope").filter(|v| v.is_object()).cloned()
}
