//! `rigscope convert IN... -o OUT.glb|OUT.gltf` (or `--out-dir DIR` for many): any model
//! rigscope reads, written as glTF 2.0 by `write`, with clips from other files added and the
//! clips edited on the way out (see `ClipEdits`). Every assumption or loss is a warning on
//! standard error naming the file.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;

use super::batch::{self, Input};
use super::clip_edit_args::ClipEditArgs;
use super::clips_from_args::ClipsFromArgs;
use crate::asset::{self, Format, Model};
use crate::export::output;
use crate::write::{self, Compression, WriteOptions, Written};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The models to convert (.glb, .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh); with --out-dir
    /// any number of models and directories to search.
    #[arg(required = true, value_name = "IN")]
    pub paths: Vec<PathBuf>,
    /// Where to write the one model: a .glb (one file), a .gltf (with a .bin beside it), a .vrm
    /// or a .vrma; - for a GLB on standard output (the report goes to standard error).
    #[arg(short, long, value_name = "OUT.glb", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one file per model into this directory, named after the model with the
    /// extension of --format, keeping the folders below a directory argument.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// With --out-dir: write .glb files or .gltf files with their .bin (VRM avatars and
    /// animations keep .vrm and .vrma).
    #[arg(long, value_enum, default_value_t = OutputFormat::Glb, requires = "out_dir")]
    pub format: OutputFormat,
    /// One JSON line per file instead of text.
    #[arg(long)]
    pub json: bool,
    /// Compress the meshes with EXT_meshopt_compression and KHR_mesh_quantization, as
    /// gltfpack -cc does (readers must support the extensions).
    #[arg(long, conflicts_with = "draco")]
    pub meshopt: bool,
    /// Compress the triangle meshes with KHR_draco_mesh_compression, as gltf-transform's draco
    /// command does (readers must support the extension).
    #[arg(long)]
    pub draco: bool,
    #[command(flatten)]
    pub clips_from: ClipsFromArgs,
    #[command(flatten)]
    pub edits: ClipEditArgs,
}

impl ConvertArgs {
    /// `--meshopt` or `--draco`.
    fn compression(&self) -> Compression {
        match (self.meshopt, self.draco) {
            (true, _) => Compression::Meshopt,
            (_, true) => Compression::Draco,
            _ => Compression::None,
        }
    }
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Glb,
    Gltf,
}

/// What is said of each file converted.
#[derive(Serialize)]
struct Converted {
    output: String,
    bytes: u64,
    clips: usize,
    warnings: Vec<String>,
    /// What the clip edits did (key reduction's counts, trims), one sentence each.
    edits: Vec<String>,
}

pub fn run(args: &ConvertArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let Some(out_dir) = &args.out_dir else {
        let ([input], Some(output)) = (&args.paths[..], &args.output) else {
            bail!("expected IN -o OUT.glb (or several models with --out-dir DIR)");
        };
        let converted = convert(input, output, args)?;
        // Standard output holds the GLB: the report goes beside the warnings.
        if output::is_standard_output(output) {
            return report(&mut std::io::stderr(), input, Ok(converted), args.json);
        }
        return report(out, input, Ok(converted), args.json);
    };
    std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let inputs = batch::expand(&args.paths);
    let job = |(): &mut (), input: &Input| {
        let output = output_path(out_dir, input, args.format);
        if let Some(folder) = output.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        }
        convert(&input.path, &output, args)
    };
    let failed = batch::run(
        &inputs,
        || Ok(()),
        job,
        |input, result| report(out, &input.path, result, args.json),
    )?;
    batch::finish(inputs.len(), failed, "converted")
}

/// Converts one model.
fn convert(input: &Path, output: &Path, args: &ConvertArgs) -> anyhow::Result<Converted> {
    let mut model = asset::load(input)?;
    let before = model.clips.len();
    args.clips_from.apply(&mut model)?;
    let added = model.clips.len() - before;
    let edits = args.edits.apply(&mut model, added)?;
    let options = WriteOptions {
        compression: args.compression(),
        ..WriteOptions::default()
    };
    let written = match output::is_standard_output(output) {
        true => glb_to_standard_output(&model, &options)?,
        false => write::save(&model, output, &options)?,
    };
    Ok(converted(&model, written, edits))
}

/// Writes `model` as one GLB to standard output (`-o -`).
fn glb_to_standard_output(model: &Model, options: &WriteOptions) -> anyhow::Result<Written> {
    let stdout = Path::new(output::STANDARD_OUTPUT);
    output::refuse_binary_on_terminal(stdout, "a GLB")?;
    let (glb, warnings) = write::to_glb(model, options)?;
    output::write_file(stdout, &glb).context("cannot write to standard output")?;
    Ok(Written {
        files: vec![stdout.to_path_buf()],
        bytes: glb.len() as u64,
        warnings,
    })
}

fn converted(model: &Model, written: Written, edits: Vec<String>) -> Converted {
    Converted {
        output: written.files[0].display().to_string(),
        bytes: written.bytes,
        clips: model.clips.len(),
        warnings: written.warnings,
        edits,
    }
}

/// Writes what became of `input`: a line of text (the warnings and edits on standard error)
/// or a JSON line.
fn report(out: &mut dyn Write, input: &Path, result: anyhow::Result<Converted>, json: bool) -> anyhow::Result<()> {
    if json {
        let input = Input {
            path: input.to_owned(),
            relative: PathBuf::new(),
        };
        return batch::write_json_line(out, &input, result);
    }
    let converted = match result {
        Ok(converted) => converted,
        Err(error) => {
            eprintln!("rigscope: {error:#}");
            return Ok(());
        }
    };
    for edit in &converted.edits {
        eprintln!("rigscope: {}: {edit}", input.display());
    }
    for warning in &converted.warnings {
        eprintln!("rigscope: {}: warning: {warning}", input.display());
    }
    writeln!(
        out,
        "{} -> {} ({} bytes, {})",
        input.display(),
        converted.output,
        converted.bytes,
        crate::view::counted(converted.clips, "clip", "clips")
    )?;
    Ok(())
}

/// Where `--out-dir` puts the conversion of `input`: its path below the directory given,
/// with the extension of `format` (a VRM avatar or animation keeps its own).
fn output_path(out_dir: &Path, input: &Input, format: OutputFormat) -> PathBuf {
    let extension = match (Format::from_extension(&input.path), format) {
        (Some(Format::Vrm), _) => "vrm",
        (Some(Format::VrmAnimation), _) => "vrma",
        (_, OutputFormat::Glb) => "glb",
        (_, OutputFormat::Gltf) => "gltf",
    };
    out_dir.join(&input.relative).with_extension(extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_keep_the_folders_and_vrm_files_stay_vrm() {
        let input = |relative: &str| Input {
            path: PathBuf::from("/in").join(relative),
            relative: relative.into(),
        };
        let out = Path::new("/out");
        assert_eq!(
            output_path(out, &input("chars/Fox.fbx"), OutputFormat::Glb),
            Path::new("/out/chars/Fox.glb")
        );
        assert_eq!(
            output_path(out, &input("a.obj"), OutputFormat::Gltf),
            Path::new("/out/a.gltf")
        );
        assert_eq!(
            output_path(out, &input("avatar.vrm"), OutputFormat::Glb),
            Path::new("/out/avatar.vrm")
        );
        assert_eq!(
            output_path(out, &input("wave.vrma"), OutputFormat::Gltf),
            Path::new("/out/wave.vrma")
        );
    }
}
