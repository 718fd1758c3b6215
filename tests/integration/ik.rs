//! IK solvers and the IK layer: every property the IK issue asks for, on synthetic chains
//! (with random poses, targets and constraints) and on a sample character.

use crate::common;

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
use std::sync::Arc;

use glam::{Quat, Vec3};
use rigscope::anim::ik::{IkLayer, JointConstraint, Solver};
use rigscope::anim::{Animator, Hierarchy, Pose, Transform};

/// A small deterministic random source (the tests must not depend on a crate's RNG).
struct Random(u64);

impl Random {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, min: f32, max: f32) -> f32 {
        min + (max - min) * self.next()
    }

    fn rotation(&mut self, max_angle: f32) -> Quat {
        let axis = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
        Quat::from_axis_angle(
            axis.try_normalize().unwrap_or(Vec3::X),
            self.range(-max_angle, max_angle),
        )
    }
}

/// Joint 0 is a root offset from the origin, joints 1..=5 a chain of unit bones along +Y
/// (joint 5 the effector), joint 6 a branch off joint 3 (a "thumb" that must follow).
fn rig() -> Pose {
    let parents = vec![None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(3)];
    let hierarchy = Arc::new(Hierarchy::new(parents).unwrap());
    let mut local = vec![Transform::new(Vec3::Y, Quat::IDENTITY, Vec3::ONE); 7];
    local[0] = Transform::new(Vec3::new(0.5, 0.2, -0.3), Quat::from_rotation_z(0.2), Vec3::ONE);
    local[6] = Transform::new(Vec3::new(0.3, 0.2, 0.0), Quat::IDENTITY, Vec3::ONE);
    Pose::new(hierarchy, local, Vec::new()).unwrap()
}

const END: usize = 5;
const BONES: usize = 4;

fn position(pose: &Pose, joint: usize) -> Vec3 {
    pose.to_model_matrices()[joint].w_axis.truncate()
}

/// The rig with each chain joint turned at random by up to `max_angle`.
fn random_pose(random: &mut Random, max_angle: f32) -> Pose {
    let mut pose = rig();
    for joint in 1..=END {
        pose.local_mut()[joint].rotation = random.rotation(max_angle);
    }
    pose
}

fn layer(pose: &Pose, solver: Solver, target: Vec3) -> IkLayer {
    let mut layer = IkLayer::new(pose.hierarchy(), END, BONES, target).unwrap();
    layer.solver = solver;
    layer
}

/// Distances between every joint and its parent.
fn bone_lengths(pose: &Pose) -> Vec<f32> {
    let matrices = pose.to_model_matrices();
    (1..pose.len())
        .map(|joint| {
            let parent = pose.hierarchy().parent(joint).unwrap();
            matrices[joint].w_axis.distance(matrices[parent].w_axis)
        })
        .collect()
}

#[test]
fn both_solvers_reach_reachable_targets_within_the_threshold() {
    let mut random = Random(7);
    for solver in [Solver::Ccd, Solver::Fabrik] {
        let mut worst: (u32, f32) = (0, 0.0);
        for _ in 0..50 {
            // A target the chain can reach: where the effector is in another random pose.
            let target = position(&random_pose(&mut random, 1.2), END);
            let mut pose = random_pose(&mut random, 1.2);
            let rest = rig();
            let mut ik = layer(&pose, solver, target);
            // CCD creeps towards targets near full extension: up to ~460 sweeps here.
            ik.iterations = 1000;
            ik.apply(&rest, &mut pose);
            let distance = position(&pose, END).distance(target);
            assert!(ik.outcome.reached, "{solver:?}: {:?} for {target}", ik.outcome);
            // The default threshold: 0.1% of the chain's 4 units.
            assert!(distance <= 4e-3 + 1e-5, "{solver:?}: measured {distance}");
            assert!(
                (distance - ik.outcome.distance).abs() < 1e-4,
                "the reported distance is the real one"
            );
            worst = (worst.0.max(ik.outcome.iterations), worst.1.max(distance));
        }
        eprintln!("{solver:?}: worst case {} iterations, {:.2e}", worst.0, worst.1);
        if solver == Solver::Fabrik {
            assert!(worst.0 <= 60, "FABRIK converges in tens of iterations: {worst:?}");
        }
    }
}

#[test]
fn fabrik_needs_fewer_iterations_than_ccd() {
    let mut random = Random(11);
    let mut totals = [0u32; 2];
    for _ in 0..30 {
        let target = position(&random_pose(&mut random, 1.0), END);
        let start = random_pose(&mut random, 1.0);
        for (total, solver) in totals.iter_mut().zip([Solver::Ccd, Solver::Fabrik]) {
            let mut pose = start.clone();
            let mut ik = layer(&pose, solver, target);
            ik.iterations = 500;
            ik.threshold = Some(1e-3);
            ik.apply(&rig(), &mut pose);
            *total += ik.outcome.iterations;
        }
    }
    eprintln!("iterations over 30 targets: CCD {}, FABRIK {}", totals[0], totals[1]);
    assert!(totals[1] < totals[0], "{totals:?}");
}

#[test]
fn an_unreachable_target_straightens_the_chain_towards_it() {
    let mut random = Random(3);
    for solver in [Solver::Ccd, Solver::Fabrik] {
        for _ in 0..10 {
            let mut pose = random_pose(&mut random, 1.0);
            let root = position(&pose, 1);
            let direction = Vec3::new(
                random.range(-1.0, 1.0),
                random.range(-1.0, 1.0),
                random.range(-1.0, 1.0),
            )
            .normalize();
            let target = root + direction * 10.0;
            let mut ik = layer(&pose, solver, target);
            ik.iterations = 100;
            ik.apply(&rig(), &mut pose);
            assert!(!ik.outcome.reached);
            assert!((ik.outcome.distance - 6.0).abs() < 1e-3, "{solver:?}: {:?}", ik.outcome);
            for joint in 1..END {
                let bone = position(&pose, joint + 1) - position(&pose, joint);
                let angle = bone.angle_between(direction).to_degrees();
                assert!(
                    angle < 0.5,
                    "{solver:?}: bone {joint} is {angle}° off the line to the target"
                );
            }
        }
    }
}

#[test]
fn bone_lengths_and_other_transforms_never_change() {
    let mut random = Random(5);
    for solver in [Solver::Ccd, Solver::Fabrik] {
        for _ in 0..20 {
            let mut pose = random_pose(&mut random, 1.5);
            // Uniform scale: under non-uniform scale a turn changes model-space lengths, as
            // it does in any DCC (the local translations, which are the bones, never change).
            pose.local_mut()[2].scale = Vec3::splat(1.7);
            let before = pose.clone();
            let target = Vec3::new(
                random.range(-4.0, 4.0),
                random.range(-4.0, 4.0),
                random.range(-4.0, 4.0),
            );
            let mut ik = layer(&pose, solver, target);
            ik.apply(&rig(), &mut pose);
            for (a, b) in bone_lengths(&before).iter().zip(bone_lengths(&pose)) {
                assert!((a - b).abs() < 1e-4 * a.max(1.0), "{solver:?}: {a} became {b}");
            }
            for (joint, (a, b)) in before.local().iter().zip(pose.local()).enumerate() {
                assert_eq!(a.translation, b.translation, "joint {joint}");
                assert_eq!(a.scale, b.scale, "joint {joint}");
                if !(1..END).contains(&joint) {
                    assert_eq!(a.rotation, b.rotation, "joint {joint} is not a rotating chain joint");
                }
            }
        }
    }
}

#[test]
fn constraints_are_never_violated() {
    let mut random = Random(9);
    let mut reached = 0;
    for solver in [Solver::Ccd, Solver::Fabrik] {
        for case in 0..40 {
            let rest = rig();
            let mut pose = rest.clone();
            let target = position(&random_pose(&mut random, 1.0), END);
            let mut ik = layer(&pose, solver, target);
            ik.iterations = 50;
            for constraint in ik.chain.constraints_mut() {
                *constraint = if case % 2 == 0 {
                    JointConstraint::Ball {
                        cone: random.range(0.1, FRAC_PI_2),
                        twist: random.range(0.0, 0.5),
                    }
                } else {
                    let axis = Vec3::new(random.range(-1.0, 1.0), 0.0, random.range(-1.0, 1.0)).normalize();
                    JointConstraint::Hinge {
                        axis,
                        min: random.range(-1.5, 0.0),
                        max: random.range(0.0, 1.5),
                    }
                };
            }
            ik.apply(&rest, &mut pose);
            reached += ik.outcome.reached as u32;
            let constraints = ik.chain.constraints().to_vec();
            for (bone, constraint) in constraints.iter().enumerate() {
                let joint = ik.chain.joints()[bone];
                let next = pose.local()[joint + 1].translation.normalize();
                let violation = constraint.violation(pose.local()[joint].rotation, rest.local()[joint].rotation, next);
                assert!(
                    violation < 1e-4,
                    "{solver:?} case {case}: joint {joint} is {violation} rad outside {constraint:?}"
                );
            }
        }
    }
    eprintln!("{reached} of 80 constrained targets reached");
    assert!(reached > 0, "the constraints leave some targets reachable");
}

#[test]
fn a_hinge_chain_bends_in_its_plane_only() {
    let rest = rig();
    let mut pose = rest.clone();
    let target = Vec3::new(2.0, 2.5, -0.3);
    let mut ik = layer(&pose, Solver::Ccd, target);
    ik.iterations = 100;
    for constraint in ik.chain.constraints_mut() {
        *constraint = JointConstraint::Hinge {
            axis: Vec3::Z,
            min: -PI,
            max: PI,
        };
    }
    ik.apply(&rest, &mut pose);
    // Every joint turned about Z only, so the chain stays in the root's XY plane.
    for joint in 1..END {
        let (axis, angle) = pose.local()[joint].rotation.to_axis_angle();
        assert!(
            angle.abs() < 1e-4 || axis.abs().abs_diff_eq(Vec3::Z, 1e-3),
            "joint {joint}: {axis} {angle}"
        );
    }
    let local_target = rest.to_model_matrices()[0].inverse().transform_point3(target);
    let local_end = rest.to_model_matrices()[0]
        .inverse()
        .transform_point3(position(&pose, END));
    assert!(local_end.z.abs() < 1e-4, "the effector stays in the plane: {local_end}");
    assert!(
        local_end.truncate().distance(local_target.truncate()) < 0.05,
        "and gets close within it"
    );
}

#[test]
fn solving_for_the_effectors_own_position_changes_nothing() {
    let mut random = Random(13);
    for solver in [Solver::Ccd, Solver::Fabrik] {
        for constrained in [false, true] {
            let mut pose = random_pose(&mut random, 1.0);
            let before = pose.clone();
            let mut ik = layer(&pose, solver, position(&pose, END));
            if constrained {
                // The animated pose lies outside these limits, which must not matter.
                ik.chain
                    .constraints_mut()
                    .fill(JointConstraint::Ball { cone: 0.01, twist: 0.0 });
            }
            ik.apply(&rig(), &mut pose);
            assert_eq!(ik.outcome.iterations, 0);
            assert!(ik.outcome.reached);
            assert_eq!(pose, before, "{solver:?}");
        }
    }
}

#[test]
fn weight_zero_leaves_the_pose_untouched_and_weights_between_blend() {
    let pose = random_pose(&mut Random(17), 1.0);
    let target = Vec3::new(1.0, 3.0, 1.0);
    let mut ik = layer(&pose, Solver::Fabrik, target);
    ik.weight = 0.0;
    let mut untouched = pose.clone();
    ik.apply(&rig(), &mut untouched);
    assert_eq!(untouched, pose);
    assert_eq!(ik.outcome.iterations, 0);

    let solve = |weight: f32| {
        let mut ik = layer(&pose, Solver::Fabrik, target);
        ik.weight = weight;
        let mut out = pose.clone();
        ik.apply(&rig(), &mut out);
        position(&out, END).distance(target)
    };
    let (none, half, full) = (solve(0.0), solve(0.5), solve(1.0));
    assert!(full < 0.01 && half < none && half > full, "{none} {half} {full}");
}

#[test]
fn non_uniform_scale_above_the_chain_does_not_stop_it_reaching() {
    for solver in [Solver::Ccd, Solver::Fabrik] {
        let rest = rig();
        let mut pose = rest.clone();
        pose.local_mut()[0].scale = Vec3::new(2.0, 0.5, 1.0);
        pose.local_mut()[0].rotation = Quat::from_rotation_z(FRAC_PI_4);
        let target = position(&pose, 3) + Vec3::new(0.4, 0.2, 0.3);
        let mut ik = layer(&pose, solver, target);
        ik.iterations = 200;
        ik.apply(&rest, &mut pose);
        assert!(ik.outcome.reached, "{solver:?}: {:?}", ik.outcome);
        assert!(position(&pose, END).distance(target) < 0.01);
    }
}

#[test]
fn the_animator_applies_ik_after_blending_and_the_rest_keeps_playing() {
    let model = rigscope::asset::load(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb")).unwrap();
    let skeleton = &model.skeleton;
    // The right hand; the chain is the forearm and upper arm.
    let end = skeleton.find("Skeleton_arm_joint_R__3_").unwrap();
    let rest = skeleton.rest_pose();
    let mut plain = Animator::new(Some(0));
    let mut with_ik = Animator::new(Some(0));
    let mut first = rest.clone();
    plain.pose(&model.clips, rest, &mut first);
    let target = position(&first, end) + Vec3::new(0.05, 0.05, 0.05);
    with_ik.ik.push(IkLayer::new(rest.hierarchy(), end, 2, target).unwrap());
    let chain: Vec<usize> = with_ik.ik[0].chain.joints().to_vec();
    let (mut a, mut b) = (rest.clone(), rest.clone());
    for frame in 0..30 {
        plain.advance(&model.clips, 1.0 / 30.0, 1.0 / 30.0);
        with_ik.advance(&model.clips, 1.0 / 30.0, 1.0 / 30.0);
        plain.pose(&model.clips, rest, &mut a);
        with_ik.pose(&model.clips, rest, &mut b);
        let outcome = with_ik.ik[0].outcome;
        assert!(outcome.reached, "frame {frame}: {outcome:?}");
        assert!(position(&b, end).distance(target) <= with_ik.ik[0].threshold() + 1e-5);
        assert!(
            position(&a, end).distance(target) > 0.01,
            "frame {frame}: the animation alone is elsewhere"
        );
        for joint in 0..a.len() {
            if chain[..chain.len() - 1].contains(&joint) {
                continue;
            }
            assert_eq!(
                a.local()[joint],
                b.local()[joint],
                "frame {frame}: joint {joint} is outside the chain"
            );
        }
    }
}

#[test]
fn a_hinge_whose_plane_misses_the_target_is_twisted_into_it() {
    for (solver, mirrored) in [
        (Solver::Ccd, false),
        (Solver::Fabrik, false),
        (Solver::Ccd, true),
        (Solver::Fabrik, true),
    ] {
        let mut rest = rig();
        if mirrored {
            // A mirrored rig (negative scale above the chain) bends its hinges the other way
            // round in model space.
            rest.local_mut()[0].scale = Vec3::new(-1.0, 1.0, 1.0);
        }
        let mut pose = rest.clone();
        let mut ik = IkLayer::new(pose.hierarchy(), 3, 2, Vec3::ZERO).unwrap();
        ik.solver = solver;
        ik.iterations = 100;
        // The "elbow" (joint 2) bends forwards only, about its X axis; the target is to the
        // side, so the "upper arm" (joint 1) must twist to bring the elbow's plane round.
        ik.chain.constraints_mut()[1] = JointConstraint::Hinge {
            axis: Vec3::X,
            min: 0.0,
            max: 2.5,
        };
        let root = rest.to_model_matrices()[1];
        ik.target = root.transform_point3(Vec3::new(1.2, 1.0, 0.0));
        ik.apply(&rest, &mut pose);
        assert!(ik.outcome.reached, "{solver:?}, mirrored {mirrored}: {:?}", ik.outcome);
        assert!(ik.chain.violation(1) < 1e-4);
    }
}

#[test]
fn each_solver_reaches_ordinary_targets_with_its_default_iterations() {
    // Fox's left foreleg at rest, a target within reach: FABRIK gets there in 12 passes, CCD
    // in 40 sweeps, more than FABRIK's 20.
    let fox = rigscope::asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let rest = fox.skeleton.rest_pose();
    let hand = fox.skeleton.find("b_LeftHand_011").unwrap();
    let target = Vec3::new(5.0, 10.0, 15.0);
    for solver in [Solver::Fabrik, Solver::Ccd] {
        let mut layer = IkLayer::new(rest.hierarchy(), hand, 2, target).unwrap();
        layer.set_solver(solver);
        let mut pose = rest.clone();
        layer.apply(rest, &mut pose);
        assert!(layer.outcome.reached, "{solver:?}: {:?}", layer.outcome);
    }
    let mut short = IkLayer::new(rest.hierarchy(), hand, 2, target).unwrap();
    short.set_solver(Solver::Ccd);
    short.iterations = Solver::Fabrik.default_iterations();
    short.apply(rest, &mut rest.clone());
    assert!(!short.outcome.reached, "20 CCD sweeps fall short: {:?}", short.outcome);
}

#[test]
fn switching_solver_keeps_a_chosen_iteration_limit() {
    let fox = rigscope::asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let hand = fox.skeleton.find("b_LeftHand_011").unwrap();
    let mut layer = IkLayer::new(fox.skeleton.hierarchy(), hand, 2, Vec3::ZERO).unwrap();
    layer.set_solver(Solver::Ccd);
    assert_eq!(layer.iterations, Solver::Ccd.default_iterations());
    layer.iterations = 7;
    layer.set_solver(Solver::Fabrik);
    assert_eq!((layer.solver, layer.iterations), (Solver::Fabrik, 7));
}
