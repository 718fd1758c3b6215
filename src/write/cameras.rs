//! The model's cameras as glTF cameras: one per file camera (`Camera::index`: a camera that
//! several nodes use is written once), placed on its joints' nodes.

use gltf_json as json;
use json::validation::Checked;

use super::document::Document;
use crate::asset::{Model, Projection};

/// Writes the cameras; returns, per joint, the camera its node holds.
pub fn write_cameras(document: &mut Document, model: &Model) -> Vec<Option<json::Index<json::Camera>>> {
    let mut on_joint = vec![None; model.skeleton.len()];
    let mut written: Vec<(usize, json::Index<json::Camera>)> = Vec::new();
    for camera in &model.cameras {
        let index = match written.iter().find(|(file_index, _)| *file_index == camera.index) {
            Some(&(_, index)) => index,
            None => {
                let index = document.root.push(gltf_camera(&camera.name, camera.projection));
                written.push((camera.index, index));
                index
            }
        };
        if let Some(slot) = on_joint.get_mut(camera.joint) {
            *slot = Some(index);
        }
    }
    on_joint
}

fn gltf_camera(name: &str, projection: Projection) -> json::Camera {
    let (type_, perspective, orthographic) = match projection {
        Projection::Perspective {
            yfov,
            aspect_ratio,
            znear,
            zfar,
        } => (
            json::camera::Type::Perspective,
            Some(json::camera::Perspective {
                aspect_ratio,
                yfov,
                zfar,
                znear,
                extensions: None,
                extras: None,
            }),
            None,
        ),
        Projection::Orthographic {
            xmag,
            ymag,
            znear,
            zfar,
        } => (
            json::camera::Type::Orthographic,
            None,
            Some(json::camera::Orthographic {
                xmag,
                ymag,
                zfar,
                znear,
                extensions: None,
                extras: None,
            }),
        ),
    };
    json::Camera {
        name: Some(name.to_owned()),
        orthographic,
        perspective,
        type_: Checked::Valid(type_),
        extensions: None,
        extras: None,
    }
}
