//! The 3D view's pixels and model space: where a point appears, and which point under the
//! cursor lies on a plane facing the camera. Pixels count from the view's top-left corner.

use glam::{Mat4, Vec2, Vec3, Vec4Swizzles};

use super::camera_view::CameraView;

/// How close (pixels) a click must be to a joint or an IK target to pick it.
pub const PICK_RADIUS: f32 = 14.0;

#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    /// Model space → clip space.
    view_proj: Mat4,
    /// Clip space → model space.
    inverse: Mat4,
    size: Vec2,
    /// Unit direction the camera looks along.
    forward: Vec3,
}

impl Viewport {
    /// The view `camera` gives of a `width` x `height` picture (made for that aspect).
    pub fn new(camera: &CameraView, width: f32, height: f32) -> Self {
        let size = Vec2::new(width.max(1.0), height.max(1.0));
        let view_proj = camera.view_projection();
        Self {
            view_proj,
            inverse: view_proj.inverse(),
            size,
            forward: camera.forward(),
        }
    }

    /// Where `point` appears, in pixels; `None` when it is behind the camera.
    pub fn to_pixels(&self, point: Vec3) -> Option<Vec2> {
        let clip = self.view_proj * point.extend(1.0);
        if clip.w <= 1e-6 {
            return None;
        }
        let ndc = clip.xy() / clip.w;
        Some(Vec2::new(
            (ndc.x + 1.0) * 0.5 * self.size.x,
            (1.0 - ndc.y) * 0.5 * self.size.y,
        ))
    }

    /// The point under `pixel` on the plane through `anchor` that faces the camera.
    pub fn on_camera_plane(&self, pixel: Vec2, anchor: Vec3) -> Option<Vec3> {
        let ndc = Vec2::new(pixel.x / self.size.x * 2.0 - 1.0, 1.0 - pixel.y / self.size.y * 2.0);
        let unproject = |depth: f32| {
            let p = self.inverse * ndc.extend(depth).extend(1.0);
            p.xyz() / p.w
        };
        let (near, far) = (unproject(0.0), unproject(1.0));
        let direction = far - near;
        let facing = direction.dot(self.forward);
        if facing.abs() < 1e-9 {
            return None;
        }
        let t = (anchor - near).dot(self.forward) / facing;
        let point = near + direction * t;
        point.is_finite().then_some(point)
    }

    /// The key of the point of `points` (key, point) whose image lies nearest `pixel`, within
    /// `radius` pixels.
    pub fn nearest(&self, points: impl Iterator<Item = (usize, Vec3)>, pixel: Vec2, radius: f32) -> Option<usize> {
        points
            .filter_map(|(i, p)| Some((i, self.to_pixels(p)?.distance(pixel))))
            .filter(|&(_, d)| d <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Bounds, OrbitCamera};

    fn viewport() -> Viewport {
        let mut camera = OrbitCamera::default();
        camera.frame(
            &Bounds {
                min: Vec3::splat(-1.0),
                max: Vec3::splat(1.0),
            },
            800.0 / 600.0,
        );
        Viewport::new(&camera.camera_view(800.0 / 600.0), 800.0, 600.0)
    }

    #[test]
    fn points_on_the_camera_plane_project_back_to_their_pixel() {
        let view = viewport();
        let anchor = Vec3::new(0.3, 0.2, -0.1);
        let pixel = view.to_pixels(anchor).unwrap();
        assert!(view.on_camera_plane(pixel, anchor).unwrap().distance(anchor) < 1e-4);
        for pixel in [Vec2::new(10.0, 20.0), Vec2::new(700.0, 500.0)] {
            let point = view.on_camera_plane(pixel, anchor).unwrap();
            assert!(view.to_pixels(point).unwrap().distance(pixel) < 0.01, "{pixel}");
            assert!((point - anchor).dot(view.forward).abs() < 1e-4, "stays on the plane");
        }
    }

    #[test]
    fn the_centre_of_the_framed_bounds_is_the_centre_of_the_view() {
        let view = viewport();
        assert!(view.to_pixels(Vec3::ZERO).unwrap().distance(Vec2::new(400.0, 300.0)) < 0.01);
        let up = view.to_pixels(Vec3::Y).unwrap();
        assert!(up.y < 300.0, "+Y is up on screen");
        let points = [Vec3::new(5.0, 0.0, 0.0), Vec3::ZERO, Vec3::Y];
        assert_eq!(
            view.nearest(points.into_iter().enumerate(), Vec2::new(402.0, 299.0), 10.0),
            Some(1)
        );
        assert_eq!(
            view.nearest(points.into_iter().enumerate(), Vec2::new(10.0, 10.0), 10.0),
            None
        );
    }
}
