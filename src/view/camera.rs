//! Orbit camera: a target point, a distance and two angles. Y is up.

use glam::camera::rh::{proj::directx, view::look_at_mat4};
use glam::{Mat4, Vec3};

use super::bounds::Bounds;
use super::camera_view::CameraView;
use super::view_preset::{ViewAngles, ViewPreset};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    pub distance: f32,
    /// Rotation about +Y, radians; 0 looks along -Z (from the front of a +Z-facing model),
    /// positive moves the eye towards +X.
    pub yaw: f32,
    /// Elevation, radians, kept inside (-89°, 89°).
    pub pitch: f32,
    /// Vertical field of view, radians.
    pub fov_y: f32,
}

const PITCH_LIMIT: f32 = 89.0 * std::f32::consts::PI / 180.0;

/// The three-quarter front view (glTF's forward is +Z, so the eye is on the +Z side).
impl Default for OrbitCamera {
    fn default() -> Self {
        let angles = ViewPreset::ThreeQuarter.angles();
        Self {
            target: Vec3::new(0.0, 1.0, 0.0),
            distance: 4.0,
            yaw: angles.azimuth,
            pitch: angles.elevation,
            fov_y: 40f32.to_radians(),
        }
    }
}

impl OrbitCamera {
    /// Looks at `bounds` from the current direction, far enough that the box's bounding
    /// sphere fits a view of `aspect` (width / height), with a 10% margin.
    pub fn frame(&mut self, bounds: &Bounds, aspect: f32) {
        if bounds.is_empty() {
            return;
        }
        self.target = bounds.center();
        let radius = bounds.radius().max(1e-3);
        let fov_x = 2.0 * ((self.fov_y * 0.5).tan() * aspect.max(1e-3)).atan();
        let narrower = self.fov_y.min(fov_x);
        self.distance = radius / (narrower * 0.5).sin() * 1.1;
    }

    /// Turns to look from `angles` at the same target and distance.
    pub fn look_from(&mut self, angles: ViewAngles) {
        self.yaw = angles.azimuth;
        self.pitch = angles.elevation.clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// What this camera sees in a view of `aspect` (width / height).
    pub fn camera_view(&self, aspect: f32) -> CameraView {
        CameraView {
            view: self.view(),
            projection: self.projection(aspect),
            eye: self.eye(),
        }
    }

    /// The camera's position in world space.
    pub fn eye(&self) -> Vec3 {
        let direction = Vec3::new(
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
            self.pitch.cos() * self.yaw.cos(),
        );
        self.target + direction * self.distance
    }

    /// World → view.
    pub fn view(&self) -> Mat4 {
        look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// View → clip (wgpu depth range 0..1), with near and far planes scaled to the distance.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let near = (self.distance * 0.01).max(1e-4);
        let far = self.distance * 100.0 + 10.0;
        directx::perspective(self.fov_y, aspect.max(1e-3), near, far)
    }

    /// Orbits by a drag of (dx, dy) pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * 0.008;
        self.pitch = (self.pitch + dy * 0.008).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves the target in the view plane by a drag of (dx, dy) pixels in a viewport
    /// `height` pixels tall, so the point under the cursor follows it.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        let view = self.view();
        let right = view.row(0).truncate();
        let up = view.row(1).truncate();
        let world_per_pixel = 2.0 * self.distance * (self.fov_y * 0.5).tan() / height.max(1.0);
        self.target += (-right * dx + up * dy) * world_per_pixel;
    }

    /// Zooms by `steps` wheel notches (positive: closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * 0.9f32.powf(steps)).clamp(1e-3, 1e6);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4Swizzles;

    #[test]
    fn framing_keeps_the_box_inside_the_view() {
        for aspect in [1.0, 0.4, 2.5] {
            framing_keeps_the_box_inside(aspect);
        }
    }

    fn framing_keeps_the_box_inside(aspect: f32) {
        let mut camera = OrbitCamera::default();
        let bounds = Bounds {
            min: Vec3::new(-3.0, 0.0, -1.0),
            max: Vec3::new(5.0, 4.0, 2.0),
        };
        camera.frame(&bounds, aspect);
        let clip = camera.projection(aspect) * camera.view();
        for corner in 0..8 {
            let point = Vec3::new(
                if corner & 1 == 0 { bounds.min.x } else { bounds.max.x },
                if corner & 2 == 0 { bounds.min.y } else { bounds.max.y },
                if corner & 4 == 0 { bounds.min.z } else { bounds.max.z },
            );
            let projected = clip * point.extend(1.0);
            let ndc = projected.xyz() / projected.w;
            assert!(
                ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && (0.0..=1.0).contains(&ndc.z),
                "{point} → {ndc}"
            );
        }
    }

    #[test]
    fn orbit_keeps_distance_and_clamps_pitch() {
        let mut camera = OrbitCamera::default();
        let before = camera.eye().distance(camera.target);
        camera.orbit(120.0, 10_000.0);
        assert!((camera.eye().distance(camera.target) - before).abs() < 1e-4);
        assert!(camera.pitch <= PITCH_LIMIT);
    }

    #[test]
    fn pan_moves_the_target_sideways_and_zoom_scales_distance() {
        let mut camera = OrbitCamera::default();
        let (target, distance) = (camera.target, camera.distance);
        camera.pan(100.0, 0.0, 800.0);
        assert!(
            (camera.target - target).dot(camera.eye() - camera.target).abs() < 1e-3,
            "in the view plane"
        );
        assert!(camera.target.distance(target) > 0.0);
        camera.zoom(1.0);
        assert!(camera.distance < distance);
    }
}
