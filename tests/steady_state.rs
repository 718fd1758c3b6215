//! The per-frame path (sample a clip, pose and skin every mesh) allocates nothing once its
//! buffers exist.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use rigscope::anim::additive::apply_additive;
use rigscope::anim::{AdditiveSpace, JointConstraint, Playback, Solver, blend_into};
use rigscope::asset;
use rigscope::skin::{Deformer, SkinningMethod};

struct CountAllocations;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations on the skinning pool's threads (which work for whichever test skins in
/// parallel: only the threaded test does).
static WORKER_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn count_allocation() {
    if rigscope::skin::workers::is_worker_thread() {
        WORKER_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    } else {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

unsafe impl GlobalAlloc for CountAllocations {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountAllocations = CountAllocations;

/// The allocations `frames` steps of the viewer's frame (at 60 fps) make.
fn allocations_while_advancing(state: &mut rigscope::ui::ViewerState, frames: usize) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    for _ in 0..frames {
        state.advance(1.0 / 60.0);
    }
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn viewer_playback_with_cross_fades_allocates_nothing_per_frame() {
    let mut state = rigscope::ui::ViewerState::new(rigscope::asset::demo::demo_model());
    // Warm up: a fade, an interrupted fade, each clip once, two additive layers (one masked)
    // and a weighted blend.
    for clip in [1, 2, 0, 3, 1] {
        state.frame.player.select(Some(clip));
        state.advance(0.05);
    }
    let mut masked = rigscope::anim::AdditiveLayer::new(3, 0.5);
    masked.set_mask_root(state.document.model.skeleton.find("chest"));
    state
        .frame
        .player
        .animator
        .layers
        .push(rigscope::anim::AdditiveLayer::new(4, 1.0));
    state.frame.player.animator.layers.push(masked);
    // Two IK chains, one per solver, one with limits, reaching for targets that move.
    for (name, solver) in [("wrist.L", Solver::Fabrik), ("ankle.R", Solver::Ccd)] {
        state.add_ik_chain(state.document.model.skeleton.find(name).unwrap(), 2);
        state.frame.player.animator.ik.last_mut().unwrap().solver = solver;
    }
    state.frame.player.animator.ik[1].chain.constraints_mut()[1] = JointConstraint::Hinge {
        axis: glam::Vec3::X,
        min: 0.0,
        max: 2.5,
    };
    state.frame.player.animator.sync_blend.set_weight(1, 1.0);
    state.frame.player.animator.sync_blend.set_weight(2, 0.5);
    state.advance(0.05);
    state.frame.player.animator.sync_blend.set_weight(1, 0.0);
    state.frame.player.animator.sync_blend.set_weight(2, 0.0);
    // The frame after a switch makes the new clip's cursor; the fade runs on from there.
    state.frame.player.select(Some(2));
    state.advance(1.0 / 60.0);
    assert!(
        state.frame.player.animator.crossfade.fades().next().is_some(),
        "measured while fading"
    );
    let before = ALLOCATIONS.with(Cell::get);
    for frame in 0..200 {
        // Halfway through, switch the weighted blend on (weights are set in place).
        if frame == 100 {
            state.frame.player.animator.sync_blend.set_weight(1, 1.0);
        }
        for ik in &mut state.frame.player.animator.ik {
            ik.target += glam::Vec3::new(0.002, 0.001, -0.001);
        }
        state.advance(1.0 / 60.0);
    }
    assert_eq!(
        ALLOCATIONS.with(Cell::get) - before,
        0,
        "allocations while playing, fading and solving IK"
    );
    assert!(
        state
            .frame
            .player
            .animator
            .ik
            .iter()
            .all(|ik| ik.outcome.iterations > 0),
        "IK was solved"
    );
}

#[test]
fn sampling_and_skinning_allocate_nothing_per_frame() {
    // Skinned, morphed, cubic-spline and node-animated models.
    for file in [
        "Xbot/Xbot.glb",
        "Fox/glTF-Binary/Fox.glb",
        "AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
        "InterpolationTest/glTF-Binary/InterpolationTest.glb",
        "CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb",
    ] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let mut pose = model.skeleton.rest_pose().clone();
        let mut deformer = Deformer::new(&model);
        let mut cursors: Vec<_> = model.clips.iter().map(|c| c.cursor()).collect();
        let (rest, mut mixed) = (model.skeleton.rest_pose(), pose.clone());
        // A clip's first sampling makes its key blocks: that is loading, not a frame.
        for (clip, cursor) in model.clips.iter().zip(&mut cursors) {
            clip.sample(0.0, &mut pose, cursor);
        }
        let before = ALLOCATIONS.with(Cell::get);
        for frame in 0..120 {
            for (clip, cursor) in model.clips.iter().zip(&mut cursors) {
                pose.copy_from(model.skeleton.rest_pose());
                let time = Playback::Loop.clip_time(frame as f32 / 60.0, clip.duration());
                clip.sample(time, &mut pose, cursor);
                // The four-joint blend and additive paths (a weight of 2 takes the other one).
                blend_into(&mut mixed, &pose, rest, 0.5, None);
                // (Any pose of unit rotations is a valid delta.)
                apply_additive(&mut mixed, &pose, 0.5, None, AdditiveSpace::Parent);
                apply_additive(&mut mixed, &pose, 2.0, None, AdditiveSpace::Local);
                deformer.update_all(&model, &pose, SkinningMethod::Linear);
            }
        }
        assert_eq!(
            ALLOCATIONS.with(Cell::get) - before,
            0,
            "{file}: allocations in the frame loop"
        );
        assert!(
            deformer
                .primitives()
                .iter()
                .all(|p| p.positions.iter().all(|v| v.is_finite()))
        );
    }
}

#[test]
fn skinning_on_every_core_allocates_nothing_per_frame() {
    let model = asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap();
    let clip = &model.clips[model.find_clip("walk").unwrap()];
    let (mut pose, mut cursor) = (model.skeleton.rest_pose().clone(), clip.cursor());
    let mut deformer = Deformer::new(&model);
    // Xbot's meshes (12,473 and 15,901 vertices) are two chunks each: every one goes to the pool.
    deformer.set_parallel_min_vertices(0);
    let workers = rigscope::skin::workers::global();
    let mut frame = |index: usize| {
        pose.copy_from(model.skeleton.rest_pose());
        clip.sample(
            Playback::Loop.clip_time(index as f32 / 60.0, clip.duration()),
            &mut pose,
            &mut cursor,
        );
        deformer.update_all(&model, &pose, SkinningMethod::Linear);
    };
    frame(0);
    let before = (ALLOCATIONS.with(Cell::get), WORKER_ALLOCATIONS.load(Ordering::Relaxed));
    for index in 1..200 {
        frame(index);
    }
    let after = (ALLOCATIONS.with(Cell::get), WORKER_ALLOCATIONS.load(Ordering::Relaxed));
    assert_eq!(after.0 - before.0, 0, "allocations on the frame's thread");
    assert_eq!(after.1 - before.1, 0, "allocations on the skinning pool's threads");
    assert!(workers.threads() > 1 || std::thread::available_parallelism().map_or(true, |n| n.get() == 1));
    let mut single = Deformer::new(&model);
    single.set_parallel_min_vertices(usize::MAX);
    single.update_all(&model, &pose, SkinningMethod::Linear);
    for (threaded, alone) in deformer.primitives().iter().zip(single.primitives()) {
        assert_eq!(threaded.positions, alone.positions, "threads skin as one thread does");
    }
}

#[test]
fn playing_with_motion_trails_on_allocates_nothing_per_frame() {
    let mut state = rigscope::ui::ViewerState::new(rigscope::asset::demo::demo_model());
    let skeleton = &state.document.model.skeleton;
    let (wrist, ankle) = (skeleton.find("wrist.L").unwrap(), skeleton.find("ankle.R").unwrap());
    state.inspection.selected = Some(wrist);
    state.trails.selected = true;
    state.trails.pinned.push(ankle);
    state.trails.root = true;
    // Switch at once: a fade would change the trails' clip midway.
    state.frame.player.fade_time = 0.0;
    state.frame.player.select(Some(1));
    // Warm up: the trails are computed for the clip, then only the positions now move.
    state.advance(1.0 / 60.0);
    assert_eq!(
        allocations_while_advancing(&mut state, 200),
        0,
        "allocations while trails follow the clip"
    );
    let trails = &state.trails.trails;
    assert_eq!(trails.joint_trails().count(), 2);
    assert!(trails.root_trail().is_some());
}

#[test]
fn comparing_with_a_second_model_allocates_nothing_per_frame() {
    use rigscope::view::compare_layout::CompareLayout;
    let mut state = rigscope::ui::ViewerState::new(rigscope::asset::demo::demo_model());
    let mut model_b = rigscope::asset::demo::demo_model();
    // B has A's clips in another order: B's clip is found by A's clip's name.
    model_b.clips.reverse();
    let a = (&state.document.model, state.document.generation);
    let comparison = rigscope::ui::state::Comparison::new(a, model_b, CompareLayout::SideBySide);
    state.compare = Some(comparison);
    state.frame.player.select(Some(1));
    // Warm up: B's clip is matched and its cursor made; then B only follows A's time.
    state.advance(1.0 / 60.0);
    assert_eq!(
        allocations_while_advancing(&mut state, 200),
        0,
        "allocations while B follows A"
    );
    let comparison = state.compare.as_ref().unwrap();
    let b = &comparison.document.model;
    assert_eq!(b.clips[comparison.frame.player.clip().unwrap()].name(), "walk");
}

#[test]
fn the_files_animated_lights_allocate_nothing_per_frame() {
    use common::animated_scene::{load, pointer, pose_at};
    let colour = pointer(
        "/extensions/KHR_lights_punctual/lights/0/color",
        "LINEAR",
        &[0.0, 1.0],
        &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    );
    let model = load("steady-lights", &[vec![colour]]);
    let poses = [0.0, 0.5, 1.0].map(|time| pose_at(&model, 0, time));
    let mut lights = rigscope::render::animated::AnimatedLights::default();
    // Warm up: the first frame makes the lights' copies.
    assert_eq!(lights.shown(&model, &poses[0]).count(), 1);
    let before = ALLOCATIONS.with(Cell::get);
    let mut blue = 0.0;
    for frame in 0..300 {
        blue += lights.shown(&model, &poses[frame % 3]).map(|l| l.color.z).sum::<f32>();
    }
    assert_eq!(
        ALLOCATIONS.with(Cell::get) - before,
        0,
        "allocations while the file's lights are animated"
    );
    assert!((blue - 150.0).abs() < 1e-3, "the colour follows the clip: {blue}");
}

#[test]
fn a_playing_crowd_allocates_nothing_per_frame() {
    let model = asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let mut state = rigscope::ui::ViewerState::new(model);
    state.frame.crowd.options.count = 300;
    // Warm up: the first frame builds the crowd and the thread pool starts; the next ones let
    // the pool's threads make their queues and per-thread state (once each) while they steal.
    for _ in 0..100 {
        state.advance(1.0 / 60.0);
    }
    let allocations = allocations_while_advancing(&mut state, 200);
    assert_eq!(allocations, 0, "allocations while a crowd of 300 plays");
    let crowd = state.frame.crowd.shown().unwrap();
    assert_eq!(crowd.len(), 300);
    assert!(crowd.matrices().iter().all(|m| m.is_finite()));
}

#[test]
fn an_animated_materials_uniform_is_rewritten_without_allocating() {
    // A clip that animates a material rewrites its uniform every frame, layer textures' slots
    // included.
    use rigscope::asset::TextureRef;
    use rigscope::asset::material::{Material, MaterialTexture};
    use rigscope::render::uniforms::MaterialUniform;
    let mut material = Material::default();
    for texture in [
        MaterialTexture::SheenColor,
        MaterialTexture::Clearcoat,
        MaterialTexture::Anisotropy,
    ] {
        *texture.of_mut(&mut material) = Some(TextureRef::plain(0));
    }
    let present = MaterialTexture::ALL.map(|texture| texture.of(&material).is_some());
    let warm = MaterialUniform::new(&material, present);
    let before = ALLOCATIONS.with(Cell::get);
    let mut slots = 0;
    for frame in 0..300 {
        material.layers.clearcoat = frame as f32 / 300.0;
        let uniform = MaterialUniform::new(&material, present);
        slots += uniform.layer_slots.iter().flatten().filter(|&&slot| slot > 0).count();
    }
    assert_eq!(
        ALLOCATIONS.with(Cell::get) - before,
        0,
        "allocations while a material is animated"
    );
    assert_eq!(slots, 300 * 3, "three layer textures in slots: {:?}", warm.layer_slots);
}

#[test]
fn an_avatars_face_constraints_and_springs_allocate_nothing_per_frame() {
    use glam::Vec3;
    use rigscope::anim::avatar::{
        Collider, ColliderShape, ConstraintKind, Expression, LookAt, LookAtKind, NodeConstraint, RangeMap, SpringBones,
        SpringJoint, SpringSettings,
    };
    use rigscope::asset::{Avatar, AvatarMeta, VrmVersion};

    // The demo figure as an avatar: eyes that look (the wrists stand in), an expression on a
    // material value, the right elbow following the left, and its left arm on springs against
    // a ball at the hips.
    let mut model = rigscope::asset::demo::demo_model();
    let joint = |name: &str| model.skeleton.find(name).unwrap();
    let (head, hips) = (joint("head"), joint("hips"));
    let (shoulder, elbow, wrist) = (joint("shoulder.L"), joint("elbow.L"), joint("wrist.L"));
    let rest = model.skeleton.rest_pose();
    let map = RangeMap {
        input_max: 90.0,
        output_scale: 10.0,
    };
    let eyes = [Some(wrist), Some(joint("wrist.R"))];
    let look_at = LookAt::new(
        LookAtKind::Bone,
        head,
        eyes,
        Vec3::Y * 0.06,
        [map; 4],
        rest,
        &rest.to_model_matrices(),
    );
    let smile = Expression {
        name: "happy".into(),
        is_preset: true,
        morph_binds: (0..rest.morph_weights().len()).map(|entry| (entry, 1.0)).collect(),
        ..Default::default()
    };
    model.avatar = Some(Avatar {
        version: VrmVersion::V1,
        spec_version: "1.0".into(),
        humanoid: vec![("head", head)],
        meta: AvatarMeta::default(),
        expressions: vec![smile],
        look_at: Some(look_at),
    });
    model.node_constraints = vec![NodeConstraint {
        destination: joint("elbow.R"),
        source: elbow,
        kind: ConstraintKind::Rotation,
        weight: 0.5,
    }];
    let settings = SpringSettings {
        gravity_power: 1.0,
        ..Default::default()
    };
    let spring = |joint: usize, child: usize| SpringJoint {
        joint,
        child: Some(child),
        settings,
        center: Some(hips),
        collider_groups: vec![0],
    };
    model.spring_bones = SpringBones {
        joints: vec![spring(shoulder, elbow), spring(elbow, wrist)],
        colliders: vec![Collider {
            joint: hips,
            shape: ColliderShape::Sphere {
                offset: Vec3::ZERO,
                radius: 0.2,
                inside: false,
            },
        }],
        collider_groups: vec![vec![0]],
    };
    let mut state = rigscope::ui::ViewerState::new(model);
    state.frame.avatar.expressions = vec![0.7];
    state.frame.avatar.look_target = Some(Vec3::new(1.0, 1.5, 2.0));
    state.frame.player.select(Some(1));
    // Warm up: the face's and the springs' buffers are made.
    for _ in 0..5 {
        state.advance(1.0 / 60.0);
    }
    assert_eq!(
        allocations_while_advancing(&mut state, 200),
        0,
        "allocations while the avatar moves"
    );
    assert!(state.frame.avatar.face.gaze.is_some(), "the eyes looked");
}
