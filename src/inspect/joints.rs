//! The joint browser's facts: the hierarchy as a tree, each joint's skins and animation, and
//! one joint's transforms in a pose.

use glam::{EulerRot, Mat4, Quat, Vec3};

use crate::anim::{ChannelTrack, Transform};
use crate::asset::Model;

/// What the joint tree shows, made once per model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointFacts {
    /// Each joint's children, in joint order.
    pub children: Vec<Vec<usize>>,
    /// The joints without a parent.
    pub roots: Vec<usize>,
    /// Per joint, whether it is a rig joint (`Model::rig_joints`): the others are nodes that
    /// are not picked or offered as IK ends.
    pub rig: Vec<bool>,
    /// Each joint's skins (indices into `Model::skins`).
    pub skins: Vec<Vec<usize>>,
    /// How many vertices each joint moves with a weight above zero (over all skinned meshes).
    pub vertices: Vec<usize>,
    /// Per clip, per joint: whether the clip animates the joint's translation, rotation or
    /// scale.
    pub animated: Vec<Vec<bool>>,
}

impl JointFacts {
    pub fn new(model: &Model) -> Self {
        let skeleton = &model.skeleton;
        let joints = skeleton.len();
        let mut children = vec![Vec::new(); joints];
        let mut roots = Vec::new();
        for joint in 0..joints {
            match skeleton.parent(joint) {
                Some(parent) => children[parent].push(joint),
                None => roots.push(joint),
            }
        }
        let mut skins = vec![Vec::new(); joints];
        for (index, skin) in model.skins.iter().enumerate() {
            for &joint in &skin.joints {
                if !skins[joint].contains(&index) {
                    skins[joint].push(index);
                }
            }
        }
        let mut vertices = vec![0; joints];
        let mut moved = Vec::new();
        for instance in &model.instances {
            let Some(skin) = instance.skin.and_then(|s| model.skins.get(s)) else {
                continue;
            };
            for weights in model.meshes[instance.mesh]
                .primitives
                .iter()
                .filter_map(|p| p.skin_weights.as_ref())
            {
                for vertex in 0..weights.joints.len() {
                    moved.clear();
                    for (slot, _) in weights.influences(vertex) {
                        if let Some(&joint) = skin.joints.get(slot)
                            && !moved.contains(&joint)
                        {
                            moved.push(joint);
                            vertices[joint] += 1;
                        }
                    }
                }
            }
        }
        let animated = model
            .clips
            .iter()
            .map(|clip| {
                let mut animated = vec![false; joints];
                for channel in clip.channels() {
                    if !matches!(channel.track, ChannelTrack::MorphWeights { .. })
                        && let Some(flag) = animated.get_mut(channel.joint)
                    {
                        *flag = true;
                    }
                }
                animated
            })
            .collect();
        let mut rig = Vec::new();
        model.rig_joints(&mut rig);
        Self {
            children,
            roots,
            rig,
            skins,
            vertices,
            animated,
        }
    }

    /// Whether `joint` is a rig joint (`Model::rig_joints`).
    pub fn in_rig(&self, joint: usize) -> bool {
        self.rig.get(joint).copied().unwrap_or(false)
    }

    /// Whether `clip` animates `joint` (false without a clip).
    pub fn is_animated(&self, clip: Option<usize>, joint: usize) -> bool {
        clip.and_then(|c| self.animated.get(c))
            .and_then(|a| a.get(joint))
            .copied()
            .unwrap_or(false)
    }
}

/// One joint in a pose, as the joint browser and `rigscope joints --joint` show it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JointReport {
    pub index: usize,
    /// Its index among the file's nodes.
    pub node: usize,
    pub name: String,
    pub parent: Option<String>,
    pub children: usize,
    /// Names of the skins it belongs to.
    pub skins: Vec<String>,
    /// Vertices it moves with a weight above zero.
    pub vertices: usize,
    /// Whether the current clip animates it.
    pub animated: bool,
    /// Parent space.
    pub local: TrsReport,
    /// Model space.
    pub world: TrsReport,
    /// Model-space distance from the parent joint (0 for a root).
    pub bone_length: f32,
}

/// A transform for people: translation, rotation as a quaternion (xyzw) and as XYZ Euler
/// angles in degrees, scale.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TrsReport {
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
    pub euler_xyz_degrees: [f32; 3],
    pub scale: [f32; 3],
}

impl TrsReport {
    fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        let (x, y, z) = rotation.to_euler(EulerRot::XYZ);
        Self {
            translation: translation.to_array(),
            rotation: rotation.to_array(),
            euler_xyz_degrees: [x, y, z].map(f32::to_degrees),
            scale: scale.to_array(),
        }
    }
}

impl JointReport {
    /// `joint` in the pose whose local transforms are `local` and model matrices `world`.
    pub fn new(
        model: &Model,
        facts: &JointFacts,
        clip: Option<usize>,
        (local, world): (&[Transform], &[Mat4]),
        joint: usize,
    ) -> Self {
        let skeleton = &model.skeleton;
        let parent = skeleton.parent(joint);
        let position = |j: usize| world[j].w_axis.truncate();
        let (scale, rotation, translation) = world[joint].to_scale_rotation_translation();
        let own = local[joint];
        Self {
            index: joint,
            node: model.file_node.get(joint).copied().unwrap_or(joint),
            name: skeleton.name(joint).to_string(),
            parent: parent.map(|p| skeleton.name(p).to_string()),
            children: facts.children[joint].len(),
            skins: facts.skins[joint]
                .iter()
                .map(|&s| model.skins[s].name.clone())
                .collect(),
            vertices: facts.vertices[joint],
            animated: facts.is_animated(clip, joint),
            local: TrsReport::new(own.translation, own.rotation, own.scale),
            world: TrsReport::new(translation, rotation, scale),
            bone_length: parent.map_or(0.0, |p| position(joint).distance(position(p))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn facts_describe_the_demo_rig() {
        let model = demo_model();
        let facts = JointFacts::new(&model);
        let joints = model.skeleton.len();
        assert_eq!(
            facts.roots.len() + facts.children.iter().map(Vec::len).sum::<usize>(),
            joints
        );
        for (joint, children) in facts.children.iter().enumerate() {
            for &child in children {
                assert_eq!(model.skeleton.parent(child), Some(joint));
            }
        }
        assert!(facts.skins.iter().any(|s| !s.is_empty()));
        assert!(facts.vertices.iter().sum::<usize>() >= model.vertex_count() / 2);
        assert_eq!(facts.animated.len(), model.clips.len());
    }

    #[test]
    fn a_report_gives_local_and_world_transforms_and_the_bone_length() {
        let model = demo_model();
        let facts = JointFacts::new(&model);
        let pose = model.skeleton.rest_pose();
        let world = pose.to_model_matrices();
        let joint = (0..model.skeleton.len())
            .find(|&j| model.skeleton.parent(j).is_some())
            .unwrap();
        let report = JointReport::new(&model, &facts, None, (pose.local(), &world), joint);
        assert_eq!(report.name, model.skeleton.name(joint));
        assert_eq!(report.local.translation, pose.local()[joint].translation.to_array());
        let parent = model.skeleton.parent(joint).unwrap();
        let expected = world[joint].w_axis.distance(world[parent].w_axis);
        assert!((report.bone_length - expected).abs() < 1e-6);
        assert_eq!(report.world.translation, world[joint].w_axis.truncate().to_array());
        assert!(!report.animated, "no clip");
    }
}
