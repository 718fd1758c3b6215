//! KHR_lights_punctual → `PunctualLight`, one per node that holds a light. Lights only add to
//! the picture, so a light rigscope cannot use is left out with a warning.

use glam::Vec3;
use gltf_json::Root;
use gltf_json::extensions::scene::khr_lights_punctual::{Light, Type};
use gltf_json::validation::Checked;

use super::scenes::NodeJoints;
use crate::asset::{LightKind, PunctualLight};

/// The lights of the loaded nodes that hold one; `joint_of_node` maps file nodes to joints.
pub fn load_lights(root: &Root, joint_of_node: &NodeJoints, warnings: &mut Vec<String>) -> Vec<PunctualLight> {
    let declared: &[Light] = root
        .extensions
        .as_ref()
        .and_then(|e| e.khr_lights_punctual.as_ref())
        .map_or(&[], |l| l.lights.as_slice());
    let mut lights = Vec::new();
    for (node, json) in root.nodes.iter().enumerate() {
        let reference = json.extensions.as_ref().and_then(|e| e.khr_lights_punctual.as_ref());
        let (Some(reference), Some(joint)) = (reference, joint_of_node.get(node)) else {
            continue;
        };
        let index = reference.light.value();
        let object = format!("/nodes/{node}/extensions/KHR_lights_punctual");
        let Some(light) = declared.get(index) else {
            warnings.push(format!("{object}: light {index} does not exist (left out)"));
            continue;
        };
        match light_of(light, index, joint) {
            Ok(light) => lights.push(light),
            Err(problem) => warnings.push(format!(
                "/extensions/KHR_lights_punctual/lights/{index}: {problem} (left out)"
            )),
        }
    }
    lights
}

fn light_of(light: &Light, index: usize, joint: usize) -> Result<PunctualLight, String> {
    let color = Vec3::from(light.color);
    if !color.is_finite() || color.min_element() < 0.0 {
        return Err(format!("its colour {color} is not made of numbers of zero or more"));
    }
    if !light.intensity.is_finite() || light.intensity < 0.0 {
        return Err(format!(
            "its intensity {} is not a number of zero or more",
            light.intensity
        ));
    }
    let range = match light.range {
        Some(range) if !(range.is_finite() && range > 0.0) => {
            return Err(format!("its range {range} is not a number above zero"));
        }
        range => range,
    };
    let kind = match (light.type_, &light.spot) {
        (Checked::Valid(Type::Directional), _) => LightKind::Directional,
        (Checked::Valid(Type::Point), _) => LightKind::Point,
        (Checked::Valid(Type::Spot), spot) => {
            // Without its `spot` object, the extension's default cone (as three.js reads it).
            let (inner, outer) = spot.as_ref().map_or((0.0, std::f32::consts::FRAC_PI_4), |s| {
                (s.inner_cone_angle, s.outer_cone_angle)
            });
            let right_angle = std::f32::consts::FRAC_PI_2;
            if !(inner >= 0.0 && inner < outer && outer <= right_angle) {
                return Err(format!(
                    "its cone angles ({inner}, {outer}) are not 0 ≤ inner < outer ≤ π/2"
                ));
            }
            LightKind::Spot { inner, outer }
        }
        (Checked::Invalid, _) => return Err("its type is not directional, point or spot".into()),
    };
    Ok(PunctualLight {
        name: light.name.clone().unwrap_or_else(|| format!("Light {index}")),
        kind,
        color,
        intensity: light.intensity,
        range,
        joint,
    })
}
