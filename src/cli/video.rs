//! `rigscope video [FILE] -o OUT [--clip C] [--from S --to S] [--fps N] [--size WxH]
//! [--turntable[=SECONDS]]`: a clip as an MP4 (H.264), an animated GIF, an animated PNG or a
//! numbered PNG sequence (see `export::video_file`), each frame drawn by the still renderer exactly as `render`
//! draws that moment, all framed alike on the whole clip. A progress bar shows on a
//! terminal.

use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, ValueEnum};

use super::camera_args::CameraArgs;
use super::in_place_args::InPlaceArgs;
use super::lighting_args::LightingArgs;
use super::picture_size::parse_size;
use super::progress::Progress;
use super::render::{headless_renderer, simplify_dense_meshes};
use crate::anim::avatar::SpringReplay;
use crate::anim::{Animator, Playback, Pose};
use crate::asset::demo::demo_model;
use crate::asset::{self, Model};
use crate::export::frame_plan::FramePlan;
use crate::export::video_file::{VideoFile, VideoKind};
use crate::inspect::lookup::find_clip;
use crate::render::still::{StillRenderer, Viewpoint};
use crate::view::ViewOptions;

#[derive(Args, Debug)]
pub struct VideoArgs {
    /// The model; without one, the built-in demo rig.
    pub file: Option<PathBuf>,
    /// Where to write: NAME.mp4 (H.264 video), NAME.gif (animated GIF), NAME.png or NAME.apng
    /// (animated PNG), or a directory (existing, or a name without an extension) for
    /// frame_0001.png, ...; - for standard output, with --format gif or apng.
    #[arg(short, long)]
    pub output: PathBuf,
    /// The kind of video, instead of the one -o's name says (needed for -o -).
    #[arg(long, value_enum)]
    pub format: Option<VideoFormat>,
    /// The clip, by name or index [default: the first].
    #[arg(long)]
    pub clip: Option<String>,
    /// Clip time of the first frame, in seconds.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub from: f32,
    /// Clip time where the video ends, in seconds [default: the clip's end].
    #[arg(long, allow_negative_numbers = true)]
    pub to: Option<f32>,
    /// Frames per second (1 to 120; a GIF at most 50).
    #[arg(long, default_value_t = 25)]
    pub fps: u32,
    /// Frame size in pixels, WIDTHxHEIGHT (1 to 8192 a side; an MP4 at most 3840x2160).
    #[arg(long, default_value = "480x360", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Turn the camera once around the model: over the clip, or over SECONDS while the clip
    /// loops.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, require_equals = true)]
    pub turntable: Option<Option<f32>>,
    /// Draw the skeleton over the mesh.
    #[arg(long)]
    pub skeleton: bool,
    /// Draw the triangle edges.
    #[arg(long)]
    pub wireframe: bool,
    /// Leave out the ground, its grid and the shadow.
    #[arg(long)]
    pub no_grid: bool,
    /// Leave a VRM avatar's spring bones (hair, skirts, tails) at rest instead of swinging
    /// them along the motion from the first frame.
    #[arg(long)]
    pub no_springs: bool,
    #[command(flatten)]
    pub in_place: InPlaceArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub lighting: LightingArgs,
}

/// `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VideoFormat {
    /// H.264 in an MP4 (not to standard output: its index follows the frames).
    Mp4,
    /// An animated GIF.
    Gif,
    /// An animated PNG.
    Apng,
    /// A folder of numbered PNGs (not to standard output).
    PngSequence,
}

impl From<VideoFormat> for VideoKind {
    fn from(format: VideoFormat) -> Self {
        match format {
            VideoFormat::Mp4 => VideoKind::Mp4,
            VideoFormat::Gif => VideoKind::Gif,
            VideoFormat::Apng => VideoKind::Apng,
            VideoFormat::PngSequence => VideoKind::Sequence,
        }
    }
}

pub fn run(args: &VideoArgs) -> anyhow::Result<()> {
    let mut model = match &args.file {
        Some(file) => asset::load(file)?,
        None => demo_model(),
    };
    let clip = match &args.clip {
        Some(wanted) => Some(find_clip(&model, wanted)?),
        None => (!model.clips.is_empty()).then_some(0),
    };
    let plan = plan(args, &model, clip)?;
    let viewpoint = args.camera.viewpoint(&model)?;
    if plan.turntable && matches!(viewpoint, Viewpoint::FileCamera(_)) {
        bail!("--turntable turns the orbit camera; it cannot follow a file's --camera");
    }
    // The file first: a bad output path fails before any rendering.
    let kind = args
        .format
        .map_or_else(|| VideoKind::of(&args.output), |format| Ok(format.into()))?;
    let mut video = VideoFile::create_as(&args.output, kind, args.size, plan)?;
    let (gpu, mut renderer) = headless_renderer(args.size, args.lighting.environment_image()?.as_ref())?;
    let view = ViewOptions {
        skeleton: args.skeleton || model.instances.is_empty(),
        wireframe: args.wireframe,
        grid: !args.no_grid,
        lighting: args.lighting.lighting(&model),
        gpu_skinning: ViewOptions::gpu_skinning_for(gpu.is_software(), false),
        ..ViewOptions::default()
    };
    simplify_dense_meshes(&mut model, args.size, &view, viewpoint);
    let in_place = args.in_place.for_clip(&model, clip)?;
    let mut still = StillRenderer::new(&gpu, &renderer, &model);
    still.in_place = in_place;
    still.frame_clip(clip);
    // As `render` poses a moment: the clip alone, clamped to its ends.
    let mut animator = Animator::new(clip);
    animator.mode = Playback::Once;
    let rest = model.skeleton.rest_pose();
    let mut pose = rest.clone();
    // Spring bones start at rest at the first frame and swing on from there, in fixed steps.
    let mut pose_after = |elapsed: f32, out: &mut Pose| {
        animator.crossfade.set_time(plan.clip_time_after(elapsed));
        animator.pose(&model.clips, rest, out);
        model.apply_node_constraints(out, &mut Vec::new());
    };
    pose_after(0.0, &mut pose);
    let springs = &model.spring_bones;
    let mut replay = (!args.no_springs && !springs.is_empty()).then(|| SpringReplay::new(springs, rest, &pose));
    let progress = Progress::new(plan.frames as usize);
    for frame in 0..plan.frames {
        let time = plan.clip_time(frame);
        let elapsed = frame as f32 / plan.fps as f32;
        match &mut replay {
            Some(replay) => replay.pose_to(springs, elapsed, &mut pose_after, &mut pose),
            None => pose_after(elapsed, &mut pose),
        }
        // After the springs, which swing with the travel.
        if let Some(in_place) = in_place {
            still.ground_slide = in_place.apply(&mut pose);
        }
        still.viewpoint = turned(viewpoint, plan.turn(frame));
        still.time = elapsed;
        let image = still.render(&mut renderer, &pose, args.size, &view)?;
        video.push(image)?;
        progress.done(format_args!("frame {} at {time:.2} s", frame + 1));
    }
    video.finish()
}

/// The frames `args` ask for of `clip` of `model`.
fn plan(args: &VideoArgs, model: &Model, clip: Option<usize>) -> anyhow::Result<FramePlan> {
    let clip = clip.and_then(|c| model.clips.get(c));
    let seconds = args.turntable.flatten();
    let file = model.path.display();
    let Some(clip) = clip else {
        if seconds.is_none() {
            bail!("{file}: the model has no clips: give --turntable SECONDS to turn around its rest pose");
        }
        return FramePlan::new((0.0, 0.0), args.fps, seconds, true);
    };
    let duration = clip.duration();
    let to = args.to.unwrap_or(duration);
    // A little slack: durations print rounded.
    if to > duration + 1e-3 {
        bail!("--to {to} is past the end of clip '{}' ({duration} s)", clip.name());
    }
    FramePlan::new((args.from, to), args.fps, seconds, args.turntable.is_some())
}

/// `viewpoint` turned `turn` radians further about the vertical axis.
fn turned(viewpoint: Viewpoint, turn: f32) -> Viewpoint {
    match viewpoint {
        Viewpoint::Orbit(mut angles) => {
            angles.azimuth += turn;
            Viewpoint::Orbit(angles)
        }
        file_camera => file_camera,
    }
}
