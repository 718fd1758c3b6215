//! What a frame is seen through, whichever camera made it (the orbit camera or one of the
//! file's): the renderer, picking and the joint labels read only this.

use glam::{Mat4, Vec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// World → view (the camera looks down its −Z, +Y up).
    pub view: Mat4,
    /// View → clip, wgpu's depth range 0..1.
    pub projection: Mat4,
    /// The camera's position in world space.
    pub eye: Vec3,
}

impl CameraView {
    /// World → clip.
    pub fn view_projection(&self) -> Mat4 {
        self.projection * self.view
    }

    /// How many pixels a unit of length covers at the nearest point of the sphere at `center`
    /// of `radius`, in a picture `height` pixels tall (infinite when the camera is inside it).
    pub fn pixels_per_unit(&self, center: Vec3, radius: f32, height: f32) -> f32 {
        let scale = self.projection.y_axis.y.abs() * height * 0.5;
        // How `w` grows with distance: 1 for perspective, 0 for orthographic projections.
        let perspective = self.projection.z_axis.w.abs();
        let at = self.view.transform_point3(center).extend(1.0);
        let w = self.projection.row(3).dot(at) - radius * perspective;
        if w > 1e-6 { scale / w } else { f32::INFINITY }
    }

    /// Whether any of the sphere at `center` of `radius` lies within the picture's sides (what
    /// is behind the camera or past them is not seen; near and far are not tested).
    pub fn sees_sphere(&self, center: Vec3, radius: f32) -> bool {
        let m = self.view_projection();
        let (x, y, w) = (m.row(0), m.row(1), m.row(3));
        [w + x, w - x, w + y, w - y].iter().all(|plane| {
            let normal = plane.truncate();
            let length = normal.length();
            length == 0.0 || (normal.dot(center) + plane.w) / length >= -radius
        })
    }

    /// The unit direction the camera looks along, in world space.
    pub fn forward(&self) -> Vec3 {
        (-self.view.row(2).truncate()).normalize_or(Vec3::NEG_Z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera at the origin looking down −Z, 90° across.
    fn camera() -> CameraView {
        CameraView {
            view: Mat4::IDENTITY,
            projection: glam::camera::rh::proj::directx::perspective(90f32.to_radians(), 1.0, 0.1, 100.0),
            eye: Vec3::ZERO,
        }
    }

    #[test]
    fn a_sphere_is_seen_when_any_of_it_is_inside_the_picture() {
        let camera = camera();
        assert!(camera.sees_sphere(Vec3::new(0.0, 0.0, -10.0), 1.0));
        // Off to the side: seen only when it reaches back past the 45° edge.
        assert!(!camera.sees_sphere(Vec3::new(20.0, 0.0, -10.0), 1.0));
        assert!(camera.sees_sphere(Vec3::new(11.0, 0.0, -10.0), 1.0));
        assert!(!camera.sees_sphere(Vec3::new(0.0, -20.0, -10.0), 1.0));
        // Behind the camera.
        assert!(!camera.sees_sphere(Vec3::new(0.0, 0.0, 10.0), 1.0));
    }

    #[test]
    fn a_unit_covers_fewer_pixels_further_away() {
        let camera = camera();
        let near = camera.pixels_per_unit(Vec3::new(0.0, 0.0, -2.0), 0.0, 400.0);
        let far = camera.pixels_per_unit(Vec3::new(0.0, 0.0, -4.0), 0.0, 400.0);
        assert!((near - 100.0).abs() < 1e-3 && (far - 50.0).abs() < 1e-3, "{near} {far}");
        assert_eq!(camera.pixels_per_unit(Vec3::ZERO, 1.0, 400.0), f32::INFINITY);
    }
}
