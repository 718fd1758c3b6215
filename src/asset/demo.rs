//! The built-in demo rig, made in code: what `rigscope` shows when no file is given.
//!
//! A figure about 1.8 m tall, Y up, facing +Z: 20 joints, one skin, tubes for the torso and
//! limbs (smoothly weighted across each joint) and a rigidly bound head. Clips: `idle`, `walk`
//! and `run` (cycles of the same structure, for cross-fading), `wave`, and `look around`, which
//! moves only the neck and head and starts from the rest pose: suited to additive layering.

use std::f32::consts::{PI, TAU};
use std::path::PathBuf;

use glam::{Mat4, Quat, Vec3, Vec4};

use super::geometry::build_skin_weights;
use super::material::Material;
use super::model::{Mesh, MeshInstance, Model, Primitive, Skin, Topology};
use crate::anim::{Channel, ChannelTrack, Clip, Interpolation, JointDesc, Skeleton, Track, Transform};

/// The path the demo model reports (it has no file).
pub const DEMO_PATH: &str = "(built-in demo rig)";

/// (name, parent, translation from the parent) of every joint, parents first.
const JOINTS: &[(&str, Option<u32>, [f32; 3])] = &[
    ("root", None, [0.0, 0.0, 0.0]),
    ("hips", Some(0), [0.0, 0.95, 0.0]),
    ("spine", Some(1), [0.0, 0.15, 0.0]),
    ("chest", Some(2), [0.0, 0.22, 0.0]),
    ("neck", Some(3), [0.0, 0.25, 0.0]),
    ("head", Some(4), [0.0, 0.1, 0.0]),
    ("shoulder.L", Some(3), [0.2, 0.2, 0.0]),
    ("elbow.L", Some(6), [0.0, -0.3, 0.0]),
    ("wrist.L", Some(7), [0.0, -0.27, 0.0]),
    ("shoulder.R", Some(3), [-0.2, 0.2, 0.0]),
    ("elbow.R", Some(9), [0.0, -0.3, 0.0]),
    ("wrist.R", Some(10), [0.0, -0.27, 0.0]),
    ("hip.L", Some(1), [0.1, -0.05, 0.0]),
    ("knee.L", Some(12), [0.0, -0.43, 0.0]),
    ("ankle.L", Some(13), [0.0, -0.42, 0.0]),
    ("toe.L", Some(14), [0.0, -0.05, 0.14]),
    ("hip.R", Some(1), [-0.1, -0.05, 0.0]),
    ("knee.R", Some(16), [0.0, -0.43, 0.0]),
    ("ankle.R", Some(17), [0.0, -0.42, 0.0]),
    ("toe.R", Some(18), [0.0, -0.05, 0.14]),
];

const HIPS: usize = 1;
const SPINE: usize = 2;
const CHEST: usize = 3;
const NECK: usize = 4;
const HEAD: usize = 5;
const SHOULDER_L: usize = 6;
const ELBOW_L: usize = 7;
const WRIST_L: usize = 8;
const SHOULDER_R: usize = 9;
const ELBOW_R: usize = 10;
const WRIST_R: usize = 11;
const HIP_L: usize = 12;
const KNEE_L: usize = 13;
const ANKLE_L: usize = 14;
const TOE_L: usize = 15;
const HIP_R: usize = 16;
const KNEE_R: usize = 17;
const ANKLE_R: usize = 18;
const TOE_R: usize = 19;

/// A tube along a chain of joints: (joints, radius at each joint, extra length past the last).
const TUBES: &[(&[usize], &[f32], f32)] = &[
    (&[HIPS, SPINE, CHEST, NECK], &[0.14, 0.12, 0.16, 0.05], 0.14),
    // Collarbones and pelvis: the chest and hips carry the limbs' roots.
    (&[CHEST, SHOULDER_L], &[0.09, 0.06], 0.0),
    (&[CHEST, SHOULDER_R], &[0.09, 0.06], 0.0),
    (&[HIPS, HIP_L], &[0.12, 0.08], 0.0),
    (&[HIPS, HIP_R], &[0.12, 0.08], 0.0),
    (&[SHOULDER_L, ELBOW_L, WRIST_L], &[0.055, 0.045, 0.035], 0.09),
    (&[SHOULDER_R, ELBOW_R, WRIST_R], &[0.055, 0.045, 0.035], 0.09),
    (&[HIP_L, KNEE_L, ANKLE_L], &[0.075, 0.06, 0.045], 0.0),
    (&[HIP_R, KNEE_R, ANKLE_R], &[0.075, 0.06, 0.045], 0.0),
    (&[ANKLE_L, TOE_L], &[0.045, 0.035], 0.05),
    (&[ANKLE_R, TOE_R], &[0.045, 0.035], 0.05),
];

const RING_SIDES: usize = 16;
const RINGS_PER_SEGMENT: usize = 8;
/// Fraction of a segment over which the weights cross-fade at each inner joint.
const BLEND: f32 = 0.3;

/// Builds the demo model.
pub fn demo_model() -> Model {
    let joints: Vec<JointDesc> = JOINTS
        .iter()
        .map(|&(name, parent, translation)| JointDesc {
            name: name.to_string(),
            parent,
            rest: Transform::new(Vec3::from(translation), Quat::IDENTITY, Vec3::ONE),
            bind_model: None,
            morph_weights: Vec::new(),
        })
        .collect();
    let skeleton = Skeleton::new(joints).expect("the demo hierarchy is parents-first");
    let bind = skeleton.bind_pose().to_model_matrices();

    let mut mesh = MeshBuilder::default();
    for (chain, radii, extension) in TUBES {
        mesh.tube(&bind, chain, radii, *extension);
    }
    mesh.sphere(bind[HEAD].transform_point3(Vec3::new(0.0, 0.12, 0.02)), 0.12, HEAD);
    let primitive = mesh.finish(skeleton.len());

    let skin = Skin {
        name: "demo".into(),
        joints: (0..skeleton.len()).collect(),
        inverse_bind: bind.iter().map(Mat4::inverse).collect(),
        inverse_bind_given: true,
        root: 0,
    };
    Model {
        skins: vec![skin],
        meshes: vec![Mesh {
            name: "figure".into(),
            primitives: vec![primitive],
            attributes: Vec::new(),
            target_names: Vec::new(),
        }],
        instances: vec![MeshInstance {
            joint: 0,
            mesh: 0,
            skin: Some(0),
        }],
        materials: vec![Material {
            name: "clay".into(),
            base_color: Vec4::new(0.80, 0.55, 0.35, 1.0),
            metallic: 0.0,
            roughness: 0.6,
            ..Material::default()
        }],
        clips: vec![idle(), walk(), run(), wave(), look_around()],
        // Made in memory: nothing to watch.
        ..Model::new(PathBuf::from(DEMO_PATH), None, skeleton)
    }
}

/// Accumulates vertices with their influences.
#[derive(Default)]
struct MeshBuilder {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    influences: Vec<Vec<(u32, f32)>>,
    indices: Vec<u32>,
}

impl MeshBuilder {
    fn vertex(&mut self, position: Vec3, normal: Vec3, influences: Vec<(u32, f32)>) -> u32 {
        self.positions.push(position);
        self.normals.push(normal);
        self.influences.push(influences);
        (self.positions.len() - 1) as u32
    }

    /// A tube through the bind positions of `chain`, each segment driven by the joint at its
    /// start, with weights cross-fading over `BLEND` of a segment around every inner joint.
    fn tube(&mut self, bind: &[Mat4], chain: &[usize], radii: &[f32], extension: f32) {
        let mut points: Vec<Vec3> = chain.iter().map(|&j| bind[j].w_axis.truncate()).collect();
        let last = points[points.len() - 1];
        let direction = (last - points[points.len() - 2]).normalize();
        points.push(last + direction * extension.max(0.01));
        let mut radii = radii.to_vec();
        radii.push(radii[radii.len() - 1] * 0.8);
        let segments = points.len() - 1;
        let ring_count = segments * RINGS_PER_SEGMENT + 1;
        let first_vertex = self.positions.len() as u32;
        for ring in 0..ring_count {
            let along = ring as f32 / RINGS_PER_SEGMENT as f32; // segment index + fraction
            let segment = (along.floor() as usize).min(segments - 1);
            let fraction = along - segment as f32;
            let (start, end) = (points[segment], points[segment + 1]);
            let axis = (end - start).normalize();
            let center = start.lerp(end, fraction);
            let radius = radii[segment] + (radii[segment + 1] - radii[segment]) * fraction;
            let influences = chain_weights(chain, segment, fraction);
            let side = axis.any_orthonormal_vector();
            let up = axis.cross(side);
            for step in 0..RING_SIDES {
                let angle = step as f32 / RING_SIDES as f32 * TAU;
                let normal = side * angle.cos() + up * angle.sin();
                self.vertex(center + normal * radius, normal, influences.clone());
            }
        }
        for ring in 0..ring_count - 1 {
            for step in 0..RING_SIDES {
                let next = (step + 1) % RING_SIDES;
                let a = first_vertex + (ring * RING_SIDES + step) as u32;
                let b = first_vertex + (ring * RING_SIDES + next) as u32;
                let c = a + RING_SIDES as u32;
                let d = b + RING_SIDES as u32;
                self.indices.extend([a, b, c, b, d, c]);
            }
        }
        // Close both ends with a fan around a centre vertex.
        for (ring, sign) in [(0, -1.0f32), (ring_count - 1, 1.0)] {
            let segment = if ring == 0 { 0 } else { segments - 1 };
            let axis = (points[segment + 1] - points[segment]).normalize() * sign;
            let center = if ring == 0 { points[0] } else { points[segments] };
            let influences = self.influences[first_vertex as usize + ring * RING_SIDES].clone();
            let hub = self.vertex(center, axis, influences);
            for step in 0..RING_SIDES {
                let a = first_vertex + (ring * RING_SIDES + step) as u32;
                let b = first_vertex + (ring * RING_SIDES + (step + 1) % RING_SIDES) as u32;
                if sign > 0.0 {
                    self.indices.extend([a, b, hub]);
                } else {
                    self.indices.extend([a, hub, b]);
                }
            }
        }
    }

    /// A UV sphere bound rigidly to `joint`.
    fn sphere(&mut self, center: Vec3, radius: f32, joint: usize) {
        let (stacks, slices) = (12, 20);
        let first = self.positions.len() as u32;
        for stack in 0..=stacks {
            let polar = stack as f32 / stacks as f32 * PI;
            for slice in 0..=slices {
                let azimuth = slice as f32 / slices as f32 * TAU;
                let normal = Vec3::new(polar.sin() * azimuth.cos(), polar.cos(), polar.sin() * azimuth.sin());
                self.vertex(center + normal * radius, normal, vec![(joint as u32, 1.0)]);
            }
        }
        let row = slices as u32 + 1;
        for stack in 0..stacks as u32 {
            for slice in 0..slices as u32 {
                let a = first + stack * row + slice;
                let (b, c, d) = (a + 1, a + row, a + row + 1);
                self.indices.extend([a, b, c, b, d, c]);
            }
        }
    }

    fn finish(self, joint_count: usize) -> Primitive {
        let skin_weights = build_skin_weights(self.positions.len(), joint_count, |vertex, out| {
            out.extend_from_slice(&self.influences[vertex]);
        });
        Primitive {
            topology: Topology::Triangles,
            indices: self.indices,
            normals: self.normals,
            skin_weights: Some(skin_weights),
            material: Some(0),
            positions: self.positions,
            ..Primitive::default()
        }
    }
}

/// Influences of a ring at `fraction` along `segment` of `chain`: the segment's own joint,
/// cross-fading with the previous segment's joint near its start and with the next segment's
/// joint near its end.
fn chain_weights(chain: &[usize], segment: usize, fraction: f32) -> Vec<(u32, f32)> {
    let own = chain[segment] as u32;
    let half = BLEND / 2.0;
    if fraction < half && segment > 0 {
        let w = 0.5 + 0.5 * fraction / half;
        vec![(own, w), (chain[segment - 1] as u32, 1.0 - w)]
    } else if fraction > 1.0 - half && segment + 1 < chain.len() - 1 {
        let w = 0.5 + 0.5 * (1.0 - fraction) / half;
        vec![(own, w), (chain[segment + 1] as u32, 1.0 - w)]
    } else {
        vec![(own, 1.0)]
    }
}

/// Builds a looping clip from `pose_at(phase)` (phase 0..1 over the cycle), keyed `keys` times
/// per cycle with LINEAR interpolation: rotations per joint, and the hips' translation.
fn cycle(
    name: &str,
    duration: f32,
    keys: usize,
    pose_at: impl Fn(f32) -> Vec<(usize, Quat)>,
    hips_at: impl Fn(f32) -> Vec3,
) -> Clip {
    let times: Vec<f32> = (0..=keys).map(|k| k as f32 / keys as f32 * duration).collect();
    let phases: Vec<f32> = (0..=keys).map(|k| (k % keys) as f32 / keys as f32).collect();
    let samples: Vec<Vec<(usize, Quat)>> = phases.iter().map(|&p| pose_at(p)).collect();
    let mut channels: Vec<Channel> = samples[0]
        .iter()
        .enumerate()
        .map(|(i, &(joint, _))| {
            let values: Vec<Quat> = samples.iter().map(|s| s[i].1).collect();
            Channel {
                joint,
                track: ChannelTrack::Rotation(
                    Track::new(Interpolation::Linear, times.clone(), values).expect("demo keys are valid"),
                ),
            }
        })
        .collect();
    let rest_hips = Vec3::from(JOINTS[HIPS].2);
    let translations: Vec<Vec3> = phases.iter().map(|&p| rest_hips + hips_at(p)).collect();
    channels.push(Channel {
        joint: HIPS,
        track: ChannelTrack::Translation(
            Track::new(Interpolation::Linear, times, translations).expect("demo keys are valid"),
        ),
    });
    Clip::new(name.into(), channels)
}

fn x(angle: f32) -> Quat {
    Quat::from_rotation_x(angle)
}

fn z(angle: f32) -> Quat {
    Quat::from_rotation_z(angle)
}

/// A walking or running gait: `stride` is the hip swing in radians, `lean` the forward lean.
fn gait(phase: f32, stride: f32, knee: f32, arm: f32, elbow: f32, lean: f32) -> Vec<(usize, Quat)> {
    let swing = (phase * TAU).sin();
    // Knees bend while their leg swings forward.
    let knee_l = knee * (0.5 + 0.5 * (phase * TAU + 0.5 * PI).sin()).powi(2);
    let knee_r = knee * (0.5 + 0.5 * (phase * TAU + 1.5 * PI).sin()).powi(2);
    vec![
        (SPINE, x(lean) * Quat::from_rotation_y(0.12 * swing)),
        (CHEST, Quat::from_rotation_y(-0.2 * swing)),
        (HIP_L, x(-stride * swing)),
        (KNEE_L, x(knee_l)),
        (HIP_R, x(stride * swing)),
        (KNEE_R, x(knee_r)),
        (SHOULDER_L, x(arm * swing) * z(0.08)),
        (ELBOW_L, x(-elbow)),
        (SHOULDER_R, x(-arm * swing) * z(-0.08)),
        (ELBOW_R, x(-elbow)),
    ]
}

fn walk() -> Clip {
    cycle(
        "walk",
        1.1,
        16,
        |p| gait(p, 0.45, 0.7, 0.35, 0.25, 0.05),
        |p| Vec3::new(0.0, 0.025 * (p * 2.0 * TAU).cos(), 0.0),
    )
}

fn run() -> Clip {
    cycle(
        "run",
        0.7,
        16,
        |p| gait(p, 0.8, 1.4, 0.7, 1.3, 0.25),
        |p| Vec3::new(0.0, -0.05 + 0.05 * (p * 2.0 * TAU).cos(), 0.0),
    )
}

fn idle() -> Clip {
    cycle(
        "idle",
        3.0,
        12,
        |p| {
            let breath = (p * TAU).sin();
            vec![
                (SPINE, x(0.03 * breath)),
                (CHEST, x(-0.04 * breath)),
                (HIP_L, x(0.0)),
                (KNEE_L, x(0.05)),
                (HIP_R, x(0.0)),
                (KNEE_R, x(0.05)),
                (SHOULDER_L, z(0.12 + 0.03 * breath)),
                (ELBOW_L, x(-0.15)),
                (SHOULDER_R, z(-0.12 - 0.03 * breath)),
                (ELBOW_R, x(-0.15)),
            ]
        },
        |p| Vec3::new(0.015 * (p * TAU).sin(), -0.01, 0.0),
    )
}

fn wave() -> Clip {
    cycle(
        "wave",
        1.2,
        12,
        |p| {
            let wag = (p * 2.0 * TAU).sin();
            vec![
                (SHOULDER_R, z(-2.6)),
                (ELBOW_R, z(-0.3 + 0.45 * wag)),
                (WRIST_R, z(0.2 * wag)),
                (HEAD, z(0.1)),
            ]
        },
        |_| Vec3::ZERO,
    )
}

/// Neck and head only, starting and ending at rest: an additive layer over any other clip.
fn look_around() -> Clip {
    let times: Vec<f32> = (0..=12).map(|k| k as f32 / 12.0 * 2.4).collect();
    let angles: Vec<(f32, f32)> = (0..=12)
        .map(|k| {
            let p = (k % 12) as f32 / 12.0;
            (0.7 * (p * TAU).sin(), 0.25 * (p * 2.0 * TAU).sin().max(0.0))
        })
        .collect();
    let track = |joint: usize, rotation: fn(f32, f32) -> Quat| Channel {
        joint,
        track: ChannelTrack::Rotation(
            Track::new(
                Interpolation::Linear,
                times.clone(),
                angles.iter().map(|&(yaw, nod)| rotation(yaw, nod)).collect(),
            )
            .expect("demo keys are valid"),
        ),
    };
    Clip::new(
        "look around".into(),
        vec![
            track(NECK, |yaw, nod| Quat::from_rotation_y(0.4 * yaw) * x(0.4 * nod)),
            track(HEAD, |yaw, nod| Quat::from_rotation_y(0.6 * yaw) * x(0.6 * nod)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::{Deformer, SkinningMethod};

    #[test]
    fn triangles_wind_counter_clockwise_seen_from_outside() {
        // Single-sided materials are back-face culled: a triangle wound against its normals
        // would vanish from the front.
        let primitive = &demo_model().meshes[0].primitives[0];
        let (p, n) = (&primitive.positions, &primitive.normals);
        let against: Vec<usize> = primitive
            .indices
            .chunks_exact(3)
            .enumerate()
            .filter(|(_, t)| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                let face = (p[b] - p[a]).cross(p[c] - p[a]);
                // Degenerate triangles (at the sphere's poles) have no winding.
                face.length() > 1e-9 && face.dot(n[a] + n[b] + n[c]) < 0.0
            })
            .map(|(i, _)| i)
            .collect();
        assert!(against.is_empty(), "{} triangles wound backwards", against.len());
    }

    #[test]
    fn demo_has_a_rig_a_skin_and_clips_for_blending() {
        let model = demo_model();
        assert_eq!(model.skeleton.len(), JOINTS.len());
        let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
        assert_eq!(names, ["idle", "walk", "run", "wave", "look around"]);
        let primitive = &model.meshes[0].primitives[0];
        assert!(primitive.vertex_count() > 1000);
        let weights = primitive.skin_weights.as_ref().unwrap();
        assert_eq!(weights.renormalised + weights.unweighted + weights.out_of_range, 0);
        assert_eq!(weights.max_influences(), 2, "smooth skinning across joints");
        assert!(
            primitive
                .indices
                .iter()
                .all(|&i| (i as usize) < primitive.vertex_count())
        );
    }

    #[test]
    fn bind_pose_is_undeformed_and_clips_move_the_mesh() {
        let model = demo_model();
        let mut deformer = Deformer::new(&model);
        deformer.update_all(&model, model.skeleton.bind_pose(), SkinningMethod::Linear);
        let bind = &model.meshes[0].primitives[0].positions;
        assert!(
            deformer.primitives()[0]
                .positions
                .iter()
                .zip(bind)
                .all(|(a, b)| a.abs_diff_eq(*b, 1e-5))
        );
        for clip in &model.clips {
            let mut pose = model.skeleton.rest_pose().clone();
            clip.sample(clip.duration() * 0.3, &mut pose, &mut clip.cursor());
            deformer.update_all(&model, &pose, SkinningMethod::Linear);
            let moved = deformer.primitives()[0]
                .positions
                .iter()
                .zip(bind)
                .filter(|(a, b)| a.distance(**b) > 0.01)
                .count();
            assert!(moved > 50, "{} moves {moved} vertices", clip.name());
            // The figure stays roughly on the ground and upright.
            let lowest = deformer.primitives()[0]
                .positions
                .iter()
                .map(|p| p.y)
                .fold(f32::INFINITY, f32::min);
            assert!(lowest.abs() < 0.2, "{}: feet at {lowest}", clip.name());
        }
    }

    #[test]
    fn look_around_starts_at_rest_and_touches_only_neck_and_head() {
        let model = demo_model();
        let clip = model.clips.iter().find(|c| c.name() == "look around").unwrap();
        let mut pose = model.skeleton.rest_pose().clone();
        clip.sample(0.0, &mut pose, &mut clip.cursor());
        assert_eq!(&pose, model.skeleton.rest_pose());
        assert!(clip.channels().iter().all(|c| c.joint == NECK || c.joint == HEAD));
    }
}
