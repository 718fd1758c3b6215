//! `rigscope joints FILE [--clip C] [--time T] [--joint JOINT] [--json]`: the viewer's joint
//! browser without a window. Without --joint, the hierarchy as a tree with each joint's skins,
//! the vertices it moves and whether the clip animates it; with --joint, that joint's local
//! and world transform and bone length in the pose.

use std::io::Write;
use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;
use serde::Serialize;

use super::ClipArgs;
use super::view_args::PoseModeArg;
use crate::asset;
use crate::inspect::lookup::find_joint;
use crate::inspect::{JointFacts, JointReport, PoseMode};

#[derive(Args, Debug)]
pub struct JointsArgs {
    /// The model (.glb, .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh).
    pub file: PathBuf,
    /// The pose and the clip whose animated joints are marked (the first clip by default).
    #[command(flatten)]
    pub clip: ClipArgs,
    /// The animated pose, the rest pose or the bind pose.
    #[arg(long, value_enum, default_value_t = PoseModeArg::Animated)]
    pub pose_mode: PoseModeArg,
    /// Describe this joint (a name, a joint index as `rigscope joints` numbers them, or node:N for the file's node N) instead of listing them all.
    #[arg(long, value_name = "JOINT")]
    pub joint: Option<String>,
    /// Print JSON: an array of joints in tree order, or the one joint's report.
    #[arg(long)]
    pub json: bool,
}

/// One joint of the tree.
#[derive(Serialize)]
struct TreeEntry<'a> {
    index: usize,
    node: usize,
    name: &'a str,
    parent: Option<usize>,
    depth: usize,
    skins: Vec<&'a str>,
    vertices: usize,
    animated: bool,
}

pub fn run(args: &JointsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let model = asset::load(&args.file)?;
    let mut posed = args.clip.pose(&model, (!model.clips.is_empty()).then_some(0))?;
    PoseMode::from(args.pose_mode).apply(&model.skeleton, &mut posed.pose);
    let facts = JointFacts::new(&model);
    if let Some(name) = &args.joint {
        let joint = find_joint(&model, name).map_err(|e| anyhow!("--joint: {e}"))?;
        let world = posed.pose.to_model_matrices();
        let report = JointReport::new(&model, &facts, posed.clip, (posed.pose.local(), &world), joint);
        if args.json {
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
        } else {
            write_report(&report, out)?;
        }
        return Ok(());
    }
    // Depth-first, children in joint order: the order the viewer's tree shows.
    let mut entries = Vec::with_capacity(model.skeleton.len());
    let mut stack: Vec<(usize, usize)> = facts.roots.iter().rev().map(|&r| (r, 0)).collect();
    while let Some((joint, depth)) = stack.pop() {
        entries.push(TreeEntry {
            index: joint,
            node: model.file_node.get(joint).copied().unwrap_or(joint),
            name: model.skeleton.name(joint),
            parent: model.skeleton.parent(joint),
            depth,
            skins: facts.skins[joint]
                .iter()
                .map(|&s| model.skins[s].name.as_str())
                .collect(),
            vertices: facts.vertices[joint],
            animated: facts.is_animated(posed.clip, joint),
        });
        stack.extend(facts.children[joint].iter().rev().map(|&c| (c, depth + 1)));
    }
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &entries)?;
        writeln!(out)?;
        return Ok(());
    }
    for entry in &entries {
        let mut marks = Vec::new();
        if !entry.skins.is_empty() {
            marks.push(format!("skin, {} vertices", entry.vertices));
        }
        if entry.animated {
            marks.push("animated".to_string());
        }
        let marks = if marks.is_empty() {
            String::new()
        } else {
            format!("  [{}]", marks.join("; "))
        };
        writeln!(
            out,
            "{}{} (joint {}){marks}",
            "  ".repeat(entry.depth),
            entry.name,
            entry.index
        )?;
    }
    Ok(())
}

fn write_report(report: &JointReport, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} (joint {}, file node {})",
        report.name, report.index, report.node
    )?;
    writeln!(out, "parent: {}", report.parent.as_deref().unwrap_or("(root)"))?;
    writeln!(out, "children: {}", report.children)?;
    if report.skins.is_empty() {
        writeln!(out, "skins: none")?;
    } else {
        writeln!(
            out,
            "skins: {}; moves {} vertices",
            report.skins.join(", "),
            report.vertices
        )?;
    }
    writeln!(
        out,
        "animated by the clip: {}",
        if report.animated { "yes" } else { "no" }
    )?;
    writeln!(out, "bone length: {}", report.bone_length)?;
    for (space, trs) in [("local", &report.local), ("world", &report.world)] {
        writeln!(out, "{space} translation: {:?}", trs.translation)?;
        writeln!(out, "{space} rotation (xyzw): {:?}", trs.rotation)?;
        writeln!(out, "{space} rotation (XYZ degrees): {:?}", trs.euler_xyz_degrees)?;
        writeln!(out, "{space} scale: {:?}", trs.scale)?;
    }
    Ok(())
}
