//! Retargeting: one rig's clips converted to play on another rig whose joints have the same
//! (or similar) names but possibly another rest pose, size and units.
//!
//! Joints pair by name (`joint_match`). Semantics, per paired joint, with `s_rest`/`t_rest` the
//! source's and target's rest transforms (parent space) and Hamilton products as in glam (`a * b`
//! applies `b` first):
//! - **rotation** `t_local = t_rest · s_rest⁻¹ · s_local`: the motion relative to the rest
//!   pose, `s_rest⁻¹ · s_local`, taken in the joint's own frame, is applied on top of the
//!   target's rest. The source's rest pose plays as the target's rest pose (an A-pose rig
//!   keeps its A-pose when the source stands in a T-pose).
//! - **translation** `t_local = t_rest + k · (s_local − s_rest)`, the offset from rest scaled:
//!   - for the hips, `k = (h_t / h_s) · (u_s / u_t)`: `h` is the hips' rest height (model-space
//!     +Y, glTF's up) and `u` the uniform scale of the hips' parent in its rest pose (model
//!     space), so a walk covers ground in proportion to the legs and rigs authored in
//!     centimetres under a 0.01 root and in metres agree;
//!   - for other joints, `k = |t_rest| / |s_rest|`, the ratio of the bone lengths (1 when the
//!     source bone has no length), so the target keeps its proportions and stretches scale
//!     with the bone.
//!
//!   The hips are the paired joint whose name normalises to `hips` or `pelvis`, else the
//!   first paired joint (the topmost, joints being parents-first). `h_t / h_s` is 1 when
//!   either height is not above zero.
//! - **scale** `t_local = (t_rest / s_rest) · s_local` per component (a zero source rest
//!   component copies the channel's component).
//! - Morph-weight channels (the target's morph targets are others) and channels of unpaired
//!   source joints are dropped; unpaired target joints keep their rest transform.
//!
//! Why this variant rather than carrying world-space rotation deltas down the hierarchy:
//! every conversion is a constant per joint — a unit-quaternion product for rotations (an
//! orthogonal linear map of the four components, so it keeps dot products: shortest-arc slerp
//! and the normalised cubic spline commute with it), an affine map for translations and scale.
//! So each key and tangent converts on its own, the retargeted clip keeps the source's keys
//! and interpolation, and sampling it at any time gives exactly the converted source pose; no
//! resampling. The world-space variant needs the parents' animated rotations, so it would have
//! to bake the clip at a chosen rate. Its cost here: when two rigs disagree about a joint's
//! axes (a different bone roll), a motion turns with that difference.
//!
//! When a joint's rests are equal the conversion is the identity exactly (`k = 1`, offset
//! `t_rest − s_rest = 0`, rotation channels copied), so a rig's clips retargeted onto a copy of
//! itself sample to the very same poses.

use glam::{Mat3, Mat4, Quat, Vec3};

use super::clip::{Channel, ChannelTrack, Clip};
#[cfg(any(test, feature = "internals"))]
use super::joint_match::match_joints;
use super::joint_match::{JointMatching, normalise_joint_name};
use super::skeleton::Skeleton;
use super::transform::Transform;

/// How the channels of one source joint become channels of its target joint.
#[derive(Clone, Copy, Debug, PartialEq)]
struct JointConversion {
    target: usize,
    /// `t_local = left · s_local · right`; none when the rest rotations are equal (channels
    /// copied).
    rotation: Option<(Quat, Quat)>,
    /// `t_local = linear · s_local + offset`; none: translation channels dropped.
    translation: Option<(Mat3, Vec3)>,
    /// Per component; none: scale channels dropped.
    scale: Option<Vec3>,
}

/// Converts clips of a source rig into clips of a target rig (see the module docs).
#[derive(Clone, Debug)]
pub struct Retarget {
    matching: JointMatching,
    /// Per source joint.
    conversions: Vec<Option<JointConversion>>,
    /// Source joints that carry values (a VRM animation's expression weights in their
    /// translation's x, where the eyes look in their rotation), and the entry of
    /// `Pose::properties` each drives on the target.
    values: Vec<(usize, usize)>,
    /// The hips pair (target, source) and `h_t / h_s`, when any joint pairs.
    #[cfg(any(test, feature = "internals"))]
    hips: Option<(usize, usize, f32)>,
}

impl Retarget {
    #[cfg(any(test, feature = "internals"))]
    pub fn new(source: &Skeleton, target: &Skeleton) -> Self {
        Self::local(source, target, match_joints(source.names(), target.names()))
    }

    /// Converts through `matching` as the module docs say.
    pub fn local(source: &Skeleton, target: &Skeleton, matching: JointMatching) -> Self {
        let source_model = source.rest_pose().to_model_matrices();
        let target_model = target.rest_pose().to_model_matrices();
        let hips = hips_pair(&matching, target).map(|(t, s)| {
            let ratio = height_ratio(target_model[t].w_axis.y, source_model[s].w_axis.y);
            (t, s, ratio)
        });
        let mut conversions = vec![None; source.len()];
        for pair in &matching.pairs {
            let (s_rest, t_rest) = (
                source.rest_pose().local()[pair.source],
                target.rest_pose().local()[pair.target],
            );
            let translation_scale = match hips {
                Some((t, s, ratio)) if (t, s) == (pair.target, pair.source) => {
                    let units = parent_scale(source, &source_model, s) / parent_scale(target, &target_model, t);
                    ratio * finite_or_one(units)
                }
                _ => bone_ratio(t_rest.translation, s_rest.translation),
            };
            conversions[pair.source] = Some(conversion(pair.target, s_rest, t_rest, translation_scale));
        }
        Self {
            matching,
            conversions,
            #[cfg(any(test, feature = "internals"))]
            hips,
            values: Vec::new(),
        }
    }

    /// The same, also converting the translation x (or the rotation's four numbers) of each
    /// `(source joint, property entry)` into that entry of the target's `Pose::properties`
    /// (VRM expression weights, where the eyes look).
    pub fn with_values(mut self, values: Vec<(usize, usize)>) -> Self {
        self.values = values;
        self
    }

    /// Converts a humanoid's clips as VRM does (three-vrm's normalised bones), `matching`
    /// pairing the bones of both humanoids and `hips` (target, source) their hips: each paired
    /// joint's motion is its turn from rest taken in model space and applied in model space on
    /// the target's rest, so rigs whose bones have other axes (rolls) move alike:
    /// `t_local = Pt⁻¹ · Ps · s_local · s_rest⁻¹ · Ps⁻¹ · Pt · t_rest`, `P` the parent's rest
    /// rotation in model space. The hips' translation moves in model space scaled by the hip
    /// heights, `t = Mt⁻¹ · (k · Ms · s)`, `M` the parent's rest model matrix; other
    /// translations and all scales are dropped, as VRM animations carry none.
    pub fn humanoid(
        source: &Skeleton,
        target: &Skeleton,
        matching: JointMatching,
        hips: Option<(usize, usize)>,
    ) -> Self {
        let source_model = source.rest_pose().to_model_matrices();
        let target_model = target.rest_pose().to_model_matrices();
        let parent = |skeleton: &Skeleton, model: &[Mat4], joint: usize| {
            skeleton.parent(joint).map_or(Mat4::IDENTITY, |p| model[p])
        };
        let rotation_of = |matrix: Mat4| Quat::from_mat4(&matrix).normalize();
        let hips = hips.map(|(t, s)| (t, s, height_ratio(target_model[t].w_axis.y, source_model[s].w_axis.y)));
        let mut conversions = vec![None; source.len()];
        for pair in &matching.pairs {
            let (s_parent, t_parent) = (
                parent(source, &source_model, pair.source),
                parent(target, &target_model, pair.target),
            );
            let (ps, pt) = (rotation_of(s_parent), rotation_of(t_parent));
            let s_rest = source.rest_pose().local()[pair.source].rotation;
            let t_rest = target.rest_pose().local()[pair.target].rotation;
            let left = (pt.inverse() * ps).normalize();
            let right = (s_rest.inverse() * ps.inverse() * pt * t_rest).normalize();
            let translation = match hips {
                Some((t, s, ratio)) if (t, s) == (pair.target, pair.source) => {
                    let map = t_parent.inverse() * Mat4::from_scale(Vec3::splat(ratio)) * s_parent;
                    Some((Mat3::from_mat4(map), map.w_axis.truncate())).filter(|(l, o)| l.is_finite() && o.is_finite())
                }
                _ => None,
            };
            let rotation = (left.is_finite() && right.is_finite()).then_some((left, right));
            conversions[pair.source] = Some(JointConversion {
                target: pair.target,
                rotation,
                translation,
                scale: None,
            });
        }
        Self {
            matching,
            conversions,
            #[cfg(any(test, feature = "internals"))]
            hips,
            values: Vec::new(),
        }
    }

    /// Which joints paired, and which did not.
    pub fn matching(&self) -> &JointMatching {
        &self.matching
    }

    /// The target's hips joint and `h_t / h_s`, the ratio of the hip heights.
    #[cfg(any(test, feature = "internals"))]
    pub fn hips(&self) -> Option<(usize, f32)> {
        self.hips.map(|(target, _, ratio)| (target, ratio))
    }

    /// `clip` (of the source rig) as a clip of the target rig named `name`, as long as `clip`.
    pub fn clip(&self, clip: &Clip, name: String) -> Clip {
        let channels = clip.channels().iter().filter_map(|c| self.channel(c)).collect();
        Clip::new(name, channels).lasting_at_least(clip.duration())
    }

    /// The channel converted, or none when it cannot play on the target.
    fn channel(&self, channel: &Channel) -> Option<Channel> {
        if let Some(&(_, offset)) = self.values.iter().find(|(joint, _)| *joint == channel.joint) {
            let values = match &channel.track {
                ChannelTrack::Translation(track) => track.component(0).ok()?,
                ChannelTrack::Rotation(track) => track.components().ok()?,
                _ => return None,
            };
            let track = ChannelTrack::Properties { offset, track: values };
            return Some(Channel { joint: 0, track });
        }
        let map = self.conversions.get(channel.joint).copied().flatten()?;
        let track = match &channel.track {
            ChannelTrack::Translation(track) => {
                let (linear, offset) = map.translation?;
                ChannelTrack::Translation(track.map_keys(|v| linear * v + offset, |d| linear * d).ok()?)
            }
            ChannelTrack::Rotation(track) => match map.rotation {
                None => ChannelTrack::Rotation(track.clone()),
                Some((left, right)) => {
                    ChannelTrack::Rotation(track.map_keys(|v| left * v * right, |d| left * d * right).ok()?)
                }
            },
            ChannelTrack::Scale(track) => {
                let scale = map.scale?;
                ChannelTrack::Scale(track.map_keys(|v| v * scale, |d| d * scale).ok()?)
            }
            ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => return None,
        };
        Some(Channel {
            joint: map.target,
            track,
        })
    }
}

fn conversion(target: usize, s_rest: Transform, t_rest: Transform, k: f32) -> JointConversion {
    let rotation = (s_rest.rotation != t_rest.rotation)
        .then(|| (t_rest.rotation * s_rest.rotation.conjugate()).normalize())
        .filter(|q| q.is_finite())
        .map(|left| (left, Quat::IDENTITY));
    let scale_component = |t: f32, s: f32| if s != 0.0 { finite_or_one(t / s) } else { 1.0 };
    JointConversion {
        target,
        rotation,
        translation: Some((
            Mat3::from_diagonal(Vec3::splat(k)),
            t_rest.translation - k * s_rest.translation,
        )),
        scale: Some(Vec3::new(
            scale_component(t_rest.scale.x, s_rest.scale.x),
            scale_component(t_rest.scale.y, s_rest.scale.y),
            scale_component(t_rest.scale.z, s_rest.scale.z),
        )),
    }
}

/// The paired joint named hips or pelvis, else the first pair, as (target, source).
fn hips_pair(matching: &JointMatching, target: &Skeleton) -> Option<(usize, usize)> {
    let named = |target_joint: usize| {
        matches!(
            normalise_joint_name(target.name(target_joint)).as_str(),
            "hips" | "pelvis"
        )
    };
    let pair = matching
        .pairs
        .iter()
        .find(|p| named(p.target))
        .or(matching.pairs.first())?;
    Some((pair.target, pair.source))
}

fn height_ratio(target: f32, source: f32) -> f32 {
    if target > 0.0 && source > 0.0 {
        finite_or_one(target / source)
    } else {
        1.0
    }
}

/// `|t| / |s|`, or 1 when the source bone has no length.
fn bone_ratio(target: Vec3, source: Vec3) -> f32 {
    let (t, s) = (target.length(), source.length());
    if s > f32::EPSILON { finite_or_one(t / s) } else { 1.0 }
}

/// The uniform scale of `joint`'s parent in model space (the cube root of its matrix's
/// determinant), 1 for a root or a degenerate parent.
fn parent_scale(skeleton: &Skeleton, model: &[Mat4], joint: usize) -> f32 {
    let Some(parent) = skeleton.parent(joint) else {
        return 1.0;
    };
    let scale = Mat3::from_mat4(model[parent]).determinant().abs().cbrt();
    if scale > 0.0 { finite_or_one(scale) } else { 1.0 }
}

fn finite_or_one(value: f32) -> f32 {
    if value.is_finite() { value } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Interpolation, JointDesc, Pose, Track};
    use std::f32::consts::FRAC_PI_2;

    fn rig(names: [&str; 2], hips: Transform, arm: Transform) -> Skeleton {
        let joint = |name: &str, parent, rest| JointDesc {
            name: name.into(),
            parent,
            rest,
            bind_model: None,
            morph_weights: Vec::new(),
        };
        Skeleton::new(vec![joint(names[0], None, hips), joint(names[1], Some(0), arm)]).unwrap()
    }

    fn source_rig() -> Skeleton {
        rig(
            ["Hips", "Arm"],
            Transform::new(Vec3::Y, Quat::IDENTITY, Vec3::ONE),
            Transform::new(Vec3::X, Quat::from_rotation_y(0.3), Vec3::ONE),
        )
    }

    /// The hips walk one unit along +X while the arm turns 90° about its own X axis.
    fn source_clip(rotation: Interpolation) -> Clip {
        let walk = Track::new(
            Interpolation::Linear,
            vec![0.0, 1.0],
            vec![Vec3::Y, Vec3::new(1.0, 1.0, 0.0)],
        );
        let rest = Quat::from_rotation_y(0.3);
        let keys = [rest, rest * Quat::from_rotation_x(FRAC_PI_2)];
        let values = match rotation {
            Interpolation::CubicSpline => vec![
                Quat::from_xyzw(0.1, 0.0, 0.0, 0.0),
                keys[0],
                Quat::from_xyzw(0.3, 0.2, 0.0, 0.0),
                Quat::from_xyzw(0.0, 0.4, 0.0, 0.0),
                keys[1],
                Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            ],
            _ => keys.to_vec(),
        };
        let turn = Track::new(rotation, vec![0.0, 1.0], values);
        Clip::new(
            "wave".into(),
            vec![
                Channel {
                    joint: 0,
                    track: ChannelTrack::Translation(walk.unwrap()),
                },
                Channel {
                    joint: 1,
                    track: ChannelTrack::Rotation(turn.unwrap()),
                },
            ],
        )
    }

    fn sampled(clip: &Clip, skeleton: &Skeleton, time: f32) -> Pose {
        let mut pose = skeleton.rest_pose().clone();
        clip.sample(time, &mut pose, &mut clip.cursor());
        pose
    }

    #[test]
    fn a_rig_onto_itself_reproduces_its_clip_exactly() {
        let rig = source_rig();
        for interpolation in [Interpolation::Linear, Interpolation::CubicSpline, Interpolation::Step] {
            let clip = source_clip(interpolation);
            let copy = Retarget::new(&rig, &rig).clip(&clip, "copy".into());
            for time in [0.0, 0.25, 0.6, 1.0] {
                assert_eq!(sampled(&copy, &rig, time).local(), sampled(&clip, &rig, time).local());
            }
        }
    }

    /// The target's hips stand twice as high and its arm is half as long, turned 90° about Z
    /// and twice the size at rest. From the semantics: hips `(0,2,0) + 2·(s − (0,1,0))`; arm
    /// rotation `Rz(90°) · Ry(0.3)⁻¹ · s_local`, translation kept (`(0.5,0,0)`).
    #[test]
    fn a_different_rest_gets_the_motion_relative_to_its_own_rest() {
        let target = rig(
            ["mixamorig:hips", "ARM"],
            Transform::new(Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY, Vec3::ONE),
            Transform::new(
                Vec3::new(0.5, 0.0, 0.0),
                Quat::from_rotation_z(FRAC_PI_2),
                Vec3::splat(2.0),
            ),
        );
        let retarget = Retarget::new(&source_rig(), &target);
        assert_eq!(retarget.hips(), Some((0, 2.0)));
        let clip = retarget.clip(&source_clip(Interpolation::Linear), "wave".into());

        let world = sampled(&clip, &target, 0.0).to_model_matrices();
        assert!(world[1].w_axis.truncate().abs_diff_eq(Vec3::new(0.5, 2.0, 0.0), 1e-5));
        assert!(
            world[1].x_axis.truncate().abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-5),
            "the rest"
        );
        assert!(world[1].y_axis.truncate().abs_diff_eq(Vec3::new(-2.0, 0.0, 0.0), 1e-5));

        // At the end the hips walked 2 units; the arm turned 90° about its own X axis, which
        // points along +Y: its Y axis swings from −X to +Z.
        let world = sampled(&clip, &target, 1.0).to_model_matrices();
        assert!(world[0].w_axis.truncate().abs_diff_eq(Vec3::new(2.0, 2.0, 0.0), 1e-5));
        assert!(world[1].w_axis.truncate().abs_diff_eq(Vec3::new(2.5, 2.0, 0.0), 1e-5));
        assert!(world[1].x_axis.truncate().abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-5));
        assert!(world[1].y_axis.truncate().abs_diff_eq(Vec3::new(0.0, 0.0, 2.0), 1e-5));
    }

    #[test]
    fn converting_keys_commutes_with_interpolation() {
        let target = rig(
            ["Hips", "Arm"],
            Transform::new(Vec3::new(0.0, 3.0, 0.0), Quat::from_rotation_x(0.2), Vec3::ONE),
            Transform::new(Vec3::new(2.0, 0.0, 0.0), Quat::from_rotation_z(1.1), Vec3::ONE),
        );
        let offset = Quat::from_rotation_z(1.1) * Quat::from_rotation_y(0.3).conjugate();
        for interpolation in [Interpolation::Linear, Interpolation::CubicSpline] {
            let source = source_clip(interpolation);
            let clip = Retarget::new(&source_rig(), &target).clip(&source, "turn".into());
            for time in [0.2, 0.5, 0.9] {
                let expected = offset * sampled(&source, &source_rig(), time).local()[1].rotation;
                let got = sampled(&clip, &target, time).local()[1].rotation;
                assert!(
                    got.dot(expected).abs() > 1.0 - 1e-6,
                    "{interpolation:?} at {time}: {got} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn channels_of_unpaired_joints_are_dropped() {
        let target = rig(["Hips", "Leg"], Transform::IDENTITY, Transform::IDENTITY);
        let retarget = Retarget::new(&source_rig(), &target);
        assert_eq!(retarget.matching().unmatched_source, [1]);
        assert_eq!(retarget.matching().unmatched_target, [1]);
        let clip = retarget.clip(&source_clip(Interpolation::Linear), "walk".into());
        assert_eq!(clip.channels().len(), 1);
        assert_eq!(clip.channels()[0].joint, 0);

        // A clip whose longest channel is left out keeps its length.
        let long_turn = Track::new(Interpolation::Linear, vec![0.0, 3.0], vec![Quat::IDENTITY; 2]).unwrap();
        let mut channels = source_clip(Interpolation::Linear).channels().to_vec();
        channels[1].track = ChannelTrack::Rotation(long_turn);
        let clip = retarget.clip(&Clip::new("long".into(), channels), "long".into());
        assert_eq!(clip.duration(), 3.0);
    }
}
