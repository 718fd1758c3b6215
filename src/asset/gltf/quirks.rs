//! What exporters write that glTF does not allow but that reads one sensible way, read that
//! way (as three.js's GLTFLoader and the Khronos Sample Viewer read it), each with a warning
//! that names the object and says what was assumed. The JSON tree is mended before the typed
//! parse; the README lists every reading ("Files from elsewhere").
//!
//! - A member that is `null` is absent (C++ writers turn NaN into `null`; C# writers write
//!   empty lists as `null`).
//! - A fixed-size array of the wrong length: a longer one keeps its first elements (FBX2glTF
//!   builds and others write four-number `emissiveFactor`s); a shorter one, or one holding
//!   something other than numbers, is absent (the default applies), except a three-number
//!   `baseColorFactor`, which is opaque.
//! - An optional index of -1 means none (Blender 2.79's exporter wrote `"material": -1`).
//! - `byteStride: 0` means tightly packed (Google Blocks and Poly).
//! - An animation interpolation in lower case, written as a number (Babylon's exporters wrote
//!   `0`) or unknown is LINEAR, as in three.js; an `alphaMode` in lower case is read as its
//!   upper case, an unknown one is OPAQUE.
//! - A camera without `type` is of the kind its `perspective` or `orthographic` member says.
//! - `asset.version` missing or written as a number is "2.0".
//! - A primitive without `attributes` has none (it is not drawn).

use serde_json::{Map, Value};

/// Reads `root`'s quirks as described above, adding a warning for each.
pub fn mend(root: &mut Value, warnings: &mut Vec<String>) {
    let mut found = Found::default();
    drop_nulls(root, &mut String::new(), &mut found);
    fix_array_lengths(root, &mut found);
    drop_negative_indices(root, &mut String::new(), &mut found);
    read_interpolations(root, &mut found);
    read_alpha_modes(root, &mut found);
    read_byte_strides(root, &mut found);
    read_camera_types(root, &mut found);
    read_asset_version(root, &mut found);
    read_missing_attributes(root, &mut found);
    found.finish(warnings);
}

/// What a quirk is, for the count of those past the first few.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Length,
    Negative,
    Spelling,
}

impl Kind {
    fn plural(self) -> &'static str {
        match self {
            Self::Null => "null properties (read as absent)",
            Self::Length => "arrays of the wrong length",
            Self::Negative => "negative indices (read as none)",
            Self::Spelling => "properties glTF does not spell that way",
        }
    }
}

/// The warnings found so far: the first `SHOWN` of each kind, then a count.
#[derive(Default)]
struct Found {
    shown: Vec<(Kind, String)>,
    more: Vec<(Kind, usize)>,
}

const SHOWN: usize = 8;

impl Found {
    fn add(&mut self, kind: Kind, warning: String) {
        if self.shown.iter().filter(|(k, _)| *k == kind).count() < SHOWN {
            self.shown.push((kind, warning));
        } else if let Some((_, more)) = self.more.iter_mut().find(|(k, _)| *k == kind) {
            *more += 1;
        } else {
            self.more.push((kind, 1));
        }
    }

    fn finish(self, warnings: &mut Vec<String>) {
        warnings.extend(self.shown.into_iter().map(|(_, warning)| warning));
        for (kind, more) in self.more {
            warnings.push(format!("{more} more {}", kind.plural()));
        }
    }
}

/// Calls `each` on every member of an object or element of an array, `pointer` extended to it.
fn for_each_child(
    value: &mut Value,
    pointer: &mut String,
    found: &mut Found,
    each: fn(&mut Value, &mut String, &mut Found),
) {
    let children: Vec<(String, &mut Value)> = match value {
        Value::Object(members) => members.iter_mut().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items.iter_mut().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => return,
    };
    for (key, child) in children {
        let length = pointer.len();
        pointer.push('/');
        pointer.push_str(&key);
        each(child, pointer, found);
        pointer.truncate(length);
    }
}

fn drop_nulls(value: &mut Value, pointer: &mut String, found: &mut Found) {
    if let Value::Object(members) = value {
        let nulls: Vec<String> = (members.iter())
            .filter(|(_, v)| v.is_null())
            .map(|(k, _)| k.clone())
            .collect();
        for key in nulls {
            members.remove(&key);
            found.add(Kind::Null, format!("{pointer}/{key}: null (read as absent)"));
        }
    }
    for_each_child(value, pointer, found, drop_nulls);
}

/// The fixed-size number arrays the typed parse insists on: the top-level list they are in,
/// the path to the array inside each of its entries, and how many numbers they hold.
const FIXED_ARRAYS: [(&str, &[&str], usize); 6] = [
    ("materials", &["emissiveFactor"], 3),
    ("materials", &["pbrMetallicRoughness", "baseColorFactor"], 4),
    ("nodes", &["translation"], 3),
    ("nodes", &["rotation"], 4),
    ("nodes", &["scale"], 3),
    ("nodes", &["matrix"], 16),
];

fn fix_array_lengths(root: &mut Value, found: &mut Found) {
    for (list, path, length) in FIXED_ARRAYS {
        for (index, entry) in entries(root, list) {
            fix_array(entry, path, length, &format!("/{list}/{index}"), found);
        }
    }
    let lights = root.pointer_mut("/extensions/KHR_lights_punctual/lights");
    for (index, light) in lights.and_then(Value::as_array_mut).into_iter().flatten().enumerate() {
        let object = format!("/extensions/KHR_lights_punctual/lights/{index}");
        fix_array(light, &["color"], 3, &object, found);
    }
}

/// The entries of top-level list `list`, with their indices.
fn entries<'a>(root: &'a mut Value, list: &str) -> impl Iterator<Item = (usize, &'a mut Value)> {
    root.get_mut(list)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .enumerate()
}

/// Makes the array at `path` inside `entry` hold `length` numbers, or takes it out (see the
/// module's list).
fn fix_array(entry: &mut Value, path: &[&str], length: usize, object: &str, found: &mut Found) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let parent = parents.iter().try_fold(entry, |value, key| value.get_mut(*key));
    let Some(parent) = parent.and_then(Value::as_object_mut) else {
        return;
    };
    let Some(Value::Array(numbers)) = parent.get_mut(*last) else {
        return;
    };
    let count = numbers.len();
    let all_numbers = numbers.iter().all(Value::is_number);
    if all_numbers && count == length {
        return;
    }
    let pointer = format!("{object}/{}", path.join("/"));
    let warning = if all_numbers && count > length {
        numbers.truncate(length);
        format!("{pointer}: {count} numbers where {length} belong (the first {length} used)")
    } else if all_numbers && *last == "baseColorFactor" && count == 3 {
        numbers.push(1.0.into());
        format!("{pointer}: 3 numbers where 4 belong (opaque: alpha 1 assumed)")
    } else {
        parent.remove(*last);
        match all_numbers {
            true => format!("{pointer}: {count} numbers where {length} belong (the default used)"),
            false => format!("{pointer}: it holds something other than numbers (the default used)"),
        }
    };
    found.add(Kind::Length, warning);
}

/// Optional index properties, for which exporters have written -1 to say "none". (Animation
/// channels' `sampler` is required: a negative one stays, and is refused.)
const OPTIONAL_INDICES: [&str; 8] = [
    "material", "skin", "mesh", "camera", "sampler", "source", "indices", "texCoord",
];

fn drop_negative_indices(value: &mut Value, pointer: &mut String, found: &mut Found) {
    if pointer.starts_with("/animations") {
        return;
    }
    if let Value::Object(members) = value {
        let negative = |(key, value): (&String, &Value)| {
            let below_zero = value.as_f64().is_some_and(|number| number < 0.0);
            (below_zero && OPTIONAL_INDICES.contains(&key.as_str())).then(|| key.clone())
        };
        let keys: Vec<String> = members.iter().filter_map(negative).collect();
        for key in keys {
            let written = members.remove(&key).unwrap_or_default();
            found.add(Kind::Negative, format!("{pointer}/{key}: {written} (read as none)"));
        }
    }
    for_each_child(value, pointer, found, drop_negative_indices);
}

/// `written` as glTF spells one of `known` (ignoring case); else `default`. None when it is
/// spelled right already.
fn respelled(written: &Value, known: &[&'static str], default: &'static str) -> Option<&'static str> {
    let text = written.as_str();
    if text.is_some_and(|t| known.contains(&t)) {
        return None;
    }
    let matching = text.and_then(|t| known.iter().find(|k| k.eq_ignore_ascii_case(t)));
    Some(matching.copied().unwrap_or(default))
}

/// Member `key` of `object` (at JSON pointer `pointer`) spelled as glTF spells one of `known`
/// (`what` names the kind of value in the warning).
fn respell(object: &mut Value, key: &str, (known, default, what): Spellings, pointer: String, found: &mut Found) {
    let Some(written) = object.get(key).cloned() else {
        return;
    };
    let Some(read) = respelled(&written, known, default) else {
        return;
    };
    object[key] = read.into();
    let warning = format!("{pointer}/{key}: {written} is not a glTF {what} ({read} used)");
    found.add(Kind::Spelling, warning);
}

/// The spellings glTF has for a value, the one to read in place of an unknown one, and what
/// the value is.
type Spellings = (&'static [&'static str], &'static str, &'static str);

const INTERPOLATIONS: Spellings = (&["LINEAR", "STEP", "CUBICSPLINE"], "LINEAR", "interpolation");
const ALPHA_MODES: Spellings = (&["OPAQUE", "MASK", "BLEND"], "OPAQUE", "alpha mode");

fn read_interpolations(root: &mut Value, found: &mut Found) {
    for (index, animation) in entries(root, "animations") {
        let samplers = animation.get_mut("samplers").and_then(Value::as_array_mut);
        for (sampler_index, sampler) in samplers.into_iter().flatten().enumerate() {
            let pointer = format!("/animations/{index}/samplers/{sampler_index}");
            respell(sampler, "interpolation", INTERPOLATIONS, pointer, found);
        }
    }
}

fn read_alpha_modes(root: &mut Value, found: &mut Found) {
    for (index, material) in entries(root, "materials") {
        respell(material, "alphaMode", ALPHA_MODES, format!("/materials/{index}"), found);
    }
}

fn read_byte_strides(root: &mut Value, found: &mut Found) {
    for (index, view) in entries(root, "bufferViews") {
        let Some(view) = view.as_object_mut() else { continue };
        if view.get("byteStride").and_then(Value::as_u64) == Some(0) {
            view.remove("byteStride");
            found.add(
                Kind::Spelling,
                format!("/bufferViews/{index}/byteStride: 0 (read as tightly packed)"),
            );
        }
    }
}

fn read_camera_types(root: &mut Value, found: &mut Found) {
    for (index, camera) in entries(root, "cameras") {
        let Some(camera) = camera.as_object_mut().filter(|c| !c.contains_key("type")) else {
            continue;
        };
        if let Some(kind) = ["perspective", "orthographic"]
            .into_iter()
            .find(|k| camera.contains_key(*k))
        {
            camera.insert("type".into(), kind.into());
            found.add(
                Kind::Spelling,
                format!("/cameras/{index}: no type (\"{kind}\", as its values say)"),
            );
        }
    }
}

fn read_asset_version(root: &mut Value, found: &mut Found) {
    let Some(asset) = root.get_mut("asset").and_then(Value::as_object_mut) else {
        return;
    };
    let what = match asset.get("version") {
        Some(Value::String(_)) => return,
        Some(written) => format!("version {written}"),
        None => "no version".into(),
    };
    asset.insert("version".into(), "2.0".into());
    found.add(Kind::Spelling, format!("/asset: {what} (\"2.0\" assumed)"));
}

fn read_missing_attributes(root: &mut Value, found: &mut Found) {
    for (index, mesh) in entries(root, "meshes") {
        let primitives = mesh.get_mut("primitives").and_then(Value::as_array_mut);
        for (primitive_index, primitive) in primitives.into_iter().flatten().enumerate() {
            let Some(primitive) = primitive.as_object_mut() else {
                continue;
            };
            if !primitive.contains_key("attributes") {
                primitive.insert("attributes".into(), Value::Object(Map::new()));
                let object = format!("/meshes/{index}/primitives/{primitive_index}");
                found.add(Kind::Spelling, format!("{object}: no attributes (nothing to draw)"));
            }
        }
    }
}
