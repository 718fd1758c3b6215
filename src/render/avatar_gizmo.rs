//! What a VRM avatar's parts look like in the view: each spring joint joined to its tail, and
//! the colliders they bounce off (spheres and capsules as three rings each, planes as a square
//! with its normal), all where the pose puts them; and the point the eyes look at, to grab.

use glam::{Mat3, Mat4, Vec3, Vec4};

use super::overlay::Overlay;
use crate::anim::avatar::{ColliderShape, SpringBones};

const JOINT_COLOR: Vec4 = Vec4::new(1.0, 0.85, 0.2, 1.0);
const LOOK_COLOR: Vec4 = Vec4::new(0.4, 1.0, 0.6, 1.0);
/// Half size of the look point's square, in clip units per w (about 5 pixels on 800).
const LOOK_SIZE: f32 = 0.012;
const COLLIDER_COLOR: Vec4 = Vec4::new(0.3, 0.9, 1.0, 0.8);
const RING_SEGMENTS: u32 = 24;
/// Half size of a joint's square, in clip units per w (about 3 pixels on 800).
const JOINT_SIZE: f32 = 0.008;
/// Half the side of a plane collider's square, in model units.
const PLANE_HALF_SIDE: f32 = 0.5;

/// Adds `springs` as posed by `matrices` (model matrices) to `overlay`.
pub fn draw_spring_bones(overlay: &mut Overlay, springs: &SpringBones, matrices: &[Mat4]) {
    let position = |joint: usize| matrices.get(joint).map(|m| m.w_axis.truncate());
    for spring in &springs.joints {
        let Some(head) = position(spring.joint) else { continue };
        overlay.square(head, JOINT_COLOR, JOINT_SIZE);
        if let Some(tail) = spring.child.and_then(position) {
            overlay.line(head, tail, JOINT_COLOR);
        }
    }
    for collider in &springs.colliders {
        let Some(world) = matrices.get(collider.joint) else {
            continue;
        };
        match collider.shape {
            ColliderShape::Sphere { offset, radius, .. } => rings(overlay, world.transform_point3(offset), radius),
            ColliderShape::Capsule {
                offset, tail, radius, ..
            } => {
                let (from, to) = (world.transform_point3(offset), world.transform_point3(tail));
                rings(overlay, from, radius);
                rings(overlay, to, radius);
                let side = (to - from).normalize_or_zero().any_orthonormal_pair();
                for edge in [side.0, -side.0, side.1, -side.1] {
                    overlay.line(from + edge * radius, to + edge * radius, COLLIDER_COLOR);
                }
            }
            ColliderShape::Plane { offset, normal } => {
                let centre = world.transform_point3(offset);
                let normal = (Mat3::from_mat4(*world).inverse().transpose() * normal).normalize_or_zero();
                let (u, v) = normal.any_orthonormal_pair();
                let corners = [u + v, u - v, -u - v, -u + v].map(|c| centre + c * PLANE_HALF_SIDE);
                for (i, corner) in corners.iter().enumerate() {
                    overlay.line(*corner, corners[(i + 1) % 4], COLLIDER_COLOR);
                }
                overlay.line(centre, centre + normal * PLANE_HALF_SIDE * 0.5, COLLIDER_COLOR);
            }
        }
    }
}

/// The point the eyes look at: a cross of `radius` and a square, the same size at any distance.
pub fn draw_look_point(overlay: &mut Overlay, point: Vec3, radius: f32) {
    overlay.cross(point, radius, LOOK_COLOR);
    overlay.square(point, LOOK_COLOR, LOOK_SIZE);
}

/// A sphere as three rings about the axes.
fn rings(overlay: &mut Overlay, centre: Vec3, radius: f32) {
    for (axis, start) in [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)] {
        overlay.arc(
            centre,
            axis,
            start * radius,
            (0.0, std::f32::consts::TAU),
            RING_SEGMENTS,
            COLLIDER_COLOR,
        );
    }
}
