//! The glTF JSON → `gltf_json::Root`, accepting what the Khronos glTF-Validator accepts, and
//! naming the JSON pointer of anything that cannot be read.
//!
//! Exporters' quirks that read one sensible way are read that way first, with a warning each
//! (`quirks`). gltf-json is also stricter than the specification in a few places, so the JSON
//! tree is adjusted before the typed parse:
//! - whole numbers written with a fraction (`1.0` where the schema wants an integer) become
//!   integers; JSON has one number type and the validator accepts them;
//! - `extras` that are not objects are dropped (any JSON value is allowed; rigscope reads only
//!   the meshes' `targetNames`, taken from the JSON tree before the typed parse);
//! - a scene without `nodes` gets an empty list (the property is optional);
//! - animation channels with a `KHR_animation_pointer` target become ordinary channels when
//!   they point at a node's translation, rotation, scale or morph weights; channels that
//!   point at anything else are taken out and kept aside (`pointer_channels`, resolved
//!   against the loaded model by `pointer`); channels that target nothing are taken out and
//!   listed in warnings.
//!
//! Nodes' `KHR_node_visibility` objects are read here too (gltf-json does not know them).

use gltf_json::Root;
use serde_json::{Map, Value};

use super::pointer::PointerChannel;
use super::quirks;
use super::target_names::{WrittenNames, written_names};
use crate::asset::LoadErrorKind;

/// The parsed document and what the adjustments left out.
pub struct Document {
    pub root: Root,
    /// Per animation, the file's index of each channel left in `root` (for messages).
    pub channel_numbers: Vec<Vec<usize>>,
    /// Per mesh and primitive, the attribute names as written (the typed parse keeps only
    /// those glTF defines, not custom `_NAME`s).
    pub attribute_names: AttributeNames,
    /// Per mesh, the morph target names it writes in its `extras` (see `target_names`).
    pub target_names: Vec<Option<WrittenNames>>,
    /// Per animation, its channels that point at properties other than nodes' transforms.
    pub pointer_channels: Vec<Vec<PointerChannel>>,
    /// Per file node, its `KHR_node_visibility` `visible` (none when it does not say).
    pub node_visible: Vec<Option<bool>>,
    pub warnings: Vec<String>,
}

/// Per mesh and primitive, each attribute's name and accessor index, sorted by name.
pub type AttributeNames = Vec<Vec<Vec<(String, Option<u64>)>>>;

/// Parses a glTF JSON document.
pub fn parse(json: &[u8]) -> Result<Document, LoadErrorKind> {
    let mut warnings = Vec::new();
    // .NET writers start their text with a UTF-8 byte-order mark, which JSON does not allow.
    let json = match json.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => {
            warnings.push("the JSON starts with a byte-order mark (ignored)".to_string());
            rest
        }
        None => json,
    };
    // Some writers pad a GLB's JSON chunk with NUL bytes where glTF asks for spaces.
    let padding = json
        .iter()
        .rev()
        .take_while(|&&b| b == 0 || b.is_ascii_whitespace())
        .count();
    let json = match json[..json.len() - padding].ends_with(b"}") && json[json.len() - padding..].contains(&0) {
        true => {
            warnings.push("the JSON is padded with NUL bytes (ignored)".to_string());
            &json[..json.len() - padding]
        }
        false => json,
    };
    let mut value: Value = serde_json::from_slice(json).map_err(|e| LoadErrorKind::Json(e.to_string()))?;
    if !value.is_object() {
        return Err(LoadErrorKind::invalid(
            "the JSON's top level",
            format!("it is {}, but a glTF file is one JSON object", kind_of(&value)),
        ));
    }
    if let Some(version) = value.pointer("/asset/version").and_then(Value::as_str)
        && version.starts_with("1.")
    {
        return Err(LoadErrorKind::invalid(
            "/asset/version",
            format!("the file is glTF {version}; rigscope reads glTF 2.0"),
        ));
    }
    integral_floats_to_integers(&mut value);
    drop_non_object_extras(&mut value);
    quirks::mend(&mut value, &mut warnings);
    if let Some(Value::Array(scenes)) = value.get_mut("scenes") {
        for scene in scenes.iter_mut().filter_map(Value::as_object_mut) {
            scene.entry("nodes").or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    let mut pointer_channels = Vec::new();
    let channel_numbers = resolve_channel_targets(&mut value, &mut pointer_channels, &mut warnings);
    let node_visible = node_visibility(&value);
    let attribute_names = attribute_names(&value);
    let target_names = written_names(&value);
    let root = serde_path_to_error::deserialize(value)
        .map_err(|e| LoadErrorKind::invalid(json_pointer(e.path()), plain_serde_message(&e.inner().to_string())))?;
    Ok(Document {
        root,
        channel_numbers,
        attribute_names,
        target_names,
        pointer_channels,
        node_visible,
        warnings,
    })
}

fn node_visibility(root: &Value) -> Vec<Option<bool>> {
    let nodes = root
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    nodes
        .iter()
        .map(|node| {
            node.pointer("/extensions/KHR_node_visibility/visible")
                .and_then(Value::as_bool)
        })
        .collect()
}

fn attribute_names(root: &Value) -> AttributeNames {
    fn list<'a>(value: &'a Value, key: &str) -> &'a [Value] {
        value.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }
    list(root, "meshes")
        .iter()
        .map(|mesh| {
            list(mesh, "primitives")
                .iter()
                .map(|primitive| {
                    let attributes = primitive.get("attributes").and_then(Value::as_object);
                    attributes
                        .into_iter()
                        .flatten()
                        .map(|(name, accessor)| (name.clone(), accessor.as_u64()))
                        .collect()
                })
                .collect()
        })
        .collect()
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Below 2^53 every whole f64 is exact, so the integer is the number the file wrote.
const EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

fn integral_floats_to_integers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            let Some(float) = number.as_f64() else { return };
            if float.fract() == 0.0 && float.abs() < EXACT_INTEGER {
                *number = if float >= 0.0 {
                    (float as u64).into()
                } else {
                    (float as i64).into()
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats_to_integers),
        Value::Object(members) => members.values_mut().for_each(integral_floats_to_integers),
        _ => {}
    }
}

fn drop_non_object_extras(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(drop_non_object_extras),
        Value::Object(members) => {
            if members.get("extras").is_some_and(|extras| !extras.is_object()) {
                members.remove("extras");
            }
            members.values_mut().for_each(drop_non_object_extras);
        }
        _ => {}
    }
}

/// Rewrites node-property animation pointers as node targets and takes out the channels that
/// have no node target (into `pointer_channels` when they point at something). Returns, per
/// animation, the file index of each channel kept.
fn resolve_channel_targets(
    root: &mut Value,
    pointer_channels: &mut Vec<Vec<PointerChannel>>,
    warnings: &mut Vec<String>,
) -> Vec<Vec<usize>> {
    let Some(Value::Array(animations)) = root.get_mut("animations") else {
        return Vec::new();
    };
    let mut numbers = Vec::with_capacity(animations.len());
    for (animation_index, animation) in animations.iter_mut().enumerate() {
        let mut pointed = Vec::new();
        let Some(Value::Array(channels)) = animation.get_mut("channels") else {
            numbers.push(Vec::new());
            pointer_channels.push(pointed);
            continue;
        };
        let mut kept = Vec::with_capacity(channels.len());
        let mut index = 0;
        channels.retain_mut(|channel| {
            let number = index;
            index += 1;
            let sampler = channel.get("sampler").and_then(Value::as_u64);
            let Some(target) = channel.get_mut("target").and_then(Value::as_object_mut) else {
                kept.push(number);
                return true; // the typed parse reports the missing target
            };
            if target.contains_key("node") {
                kept.push(number);
                return true;
            }
            let object = format!("/animations/{animation_index}/channels/{number}");
            let pointer = pointer_of(target);
            if let Some((node, property)) = pointer.as_deref().and_then(node_property) {
                target.insert("node".into(), node.into());
                target.insert("path".into(), property.into());
                kept.push(number);
                return true;
            }
            match (pointer, sampler) {
                (Some(pointer), Some(sampler)) => pointed.push(PointerChannel {
                    number,
                    sampler: usize::try_from(sampler).unwrap_or(usize::MAX),
                    pointer,
                }),
                (Some(_), None) => warnings.push(format!("{object}: it names no sampler (not played)")),
                (None, _) => warnings.push(format!("{object}: its target names no node (not played)")),
            }
            false
        });
        numbers.push(kept);
        pointer_channels.push(pointed);
    }
    numbers
}

fn pointer_of(target: &Map<String, Value>) -> Option<String> {
    let pointer = target.get("extensions")?.get("KHR_animation_pointer")?.get("pointer")?;
    pointer.as_str().map(str::to_owned)
}

/// `/nodes/N/translation|rotation|scale|weights` → (N, property).
fn node_property(pointer: &str) -> Option<(u64, &str)> {
    let rest = pointer.strip_prefix("/nodes/")?;
    let (node, property) = rest.split_once('/')?;
    let node = node.parse().ok().filter(|_| !node.starts_with('+'))?;
    matches!(property, "translation" | "rotation" | "scale" | "weights").then_some((node, property))
}

/// serde_path_to_error's path as a JSON pointer (RFC 6901), as the validator writes them.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => pointer.push('?'),
        }
    }
    if pointer.is_empty() {
        "the JSON's top level".into()
    } else {
        pointer
    }
}

/// serde's messages in plain words: "expected …, found …" and the property that is missing.
fn plain_serde_message(message: &str) -> String {
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        return format!("the required property \"{field}\" is missing");
    }
    let mismatch = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|m| m.split_once(", expected "));
    match mismatch {
        Some((found, expected)) => {
            let found = if found == "map" { "an object" } else { found };
            format!("expected {}, found {found}", plain_type(expected))
        }
        None => message.to_owned(),
    }
}

fn plain_type(expected: &str) -> &str {
    if expected.starts_with("struct ") {
        return "an object";
    }
    match expected {
        "index into child of root" => "an index",
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number of 0 or more",
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a sequence" => "an array",
        "a map" => "an object",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(json: &str) -> String {
        match parse(json.as_bytes()) {
            Ok(_) => panic!("{json} parsed"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn whole_numbers_with_fractions_and_any_extras_are_accepted() {
        let json = r#"{"asset": {"version": "2.0", "extras": 5},
            "accessors": [{"componentType": 5126.0, "count": 2.0, "type": "SCALAR", "extras": [1]}]}"#;
        let document = parse(json.as_bytes()).unwrap();
        assert_eq!(document.root.accessors[0].count.0, 2);
    }

    #[test]
    fn type_errors_name_the_json_pointer() {
        let json =
            r#"{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": 1.5, "type": "SCALAR"}]}"#;
        assert_eq!(
            error(json),
            "/accessors/0/count: expected a whole number of 0 or more, found floating point `1.5`"
        );
        assert_eq!(
            error(r#"{"asset": {"version": "2.0"}, "animations": [{"channels": [], "samplers": [{"output": 0}]}]}"#),
            "/animations/0/samplers/0: the required property \"input\" is missing"
        );
        assert_eq!(
            error("[1, 2]"),
            "the JSON's top level: it is an array, but a glTF file is one JSON object"
        );
        assert!(
            error("{").starts_with("not valid JSON (EOF while parsing"),
            "{}",
            error("{")
        );
    }

    #[test]
    fn animation_pointers_to_node_properties_become_node_channels_and_others_are_kept_aside() {
        let json = r#"{"asset": {"version": "2.0"}, "animations": [{"samplers": [], "channels": [
            {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/alphaCutoff"}}}},
            {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/3/rotation"}}}},
            {"sampler": 0, "target": {"path": "rotation"}}
        ]}]}"#;
        let document = parse(json.as_bytes()).unwrap();
        let channels = &document.root.animations[0].channels;
        assert_eq!(channels.len(), 1);
        assert_eq!(channels[0].target.node.value(), 3);
        assert_eq!(document.channel_numbers, vec![vec![1]]);
        assert_eq!(
            document.pointer_channels,
            vec![vec![PointerChannel {
                number: 0,
                sampler: 0,
                pointer: "/materials/0/alphaCutoff".into()
            }]]
        );
        assert_eq!(
            document.warnings,
            vec!["/animations/0/channels/2: its target names no node (not played)"]
        );
    }
}
