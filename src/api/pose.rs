//! A model posed at a clip's time: `rigscope pose --format json`'s numbers, computed by the same
//! code (`cli::pose::pose_meshes`), as flat arrays the Python module hands to NumPy without
//! copying them again.

use clap::Parser;

use super::Error;
use super::summary::row_major;
use crate::asset::Model;
use crate::cli::pose::{PosedMeshes, file_order, joints_in_file_order, pose_meshes};
use crate::cli::{Cli, Command};

/// What to pose: `pose`'s options.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct PoseOptions {
    /// A clip by name or index; `None` for the rest pose.
    pub clip: Option<String>,
    /// Seconds into the clip.
    pub time: f32,
    /// VRM expressions (as `inspect` names them) and their weights, 0 to 1.
    pub expressions: Vec<(String, f32)>,
    /// Simulate a VRM avatar's spring bones from time 0 to `time` (`pose` does unless
    /// `--no-springs`).
    pub springs: bool,
}

impl PoseOptions {
    /// The options at `time` seconds into `clip`, without expressions or springs.
    pub fn new(clip: Option<String>, time: f32) -> Self {
        Self {
            clip,
            time,
            ..Self::default()
        }
    }

    /// These options as `rigscope pose` arguments for `model`: parsed by the command line's own
    /// parser, so that the module and the command can never read an option differently.
    fn words(&self, model: &Model) -> Vec<String> {
        let mut words = vec!["rigscope".into(), "pose".into(), model.path.display().to_string()];
        words.push(format!("--time={}", self.time));
        words.extend(self.clip.iter().map(|clip| format!("--clip={clip}")));
        words.extend((self.expressions.iter()).map(|(name, weight)| format!("--expression={name}={weight}")));
        if !self.springs {
            words.push("--no-springs".into());
        }
        words
    }
}

/// One posed primitive, in the order `pose --format json` lists them (by node, mesh,
/// primitive).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PosedPrimitive {
    /// The file's node the primitive's mesh hangs on.
    pub node: usize,
    pub mesh: usize,
    pub primitive: usize,
    /// False where KHR_node_visibility hides the node in this pose.
    pub visible: bool,
    /// The node's morph-target weights in this pose.
    pub weights: Vec<f32>,
    /// World-space positions after morphing and skinning, x, y, z per vertex.
    pub positions: Vec<f32>,
}

/// A posed model.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PosedModel {
    /// The clip the pose comes from.
    pub clip: Option<String>,
    pub primitives: Vec<PosedPrimitive>,
    /// The joints' file nodes, in the file's node order (`pose --format json`'s `joints`).
    pub joint_nodes: Vec<usize>,
    pub joint_names: Vec<String>,
    /// Each joint's model (world) matrix, row-major, 16 numbers per joint in `joint_nodes`'
    /// order.
    pub joint_world: Vec<f32>,
}

/// Poses `model` as `options` say: what `rigscope pose FILE --format json` with the same
/// options writes.
pub fn pose(model: &Model, options: &PoseOptions) -> Result<PosedModel, Error> {
    let arguments = Cli::try_parse_from(options.words(model)).map_err(|e| Error::Options(e.to_string()))?;
    let Some(Command::Pose(arguments)) = arguments.command else {
        return Err(Error::Options("not a pose command".into()));
    };
    let PosedMeshes {
        posed,
        deformer,
        visible,
    } = pose_meshes(model, &arguments).map_err(|error| Error::from_command(&error, Error::Options))?;
    let primitives = (file_order(model, &deformer).into_iter())
        .map(|(node, mesh, primitive, posed_primitive)| {
            let instance = &model.instances[posed_primitive.instance];
            PosedPrimitive {
                node,
                mesh,
                primitive,
                visible: visible[instance.joint],
                weights: posed.pose.morph_weights()[model.morph_weight_range(instance)].to_vec(),
                positions: posed_primitive.positions.iter().flat_map(|p| p.to_array()).collect(),
            }
        })
        .collect();
    let joints: Vec<usize> = joints_in_file_order(model).collect();
    Ok(PosedModel {
        clip: posed.clip.map(|clip| model.clips[clip].name().to_owned()),
        primitives,
        joint_nodes: joints.iter().map(|&joint| model.file_node[joint]).collect(),
        joint_names: joints
            .iter()
            .map(|&joint| model.skeleton.name(joint).to_owned())
            .collect(),
        joint_world: (joints.iter())
            .flat_map(|&joint| row_major(deformer.model_matrices()[joint]))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn options_become_the_pose_commands_words() {
        let model = demo_model();
        let mut options = PoseOptions::new(Some("-odd name".into()), -0.5);
        options.expressions = vec![("happy".into(), 0.25)];
        let words = options.words(&model);
        assert_eq!(
            words[3..],
            [
                "--time=-0.5",
                "--clip=-odd name",
                "--expression=happy=0.25",
                "--no-springs"
            ]
        );
        options.springs = true;
        assert!(!options.words(&model).contains(&"--no-springs".to_owned()));
    }

    #[test]
    fn a_pose_gives_every_primitive_and_joint_with_row_major_matrices() {
        let model = demo_model();
        let posed = pose(&model, &PoseOptions::new(Some("0".into()), 0.4)).unwrap();
        assert_eq!(posed.clip.as_deref(), Some(model.clips[0].name()));
        let vertices: usize = (model.instances.iter())
            .flat_map(|instance| &model.meshes[instance.mesh].primitives)
            .map(|primitive| primitive.positions.len())
            .sum();
        assert_eq!(
            posed.primitives.iter().map(|p| p.positions.len() / 3).sum::<usize>(),
            vertices
        );
        assert_eq!(posed.joint_world.len(), 16 * model.skeleton.len());
        assert_eq!(posed.joint_names.len(), model.skeleton.len());
        // Row-major: the translation is the last column, and the bottom row is 0, 0, 0, 1.
        let root = posed
            .joint_nodes
            .iter()
            .position(|&node| model.file_node[0] == node)
            .unwrap();
        let world = &posed.joint_world[16 * root..16 * root + 16];
        assert_eq!(world[12..], [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn an_unknown_clip_is_an_options_error() {
        let error = pose(&demo_model(), &PoseOptions::new(Some("Dance".into()), 0.0)).unwrap_err();
        assert!(
            matches!(&error, Error::Options(text) if text.contains("Dance")),
            "{error:?}"
        );
    }
}
