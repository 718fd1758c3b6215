//! Morph target names. glTF itself does not name morph targets; exporters (Blender, three.js,
//! Babylon, Maya's) write them as `extras.targetNames` on the mesh, an array of strings in
//! target order. Some put it on a primitive's `extras` instead, which is accepted when the mesh
//! has none. Names that cannot be used (not an array of strings, or not one per target) are a
//! warning, and the targets are named by their index.

use serde_json::Value;

/// Where a mesh's `targetNames` was found (its JSON pointer) and the value written there.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenNames {
    pub pointer: String,
    pub value: Value,
}

/// Per mesh of the document, the `targetNames` it writes, if any.
pub fn written_names(root: &Value) -> Vec<Option<WrittenNames>> {
    let meshes = root
        .get("meshes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    meshes
        .iter()
        .enumerate()
        .map(|(index, mesh)| {
            let on_mesh = names_in(mesh).map(|value| (format!("/meshes/{index}/extras/targetNames"), value));
            let primitives = mesh.get("primitives").and_then(Value::as_array).into_iter().flatten();
            let on_primitive = || {
                primitives.enumerate().find_map(|(p, primitive)| {
                    names_in(primitive)
                        .map(|value| (format!("/meshes/{index}/primitives/{p}/extras/targetNames"), value))
                })
            };
            on_mesh.or_else(on_primitive).map(|(pointer, value)| WrittenNames {
                pointer,
                value: value.clone(),
            })
        })
        .collect()
}

fn names_in(object: &Value) -> Option<&Value> {
    object.get("extras")?.get("targetNames")
}

/// The name of each of a mesh's `count` morph targets: those `written` when they are usable,
/// else "target N". Why written names were not used goes to `warnings`.
pub fn resolve(written: Option<&WrittenNames>, count: usize, warnings: &mut Vec<String>) -> Vec<String> {
    let by_index = || (0..count).map(|index| format!("target {index}")).collect();
    let Some(WrittenNames { pointer, value }) = written else {
        return by_index();
    };
    let problem = match value {
        Value::Array(items) if items.len() != count => {
            format!("{} names for {count} morph targets", items.len())
        }
        Value::Array(items) => match items.iter().position(|item| !item.is_string()) {
            Some(bad) => format!("entry {bad} is not a string"),
            None => return items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        },
        _ => "it is not an array of strings".to_owned(),
    };
    warnings.push(format!("{pointer}: {problem} (targets named by index)"));
    by_index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(document: Value, count: usize) -> (Vec<String>, Vec<String>) {
        let written = written_names(&document);
        let mut warnings = Vec::new();
        let names = resolve(written[0].as_ref(), count, &mut warnings);
        (names, warnings)
    }

    #[test]
    fn mesh_extras_name_the_targets() {
        let document = json!({"meshes": [{"extras": {"targetNames": ["Angry", "Sad"]}, "primitives": []}]});
        assert_eq!(names(document, 2), (vec!["Angry".into(), "Sad".into()], vec![]));
    }

    #[test]
    fn a_primitives_extras_are_used_when_the_mesh_has_none() {
        let document = json!({"meshes": [{"primitives": [
            {"extras": {"other": 1}},
            {"extras": {"targetNames": ["Blink"]}}
        ]}]});
        assert_eq!(names(document, 1), (vec!["Blink".into()], vec![]));
        let both = json!({"meshes": [{"extras": {"targetNames": ["Mesh"]},
            "primitives": [{"extras": {"targetNames": ["Primitive"]}}]}]});
        assert_eq!(names(both, 1).0, ["Mesh"], "the mesh's names come first");
    }

    #[test]
    fn without_names_targets_are_named_by_index() {
        assert_eq!(
            names(json!({"meshes": [{"primitives": []}]}), 2),
            (vec!["target 0".into(), "target 1".into()], vec![])
        );
        assert!(written_names(&json!({"meshes": 3})).is_empty());
    }

    #[test]
    fn unusable_names_are_a_warning_and_fall_back_to_indices() {
        let cases = [
            (
                json!("Angry"),
                "/meshes/0/extras/targetNames: it is not an array of strings",
            ),
            (
                json!({"0": "Angry"}),
                "/meshes/0/extras/targetNames: it is not an array of strings",
            ),
            (
                json!(["Angry", 7]),
                "/meshes/0/extras/targetNames: entry 1 is not a string",
            ),
            (
                json!(["Angry"]),
                "/meshes/0/extras/targetNames: 1 names for 2 morph targets",
            ),
            (
                json!(["Angry", "Sad", "Surprised"]),
                "/meshes/0/extras/targetNames: 3 names for 2 morph targets",
            ),
        ];
        for (value, warning) in cases {
            let document = json!({"meshes": [{"extras": {"targetNames": value}, "primitives": []}]});
            let (names, warnings) = names(document, 2);
            assert_eq!(names, ["target 0", "target 1"], "{value}");
            assert_eq!(warnings, [format!("{warning} (targets named by index)")], "{value}");
        }
    }
}
