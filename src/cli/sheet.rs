//! `rigscope sheet [FILE] -o sheet.png [--frames N] [--cell PIXELS]`: a contact sheet, one row
//! per clip and N frames across from its first to its last frame, each row titled with the
//! clip's name and duration and each frame labelled with its time. Every frame of a row is
//! framed on the whole clip, so the motion reads across the row.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::camera_args::CameraArgs;
use super::clips_from_args::ClipsFromArgs;
use super::in_place_args::InPlaceArgs;
use super::lighting_args::LightingArgs;
use super::picture_size::{MAX_SIDE, out_of_range};
use super::render::{headless_renderer, simplify_dense_meshes};
use super::text::{TextPainter, filled};
use crate::anim::Pose;
use crate::anim::avatar::SpringReplay;
use crate::asset::demo::demo_model;
use crate::asset::{self, Model};
use crate::export::image_file;
use crate::render::still::{StillRenderer, Viewpoint};
use crate::render::{Gpu, SceneRenderer};
use crate::view::ViewOptions;
use crate::view::counted;

#[derive(Args, Debug)]
pub struct SheetArgs {
    /// The model; without one, the built-in demo rig.
    pub file: Option<PathBuf>,
    /// Where to write the PNG (- for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Frames per clip, from its first frame to its last.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub frames: u32,
    /// Width and height of each frame in pixels.
    #[arg(long, default_value_t = 192, value_parser = clap::value_parser!(u32).range(32..=1024))]
    pub cell: u32,
    #[command(flatten)]
    pub clips_from: ClipsFromArgs,
    #[command(flatten)]
    pub in_place: InPlaceArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub lighting: LightingArgs,
}

const BACKGROUND: [u8; 3] = [24, 26, 30];
const TITLE_COLOR: [u8; 3] = [235, 235, 235];
const TIME_COLOR: [u8; 3] = [170, 175, 185];
const MARGIN: u32 = 8;

pub fn run(args: &SheetArgs) -> anyhow::Result<()> {
    let mut model = match &args.file {
        Some(file) => asset::load(file)?,
        None => demo_model(),
    };
    args.clips_from.apply(&mut model)?;
    let (gpu, mut renderer) = headless_renderer((args.cell, args.cell), args.lighting.environment_image()?.as_ref())?;
    if model.clips.is_empty() {
        eprintln!(
            "{}: the model has no clips, so the sheet shows its rest pose once",
            model.path.display()
        );
    }
    let view = ViewOptions {
        skeleton: model.instances.is_empty(),
        lighting: args.lighting.lighting(&model),
        gpu_skinning: ViewOptions::gpu_skinning_for(gpu.is_software(), false),
        ..ViewOptions::default()
    };
    let viewpoint = args.camera.viewpoint(&model)?;
    let cell = (args.cell, args.cell);
    simplify_dense_meshes(&mut model, cell, &view, viewpoint);
    let sheet = contact_sheet(
        &gpu,
        &mut renderer,
        &model,
        (args.frames, args.cell),
        (&view, viewpoint, args.in_place),
    )?;
    image_file::save(&sheet, &args.output)
}

/// The sheet as an image, `frames` per clip of `cell` pixels, drawn as `view` says from
/// `viewpoint`, each clip played in place when `in_place` asks: a title, then a row per clip
/// (the rest pose for a model without clips, drawn once).
pub fn contact_sheet(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    model: &Model,
    (frames, cell): (u32, u32),
    (view, viewpoint, in_place): (&ViewOptions, Viewpoint, InPlaceArgs),
) -> anyhow::Result<image::RgbaImage> {
    // Without clips every frame would be the same rest pose: draw it once.
    let frames = if model.clips.is_empty() { 1 } else { frames };
    let text = TextPainter::new();
    let title_size = (cell as f32 * 0.12).clamp(14.0, 28.0);
    let label_size = (cell as f32 * 0.08).clamp(11.0, 18.0);
    let (title_height, label_height) = (title_size.ceil() as u32 + MARGIN, label_size.ceil() as u32 + MARGIN / 2);
    let row_height = title_height + cell + label_height;
    let rows = model.clips.len().max(1) as u32;
    let width = MARGIN + frames * (cell + MARGIN);
    let height = title_height + MARGIN + rows * (row_height + MARGIN);
    if width > MAX_SIDE || height > MAX_SIDE {
        bail!(
            "{}: a sheet of {rows} clips by {frames} frames of {cell} pixels would be {}",
            model.path.display(),
            out_of_range(&format!("{width}x{height}"))
        );
    }
    let mut sheet = filled(width, height, BACKGROUND);
    let name = crate::asset::file_name(&model.path);
    let heading = format!(
        "{name}: {}, {}",
        counted(model.clips.len(), "clip", "clips"),
        counted(model.skeleton.len(), "joint", "joints")
    );
    let max_width = (width - 2 * MARGIN) as f32;
    text.draw(
        &mut sheet,
        &heading,
        (MARGIN as f32, MARGIN as f32 / 2.0),
        title_size,
        max_width,
        TITLE_COLOR,
    );

    let mut still = StillRenderer::new(gpu, renderer, model);
    still.viewpoint = viewpoint;
    let mut pose = model.skeleton.rest_pose().clone();
    for row in 0..rows {
        let clip = model.clips.get(row as usize);
        let top = title_height + MARGIN + row * (row_height + MARGIN);
        let title = clip.map_or_else(
            || "rest pose (no clips)".to_owned(),
            |c| format!("{}  ({:.2} s)", c.name(), c.duration()),
        );
        text.draw(
            &mut sheet,
            &title,
            (MARGIN as f32, top as f32),
            title_size,
            max_width,
            TITLE_COLOR,
        );
        let clip_index = clip.map(|_| row as usize);
        let row_in_place = if clip.is_some() {
            in_place.for_clip(model, clip_index)?
        } else {
            None
        };
        still.in_place = row_in_place;
        still.frame_clip(clip_index);
        let mut cursor = clip.map(|c| c.cursor());
        // From the rest pose each time: a clip leaves the joints it does not animate alone.
        let rest = model.skeleton.rest_pose();
        let mut pose_at = |time: f32, out: &mut Pose| {
            out.copy_from(rest);
            if let Some((clip, cursor)) = clip.zip(cursor.as_mut()) {
                clip.sample(time, out, cursor);
            }
            model.apply_node_constraints(out, &mut Vec::new());
        };
        // Spring bones swing along each clip from its start, as `render` shows them.
        pose_at(0.0, &mut pose);
        let springs = &model.spring_bones;
        let mut replay = (!springs.is_empty()).then(|| SpringReplay::new(springs, rest, &pose));
        for frame in 0..frames {
            let time = match clip {
                Some(clip) if frames > 1 => clip.duration() * frame as f32 / (frames - 1) as f32,
                _ => 0.0,
            };
            match &mut replay {
                Some(replay) => replay.pose_to(springs, time, &mut pose_at, &mut pose),
                None => pose_at(time, &mut pose),
            }
            // After the springs, which swing with the travel.
            if let Some(row_in_place) = row_in_place {
                still.ground_slide = row_in_place.apply(&mut pose);
            }
            still.time = time;
            let image = still.render(renderer, &pose, (cell, cell), view)?;
            let (x, y) = (MARGIN + frame * (cell + MARGIN), top + title_height);
            image::imageops::replace(&mut sheet, &image, x as i64, y as i64);
            let label = format!("{time:.2} s");
            let label_x = x as f32 + (cell as f32 - text.width(&label, label_size)) / 2.0;
            let label_y = (y + cell) as f32 + 2.0;
            text.draw(
                &mut sheet,
                &label,
                (label_x, label_y),
                label_size,
                cell as f32,
                TIME_COLOR,
            );
        }
    }
    Ok(sheet)
}
