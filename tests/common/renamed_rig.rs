//! A copy of Xbot written at test time as another rig with the same skeleton: joint names
//! without the `mixamorig:` prefix and in lower case (but the eyes and head top named as
//! another tool might, so that they pair with nothing), no animations, the arms lowered at rest
//! and the whole rig half again as large (its root scaled by 1.5).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// Writes the renamed Xbot into `dir` and returns its path.
pub fn renamed_xbot(dir: &Path) -> PathBuf {
    let bytes = std::fs::read(super::gltf("Xbot/Xbot.glb")).unwrap();
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut document: Value = serde_json::from_slice(&bytes[20..20 + length]).unwrap();
    let binary_chunk = &bytes[20 + length..];
    document.as_object_mut().unwrap().remove("animations");
    for node in document["nodes"].as_array_mut().unwrap() {
        let name = node["name"].as_str().unwrap_or_default().to_owned();
        if let Some(joint) = name.strip_prefix("mixamorig:") {
            node["name"] = json!(match joint {
                "HeadTop_End" => "head_tip".to_owned(),
                "LeftEye" => "eye.L".to_owned(),
                "RightEye" => "eye.R".to_owned(),
                _ => joint.to_lowercase(),
            });
        }
        // The arms hang 40° lower at rest (about the shoulder's forward axis).
        match name.as_str() {
            "mixamorig:LeftArm" => node["rotation"] = quat_about_z(-0.7),
            "mixamorig:RightArm" => node["rotation"] = quat_about_z(0.7),
            "Armature" => {
                let scale: Vec<f64> = node["scale"]
                    .as_array()
                    .map_or(vec![1.0; 3], |s| s.iter().map(|v| v.as_f64().unwrap()).collect());
                node["scale"] = json!(scale.iter().map(|s| s * 1.5).collect::<Vec<_>>());
            }
            _ => {}
        }
    }
    let path = dir.join("xbot-renamed.glb");
    std::fs::write(&path, glb(&document, binary_chunk)).unwrap();
    path
}

fn quat_about_z(angle: f64) -> Value {
    json!([0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()])
}

/// A GLB of `document` followed by the binary chunk (its header included) as it was.
fn glb(document: &Value, binary_chunk: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(document).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + binary_chunk.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(binary_chunk);
    out
}
