//! FBX cameras and lights, on the joints of the nodes that hold them. ufbx turns their axes to
//! glTF's (looking down −Z, +Y up); one with unusable numbers is left out with a warning, as
//! in glTF files.

use super::nodes::Nodes;
use super::vec3;
use crate::asset::camera::{Camera, Projection};
use crate::asset::light::{LightKind, PunctualLight};

/// The file's cameras, one per node that holds one, numbered by the file's cameras.
pub fn cameras(scene: &ufbx::Scene, nodes: &Nodes, warnings: &mut Vec<String>) -> Vec<Camera> {
    let mut cameras = Vec::new();
    for (index, camera) in scene.cameras.iter().enumerate() {
        let name = camera.element.name.to_string();
        let Some(projection) = projection(camera) else {
            warnings.push(format!(
                "camera '{name}': its field of view or clip planes are unusable (left out)"
            ));
            continue;
        };
        for joint in camera.element.instances.iter().filter_map(|n| nodes.joint(n)) {
            cameras.push(Camera {
                name: name.clone(),
                index,
                joint,
                projection,
            });
        }
    }
    cameras
}

fn projection(camera: &ufbx::Camera) -> Option<Projection> {
    let (znear, zfar) = (camera.near_plane as f32, camera.far_plane as f32);
    let planes = znear.is_finite() && znear > 0.0 && zfar.is_finite() && zfar > znear;
    let aspect = (camera.aspect_ratio as f32)
        .is_finite()
        .then_some(camera.aspect_ratio as f32);
    let aspect = aspect.filter(|&a| a > 0.0);
    match camera.projection_mode {
        ufbx::ProjectionMode::Perspective => {
            let yfov = (camera.field_of_view_deg.y as f32).to_radians();
            (planes && yfov > 0.0 && yfov < std::f32::consts::PI).then_some(Projection::Perspective {
                yfov,
                aspect_ratio: aspect,
                znear,
                zfar: Some(zfar),
            })
        }
        ufbx::ProjectionMode::Orthographic => {
            let (xmag, ymag) = (
                camera.orthographic_size.x as f32 / 2.0,
                camera.orthographic_size.y as f32 / 2.0,
            );
            let sizes = xmag.is_finite() && ymag.is_finite() && xmag > 0.0 && ymag > 0.0;
            (planes && sizes).then_some(Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            })
        }
    }
}

/// The file's point, directional and spot lights, one per node that holds one; area and volume
/// lights are left out with a warning.
pub fn lights(scene: &ufbx::Scene, nodes: &Nodes, warnings: &mut Vec<String>) -> Vec<PunctualLight> {
    let mut lights = Vec::new();
    for light in &scene.lights {
        let name = light.element.name.to_string();
        let kind = match light.type_ {
            ufbx::LightType::Point => LightKind::Point,
            ufbx::LightType::Directional => LightKind::Directional,
            ufbx::LightType::Spot => {
                let (inner, outer) = (
                    (light.inner_angle as f32 / 2.0).to_radians(),
                    (light.outer_angle as f32 / 2.0).to_radians(),
                );
                LightKind::Spot {
                    inner: inner.clamp(0.0, std::f32::consts::FRAC_PI_2),
                    outer: outer.clamp(inner.max(1e-3), std::f32::consts::FRAC_PI_2),
                }
            }
            other => {
                warnings.push(format!(
                    "light '{name}': a {other:?} light, which rigscope does not draw (left out)"
                ));
                continue;
            }
        };
        let color = vec3(light.color);
        let intensity = light.intensity as f32;
        if !color.is_finite()
            || color.min_element() < 0.0
            || !intensity.is_finite()
            || intensity < 0.0
            || !light.cast_light
        {
            continue;
        }
        for joint in light.element.instances.iter().filter_map(|n| nodes.joint(n)) {
            lights.push(PunctualLight {
                name: name.clone(),
                kind,
                color,
                intensity,
                range: None,
                joint,
            });
        }
    }
    lights
}
