//! glTF cameras: one `Camera` per node that refers to a camera. Cameras only add a way to look
//! at the model, so a camera with unusable numbers is left out with a warning naming it and
//! what is wrong, and the file still opens.

use gltf_json::Root;
use gltf_json::camera::Type;
use gltf_json::validation::Checked;

use super::scenes::NodeJoints;
use crate::asset::camera::{Camera, Projection};

/// The cameras the loaded nodes of `root` carry, in node order; `joint_of_node` maps file
/// nodes to joints.
pub fn load_cameras(root: &Root, joint_of_node: &NodeJoints, warnings: &mut Vec<String>) -> Vec<Camera> {
    let mut cameras = Vec::new();
    for (node_index, node) in root.nodes.iter().enumerate() {
        let (Some(index), Some(joint)) = (node.camera.map(|c| c.value()), joint_of_node.get(node_index)) else {
            continue;
        };
        let Some(json) = root.cameras.get(index) else {
            warnings.push(format!(
                "/nodes/{node_index}/camera: camera {index} does not exist (no camera here)"
            ));
            continue;
        };
        let name = json.name.clone().unwrap_or_else(|| format!("camera {index}"));
        match projection(json) {
            Ok(projection) => cameras.push(Camera {
                name,
                index,
                joint,
                projection,
            }),
            Err(problem) => warnings.push(format!("/cameras/{index} ('{name}'): {problem} (camera left out)")),
        }
    }
    cameras
}

/// The camera's projection, or what is wrong with its numbers.
fn projection(camera: &gltf_json::Camera) -> Result<Projection, String> {
    match (&camera.type_, &camera.perspective, &camera.orthographic) {
        (Checked::Valid(Type::Perspective), Some(p), _) => {
            let yfov = p.yfov;
            if !(yfov.is_finite() && yfov > 0.0 && yfov < std::f32::consts::PI) {
                return Err(format!("yfov {yfov} is not an angle between 0 and π"));
            }
            if let Some(aspect) = p.aspect_ratio
                && !(aspect.is_finite() && aspect > 0.0)
            {
                return Err(format!("aspectRatio {aspect} is not a positive number"));
            }
            let znear = positive("znear", p.znear)?;
            if let Some(zfar) = p.zfar {
                beyond_near(znear, zfar)?;
            }
            Ok(Projection::Perspective {
                yfov,
                aspect_ratio: p.aspect_ratio,
                znear,
                zfar: p.zfar,
            })
        }
        (Checked::Valid(Type::Orthographic), _, Some(o)) => {
            for (what, mag) in [("xmag", o.xmag), ("ymag", o.ymag)] {
                if !(mag.is_finite() && mag != 0.0) {
                    return Err(format!("{what} {mag} is not a non-zero number"));
                }
            }
            if !(o.znear.is_finite() && o.znear >= 0.0) {
                return Err(format!("znear {} is not zero or a positive number", o.znear));
            }
            beyond_near(o.znear, o.zfar)?;
            Ok(Projection::Orthographic {
                xmag: o.xmag.abs(),
                ymag: o.ymag.abs(),
                znear: o.znear,
                zfar: o.zfar,
            })
        }
        (Checked::Valid(Type::Perspective), None, _) => Err("it is perspective but has no perspective values".into()),
        (Checked::Valid(Type::Orthographic), _, None) => {
            Err("it is orthographic but has no orthographic values".into())
        }
        (Checked::Invalid, _, _) => Err("its type is neither perspective nor orthographic".into()),
    }
}

fn positive(what: &str, value: f32) -> Result<f32, String> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!("{what} {value} is not a positive number"))
    }
}

fn beyond_near(znear: f32, zfar: f32) -> Result<(), String> {
    if zfar.is_finite() && zfar > znear {
        Ok(())
    } else {
        Err(format!("zfar {zfar} is not a number beyond znear {znear}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(cameras: &str) -> Root {
        let json = format!(
            r#"{{"asset": {{"version": "2.0"}}, "cameras": {cameras},
                "nodes": [{{"camera": 0}}, {{"camera": 1}}, {{"camera": 7}}]}}"#
        );
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn good_cameras_load_and_bad_ones_are_left_out_with_a_warning() {
        let root = root(
            r#"[{"name": "eye", "type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}},
                {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": -1, "znear": 0, "zfar": 0}}]"#,
        );
        let mut warnings = Vec::new();
        let cameras = load_cameras(&root, &NodeJoints::new(&[0, 1, 2], 3), &mut warnings);
        assert_eq!(cameras.len(), 1);
        assert_eq!(cameras[0].name, "eye");
        assert_eq!(
            cameras[0].projection,
            Projection::Perspective {
                yfov: 0.8,
                aspect_ratio: None,
                znear: 0.1,
                zfar: None
            }
        );
        assert_eq!(
            warnings,
            [
                "/cameras/1 ('camera 1'): zfar 0 is not a number beyond znear 0 (camera left out)",
                "/nodes/2/camera: camera 7 does not exist (no camera here)",
            ]
        );
    }

    #[test]
    fn each_unusable_number_is_named() {
        for (perspective, problem) in [
            (r#"{"yfov": 0, "znear": 0.1}"#, "yfov 0 is not an angle"),
            (r#"{"yfov": 4, "znear": 0.1}"#, "yfov 4 is not an angle"),
            (r#"{"yfov": 1, "znear": 0}"#, "znear 0 is not a positive number"),
            (
                r#"{"yfov": 1, "znear": 1, "zfar": 0.5}"#,
                "zfar 0.5 is not a number beyond znear 1",
            ),
            (
                r#"{"yfov": 1, "znear": 1, "aspectRatio": -2}"#,
                "aspectRatio -2 is not a positive",
            ),
        ] {
            let cameras = format!(r#"[{{"type": "perspective", "perspective": {perspective}}}]"#);
            let mut warnings = Vec::new();
            assert!(load_cameras(&root(&cameras), &NodeJoints::new(&[0], 1), &mut warnings).is_empty());
            assert!(warnings[0].contains(problem), "{warnings:?}");
        }
    }
}
