//! `EXT_mesh_gpu_instancing`: a node's mesh drawn as many copies, each placed by its own
//! translation, rotation and scale (all optional, one per copy) within the node's space. The
//! node itself is not drawn, only its copies.
//!
//! A copy that cannot be read is not a reason to refuse the file: the node is then drawn once,
//! at its own place, and a warning says why.

use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

use super::accessor::Accessors;
use super::animation::normalize_or_identity;
use crate::asset::model::InstanceCopies;

pub const EXTENSION: &str = "EXT_mesh_gpu_instancing";

/// The copies node `node` (whose JSON extensions are `extensions`) asks for; none when it does
/// not use the extension, or when its copies cannot be read (a warning says why).
pub fn load_copies(
    accessors: &Accessors,
    node: usize,
    extensions: Option<&gltf_json::extensions::scene::Node>,
    warnings: &mut Vec<String>,
) -> Option<InstanceCopies> {
    let extension = extensions?.others.get(EXTENSION)?;
    let object = format!("/nodes/{node}/extensions/{EXTENSION}");
    match read_copies(accessors, extension) {
        Ok((copies, notes)) => {
            warnings.extend(notes.into_iter().map(|note| format!("{object}: {note}")));
            Some(copies)
        }
        Err(problem) => {
            warnings.push(format!(
                "{object}: {problem} (the node is drawn once, without its copies)"
            ));
            None
        }
    }
}

/// The copies an extension object describes, and what was repaired in them.
fn read_copies(accessors: &Accessors, extension: &Value) -> Result<(InstanceCopies, Vec<String>), String> {
    let attributes = (extension.get("attributes").and_then(Value::as_object)).ok_or("it has no 'attributes' object")?;
    let accessor = |name: &str| -> Result<Option<usize>, String> {
        let Some(value) = attributes.get(name) else {
            return Ok(None);
        };
        let index = value.as_u64().and_then(|i| usize::try_from(i).ok());
        index
            .map(Some)
            .ok_or_else(|| format!("attribute {name} is not an accessor index ({value})"))
    };
    let attribute = |name: &str, error: String| format!("attribute {name}: {error}");
    let translations = (accessor("TRANSLATION")?)
        .map(|a| accessors.read_f32::<3>(a).map_err(|e| attribute("TRANSLATION", e)))
        .transpose()?;
    let rotations = (accessor("ROTATION")?)
        .map(|a| accessors.read_f32::<4>(a).map_err(|e| attribute("ROTATION", e)))
        .transpose()?;
    let scales = (accessor("SCALE")?)
        .map(|a| accessors.read_f32::<3>(a).map_err(|e| attribute("SCALE", e)))
        .transpose()?;
    let counts = [
        translations.as_ref().map(Vec::len),
        rotations.as_ref().map(Vec::len),
        scales.as_ref().map(Vec::len),
    ];
    let count = counts
        .iter()
        .flatten()
        .min()
        .copied()
        .ok_or("it has no TRANSLATION, ROTATION or SCALE")?;
    let mut notes = Vec::new();
    if counts.iter().flatten().any(|&c| c != count) {
        notes.push(format!(
            "its attributes have different counts (the first {count} copies are drawn)"
        ));
    }
    let mut not_unit = 0;
    let transforms = (0..count)
        .map(|copy| {
            let translation = translations.as_ref().map_or(Vec3::ZERO, |t| Vec3::from(t[copy]));
            let scale = scales.as_ref().map_or(Vec3::ONE, |s| Vec3::from(s[copy]));
            let rotation = rotations.as_ref().map_or(Quat::IDENTITY, |r| Quat::from_array(r[copy]));
            if (rotation.length() - 1.0).abs() > 1e-3 {
                not_unit += 1;
            }
            Mat4::from_scale_rotation_translation(scale, normalize_or_identity(rotation), translation)
        })
        .collect();
    if not_unit > 0 {
        notes.push(format!(
            "{not_unit} copy rotations were not unit quaternions (normalised)"
        ));
    }
    let mut custom: Vec<String> = attributes
        .keys()
        .filter(|name| name.starts_with('_'))
        .cloned()
        .collect();
    custom.sort();
    let unknown: Vec<&String> = (attributes.keys())
        .filter(|name| !name.starts_with('_') && !matches!(name.as_str(), "TRANSLATION" | "ROTATION" | "SCALE"))
        .collect();
    if !unknown.is_empty() {
        notes.push(format!(
            "it names attributes the extension does not define: {unknown:?} (ignored)"
        ));
    }
    Ok((
        InstanceCopies {
            instance: 0,
            transforms,
            custom,
        },
        notes,
    ))
}
