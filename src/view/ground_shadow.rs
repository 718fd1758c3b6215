//! Where on screen the ground can lie in the key light's shadow: the ground under the model's
//! box along the light, as the camera sees it. The ground's shadow lookups cost about 2 ms a
//! frame on a software rasteriser when made over the whole ground (Fox at 1280x800); outside
//! this rectangle nothing casts onto it, so the ground is drawn there without them.

use glam::{Mat4, Vec2, Vec3};

use super::Bounds;

/// How much the model's box grows for the shadow's reach: what an IK target, a blend or a
/// pose between the sampled ones moves outside the measured box (the shadow map itself
/// covers half as much again around the box).
const MARGIN: f32 = 0.25;

/// Where the ground's pixels need the shadow lookups.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GroundShadow {
    /// No light casts a shadow.
    Nowhere,
    /// Inside this rectangle of the target, in pixels (x, y, width, height).
    Within([u32; 4]),
    /// Anywhere: the file's lights cast shadows, or the ground under the model reaches behind
    /// the camera.
    Everywhere,
}

/// The rectangle of a `size` target, seen through `view_proj`, holding the ground (the plane
/// y = `ground_height`) that `bounds` can shade from a directional light shining from
/// `towards_light`.
pub fn key_light_shadow_on_ground(
    bounds: &Bounds,
    towards_light: Vec3,
    ground_height: f32,
    view_proj: Mat4,
    (width, height): (u32, u32),
) -> GroundShadow {
    // A light along the ground (or from below it) shades it anywhere.
    if bounds.is_empty() || towards_light.y <= 1e-3 {
        return GroundShadow::Everywhere;
    }
    let grown = bounds.radius() * MARGIN;
    let (min, max) = (bounds.min - Vec3::splat(grown), bounds.max + Vec3::splat(grown));
    let (mut low, mut high) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
    let size = Vec2::new(width as f32, height as f32);
    for corner in (Bounds { min, max }).corners() {
        // Along the light onto the ground; the ground under a corner below it is the corner's.
        let onto = corner - towards_light * ((corner.y - ground_height).max(0.0) / towards_light.y);
        let clip = view_proj * Vec3::new(onto.x, ground_height, onto.z).extend(1.0);
        if clip.w <= 1e-6 {
            return GroundShadow::Everywhere;
        }
        let ndc = clip.truncate().truncate() / clip.w;
        let pixel = Vec2::new(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * size;
        (low, high) = (low.min(pixel), high.max(pixel));
    }
    // A pixel of room either way for rounding.
    let low = (low - 1.0).floor().clamp(Vec2::ZERO, size);
    let high = (high + 1.0).ceil().clamp(Vec2::ZERO, size);
    let extent = high - low;
    match extent.x > 0.0 && extent.y > 0.0 {
        true => GroundShadow::Within([low.x as u32, low.y as u32, extent.x as u32, extent.y as u32]),
        false => GroundShadow::Nowhere,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::camera::rh::{proj::directx, view::look_at_mat4};

    /// A camera at `eye` looking at `target`, 90° wide, on a square target.
    fn camera_looking(eye: Vec3, target: Vec3) -> Mat4 {
        directx::perspective(std::f32::consts::FRAC_PI_2, 1.0, 0.1, 100.0) * look_at_mat4(eye, target, Vec3::Y)
    }

    /// Twenty units above the origin, looking down at it.
    fn camera_above() -> Mat4 {
        camera_looking(Vec3::new(0.0, 20.0, 0.01), Vec3::ZERO)
    }

    fn unit_box_on_ground() -> Bounds {
        Bounds {
            min: Vec3::new(-0.5, 0.0, -0.5),
            max: Vec3::new(0.5, 1.0, 0.5),
        }
    }

    #[test]
    fn the_shadow_of_a_box_seen_from_above_is_a_small_rectangle_around_it() {
        let view_proj = camera_above();
        let light = Vec3::Y;
        let GroundShadow::Within([x, y, width, height]) =
            key_light_shadow_on_ground(&unit_box_on_ground(), light, 0.0, view_proj, (1000, 1000))
        else {
            panic!("a rectangle expected");
        };
        // The box, 1.5 wide with its margin, is 1/20 of the camera's 40-unit-wide view at the
        // ground, so about 37 of 1000 pixels, in the middle.
        assert!(
            (35..45).contains(&width) && (35..45).contains(&height),
            "{width} x {height}"
        );
        assert!((475..485).contains(&x) && (475..485).contains(&y), "at {x}, {y}");
    }

    #[test]
    fn a_low_light_stretches_the_rectangle_away_from_it() {
        let view_proj = camera_above();
        let steep = key_light_shadow_on_ground(&unit_box_on_ground(), Vec3::Y, 0.0, view_proj, (1000, 1000));
        let low = key_light_shadow_on_ground(
            &unit_box_on_ground(),
            Vec3::new(1.0, 0.25, 0.0).normalize(),
            0.0,
            view_proj,
            (1000, 1000),
        );
        let (GroundShadow::Within(steep), GroundShadow::Within(low)) = (steep, low) else {
            panic!("rectangles expected");
        };
        // The top of the box falls 5 units towards −x: the rectangle grows to the left.
        assert!(low[0] < steep[0] && low[2] > steep[2] * 3, "{low:?} against {steep:?}");
        assert_eq!(low[0] + low[2], steep[0] + steep[2], "{low:?} against {steep:?}");
    }

    #[test]
    fn a_shadow_outside_the_picture_needs_no_lookups_and_one_behind_the_camera_needs_them_all() {
        let away = Bounds {
            min: Vec3::new(200.0, 0.0, 0.0),
            max: Vec3::new(201.0, 1.0, 1.0),
        };
        let view_proj = camera_above();
        let shadow = key_light_shadow_on_ground(&away, Vec3::Y, 0.0, view_proj, (1000, 1000));
        assert_eq!(shadow, GroundShadow::Nowhere);
        // The camera stands in the box's shadow, looking along the ground.
        let view_proj = camera_looking(Vec3::new(0.0, 0.3, 0.0), Vec3::new(0.0, 0.3, -5.0));
        let shadow = key_light_shadow_on_ground(&unit_box_on_ground(), Vec3::Y, 0.0, view_proj, (1000, 1000));
        assert_eq!(shadow, GroundShadow::Everywhere);
        let grazing = key_light_shadow_on_ground(&unit_box_on_ground(), Vec3::X, 0.0, view_proj, (1000, 1000));
        assert_eq!(grazing, GroundShadow::Everywhere);
    }
}
