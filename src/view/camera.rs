//! Orbit camera: a target point, a distance and two angles. Y is up.

use glam::camera::rh::{proj::directx, view::look_at_mat4};
use glam::{Mat4, Vec2, Vec3};

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

/// What one wheel notch leaves of the distance to the target: 10% closer a notch, so a step is
/// the same share of the view however near or far the camera is.
const ZOOM_PER_NOTCH: f32 = 0.9;

/// The nearest and farthest the camera comes to its target (world units).
const MIN_DISTANCE: f32 = 1e-3;
const MAX_DISTANCE: f32 = 1e6;

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

    /// Orbits by a drag of (dx, dy) pixels in a view `width` pixels wide: a drag across the
    /// whole width turns the camera half a turn whatever the window's size, and a vertical drag
    /// tilts it at the same rate per pixel.
    pub fn orbit(&mut self, dx: f32, dy: f32, width: f32) {
        let radians_per_pixel = std::f32::consts::PI / width.max(1.0);
        self.yaw -= dx * radians_per_pixel;
        self.pitch = (self.pitch + dy * radians_per_pixel).clamp(-PITCH_LIMIT, PITCH_LIMIT);
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

    /// Zooms by `steps` wheel notches (positive: closer) towards `pixel`, counted from the
    /// top-left corner of a view of `size` pixels, as Blender's "Zoom to Mouse Position" and
    /// three.js's `zoomToCursor` do: the distance becomes `ZOOM_PER_NOTCH^steps` of itself, and
    /// the target moves towards the point under the pointer on its own plane (through the
    /// target, facing the camera) by the same fraction, so that point stays under the pointer.
    pub fn zoom_at(&mut self, steps: f32, pixel: Vec2, size: Vec2) {
        let distance = (self.distance * ZOOM_PER_NOTCH.powf(steps)).clamp(MIN_DISTANCE, MAX_DISTANCE);
        let closer = 1.0 - distance / self.distance;
        self.target += (self.on_target_plane(pixel, size) - self.target) * closer;
        self.distance = distance;
    }

    /// The point under `pixel` (from the top-left corner of a view of `size` pixels) on the
    /// plane through the target facing the camera, in world space.
    fn on_target_plane(&self, pixel: Vec2, size: Vec2) -> Vec3 {
        let size = size.max(Vec2::ONE);
        let ndc = Vec2::new(pixel.x / size.x * 2.0 - 1.0, 1.0 - pixel.y / size.y * 2.0);
        let half_height = self.distance * (self.fov_y * 0.5).tan();
        let half_width = half_height * size.x / size.y;
        let view = self.view();
        let (right, up) = (view.row(0).truncate(), view.row(1).truncate());
        self.target + right * (ndc.x * half_width) + up * (ndc.y * half_height)
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
        camera.orbit(120.0, 10_000.0, 800.0);
        assert!((camera.eye().distance(camera.target) - before).abs() < 1e-4);
        assert!(camera.pitch <= PITCH_LIMIT);
    }

    #[test]
    fn a_drag_across_the_whole_view_turns_half_a_turn_whatever_its_width() {
        for width in [800.0, 1600.0] {
            let mut camera = OrbitCamera::default();
            let (yaw, pitch) = (camera.yaw, camera.pitch);
            camera.orbit(width, 0.0, width);
            assert!(
                ((yaw - camera.yaw) - std::f32::consts::PI).abs() < 1e-5,
                "{width} px wide: turned {}°",
                (yaw - camera.yaw).to_degrees()
            );
            assert_eq!(camera.pitch, pitch, "a level drag keeps the pitch");
            camera.orbit(0.0, width / 18.0, width);
            assert!(
                ((camera.pitch - pitch).to_degrees() - 10.0).abs() < 1e-3,
                "pitch turns at the yaw's rate per pixel"
            );
        }
    }

    #[test]
    fn pan_moves_the_target_in_the_view_plane() {
        let mut camera = OrbitCamera::default();
        let target = camera.target;
        camera.pan(100.0, 0.0, 800.0);
        assert!(
            (camera.target - target).dot(camera.eye() - camera.target).abs() < 1e-3,
            "in the view plane"
        );
        assert!(camera.target.distance(target) > 0.0);
    }

    /// Where `point` appears, in pixels from the top-left corner of a view of `size` pixels.
    fn to_pixels(camera: &OrbitCamera, point: Vec3, size: Vec2) -> Vec2 {
        let clip = camera.projection(size.x / size.y) * camera.view() * point.extend(1.0);
        let ndc = clip.xy() / clip.w;
        Vec2::new((ndc.x + 1.0) * 0.5 * size.x, (1.0 - ndc.y) * 0.5 * size.y)
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer_under_it() {
        let size = Vec2::new(980.0, 730.0);
        for (pixel, steps) in [
            (Vec2::new(120.0, 90.0), 1.0),
            (Vec2::new(900.0, 600.0), -1.0),
            (Vec2::new(700.0, 200.0), 3.0),
        ] {
            let mut camera = OrbitCamera::default();
            let under_pointer = camera.on_target_plane(pixel, size);
            assert!(
                to_pixels(&camera, under_pointer, size).distance(pixel) < 0.5,
                "the point found lies under the pointer"
            );
            camera.zoom_at(steps, pixel, size);
            let seen_at = to_pixels(&camera, under_pointer, size);
            assert!(
                seen_at.distance(pixel) < 0.5,
                "{steps} notches at {pixel}: the point moved to {seen_at}"
            );
        }
    }

    #[test]
    fn zooming_at_the_centre_keeps_the_target_and_a_notch_is_ten_percent() {
        let size = Vec2::new(800.0, 600.0);
        let mut camera = OrbitCamera::default();
        let (target, distance) = (camera.target, camera.distance);
        camera.zoom_at(1.0, size * 0.5, size);
        assert!(camera.target.distance(target) < 1e-5, "the target stays");
        assert!(
            (camera.distance - distance * 0.9).abs() < 1e-5,
            "one notch in: 10% closer"
        );
        camera.zoom_at(-1.0, size * 0.5, size);
        assert!((camera.distance - distance).abs() < 1e-5, "one notch out undoes it");
        camera.zoom_at(1.0, Vec2::ZERO, size);
        assert!(
            (camera.distance - distance * 0.9).abs() < 1e-5,
            "off centre too, the distance changes by 10%"
        );
        assert!(
            camera.target.distance(target) > 0.01,
            "and the target moves towards the pointer"
        );
    }
}
