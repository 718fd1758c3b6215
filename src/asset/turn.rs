//! Turning a whole model half around the vertical axis, as three-vrm's `rotateVRM0` turns a VRM
//! 0.x avatar (made facing -Z) to face +Z like a VRM 1.0 one and like glTF's own convention: the
//! roots' rest and bind transforms, the root channels' keys, the inverse bind matrices and the
//! vertices of skinned meshes (which are in model space) are turned. Unskinned meshes, lights
//! and cameras follow their joints. The turn is exact: coordinates only change sign.

use glam::{Mat4, Quat, Vec3, Vec4};

use super::model::{Model, Primitive};
use crate::anim::{Channel, ChannelTrack, Clip};

/// Half a turn about +Y.
const HALF_TURN_Y: Quat = Quat::from_xyzw(0.0, 1.0, 0.0, 0.0);

/// Turns `model` half around +Y about its origin.
pub fn turn_half_around_y(model: &mut Model) {
    turn_half_around(model, HALF_TURN_Y);
}

/// Undoes `turn_half_around_y` exactly, each quaternion with its sign (turning the same way
/// again would negate them): a VRM 0.x avatar written back faces -Z as its file did.
pub fn turn_back_half_around_y(model: &mut Model) {
    turn_half_around(model, HALF_TURN_Y.inverse());
}

/// Turns `model` by `half_turn` (half a turn about +Y, either way) about its origin.
fn turn_half_around(model: &mut Model, half_turn: Quat) {
    model.skeleton = model.skeleton.turned(half_turn);
    let unturn = Mat4::from_quat(half_turn.inverse());
    for skin in &mut model.skins {
        for inverse_bind in &mut skin.inverse_bind {
            *inverse_bind *= unturn;
        }
    }
    let mut skinned = vec![false; model.meshes.len()];
    for instance in model.instances.iter().filter(|instance| instance.skin.is_some()) {
        if let Some(mesh) = skinned.get_mut(instance.mesh) {
            *mesh = true;
        }
    }
    for (mesh, _) in model.meshes.iter_mut().zip(&skinned).filter(|(_, skinned)| **skinned) {
        mesh.primitives.iter_mut().for_each(turn_primitive);
    }
    let hierarchy = model.skeleton.hierarchy().clone();
    for clip in &mut model.clips {
        let channels = (clip.channels().iter())
            .map(|channel| match &channel.track {
                _ if hierarchy.parent(channel.joint).is_some() => channel.clone(),
                ChannelTrack::Translation(track) => Channel {
                    joint: channel.joint,
                    track: ChannelTrack::Translation(track.map_keys(turn, turn).unwrap_or_else(|_| track.clone())),
                },
                ChannelTrack::Rotation(track) => Channel {
                    joint: channel.joint,
                    track: ChannelTrack::Rotation(
                        (track.map_keys(|q| half_turn * q, |q| half_turn * q)).unwrap_or_else(|_| track.clone()),
                    ),
                },
                _ => channel.clone(),
            })
            .collect();
        *clip = Clip::new(clip.name().to_owned(), channels).lasting_at_least(clip.duration());
    }
}

fn turn(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, -v.z)
}

fn turn_primitive(primitive: &mut Primitive) {
    let turn_tangent = |t: &mut Vec4| *t = turn(t.truncate()).extend(t.w);
    primitive.positions.iter_mut().for_each(|p| *p = turn(*p));
    primitive.normals.iter_mut().for_each(|n| *n = turn(*n));
    primitive.tangents.iter_mut().for_each(turn_tangent);
    for target in &mut primitive.morph_targets {
        (target.positions.iter_mut())
            .chain(&mut target.normals)
            .chain(&mut target.tangents)
            .for_each(|v| *v = turn(*v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::ClipCursor;
    use crate::asset::demo::demo_model;

    #[test]
    fn the_turned_model_is_the_model_seen_turned() {
        let model = demo_model();
        let mut turned = model.clone();
        turn_half_around_y(&mut turned);
        let turn_matrix = Mat4::from_quat(HALF_TURN_Y);
        let near = |a: Mat4, b: Mat4| a.abs_diff_eq(b, 1e-5);

        // Rest and every clip's pose: each joint's model matrix turned.
        let mut poses = vec![(model.skeleton.rest_pose().clone(), turned.skeleton.rest_pose().clone())];
        for (clip, turned_clip) in model.clips.iter().zip(&turned.clips) {
            let (mut before, mut after) = poses[0].clone();
            clip.sample(0.37 * clip.duration(), &mut before, &mut ClipCursor::default());
            turned_clip.sample(0.37 * clip.duration(), &mut after, &mut ClipCursor::default());
            assert_eq!(turned_clip.duration(), clip.duration());
            poses.push((before, after));
        }
        for (before, after) in &poses {
            for (m, t) in before.to_model_matrices().iter().zip(after.to_model_matrices()) {
                assert!(near(turn_matrix * *m, t), "{m} turned is not {t}");
            }
        }
        // Skinning: joint × inverse bind × vertex comes out turned.
        let rest = model.skeleton.rest_pose().to_model_matrices();
        let turned_rest = turned.skeleton.rest_pose().to_model_matrices();
        for (skin, turned_skin) in model.skins.iter().zip(&turned.skins) {
            for ((&joint, ib), turned_ib) in skin
                .joints
                .iter()
                .zip(&skin.inverse_bind)
                .zip(&turned_skin.inverse_bind)
            {
                let vertex = Vec3::new(0.3, 1.2, -0.4);
                let before = rest[joint] * *ib * vertex.extend(1.0);
                let after = turned_rest[joint] * *turned_ib * turn(vertex).extend(1.0);
                assert!((turn_matrix * before).abs_diff_eq(after, 1e-5));
            }
        }
        let (vertex, turned_vertex) = (
            model.meshes[0].primitives[0].positions[5],
            turned.meshes[0].primitives[0].positions[5],
        );
        assert_eq!(turned_vertex, Vec3::new(-vertex.x, vertex.y, -vertex.z));
        // The bind pose turns with the rest pose.
        let bind = model.skeleton.bind_pose().to_model_matrices();
        for (m, t) in bind.iter().zip(turned.skeleton.bind_pose().to_model_matrices()) {
            assert!(near(turn_matrix * *m, t));
        }
    }

    #[test]
    fn turning_back_gives_the_model_exactly() {
        let model = demo_model();
        let mut turned = model.clone();
        turn_half_around_y(&mut turned);
        turn_back_half_around_y(&mut turned);
        let local = |pose: &crate::anim::Pose| pose.local().to_vec();
        let rest = model.skeleton.rest_pose();
        assert_eq!(
            local(turned.skeleton.rest_pose()),
            local(rest),
            "each quaternion with its sign"
        );
        assert_eq!(turned.skins[0].inverse_bind, model.skins[0].inverse_bind);
        let positions = |model: &Model| model.meshes[0].primitives[0].positions.clone();
        assert_eq!(positions(&turned), positions(&model));
        let (mut before, mut after) = (rest.clone(), rest.clone());
        model.clips[1].sample(0.3, &mut before, &mut ClipCursor::default());
        turned.clips[1].sample(0.3, &mut after, &mut ClipCursor::default());
        assert_eq!(local(&after), local(&before));
    }
}
