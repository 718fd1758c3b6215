//! `rigscope curves FILE --joint J [--clip C] [--format json|csv|png] [-o OUT]`: the curve
//! view's data for pipelines. JSON and CSV hold the same samples, keys and problems
//! (`inspect::CurveSet`); PNG draws the plot headless (see `curve_plot`).
//!
//! CSV is one value per row, `kind,curve,time,value,note`: `sample` rows (every curve at every
//! sample time), then `key` rows (the channel's interpolation in `note`), then `problem` rows
//! (the problem's kind and message in `note`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::curve_plot;
use super::motion_summary::MotionSummary;
use super::picture_size::parse_size;
use crate::asset::{self, Model};
use crate::export::{image_file, output};
use crate::inspect::CurveSet;
use crate::inspect::lookup::{find_clip, find_joint};
use crate::inspect::motion::analyse;

#[derive(Args, Debug)]
pub struct CurvesArgs {
    /// The model (.glb, .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh).
    pub file: PathBuf,
    /// The clip, by name or index (the first clip by default).
    #[arg(long)]
    pub clip: Option<String>,
    /// The joint (a name, a joint index as `rigscope joints` numbers them, or node:N for the
    /// file's node N).
    #[arg(long)]
    pub joint: String,
    #[arg(long, value_enum, default_value_t = CurveFormat::Json)]
    pub format: CurveFormat,
    /// Where to write (standard output without it or for -).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The PNG's size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1200x800", value_parser = parse_size)]
    pub size: (u32, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CurveFormat {
    Json,
    Csv,
    Png,
}

/// The JSON document: which file, clip and joint, the curve set, then the clip's root motion
/// and foot contacts.
#[derive(Serialize)]
struct Document<'a> {
    file: String,
    joint_name: &'a str,
    #[serde(flatten)]
    curves: &'a CurveSet,
    motion: Option<MotionSummary>,
}

pub fn run(args: &CurvesArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let model = asset::load(&args.file)?;
    let clip_index = match &args.clip {
        Some(wanted) => find_clip(&model, wanted).map_err(|e| anyhow!("--clip: {e}"))?,
        None if model.clips.is_empty() => bail!("{}: this model has no clips to plot", model.path.display()),
        None => 0,
    };
    let joint = find_joint(&model, &args.joint).map_err(|e| anyhow!("--joint: {e}"))?;
    let clip = &model.clips[clip_index];
    let motion = analyse(&model, clip_index, None);
    let set = CurveSet::new(clip, model.skeleton.rest_pose(), joint)
        .with_property_names(&model.properties)
        .with_root_motion(motion.as_ref().and_then(|m| m.root.as_ref()));
    if set.curves.is_empty() {
        eprintln!(
            "{}: clip '{}' does not animate joint '{}'",
            model.path.display(),
            clip.name(),
            model.skeleton.name(joint)
        );
    }
    match args.format {
        CurveFormat::Png => {
            let path = args
                .output
                .as_deref()
                .ok_or_else(|| anyhow!("--format png needs -o FILE.png (or -o - for standard output)"))?;
            let title = title(&model, &set);
            let image = curve_plot::plot(&set, &title, args.size)?;
            image_file::save(&image, path)
        }
        CurveFormat::Json | CurveFormat::Csv => {
            let mut text = Vec::new();
            if args.format == CurveFormat::Json {
                let document = Document {
                    file: model.path.display().to_string(),
                    joint_name: model.skeleton.name(joint),
                    curves: &set,
                    motion: motion.as_ref().map(|report| MotionSummary::new(&model, report)),
                };
                serde_json::to_writer_pretty(&mut text, &document)?;
                writeln!(text)?;
            } else {
                write_csv(&set, &mut text)?;
            }
            match &args.output {
                Some(path) if !output::is_standard_output(path) => {
                    output::write_file(path, &text).with_context(|| format!("cannot write {}", path.display()))
                }
                _ => Ok(out.write_all(&text)?),
            }
        }
    }
}

/// "Fox.glb: clip 'Survey', joint 'b_Head_05'".
fn title(model: &Model, set: &CurveSet) -> String {
    let name = crate::asset::file_name(&model.path);
    format!(
        "{name}: clip '{}', joint '{}' ({:.3} s)",
        set.clip,
        model.skeleton.name(set.joint),
        set.duration
    )
}

/// The long CSV format of the module docs.
pub fn write_csv(set: &CurveSet, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "kind,curve,time,value,note")?;
    for curve in &set.curves {
        for (time, value) in set.times.iter().zip(&curve.values) {
            writeln!(out, "sample,{},{time},{value},", curve.name)?;
        }
    }
    for curve in &set.curves {
        for key in &curve.keys {
            writeln!(
                out,
                "key,{},{},{},{}",
                curve.name, key.time, key.value, curve.interpolation
            )?;
        }
    }
    for problem in &set.problems {
        let note = format!("{}: {}", problem.kind.label(), problem.message).replace('"', "\"\"");
        writeln!(
            out,
            "problem,{},{},{},\"{note}\"",
            problem.curve, problem.time, problem.value
        )?;
    }
    Ok(())
}
