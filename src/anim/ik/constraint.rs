//! Joint limits for IK, measured against the joint's rest rotation.
//!
//! A joint's rotation `q` is compared with its rest rotation `r` through `rel = r⁻¹·q`, the
//! rotation away from rest expressed in the joint's rest frame. `rel` is split into a *swing*
//! (moves the bone direction) and a *twist* (spins about the axis): `rel = swing · twist`.
//! - Ball-and-socket: the bone may point anywhere within `cone` radians of its rest direction
//!   (the swing angle), and may twist about itself by at most `twist` radians either way.
//! - Hinge: the joint only turns about `axis` (in the joint's rest frame), by an angle in
//!   `min..=max` radians; any swing off the axis is removed.
//!
//! Limiting keeps the allowed part of the rotation: a swing beyond the cone is shortened to
//! the cone's edge along the same great circle, a twist or hinge angle is clamped.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum JointConstraint {
    /// No limit.
    #[default]
    Free,
    /// Swing within `cone` radians of the rest direction, twist within `±twist` radians.
    Ball { cone: f32, twist: f32 },
    /// Rotation about `axis` (unit, joint rest frame) only, by an angle in `min..=max` radians.
    Hinge { axis: Vec3, min: f32, max: f32 },
}

/// `rel = swing · twist`, with `twist` a rotation about the unit vector `axis`. Both are
/// returned with w ≥ 0. A swing of exactly half a turn leaves no twist to find (identity).
fn swing_twist(rel: Quat, axis: Vec3) -> (Quat, Quat) {
    let rel = positive_w(rel);
    let along = axis * rel.xyz().dot(axis);
    let twist = glam::Vec4::new(along.x, along.y, along.z, rel.w)
        .try_normalize()
        .map_or(Quat::IDENTITY, Quat::from_vec4);
    (positive_w((rel * twist.inverse()).normalize()), positive_w(twist))
}

/// The signed angle of a rotation about `axis` (in -π..=π), for a quaternion that only turns
/// about that axis.
fn angle_about(twist: Quat, axis: Vec3) -> f32 {
    2.0 * twist.xyz().dot(axis).atan2(twist.w)
}

/// The unsigned angle of a rotation (0..=π).
fn angle_of(q: Quat) -> f32 {
    2.0 * q.w.abs().min(1.0).acos()
}

fn positive_w(q: Quat) -> Quat {
    if q.w < 0.0 { -q } else { q }
}

impl JointConstraint {
    /// `rotation` limited by this constraint. `rest` is the joint's rest rotation and `bone`
    /// the direction of the bone it moves, in the joint's rest frame (used by the ball's twist
    /// and cone).
    pub fn limit(&self, rotation: Quat, rest: Quat, bone: Vec3) -> Quat {
        let rel = rest.inverse() * rotation;
        let limited = match *self {
            Self::Free => return rotation,
            Self::Ball { cone, twist } => {
                let (swing, spin) = swing_twist(rel, bone);
                let swing_angle = angle_of(swing);
                let swing = if swing_angle > cone {
                    let axis = swing.xyz().try_normalize().unwrap_or(bone.any_orthonormal_vector());
                    Quat::from_axis_angle(axis, cone.max(0.0))
                } else {
                    swing
                };
                let spin_angle = angle_about(spin, bone);
                let twist = twist.max(0.0);
                swing * Quat::from_axis_angle(bone, spin_angle.clamp(-twist, twist))
            }
            Self::Hinge { axis, min, max } => {
                let (_, spin) = swing_twist(rel, axis);
                let angle = angle_about(spin, axis);
                Quat::from_axis_angle(axis, clamp_angle(angle, min, max))
            }
        };
        (rest * limited).normalize()
    }

    /// How far `rotation` lies outside the limits, in radians (0 when it is within them).
    pub fn violation(&self, rotation: Quat, rest: Quat, bone: Vec3) -> f32 {
        let rel = rest.inverse() * rotation;
        match *self {
            Self::Free => 0.0,
            Self::Ball { cone, twist } => {
                let (swing, spin) = swing_twist(rel, bone);
                let over_cone = angle_of(swing) - cone.max(0.0);
                let over_twist = angle_about(spin, bone).abs() - twist.max(0.0);
                over_cone.max(over_twist).max(0.0)
            }
            Self::Hinge { axis, min, max } => {
                let (swing, spin) = swing_twist(rel, axis);
                let angle = angle_about(spin, axis);
                let clamped = clamp_angle(angle, min, max);
                let outside = wrap_angle(angle - clamped);
                angle_of(swing).max(outside.abs())
            }
        }
    }
}

/// `angle` brought into -π..π.
pub(super) fn wrap_angle(angle: f32) -> f32 {
    (angle + PI).rem_euclid(TAU) - PI
}

/// `angle` clamped to `min..=max`, comparing angles around the circle: an angle a whole turn
/// away from one in the range is in it (a range of 0..270° holds -160°), and one outside goes
/// to the nearer limit (so a hinge at its max does not snap to its min when pushed past half
/// a turn).
fn clamp_angle(angle: f32, min: f32, max: f32) -> f32 {
    let turned = min + (angle - min).rem_euclid(TAU);
    if turned <= max {
        return turned;
    }
    let distance = |limit: f32| {
        let d = (angle - limit).rem_euclid(TAU);
        d.min(TAU - d)
    };
    if distance(min) <= distance(max) { min } else { max }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    #[test]
    fn swing_and_twist_recompose_the_rotation() {
        let rel = Quat::from_euler(glam::EulerRot::XYZ, 0.4, -1.1, 0.7);
        let (swing, twist) = swing_twist(rel, Vec3::Y);
        assert!((swing * twist).dot(rel).abs() > 1.0 - 1e-6);
        assert!(twist.x.abs() < 1e-6 && twist.z.abs() < 1e-6, "twist turns about Y");
        assert!(
            (swing * Vec3::Y).abs_diff_eq(rel * Vec3::Y, 1e-5),
            "swing moves the axis as rel does"
        );
    }

    #[test]
    fn ball_limits_the_cone_and_the_twist() {
        let ball = JointConstraint::Ball {
            cone: FRAC_PI_4,
            twist: 0.2,
        };
        let rest = Quat::from_rotation_z(0.3);
        let inside = rest * Quat::from_rotation_x(0.5) * Quat::from_rotation_y(0.1);
        assert!(ball.violation(inside, rest, Vec3::Y) < 1e-6);
        assert!(
            ball.limit(inside, rest, Vec3::Y).dot(inside).abs() > 1.0 - 1e-6,
            "inside is kept"
        );

        let outside = rest * Quat::from_rotation_x(1.2) * Quat::from_rotation_y(0.9);
        // The swing is 1.2 - π/4 = 0.41 past the cone, the twist 0.9 - 0.2 = 0.7 past its limit.
        assert!((ball.violation(outside, rest, Vec3::Y) - 0.7).abs() < 1e-4);
        let limited = ball.limit(outside, rest, Vec3::Y);
        assert!(ball.violation(limited, rest, Vec3::Y) < 1e-5);
        // The swing keeps its direction: the bone leans the same way, by the cone angle.
        let bone = rest.inverse() * limited * Vec3::Y;
        assert!((bone.angle_between(Vec3::Y) - FRAC_PI_4).abs() < 1e-4);
        assert!(bone.z > 0.0 && bone.x.abs() < 1e-4, "still leaning towards +Z");
        let (_, twist) = swing_twist(rest.inverse() * limited, Vec3::Y);
        assert!((angle_about(twist, Vec3::Y) - 0.2).abs() < 1e-4);
    }

    #[test]
    fn hinge_keeps_only_its_axis_within_its_range() {
        let hinge = JointConstraint::Hinge {
            axis: Vec3::X,
            min: 0.0,
            max: FRAC_PI_2,
        };
        let rest = Quat::IDENTITY;
        let bent = Quat::from_rotation_x(1.0);
        assert_eq!(hinge.violation(bent, rest, Vec3::Y), 0.0);
        let twisted = Quat::from_rotation_x(1.0) * Quat::from_rotation_y(0.5);
        assert!(hinge.violation(twisted, rest, Vec3::Y) > 0.4);
        let limited = hinge.limit(twisted, rest, Vec3::Y);
        assert!(hinge.violation(limited, rest, Vec3::Y) < 1e-5);
        assert!((limited * Vec3::X).abs_diff_eq(Vec3::X, 1e-5), "turns about X only");

        let backwards = Quat::from_rotation_x(-0.3);
        let limited = hinge.limit(backwards, rest, Vec3::Y);
        assert!(limited.abs_diff_eq(Quat::IDENTITY, 1e-5), "clamped to min");
        let far = Quat::from_rotation_x(PI * 0.9);
        let limited = hinge.limit(far, rest, Vec3::Y);
        assert!(
            limited.abs_diff_eq(Quat::from_rotation_x(FRAC_PI_2), 1e-5),
            "clamped to the nearer max"
        );
    }

    #[test]
    fn clamp_angle_picks_the_nearer_limit_around_the_circle() {
        assert_eq!(clamp_angle(0.5, 0.0, 1.0), 0.5);
        assert_eq!(clamp_angle(1.5, 0.0, 1.0), 1.0);
        assert_eq!(clamp_angle(-0.2, 0.0, 1.0), 0.0);
        assert_eq!(clamp_angle(-2.0, 0.0, 1.0), 0.0);
        assert_eq!(clamp_angle(-3.0, 0.0, 1.0), 1.0, "-3 is nearer 1 the other way round");
        assert_eq!(clamp_angle(3.0, -0.5, 0.5), 0.5);
        let wide = clamp_angle(-160f32.to_radians(), 0.0, 270f32.to_radians());
        assert!(
            (wide - 200f32.to_radians()).abs() < 1e-5,
            "a range wider than half a turn holds it"
        );
        let hinge = JointConstraint::Hinge {
            axis: Vec3::X,
            min: 0.0,
            max: 270f32.to_radians(),
        };
        let at_200 = Quat::from_rotation_x(200f32.to_radians());
        assert!(hinge.violation(at_200, Quat::IDENTITY, Vec3::Y) < 1e-5);
        assert!(hinge.limit(at_200, Quat::IDENTITY, Vec3::Y).dot(at_200).abs() > 1.0 - 1e-6);
    }
}
