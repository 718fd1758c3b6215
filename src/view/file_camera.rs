//! Looking through one of the file's cameras: its joint's model matrix places it (scale
//! dropped), it looks down its local −Z with +Y up, and its projection is fitted to the
//! picture. Fitting: the picture shows at least the camera's whole field of view (with
//! `aspectRatio`, `yfov` by `yfov × aspectRatio`; orthographic, `xmag` by `ymag`) and widens it
//! along the other axis where the picture's shape differs, so nothing the camera frames is
//! cut off and nothing is stretched. Without `aspectRatio` the vertical field is `yfov`.

use glam::camera::rh::proj::directx;
use glam::{Mat4, Quat};

use super::camera_view::CameraView;
use crate::asset::{Model, Projection};

/// What camera `index` of `model` sees: placed by its joint's matrix in `joint_matrices`, its
/// projection as `properties` (the pose's `Pose::properties`) animate it. None: no such camera.
pub fn model_camera_view(
    model: &Model,
    index: usize,
    joint_matrices: &[Mat4],
    properties: &[f32],
    aspect: f32,
) -> Option<CameraView> {
    let camera = model.cameras.get(index)?;
    let joint_model = joint_matrices.get(camera.joint).copied().unwrap_or_default();
    let mut projection = camera.projection;
    model.properties.apply_to_projection(index, properties, &mut projection);
    Some(file_camera_view(&projection, joint_model, aspect))
}

/// What a camera with `projection` (the file's, or as the pose animates it) sees when its
/// joint's model matrix is `joint_model`, in a picture of `aspect` (width / height).
pub fn file_camera_view(projection: &Projection, joint_model: Mat4, aspect: f32) -> CameraView {
    let (_, rotation, eye) = joint_model.to_scale_rotation_translation();
    let rotation = if rotation.is_finite() {
        rotation.normalize()
    } else {
        Quat::IDENTITY
    };
    let view = Mat4::from_rotation_translation(rotation, eye).inverse();
    let aspect = aspect.max(1e-3);
    let projection = match *projection {
        Projection::Perspective {
            yfov,
            aspect_ratio,
            znear,
            zfar,
        } => {
            let yfov = match aspect_ratio {
                // A narrower picture than the camera's: keep its horizontal field.
                Some(ratio) if aspect < ratio => 2.0 * ((yfov * 0.5).tan() * ratio / aspect).atan(),
                _ => yfov,
            };
            match zfar {
                Some(zfar) => directx::perspective(yfov, aspect, znear, zfar),
                None => directx::perspective_infinite(yfov, aspect, znear),
            }
        }
        Projection::Orthographic {
            xmag,
            ymag,
            znear,
            zfar,
        } => {
            let (half_width, half_height) = if aspect < xmag / ymag {
                (xmag, xmag / aspect)
            } else {
                (ymag * aspect, ymag)
            };
            directx::orthographic(-half_width, half_width, -half_height, half_height, znear, zfar)
        }
    };
    CameraView { view, projection, eye }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::Camera;
    use glam::{Vec3, Vec3Swizzles, Vec4Swizzles};

    fn camera(projection: Projection) -> Camera {
        Camera {
            name: "test".into(),
            index: 0,
            joint: 0,
            projection,
        }
    }

    fn ndc(view: &CameraView, point: Vec3) -> Vec3 {
        let clip = view.view_projection() * point.extend(1.0);
        clip.xyz() / clip.w
    }

    #[test]
    fn a_camera_looks_down_its_negative_z_from_its_joint() {
        let perspective = camera(Projection::Perspective {
            yfov: 1.0,
            aspect_ratio: None,
            znear: 0.1,
            zfar: Some(100.0),
        });
        // At (0, 0, 10), scaled (the scale must not matter), turned 90° about +Y: looks down −X.
        let place = Mat4::from_scale_rotation_translation(
            Vec3::splat(3.0),
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            Vec3::new(0.0, 0.0, 10.0),
        );
        let view = file_camera_view(&perspective.projection, place, 1.5);
        assert!(view.eye.distance(Vec3::new(0.0, 0.0, 10.0)) < 1e-5);
        assert!(view.forward().distance(Vec3::NEG_X) < 1e-5);
        let ahead = ndc(&view, Vec3::new(-5.0, 0.0, 10.0));
        assert!(ahead.xy().length() < 1e-5 && (0.0..1.0).contains(&ahead.z));
        // A point at the top edge of the vertical field lands at the top of the picture.
        let top = ndc(&view, Vec3::new(-5.0, 5.0 * 0.5f32.tan(), 10.0));
        assert!((top.y - 1.0).abs() < 1e-4, "{top}");
    }

    #[test]
    fn the_cameras_field_is_fitted_inside_the_picture() {
        let wide = camera(Projection::Perspective {
            yfov: 1.0,
            aspect_ratio: Some(2.0),
            znear: 0.1,
            zfar: None,
        });
        // A square picture of a 2:1 camera keeps its horizontal field: the right edge of the
        // camera's field is the picture's.
        let view = file_camera_view(&wide.projection, Mat4::IDENTITY, 1.0);
        let right = ndc(&view, Vec3::new(2.0 * 0.5f32.tan(), 0.0, -1.0));
        assert!((right.x - 1.0).abs() < 1e-4, "{right}");
        let ortho = camera(Projection::Orthographic {
            xmag: 2.0,
            ymag: 1.0,
            znear: 0.0,
            zfar: 10.0,
        });
        let view = file_camera_view(&ortho.projection, Mat4::IDENTITY, 4.0);
        let corner = ndc(&view, Vec3::new(2.0, 1.0, -5.0));
        assert!(
            (corner.y - 1.0).abs() < 1e-5 && (corner.x - 0.5).abs() < 1e-5,
            "{corner}"
        );
    }
}
