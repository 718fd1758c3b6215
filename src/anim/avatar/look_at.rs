//! VRM look-at: where the eyes look. A target's direction from the head (from a point offset
//! from the head bone), in the head's rest frame, becomes a yaw (positive: to the avatar's
//! left) and a pitch (positive: down), in degrees. The bone type turns the eye bones by them
//! through range maps (inner and outer for each eye horizontally, up and down vertically); the
//! expression type sets the lookLeft/Right/Up/Down expressions instead: whenever it looks
//! somewhere it owns those four weights, writing each (0 where it does not look that way) over
//! what was set by hand or by a clip, as three-vrm's expression applier does each frame its
//! look-at has a target. As VRM 1.0 and three-vrm define it, with one difference: three-vrm's
//! eye bones use the down map when looking up and the up map when looking down; here each is
//! used as the specification says.

use glam::{Mat4, Quat, Vec3};

use super::expression::Expression;
use crate::anim::Pose;

/// How an input angle (degrees) becomes an output: `output_scale × clamp(angle / input_max)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangeMap {
    pub input_max: f32,
    pub output_scale: f32,
}

impl RangeMap {
    pub fn map(self, degrees: f32) -> f32 {
        self.output_scale * (degrees / self.input_max.max(0.01)).clamp(0.0, 1.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookAtKind {
    /// Turns the eye bones (output in degrees).
    Bone,
    /// Sets the look expressions (output a weight).
    Expression,
}

/// An avatar's look-at, with the rest frames it measures from.
#[derive(Clone, Debug, PartialEq)]
pub struct LookAt {
    pub kind: LookAtKind,
    pub head: usize,
    pub eyes: [Option<usize>; 2],
    /// In the head's space.
    pub offset_from_head: Vec3,
    pub horizontal_inner: RangeMap,
    pub horizontal_outer: RangeMap,
    pub vertical_down: RangeMap,
    pub vertical_up: RangeMap,
    /// The four entries of `Pose::properties` (a quaternion) through which clips (VRM
    /// animations) set where the eyes look: its YXZ angles are the yaw and pitch.
    pub rotation_entry: Option<usize>,
    /// The head's model-space rotation at rest, and per eye its parent's and its own rest
    /// rotations (`at_rest` fills them).
    head_rest: Quat,
    eye_rest: [(Quat, Quat); 2],
}

/// Where the eyes look: the yaw and pitch in degrees.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gaze {
    pub yaw: f32,
    pub pitch: f32,
}

impl LookAt {
    /// A look-at measured from the rest pose `rest_model` (its model matrices) and `rest`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kind: LookAtKind,
        head: usize,
        eyes: [Option<usize>; 2],
        offset_from_head: Vec3,
        [horizontal_inner, horizontal_outer, vertical_down, vertical_up]: [RangeMap; 4],
        rest: &Pose,
        rest_model: &[Mat4],
    ) -> Self {
        let rotation = |joint: usize| Quat::from_mat4(&rest_model[joint]).normalize();
        let eye_rest = eyes.map(|eye| match eye {
            Some(eye) => {
                let parent = rest.hierarchy().parent(eye).map_or(Quat::IDENTITY, rotation);
                (parent, rest.local()[eye].rotation)
            }
            None => (Quat::IDENTITY, Quat::IDENTITY),
        });
        Self {
            kind,
            head,
            eyes,
            offset_from_head,
            horizontal_inner,
            horizontal_outer,
            vertical_down,
            vertical_up,
            rotation_entry: None,
            head_rest: rotation(head),
            eye_rest,
        }
    }

    /// The gaze at `target` (model space) for the pose whose model matrices are `model`.
    pub fn gaze(&self, model: &[Mat4], target: Vec3) -> Gaze {
        let head = model[self.head];
        let from = head.transform_point3(self.offset_from_head);
        let head_now = Quat::from_mat4(&head).normalize();
        let direction = (self.head_rest * head_now.inverse() * (target - from)).normalize_or_zero();
        if direction == Vec3::ZERO {
            return Gaze::default();
        }
        // Yaw about +Y from the face's +Z towards +X, pitch positive downwards.
        let yaw = direction.x.atan2(direction.z).to_degrees();
        let level = (direction.x * direction.x + direction.z * direction.z).sqrt();
        let pitch = -direction.y.atan2(level).to_degrees();
        Gaze { yaw, pitch }
    }

    /// The gaze a clip sets through `rotation_entry`, if it turns away from straight ahead.
    pub fn animated_gaze(&self, pose: &Pose) -> Option<Gaze> {
        let values = pose.properties().get(self.rotation_entry?..self.rotation_entry? + 4)?;
        let rotation = Quat::from_slice(values).normalize();
        if !rotation.is_finite() || rotation.abs_diff_eq(Quat::IDENTITY, 1e-6) {
            return None;
        }
        let (yaw, pitch, _) = rotation.to_euler(glam::EulerRot::YXZ);
        Some(Gaze {
            yaw: yaw.to_degrees(),
            pitch: pitch.to_degrees(),
        })
    }

    /// Turns the eye bones of `pose` to `gaze` (bone type).
    pub fn turn_eyes(&self, gaze: Gaze, pose: &mut Pose) {
        let vertical = match gaze.pitch < 0.0 {
            true => -self.vertical_up.map(-gaze.pitch),
            false => self.vertical_down.map(gaze.pitch),
        };
        // Towards the avatar's left, the left eye turns outwards and the right eye inwards.
        let horizontal = |outer_on_left: bool| match (gaze.yaw < 0.0, outer_on_left) {
            (false, true) => self.horizontal_outer.map(gaze.yaw),
            (false, false) => self.horizontal_inner.map(gaze.yaw),
            (true, true) => -self.horizontal_inner.map(-gaze.yaw),
            (true, false) => -self.horizontal_outer.map(-gaze.yaw),
        };
        for (side, (eye, (parent, own))) in self.eyes.iter().zip(self.eye_rest).enumerate() {
            let Some(eye) = eye else { continue };
            // Yaw about +Y, then pitch about +X (down), in the model's frame at rest.
            let turn = Quat::from_rotation_y(horizontal(side == 0).to_radians())
                * Quat::from_rotation_x(vertical.to_radians());
            if let Some(local) = pose.local_mut().get_mut(*eye) {
                local.rotation = (parent.inverse() * turn * parent * own).normalize();
            }
        }
    }

    /// Whether `expression`'s weight is the look-at's to set when it looks somewhere (the
    /// expression type's look presets).
    pub fn owns(&self, expression: &Expression) -> bool {
        self.kind == LookAtKind::Expression && expression.is_look_preset()
    }

    /// Sets the look expressions' entries of `weights` to `gaze` (expression type), replacing
    /// what they held.
    pub fn set_expressions(&self, gaze: Gaze, expressions: &[Expression], weights: &mut [f32]) {
        let (up, down) = match gaze.pitch < 0.0 {
            true => (self.vertical_up.map(-gaze.pitch), 0.0),
            false => (0.0, self.vertical_down.map(gaze.pitch)),
        };
        let (left, right) = match gaze.yaw < 0.0 {
            true => (0.0, self.horizontal_outer.map(-gaze.yaw)),
            false => (self.horizontal_outer.map(gaze.yaw), 0.0),
        };
        for (expression, weight) in expressions.iter().zip(weights) {
            if !self.owns(expression) {
                continue;
            }
            let value = match expression.name.as_str() {
                "lookUp" => up,
                "lookDown" => down,
                "lookLeft" => left,
                _ => right,
            };
            *weight = value.clamp(0.0, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::Transform;
    use crate::anim::pose::Hierarchy;

    /// A head at 1.5 with two eyes in front of it.
    fn head(kind: LookAtKind) -> (LookAt, Pose) {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0), Some(0)]).unwrap());
        let at = |x: f32, y: f32, z: f32| Transform::new(Vec3::new(x, y, z), Quat::IDENTITY, Vec3::ONE);
        let rest = Pose::new(
            hierarchy,
            vec![at(0.0, 1.5, 0.0), at(0.03, 0.05, 0.05), at(-0.03, 0.05, 0.05)],
            Vec::new(),
        )
        .unwrap();
        let map = |scale: f32| RangeMap {
            input_max: 90.0,
            output_scale: scale,
        };
        let scale = if kind == LookAtKind::Bone { 10.0 } else { 1.0 };
        let maps = [map(scale), map(scale * 2.0), map(scale), map(scale * 3.0)];
        let look_at = LookAt::new(
            kind,
            0,
            [Some(1), Some(2)],
            Vec3::new(0.0, 0.06, 0.0),
            maps,
            &rest,
            &rest.to_model_matrices(),
        );
        (look_at, rest)
    }

    #[test]
    fn yaw_is_towards_the_left_and_pitch_down_in_the_heads_rest_frame() {
        let (look_at, rest) = head(LookAtKind::Bone);
        let model = rest.to_model_matrices();
        let eye_height = 1.56;
        let gaze = look_at.gaze(&model, Vec3::new(1.0, eye_height, 1.0));
        assert!((gaze.yaw - 45.0).abs() < 1e-3 && gaze.pitch.abs() < 1e-3, "{gaze:?}");
        let gaze = look_at.gaze(&model, Vec3::new(0.0, eye_height - 1.0, 1.0));
        assert!((gaze.pitch - 45.0).abs() < 1e-3, "{gaze:?}");
        // The head turned 90° to its left: a target straight ahead of the model is to its right.
        let mut turned = rest.clone();
        turned.local_mut()[0].rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let gaze = look_at.gaze(&turned.to_model_matrices(), Vec3::new(0.0, eye_height, 5.0));
        assert!((gaze.yaw + 90.0).abs() < 1e-3, "{gaze:?}");
    }

    #[test]
    fn eye_bones_and_look_expressions_follow_their_range_maps() {
        let (look_at, rest) = head(LookAtKind::Bone);
        let mut pose = rest.clone();
        // 45° to the left: the left eye out (outer map, 20° at 90°), the right eye in.
        look_at.turn_eyes(Gaze { yaw: 45.0, pitch: 0.0 }, &mut pose);
        let angle = |joint: usize| {
            let (axis, angle) = pose.local()[joint].rotation.to_axis_angle();
            angle.to_degrees() * axis.y.signum()
        };
        assert!((angle(1) - 10.0).abs() < 1e-3 && (angle(2) - 5.0).abs() < 1e-3);
        // 30° up: the up map (30° at 90°) gives -10° about +X (up).
        look_at.turn_eyes(Gaze { yaw: 0.0, pitch: -30.0 }, &mut pose);
        let (axis, angle) = pose.local()[1].rotation.to_axis_angle();
        assert!((angle.to_degrees() * axis.x.signum() + 10.0).abs() < 1e-3);

        let (look_at, _) = head(LookAtKind::Expression);
        let names = ["lookUp", "lookDown", "lookLeft", "lookRight", "happy"];
        let expressions: Vec<Expression> = (names.iter())
            .map(|name| Expression {
                name: name.to_string(),
                is_preset: true,
                ..Default::default()
            })
            .collect();
        let mut weights = vec![0.5; 5];
        look_at.set_expressions(
            Gaze {
                yaw: -45.0,
                pitch: -30.0,
            },
            &expressions,
            &mut weights,
        );
        assert_eq!(
            weights,
            [1.0, 0.0, 0.0, 1.0, 0.5],
            "up 3 × 30/90, right 2 × 45/90, both to 1"
        );
    }
}
