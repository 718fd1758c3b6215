//! `rigscope pose FILE [--clip NAME|INDEX] [--time SECONDS] [--format json|obj]`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::expression_args::ExpressionArgs;
use super::morph_args::MorphArgs;
use super::{ClipArgs, ClipsFromArgs, Posed, SkinMethodArg};
use crate::asset::{self, Model, Topology};
use crate::export::output;
use crate::skin::{Deformer, PosedPrimitive};

#[derive(Args, Debug)]
pub struct PoseArgs {
    /// The model (.glb, .gltf, .vrm, .vrma, .fbx, .obj or .md5mesh).
    pub file: PathBuf,
    #[command(flatten)]
    pub clip: ClipArgs,
    #[command(flatten)]
    pub clips_from: ClipsFromArgs,
    #[command(flatten)]
    pub morph: MorphArgs,
    #[command(flatten)]
    pub expression: ExpressionArgs,
    /// How skinned vertices blend their joints.
    #[arg(long, value_enum, default_value_t = SkinMethodArg::Linear)]
    pub skin_method: SkinMethodArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Write to this file instead of standard output (- is standard output too).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    /// `{"clip", "time", "primitives": [{"node", "mesh", "primitive", "visible", "weights", "positions"}], "joints",
    /// "ik": [{"end", "bones", "solver", "target", "distance", "iterations", "reached"}],
    /// "properties": [{"pointer", "value"}]}` (`properties`: every property a clip animates,
    /// by its KHR_animation_pointer JSON pointer, with its value in this pose; `visible`: false
    /// when KHR_node_visibility hides the primitive's node in this pose; `weights`: its node's
    /// morph-target weights in this pose).
    Json,
    /// Wavefront OBJ: one object per primitive, with normals, texture coordinates and faces.
    Obj,
}

#[derive(Serialize)]
struct PosedModel<'a> {
    clip: Option<&'a str>,
    time: f32,
    primitives: Vec<PrimitiveOut>,
    joints: Vec<JointOut<'a>>,
    ik: Vec<IkOut<'a>>,
    properties: Vec<PropertyOut<'a>>,
}

/// An animated property's value in the pose (one number per component).
#[derive(Serialize)]
struct PropertyOut<'a> {
    pointer: &'a str,
    value: &'a [f32],
}

/// How an `--ik` chain was solved.
#[derive(Serialize)]
struct IkOut<'a> {
    end: &'a str,
    bones: usize,
    solver: &'static str,
    target: [f32; 3],
    /// Model-space distance left between the effector and the target.
    distance: f32,
    iterations: u32,
    reached: bool,
}

#[derive(Serialize)]
struct PrimitiveOut {
    node: usize,
    mesh: usize,
    primitive: usize,
    visible: bool,
    weights: Vec<f32>,
    positions: Vec<[f32; 3]>,
}

#[derive(Serialize)]
struct JointOut<'a> {
    node: usize,
    name: &'a str,
    /// Model (world) matrix, column-major.
    world: [f32; 16],
}

/// A model posed as the options describe, deformed: what both output formats (and the Python
/// module, through `crate::api`) read.
pub struct PosedMeshes {
    pub posed: Posed,
    /// The posed primitives and the pose's model matrices.
    pub deformer: Deformer,
    /// Per joint: false where KHR_node_visibility hides it in this pose.
    pub visible: Vec<bool>,
}

/// Poses, morphs and skins `model` (its `--clips-from` already applied) as `args` say.
pub fn pose_meshes(model: &Model, args: &PoseArgs) -> anyhow::Result<PosedMeshes> {
    let mut posed = args.clip.pose(model, None)?;
    args.expression.apply(model, &mut posed.pose)?;
    args.morph.apply(model, &mut posed.pose)?;
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &posed.pose, args.skin_method.into());
    let mut visible = vec![true; model.skeleton.len()];
    (model.properties).visible_joints(model.skeleton.hierarchy(), posed.pose.properties(), &mut visible);
    Ok(PosedMeshes {
        posed,
        deformer,
        visible,
    })
}

pub fn run(args: &PoseArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut model = asset::load(&args.file)?;
    args.clips_from.apply(&mut model)?;
    let PosedMeshes {
        posed,
        deformer,
        visible,
    } = pose_meshes(&model, args)?;
    let (pose, clip) = (&posed.pose, posed.clip);
    let order = file_order(&model, &deformer);

    let mut buffer = Vec::new();
    match args.format {
        Format::Json => {
            let output = PosedModel {
                clip: clip.map(|c| model.clips[c].name()),
                time: args.clip.time,
                primitives: order
                    .iter()
                    .map(|&(node, mesh, primitive, posed)| PrimitiveOut {
                        node,
                        mesh,
                        primitive,
                        visible: visible[model.instances[posed.instance].joint],
                        weights: pose.morph_weights()[model.morph_weight_range(&model.instances[posed.instance])]
                            .to_vec(),
                        positions: posed.positions.iter().map(|p| p.to_array()).collect(),
                    })
                    .collect(),
                joints: joints_in_file_order(&model)
                    .map(|joint| JointOut {
                        node: model.file_node[joint],
                        name: model.skeleton.name(joint),
                        world: deformer.model_matrices()[joint].to_cols_array(),
                    })
                    .collect(),
                ik: posed
                    .ik
                    .iter()
                    .map(|layer| IkOut {
                        end: model.skeleton.name(layer.chain.end()),
                        bones: layer.chain.bones(),
                        solver: layer.solver.name(),
                        target: layer.target.to_array(),
                        distance: layer.outcome.distance,
                        iterations: layer.outcome.iterations,
                        reached: layer.outcome.reached,
                    })
                    .collect(),
                properties: (model.properties.slots().iter())
                    .filter_map(|slot| {
                        let value = pose.properties().get(slot.offset..slot.offset + slot.width)?;
                        Some(PropertyOut {
                            pointer: &slot.pointer,
                            value,
                        })
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut buffer, &output)?;
            writeln!(buffer)?;
        }
        Format::Obj => write_obj(&model, &order, &mut buffer)?,
    }
    match &args.output {
        Some(path) if !output::is_standard_output(path) => {
            output::write_file(path, &buffer).with_context(|| format!("cannot write {}", path.display()))?
        }
        _ => out.write_all(&buffer)?,
    }
    Ok(())
}

/// (file node, mesh, primitive, posed data), sorted by node, mesh, primitive.
pub(crate) fn file_order<'a>(model: &Model, deformer: &'a Deformer) -> Vec<(usize, usize, usize, &'a PosedPrimitive)> {
    let mut order: Vec<_> = deformer
        .primitives()
        .iter()
        .map(|posed| {
            let instance = model.instances[posed.instance];
            (model.file_node[instance.joint], instance.mesh, posed.primitive, posed)
        })
        .collect();
    order.sort_by_key(|&(node, mesh, primitive, _)| (node, mesh, primitive));
    order
}

/// The model's joints in the file's node order (the order `pose --format json` lists them in).
pub(crate) fn joints_in_file_order(model: &Model) -> impl Iterator<Item = usize> + '_ {
    let mut joints: Vec<usize> = (0..model.skeleton.len()).collect();
    joints.sort_by_key(|&j| model.file_node[j]);
    joints.into_iter()
}

fn write_obj(
    model: &Model,
    order: &[(usize, usize, usize, &PosedPrimitive)],
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    writeln!(out, "# rigscope pose of {}", model.path.display())?;
    let (mut position_base, mut uv_base) = (1usize, 1usize);
    for &(node, mesh, primitive_index, posed) in order {
        let primitive = &model.meshes[mesh].primitives[primitive_index];
        writeln!(out, "o node{node}_mesh{mesh}_primitive{primitive_index}")?;
        for p in &posed.positions {
            writeln!(out, "v {} {} {}", p.x, p.y, p.z)?;
        }
        // OBJ normals are unit vectors; skinned ones need not be (see skin::split_linear).
        for n in posed.normals.iter().map(|n| n.normalize_or_zero()) {
            writeln!(out, "vn {} {} {}", n.x, n.y, n.z)?;
        }
        // OBJ's texture origin is the bottom-left corner, glTF's the top-left.
        for uv in &primitive.uvs {
            writeln!(out, "vt {} {}", uv.x, 1.0 - uv.y)?;
        }
        let has_uvs = !primitive.uvs.is_empty();
        // Faces name position/texcoord/normal; lines and points only take positions.
        let corner = |i: u32| {
            let v = position_base + i as usize;
            match (primitive.topology, has_uvs) {
                (Topology::Triangles, true) => format!("{v}/{}/{v}", uv_base + i as usize),
                (Topology::Triangles, false) => format!("{v}//{v}"),
                _ => v.to_string(),
            }
        };
        let (keyword, arity) = match primitive.topology {
            Topology::Triangles => ("f", 3),
            Topology::Lines => ("l", 2),
            Topology::Points => ("p", 1),
        };
        for element in primitive.indices.chunks_exact(arity) {
            let corners: Vec<String> = element.iter().map(|&i| corner(i)).collect();
            writeln!(out, "{keyword} {}", corners.join(" "))?;
        }
        position_base += posed.positions.len();
        uv_base += primitive.uvs.len();
    }
    Ok(())
}
