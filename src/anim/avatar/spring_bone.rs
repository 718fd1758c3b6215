//! VRM spring bones: hair, skirts and tails that swing behind the motion, simulated as VRM
//! 1.0's `VRMC_springBone` describes and three-vrm computes it. Each joint's tail is a point
//! moved by Verlet integration (inertia less drag, a pull back towards the rest direction by
//! stiffness, gravity), kept at the bone's length, pushed out of colliders (spheres, capsules,
//! and the extended collider's planes and inside shapes), and the joint turned to point at it.
//! Tails live in model space, or in the space of a `center` joint so that a moving avatar
//! does not drag its hair behind it.
//!
//! The simulation runs in fixed steps (`STEP`) so that a picture of a time is the same
//! whatever the frame rate: `advance` keeps the time left over, `SpringReplay` replays a
//! motion from its start. Stepping allocates nothing.

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::anim::Pose;
use crate::anim::Transform;

/// The simulation's time step: 60 steps a second, as three-vrm's examples run it.
pub const STEP: f32 = 1.0 / 60.0;

/// The tail of a joint without a child: this far along the joint's own position.
const CHILDLESS_TAIL: f32 = 0.07;

/// How a joint moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringSettings {
    /// The radius of the tail against colliders (model units).
    pub hit_radius: f32,
    /// How strongly the joint returns to its rest direction.
    pub stiffness: f32,
    pub gravity_power: f32,
    /// Model space.
    pub gravity_dir: Vec3,
    /// 0: keeps all its motion, 1: none.
    pub drag_force: f32,
}

impl Default for SpringSettings {
    /// VRM 1.0's defaults.
    fn default() -> Self {
        Self {
            hit_radius: 0.0,
            stiffness: 1.0,
            gravity_power: 0.0,
            gravity_dir: Vec3::NEG_Y,
            drag_force: 0.5,
        }
    }
}

/// One simulated joint.
#[derive(Clone, Debug, PartialEq)]
pub struct SpringJoint {
    pub joint: usize,
    /// The joint whose position is the tail (none: `CHILDLESS_TAIL` along the joint's own
    /// position).
    pub child: Option<usize>,
    pub settings: SpringSettings,
    /// The joint whose space the tail moves in (none: model space).
    pub center: Option<usize>,
    /// Indices into `SpringBones::collider_groups`.
    pub collider_groups: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ColliderShape {
    /// Pushes tails out of (or, `inside`, into) a sphere at `offset` in the joint's space.
    Sphere { offset: Vec3, radius: f32, inside: bool },
    /// A sphere swept from `offset` to `tail`.
    Capsule {
        offset: Vec3,
        tail: Vec3,
        radius: f32,
        inside: bool,
    },
    /// Keeps tails on the side of the plane through `offset` that `normal` points to.
    Plane { offset: Vec3, normal: Vec3 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider {
    pub joint: usize,
    pub shape: ColliderShape,
}

/// A model's spring bones: joints in parents-first order, colliders, and groups of colliders.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringBones {
    pub joints: Vec<SpringJoint>,
    pub colliders: Vec<Collider>,
    /// Each a list of indices into `colliders`.
    pub collider_groups: Vec<Vec<usize>>,
}

impl SpringBones {
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }
}

/// What a joint keeps between steps.
#[derive(Clone, Copy, Debug)]
struct JointState {
    /// The joint's rest transform and its tail in its own space.
    rest: Transform,
    tail: Vec3,
    /// `tail` as a direction (zero when the tail is at the joint: it never turns).
    axis: Vec3,
    /// The tail now and a step ago, in the center's space.
    current: Vec3,
    previous: Vec3,
    /// Where the child was at the end of the last step (three-vrm measures the bone's length
    /// against it before the child moves).
    child_position: Vec3,
    /// The joint's rotation the last step gave it.
    rotation: Quat,
}

/// The running simulation of one model's spring bones.
#[derive(Clone, Debug)]
pub struct SpringSimulation {
    states: Vec<JointState>,
    /// Per skeleton joint: its index in `SpringBones::joints`, if simulated.
    spring_of_joint: Vec<Option<u32>>,
    /// Model matrices, recomputed as the step turns joints.
    model: Vec<Mat4>,
    /// Time not yet stepped.
    left_over: f32,
}

impl SpringSimulation {
    /// Springs at rest (`rest`: the skeleton's rest pose) with their tails placed for `pose`.
    pub fn new(springs: &SpringBones, rest: &Pose, pose: &Pose) -> Self {
        let mut spring_of_joint = vec![None; rest.len()];
        let states = (springs.joints.iter().enumerate())
            .map(|(index, spring)| {
                if let Some(slot) = spring_of_joint.get_mut(spring.joint) {
                    *slot = Some(index as u32);
                }
                let own = rest.local()[spring.joint];
                let tail = match spring.child.and_then(|child| rest.local().get(child)) {
                    Some(child) => child.translation,
                    None => own.translation.normalize_or_zero() * CHILDLESS_TAIL,
                };
                JointState {
                    rest: own,
                    tail,
                    axis: tail.normalize_or_zero(),
                    current: Vec3::ZERO,
                    previous: Vec3::ZERO,
                    child_position: Vec3::ZERO,
                    rotation: own.rotation,
                }
            })
            .collect();
        let mut simulation = Self {
            states,
            spring_of_joint,
            model: vec![Mat4::IDENTITY; rest.len()],
            left_over: 0.0,
        };
        simulation.reset(springs, pose);
        simulation
    }

    /// Puts every joint back to its rest rotation and its tail at rest under `pose`, still.
    pub fn reset(&mut self, springs: &SpringBones, pose: &Pose) {
        for state in &mut self.states {
            state.rotation = state.rest.rotation;
        }
        self.left_over = 0.0;
        self.compute_model(pose);
        for (spring, state) in springs.joints.iter().zip(&mut self.states) {
            let world = self.model[spring.joint];
            let to_center = center_inverse(&self.model, spring.center);
            state.current = to_center.transform_point3(world.transform_point3(state.tail));
            state.previous = state.current;
            if let Some(child) = spring.child {
                state.child_position = self.model[child].w_axis.truncate();
            }
        }
    }

    /// Advances by `dt` seconds in whole steps, keeping what is left for the next call, and
    /// writes the joints' rotations into `pose` (even when no step was due).
    pub fn advance(&mut self, springs: &SpringBones, pose: &mut Pose, dt: f32) {
        self.left_over += dt.max(0.0);
        while self.left_over >= STEP {
            self.left_over -= STEP;
            self.step(springs, pose);
        }
        self.write(springs, pose);
    }

    /// One step of `STEP` seconds on `pose`, the joints' rotations written into it.
    pub fn step(&mut self, springs: &SpringBones, pose: &mut Pose) {
        let local = pose.local();
        let mut centre: Option<(Mat4, Mat4)> = None;
        for (joint, &own) in local.iter().enumerate() {
            let parent = pose.hierarchy().parent(joint).map_or(Mat4::IDENTITY, |p| self.model[p]);
            let Some(index) = self.spring_of_joint[joint] else {
                self.model[joint] = parent * own.to_mat4();
                continue;
            };
            let spring = &springs.joints[index as usize];
            let state = self.states[index as usize];
            let head = parent.transform_point3(own.translation);
            let turned = parent * Mat4::from_scale_rotation_translation(own.scale, state.rotation, own.translation);
            let length = match spring.child {
                Some(_) => head.distance(state.child_position),
                None => turned.transform_point3(state.tail).distance(head),
            };
            let from_center = spring.center.map_or(Mat4::IDENTITY, |c| self.model[c]);
            // Joints of one spring share their centre: invert its matrix once.
            let to_center = match centre {
                Some((matrix, inverse)) if matrix == from_center => inverse,
                _ => {
                    let inverse = from_center.inverse();
                    centre = Some((from_center, inverse));
                    inverse
                }
            };
            let rest_axis = parent
                .transform_vector3(state.rest.to_mat4().transform_vector3(state.axis))
                .normalize_or_zero();
            let settings = &spring.settings;
            let inertia = state.current + (state.current - state.previous) * (1.0 - settings.drag_force);
            let mut tail = from_center.transform_point3(inertia)
                + rest_axis * (settings.stiffness * STEP)
                + settings.gravity_dir * (settings.gravity_power * STEP);
            tail = head + (tail - head).normalize_or_zero() * length;
            self.collide(springs, spring, head, length, &mut tail);
            let moved = &mut self.states[index as usize];
            moved.previous = moved.current;
            moved.current = to_center.transform_point3(tail);
            let rest_model = parent * state.rest.to_mat4();
            let towards = rest_model.inverse().transform_point3(tail).normalize_or_zero();
            let turn = match state.axis == Vec3::ZERO || towards == Vec3::ZERO {
                true => Quat::IDENTITY,
                false => Quat::from_rotation_arc(state.axis, towards),
            };
            moved.rotation = (state.rest.rotation * turn).normalize();
            self.model[joint] =
                parent * Mat4::from_scale_rotation_translation(own.scale, moved.rotation, own.translation);
        }
        for (spring, state) in springs.joints.iter().zip(&mut self.states) {
            if let Some(child) = spring.child {
                state.child_position = self.model[child].w_axis.truncate();
            }
        }
        self.write(springs, pose);
    }

    /// Pushes `tail` out of the colliders of `spring`'s groups, keeping it `length` from `head`.
    fn collide(&self, springs: &SpringBones, spring: &SpringJoint, head: Vec3, length: f32, tail: &mut Vec3) {
        let colliders = (spring.collider_groups.iter())
            .filter_map(|&group| springs.collider_groups.get(group))
            .flatten()
            .filter_map(|&collider| springs.colliders.get(collider));
        for collider in colliders {
            let world = self.model[collider.joint];
            let Some((depth, normal)) = penetration(&collider.shape, &world, *tail, spring.settings.hit_radius) else {
                continue;
            };
            *tail += normal * depth;
            *tail = head + (*tail - head).normalize_or_zero() * length;
        }
    }

    fn write(&self, springs: &SpringBones, pose: &mut Pose) {
        let local = pose.local_mut();
        for (spring, state) in springs.joints.iter().zip(&self.states) {
            if let Some(transform) = local.get_mut(spring.joint) {
                transform.rotation = state.rotation;
            }
        }
    }

    /// Model matrices of `pose` with the springs' rotations.
    fn compute_model(&mut self, pose: &Pose) {
        for (joint, transform) in pose.local().iter().enumerate() {
            let mut transform = *transform;
            if let Some(index) = self.spring_of_joint[joint] {
                transform.rotation = self.states[index as usize].rotation;
            }
            let parent = pose.hierarchy().parent(joint).map_or(Mat4::IDENTITY, |p| self.model[p]);
            self.model[joint] = parent * transform.to_mat4();
        }
    }
}

/// Springs replayed along a motion from time 0 (tails at rest under the pose at 0), each step
/// on the pose of its own time, so that the same time always gives the same pose: `render` of
/// a moment, `video` frame after frame.
#[derive(Clone, Debug)]
pub struct SpringReplay {
    simulation: SpringSimulation,
    steps: u32,
}

impl SpringReplay {
    /// `start`: the pose at time 0.
    pub fn new(springs: &SpringBones, rest: &Pose, start: &Pose) -> Self {
        Self {
            simulation: SpringSimulation::new(springs, rest, start),
            steps: 0,
        }
    }

    /// Steps on to `time` (never back), each step on the pose `pose_at` writes for its time,
    /// and leaves in `out` the pose at `time` with the springs' rotations.
    pub fn pose_to(
        &mut self,
        springs: &SpringBones,
        time: f32,
        mut pose_at: impl FnMut(f32, &mut Pose),
        out: &mut Pose,
    ) {
        let last = (time.max(0.0) / STEP).round() as u32;
        while self.steps < last {
            self.steps += 1;
            pose_at(self.steps as f32 * STEP, out);
            self.simulation.step(springs, out);
        }
        pose_at(time, out);
        self.simulation.write(springs, out);
    }
}

fn center_inverse(model: &[Mat4], center: Option<usize>) -> Mat4 {
    center.map_or(Mat4::IDENTITY, |c| model[c].inverse())
}

/// How deep `point` (with `hit_radius`) is inside `shape` placed by `world`, and the way out;
/// none when it is not.
fn penetration(shape: &ColliderShape, world: &Mat4, point: Vec3, hit_radius: f32) -> Option<(f32, Vec3)> {
    let sphere = |offset: Vec3, radius: f32, inside: bool| {
        let length = offset.length();
        let (depth, normal) = match inside {
            false => (length - hit_radius - radius, offset / length),
            true => (radius - hit_radius - length, -offset / length),
        };
        (depth < 0.0 && length > 0.0).then_some((-depth, normal))
    };
    match *shape {
        ColliderShape::Sphere { offset, radius, inside } => {
            sphere(point - world.transform_point3(offset), radius, inside)
        }
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
            inside,
        } => {
            let head = world.transform_point3(offset);
            let axis = world.transform_vector3(tail - offset);
            let mut from_head = point - head;
            let along = axis.dot(from_head);
            let axis_squared = axis.length_squared();
            if along >= axis_squared {
                from_head -= axis;
            } else if along > 0.0 {
                from_head -= axis * (along / axis_squared);
            }
            sphere(from_head, radius, inside)
        }
        ColliderShape::Plane { offset, normal } => {
            let normal = (Mat3::from_mat4(*world).inverse().transpose() * normal).normalize_or_zero();
            let depth = (point - world.transform_point3(offset)).dot(normal) - hit_radius;
            (depth < 0.0).then_some((-depth, normal))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::pose::Hierarchy;

    /// A root with a chain of three joints along +X, 0.2 apart, the last a tail.
    fn chain() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0), Some(1), Some(2)]).unwrap());
        let step = Transform::new(Vec3::new(0.2, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
        Pose::new(hierarchy, vec![Transform::IDENTITY, step, step, step], Vec::new()).unwrap()
    }

    fn springs(settings: SpringSettings, colliders: Vec<Collider>) -> SpringBones {
        let joint = |joint: usize| SpringJoint {
            joint,
            child: Some(joint + 1),
            settings,
            center: None,
            collider_groups: vec![0],
        };
        let groups = vec![(0..colliders.len()).collect()];
        SpringBones {
            joints: vec![joint(1), joint(2)],
            colliders,
            collider_groups: groups,
        }
    }

    fn tip_after(springs: &SpringBones, seconds: f32) -> Vec3 {
        let rest = chain();
        let mut pose = rest.clone();
        let mut simulation = SpringSimulation::new(springs, &rest, &pose);
        simulation.advance(springs, &mut pose, seconds);
        pose.to_model_matrices()[3].w_axis.truncate()
    }

    #[test]
    fn a_chain_without_gravity_stays_at_rest_and_gravity_pulls_it_down_at_its_length() {
        let still = springs(SpringSettings::default(), Vec::new());
        assert!(tip_after(&still, 1.0).abs_diff_eq(Vec3::new(0.6, 0.0, 0.0), 1e-5));
        let heavy = SpringSettings {
            gravity_power: 2.0,
            stiffness: 0.2,
            ..Default::default()
        };
        let tip = tip_after(&springs(heavy, Vec::new()), 1.0);
        assert!(tip.y < -0.1, "{tip}");
        // Each bone keeps its length: the tip is within the chain's reach of the root joint.
        assert!((tip - Vec3::new(0.2, 0.0, 0.0)).length() <= 0.4 + 1e-4, "{tip}");
    }

    #[test]
    fn colliders_keep_tails_out() {
        let heavy = SpringSettings {
            gravity_power: 2.0,
            stiffness: 0.2,
            hit_radius: 0.02,
            ..Default::default()
        };
        // A ball under the chain's end, and a floor a little below the root.
        let ball = Collider {
            joint: 0,
            shape: ColliderShape::Sphere {
                offset: Vec3::new(0.6, -0.15, 0.0),
                radius: 0.1,
                inside: false,
            },
        };
        let floor = Collider {
            joint: 0,
            shape: ColliderShape::Plane {
                offset: Vec3::new(0.0, -0.1, 0.0),
                normal: Vec3::Y,
            },
        };
        let tips = |colliders: Vec<Collider>| {
            let bones = springs(heavy, colliders);
            let rest = chain();
            let mut pose = rest.clone();
            let mut simulation = SpringSimulation::new(&bones, &rest, &pose);
            (0..60)
                .map(|_| {
                    simulation.advance(&bones, &mut pose, STEP);
                    pose.to_model_matrices()[3].w_axis.truncate()
                })
                .collect::<Vec<Vec3>>()
        };
        let free = tips(Vec::new());
        for collider in [ball, floor] {
            let blocked = tips(vec![collider]);
            for tip in &blocked {
                // Pushed out by the hit radius, then put back at the bone's length: the tip may
                // sink into its hit radius but not into the collider.
                let inside = penetration(&collider.shape, &Mat4::IDENTITY, *tip, 0.0);
                assert!(
                    inside.is_none_or(|(depth, _)| depth < 1e-4),
                    "{collider:?}: {tip} is {inside:?} inside"
                );
            }
            let moved = free
                .iter()
                .zip(&blocked)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            assert!(moved > 0.05, "{collider:?} changed nothing: {moved}");
        }
    }

    #[test]
    fn steps_are_fixed_whatever_the_frames() {
        let heavy = SpringSettings {
            gravity_power: 1.0,
            ..Default::default()
        };
        let bones = springs(heavy, Vec::new());
        let rest = chain();
        let run = |frames: &[f32]| {
            let mut pose = rest.clone();
            let mut simulation = SpringSimulation::new(&bones, &rest, &pose);
            for &dt in frames {
                simulation.advance(&bones, &mut pose, dt);
            }
            pose
        };
        let even = run(&[0.25; 4]);
        let uneven = run(&[0.01, 0.3, 0.002, 0.5, 0.188]);
        assert_eq!(even, uneven);
        // Replaying to a time gives the same pose as stepping there frame by frame.
        let mut replayed = rest.clone();
        let mut replay = SpringReplay::new(&bones, &rest, &rest);
        replay.pose_to(&bones, 0.5, |_, out| out.copy_from(&rest), &mut replayed);
        replay.pose_to(&bones, 1.0, |_, out| out.copy_from(&rest), &mut replayed);
        assert_eq!(replayed, even);
        assert_ne!(even, rest, "gravity moved the chain");
    }
}
