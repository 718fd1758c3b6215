//! `rigscope thumbnail FILE -o OUT.png [--size N]`, and `rigscope thumbnail FILE|DIR...
//! --out-dir DIR` for many: a square, framed, lit picture of a model for file managers (the
//! `.thumbnailer` entry calls the first form) and for catalogues.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;

use super::batch::{self, Input};
use super::camera_args::CameraArgs;
use super::lighting_args::LightingArgs;
use super::picture_size::parse_side;
use super::render::{headless_renderer, joined, simplify_dense_meshes};
use crate::anim::{Clip, joint_extent};
use crate::asset::{self, Model};
use crate::export::image_file;
use crate::render::still::StillRenderer;
use crate::render::{Gpu, SceneRenderer};
use crate::view::ViewOptions;

#[derive(Args, Debug)]
pub struct ThumbnailArgs {
    /// The model, or with --out-dir any number of models and directories to search.
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
    /// Where to write the PNG of one model (as `render -o` does; - for standard output).
    /// `thumbnail FILE OUT.png`, the older spelling, still works.
    #[arg(short, long, value_name = "OUT.png", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one PNG per model into this directory, named after the model file with `.png`
    /// added, keeping the folders below a directory argument.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Width and height in pixels (1 to 8192).
    #[arg(long, default_value_t = 256, value_parser = parse_side)]
    pub size: u32,
    /// With --out-dir: one JSON line per file instead of text.
    #[arg(long, requires = "out_dir")]
    pub json: bool,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub lighting: LightingArgs,
}

/// What a batch reports per file.
#[derive(Serialize)]
struct Written {
    thumbnail: String,
    clip: Option<String>,
    time: f32,
}

pub fn run(args: &ThumbnailArgs) -> anyhow::Result<()> {
    let Some(out_dir) = &args.out_dir else {
        let (file, output) = match (&args.paths[..], &args.output) {
            ([file], Some(output)) => (file, output),
            ([file, output], None) => {
                eprintln!("rigscope: note: `thumbnail FILE OUT.png` is deprecated; write `thumbnail FILE -o OUT.png`");
                (file, output)
            }
            _ => bail!("expected FILE -o OUT.png (or several files with --out-dir DIR)"),
        };
        let environment = args.lighting.environment_image()?;
        // The device is set up while the model loads (see `headless_renderer`).
        let (model, started) = std::thread::scope(|scope| {
            let renderer = scope.spawn(|| headless_renderer((args.size, args.size), environment.as_ref()));
            (asset::load(file), joined(renderer))
        });
        let model = model?;
        let (gpu, mut renderer) = started?;
        thumbnail(&gpu, &mut renderer, model, output, args)?;
        return Ok(());
    };
    std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let mut gpu = Gpu::headless()?;
    gpu.fit_textures_to((args.size, args.size));
    let inputs = batch::expand(&args.paths);
    // Two inputs may want the same name (x/Fox.glb and y/Fox.glb given as files): the first
    // keeps it, the others fail rather than overwrite it.
    let mut owners: HashMap<PathBuf, &Path> = HashMap::new();
    for input in &inputs {
        owners.entry(thumbnail_path(out_dir, input)).or_insert(&input.path);
    }
    let job = |renderer: &mut SceneRenderer, input: &Input| {
        let output = thumbnail_path(out_dir, input);
        let owner = owners.get(&output).copied().unwrap_or(&input.path);
        if owner != input.path {
            bail!(
                "{}: its thumbnail {} would overwrite that of {}",
                input.path.display(),
                output.display(),
                owner.display()
            );
        }
        if let Some(folder) = output.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        }
        thumbnail(&gpu, renderer, asset::load(&input.path)?, &output, args)
    };
    let mut out = std::io::stdout().lock();
    let report = |input: &Input, result: anyhow::Result<Written>| {
        if args.json {
            return batch::write_json_line(&mut out, input, result);
        }
        match result {
            Ok(written) => writeln!(out, "{} -> {}", input.path.display(), written.thumbnail)?,
            Err(error) => eprintln!("rigscope: {error:#}"),
        }
        Ok(())
    };
    let environment = args.lighting.environment_image()?;
    let size = (args.size, args.size);
    let new_renderer = || Ok(SceneRenderer::for_picture(&gpu, environment.as_ref(), size));
    let failed = batch::run(&inputs, new_renderer, job, report)?;
    batch::finish(inputs.len(), failed, "made thumbnails of")
}

/// Where a batch writes `input`'s thumbnail: its path below the directory it was found in (or
/// its file name), with `.png` added, so `Fox.glb` and `Fox.gltf` do not collide.
fn thumbnail_path(out_dir: &Path, input: &Input) -> PathBuf {
    let mut name = out_dir.join(&input.relative).into_os_string();
    name.push(".png");
    PathBuf::from(name)
}

/// Renders `model`'s thumbnail to `output` at `args`' size and lighting: its first clip at its
/// most spread-out moment (the rest pose without clips), or the skeleton when the file has no
/// meshes.
fn thumbnail(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    mut model: Model,
    output: &Path,
    args: &ThumbnailArgs,
) -> anyhow::Result<Written> {
    let clip = (!model.clips.is_empty()).then_some(0);
    let time = clip.map_or(0.0, |c| representative_time(&model, &model.clips[c]));
    let mut pose = model.skeleton.rest_pose().clone();
    if let Some(c) = clip {
        let clip = &model.clips[c];
        clip.sample(time, &mut pose, &mut clip.cursor());
    }
    let view = ViewOptions {
        grid: false,
        skeleton: model.instances.is_empty(),
        lighting: args.lighting.lighting(&model),
        gpu_skinning: ViewOptions::gpu_skinning_for(gpu.is_software(), false),
        ..ViewOptions::default()
    };
    let viewpoint = args.camera.viewpoint(&model)?;
    let size = (args.size, args.size);
    simplify_dense_meshes(&mut model, size, &view, viewpoint);
    let mut still = StillRenderer::new(gpu, renderer, &model);
    still.viewpoint = viewpoint;
    still.frame_clip(clip);
    let image = still.render(renderer, &pose, size, &view)?;
    image_file::save(&image, output)?;
    Ok(Written {
        thumbnail: output.display().to_string(),
        clip: clip.map(|c| model.clips[c].name().to_owned()),
        time,
    })
}

/// The time in `clip` when the joints spread widest (largest bounding box diagonal), among 16
/// evenly spaced times: mid-stride for a walk, arms out for a wave. Shows more of a rig than
/// its first frame, which is often a neutral pose.
fn representative_time(model: &Model, clip: &Clip) -> f32 {
    const SAMPLES: usize = 16;
    let mut pose = model.skeleton.rest_pose().clone();
    let mut matrices = vec![glam::Mat4::IDENTITY; pose.len()];
    let mut cursor = clip.cursor();
    let mut best = (0.0, f32::NEG_INFINITY);
    for step in 0..SAMPLES {
        let time = clip.duration() * step as f32 / SAMPLES as f32;
        clip.sample(time, &mut pose, &mut cursor);
        pose.model_matrices(&mut matrices);
        let spread = joint_extent(&matrices);
        if spread > best.1 {
            best = (time, spread);
        }
    }
    best.0
}
