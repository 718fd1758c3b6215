use super::*;
use crate::asset::demo::demo_model;
use crate::view::framing::animation_bounds;

fn crowd(options: CrowdOptions) -> (Model, Crowd) {
    let model = demo_model();
    let mut deformer = crate::skin::Deformer::new(&model);
    let bounds = animation_bounds(&model, model.clips.first(), None, &mut deformer);
    let crowd = Crowd::new(&model, options, Some(0), &bounds);
    (model, crowd)
}

fn options(count: usize, seed: u64, varied: bool) -> CrowdOptions {
    CrowdOptions { count, seed, varied }
}

#[test]
fn the_same_seed_draws_the_same_crowd_and_another_seed_another() {
    let (_, a) = crowd(options(20, 7, true));
    let (_, b) = crowd(options(20, 7, true));
    let (_, c) = crowd(options(20, 8, true));
    assert_eq!(a.members, b.members);
    assert_ne!(a.members, c.members);
    let clips: std::collections::BTreeSet<_> = a.members.iter().map(|m| m.clip).collect();
    assert!(clips.len() > 1, "varied members play several clips: {clips:?}");
    assert!(a.members[1..].iter().all(|m| (SPEEDS.0..=SPEEDS.1).contains(&m.speed)));
    assert!(a.members.iter().any(|m| m.phase > 0.0));
}

#[test]
fn a_uniform_crowd_plays_one_clip_in_step() {
    let (model, mut crowd) = crowd(options(9, 7, false));
    assert!(
        crowd
            .members
            .iter()
            .all(|m| m.clip == Some(0) && m.phase == 0.0 && m.speed == 1.0)
    );
    let mut pose = model.skeleton.rest_pose().clone();
    model.clips[0].sample(0.4, &mut pose, &mut model.clips[0].cursor());
    let first = pose.to_model_matrices();
    crowd.animate(&model, 0.4, &first);
    for index in 0..crowd.len() {
        let offset = Mat4::from_translation(crowd.members[index].offset);
        for (got, want) in crowd.instance_matrices(index).iter().zip(&first) {
            assert!(got.abs_diff_eq(offset * *want, 1e-4), "instance {index}");
        }
    }
}

#[test]
fn instances_stand_on_a_grid_apart_and_the_bounds_hold_them_all() {
    let (_, crowd) = crowd(options(10, 1, true));
    assert_eq!(crowd.columns, 4);
    assert_eq!(crowd.members[0].offset, Vec3::ZERO);
    let spacing = crowd.members[1].offset;
    assert!(spacing.x > 0.0 && spacing.y == 0.0 && spacing.z == 0.0);
    assert_eq!(
        crowd.members[5].offset,
        Vec3::new(spacing.x, 0.0, crowd.members[4].offset.z)
    );
    let mut deformer = crate::skin::Deformer::new(&demo_model());
    let model = demo_model();
    let one = animation_bounds(&model, model.clips.first(), None, &mut deformer);
    assert!(spacing.x > one.max.x - one.min.x, "neighbours do not overlap");
    for member in &crowd.members {
        let (low, high) = (one.min + member.offset, one.max + member.offset);
        assert!(crowd.bounds.min.cmple(low + 1e-4).all() && crowd.bounds.max.cmpge(high - 1e-4).all());
    }
}

#[test]
fn each_instance_is_its_clip_at_its_own_time_and_the_palettes_follow() {
    let (model, mut crowd) = crowd(options(12, 3, true));
    let first = model.skeleton.rest_pose().to_model_matrices();
    let time = 0.7;
    crowd.animate(&model, time, &first);
    for (index, member) in crowd.members.iter().enumerate().skip(1) {
        let clip = &model.clips[member.clip.unwrap()];
        let mut pose = model.skeleton.rest_pose().clone();
        let at = Playback::Loop.clip_time(member.phase + time * member.speed, clip.duration());
        clip.sample(at, &mut pose, &mut clip.cursor());
        let offset = Mat4::from_translation(member.offset);
        let want: Vec<Mat4> = pose.to_model_matrices().iter().map(|m| offset * *m).collect();
        for (got, want) in crowd.instance_matrices(index).iter().zip(&want) {
            assert!(got.abs_diff_eq(*want, 1e-4), "instance {index}");
        }
        let skin = &model.skins[0];
        let block = &crowd.palettes()[index * crowd.palette_block() + crowd.skin_offset(0)..];
        for (k, &joint) in skin.joints.iter().enumerate() {
            assert!(block[k].abs_diff_eq(want[joint] * skin.inverse_bind[k], 1e-4));
        }
    }
}

#[test]
fn counts_are_clamped_and_a_model_without_clips_stands_still() {
    let (_, none) = crowd(options(0, 1, true));
    assert_eq!(none.len(), 1);
    let (_, many) = crowd(options(MAX_CROWD + 5, 1, false));
    assert_eq!(many.len(), MAX_CROWD);
    let mut model = demo_model();
    model.clips.clear();
    let crowd = Crowd::new(&model, options(4, 1, true), None, &Bounds::EMPTY);
    assert!(crowd.members.iter().all(|m| m.clip.is_none()));
    assert!(crowd.bounds.is_empty());
}

#[test]
fn a_crowd_of_a_model_without_joints_animates() {
    let empty = br#"{"asset": {"version": "2.0"}}"#;
    let model = crate::asset::load_bytes(std::path::Path::new("empty.gltf"), empty).unwrap();
    assert!(model.skeleton.is_empty());
    let mut crowd = Crowd::new(&model, options(3, 1, true), None, &Bounds::EMPTY);
    crowd.animate(&model, 0.5, &[]);
    assert_eq!(crowd.len(), 3);
}
