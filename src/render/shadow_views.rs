//! Which lights cast shadows, and from where: the views of the shadow map's layers. The studio's
//! key light takes layer 0; the file's lights that light the model most take a layer each,
//! brightest first, and a point light inside the model takes six (a cube's faces), as long as
//! the quality's layers last.

use glam::camera::rh::{proj::directx, view::look_at_mat4};
use glam::{Mat4, Vec3};

use super::uniforms::{LightUniform, MAX_LIGHTS, MAX_SHADOW_LAYERS};
use crate::view::Bounds;

/// Gives shadow map layers to the lights among `lights` that light the middle of `bounds`
/// most, brightest first, while `budget` layers last: one to a directional light (seen along
/// it), a spot light or a point light outside the model (seen from it); six to a point light
/// inside the model, one per cube face (`cube_face_view`). A light whose layers do not fit is
/// passed over for a dimmer one whose do. Sets each caster's `LightUniform::shadow`, writes
/// the layers' views into `views`, and returns how many layers are used.
///
/// Brightness: a directional light's illuminance (the luminance of colour × intensity, in lux);
/// a spot or point light's intensity over the squared distance to the middle, or to the
/// model's radius from inside it (a spot's 0 outside its cone).
pub fn assign_shadow_layers(
    lights: &mut [LightUniform],
    bounds: &Bounds,
    budget: usize,
    views: &mut [Mat4; MAX_SHADOW_LAYERS],
) -> usize {
    let (center, radius) = (framed(bounds).0, bounds.radius());
    let inside = |light: &LightUniform| light.position().distance(center) <= radius * 1.1;
    let illuminance = |light: &LightUniform| {
        let [r, g, b, _] = light.radiance;
        let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        if light.is_directional() {
            return luminance;
        }
        let to_center = center - light.position();
        if light.is_spot() && to_center.normalize_or_zero().dot(light.direction()) < light.outer_cone().cos() {
            return 0.0;
        }
        luminance / to_center.length_squared().max(radius * radius).max(1e-6)
    };
    let count = lights.len().min(MAX_LIGHTS);
    let brightness: [f32; MAX_LIGHTS] = std::array::from_fn(|slot| lights.get(slot).map_or(0.0, illuminance));
    let mut order: [usize; MAX_LIGHTS] = std::array::from_fn(|slot| slot);
    let order = &mut order[..count];
    // Unstable sorting allocates nothing; ties go to the lower slot.
    order.sort_unstable_by(|&a, &b| brightness[b].total_cmp(&brightness[a]).then(a.cmp(&b)));
    let budget = budget.min(MAX_SHADOW_LAYERS);
    let mut used = 0;
    for &slot in order.iter() {
        if brightness[slot] <= 0.0 {
            continue;
        }
        let light = &mut lights[slot];
        let cube = !light.is_directional() && !light.is_spot() && inside(light);
        let needed = if cube { 6 } else { 1 };
        if used + needed > budget {
            continue;
        }
        light.shadow = [used as f32 + 1.0, if cube { 1.0 } else { 0.0 }, 0.0, 0.0];
        for (face, view) in views[used..used + needed].iter_mut().enumerate() {
            *view = match (light.is_directional(), cube) {
                (true, _) => light_view_projection(bounds, -light.direction()),
                (false, true) => cube_face_view(bounds, light.position(), face),
                (false, false) => local_light_view_projection(bounds, light),
            };
        }
        used += needed;
    }
    used
}

/// The middle of `bounds` and the radius the shadow's view covers (the ground around too).
fn framed(bounds: &Bounds) -> (Vec3, f32) {
    match bounds.is_empty() {
        true => (Vec3::ZERO, 1.0),
        false => (bounds.center(), bounds.radius().max(1e-3) * 1.5),
    }
}

/// An up direction for a view along `direction`: +Y, or +Z straight up or down.
fn up_for(direction: Vec3) -> Vec3 {
    match direction.cross(Vec3::Y).length_squared() < 1e-6 {
        true => Vec3::Z,
        false => Vec3::Y,
    }
}

/// World → light clip space for a spot or point light's shadow: a perspective view from the
/// light, along a spot's direction and as wide as its cone, or at the middle of `bounds` and as
/// wide as they are for a point light (each with a little more for the filter's reach), from
/// just before `bounds` (and the ground around it) to just beyond.
fn local_light_view_projection(bounds: &Bounds, light: &LightUniform) -> Mat4 {
    let (center, radius) = framed(bounds);
    let position = light.position();
    let distance = position.distance(center);
    let (direction, half_angle) = match light.is_spot() {
        true => (light.direction().normalize_or(Vec3::NEG_Y), light.outer_cone()),
        // The model itself, not the ground around it: a point light is often near.
        false => (
            (center - position).normalize_or(Vec3::NEG_Y),
            (bounds.radius() / distance.max(1e-6)).min(1.0).asin(),
        ),
    };
    let view = look_at_mat4(position, position + direction, up_for(direction));
    let far = distance + radius;
    let near = (distance - radius).max(far * 1e-3);
    let fov = (2.0 * half_angle + 0.1).min(3.0);
    directx::perspective(fov, 1.0, near, far) * view
}

/// The directions of a point light's six shadow layers, in frame.wgsl's `cube_face` order.
const CUBE_FACES: [Vec3; 6] = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z];

/// World → light clip space of face `face` of a point light at `position` inside the model: a
/// square perspective view a little over 90° wide (so that the filter's taps at a face's edge
/// stay on it), out to the far side of `bounds` and the ground around it.
fn cube_face_view(bounds: &Bounds, position: Vec3, face: usize) -> Mat4 {
    let (center, radius) = framed(bounds);
    let direction = CUBE_FACES[face];
    let view = look_at_mat4(position, position + direction, up_for(direction));
    let far = position.distance(center) + radius;
    let fov = 2.0 * 1.1f32.atan();
    directx::perspective(fov, 1.0, far * 1e-3, far) * view
}

/// World → light clip space: an orthographic view along a directional light (`towards`: the
/// direction to it) that covers `bounds` and the ground around it.
pub fn light_view_projection(bounds: &Bounds, towards: Vec3) -> Mat4 {
    let (center, radius) = framed(bounds);
    let direction = towards.normalize_or(Vec3::Y);
    let view = look_at_mat4(center + direction * radius * 3.0, center, up_for(direction));
    directx::orthographic(-radius, radius, -radius, radius, radius * 0.5, radius * 6.0) * view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::{LightKind, PunctualLight};

    fn light(kind: LightKind, intensity: f32, at: Vec3) -> LightUniform {
        let light = PunctualLight {
            name: String::new(),
            kind,
            color: Vec3::ONE,
            intensity,
            range: None,
            joint: 0,
        };
        LightUniform::new(&light, Mat4::from_translation(at))
    }

    fn unit_box() -> Bounds {
        Bounds {
            min: Vec3::splat(-1.0),
            max: Vec3::splat(1.0),
        }
    }

    #[test]
    fn the_brightest_lights_take_the_layers_a_point_light_inside_six() {
        let far = Vec3::new(0.0, 10.0, 0.0);
        let mut lights = [
            light(LightKind::Directional, 1.0, Vec3::ZERO),
            light(LightKind::Point, 50.0, Vec3::ZERO),
            light(LightKind::Point, 100.0, far),
            light(LightKind::Directional, 0.5, Vec3::ZERO),
        ];
        let mut views = [Mat4::IDENTITY; MAX_SHADOW_LAYERS];
        let used = assign_shadow_layers(&mut lights, &unit_box(), 8, &mut views);
        // Brightness: the inside point light 50 / 3 (the box's radius²), the sun 1, the far
        // point light 1, the dim sun 0.5. Six layers, then one each for the sun and the far
        // light (the lower slot first on a tie); the dim sun finds none left.
        assert_eq!(used, 8);
        let shadows: Vec<[f32; 2]> = lights.iter().map(|l| [l.shadow[0], l.shadow[1]]).collect();
        assert_eq!(shadows, [[7.0, 0.0], [1.0, 1.0], [8.0, 0.0], [0.0, 0.0]]);
        // Each face's view holds the points along its direction, in the middle of its square.
        for (face, direction) in CUBE_FACES.iter().enumerate() {
            let clip = views[face].project_point3(*direction * 0.5);
            assert!(
                clip.x.abs() < 1e-4 && clip.y.abs() < 1e-4 && (0.0..1.0).contains(&clip.z),
                "{face}: {clip}"
            );
        }
        // With two layers, the point light inside does not fit: the next two take them.
        let mut lights_again = lights.map(|mut l| {
            l.shadow = [0.0; 4];
            l
        });
        assert_eq!(assign_shadow_layers(&mut lights_again, &unit_box(), 2, &mut views), 2);
        let casters: Vec<f32> = lights_again.iter().map(|l| l.shadow[0]).collect();
        assert_eq!(casters, [1.0, 0.0, 2.0, 0.0]);
    }
}
