//! Headless commands. They use the same loading, animation and skinning code as the viewer,
//! so their output is what the viewer shows.

pub mod batch;
mod camera_args;
mod clip_args;
mod clip_edit_args;
mod clips_from_args;
mod compare_args;
mod convert;
mod crowd_args;
mod curve_plot;
mod curves;
mod desktop;
mod desktop_files;
mod diff;
mod expression_args;
mod extension_report;
mod ik_args;
mod image_report;
mod in_place_args;
mod inspect;
mod inspect_avatar;
mod inspect_decoded;
mod joints;
pub(crate) mod launch;
pub(crate) mod licenses;
mod lighting_args;
mod lint;
mod metainfo;
mod morph_args;
mod motion_summary;
mod package_data;
mod picture_size;
pub(crate) mod pose;
mod progress;
pub mod render;
mod sheet;
mod shell_docs;
mod text;
mod thumbnail;
mod trail_args;
mod variant_args;
mod video;
mod view_args;

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::anim::Playback;
use crate::skin::SkinningMethod;
use crate::view::{Quality, ViewerOptions};
pub use clip_args::{ClipArgs, Posed};
pub use clips_from_args::ClipsFromArgs;
pub use diff::exit_status;

#[derive(Parser, Debug)]
#[command(
    name = "rigscope",
    version,
    about = "Look at skinned, animated 3D models (glTF 2.0 and VRM, FBX, OBJ, Doom 3 MD5)"
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open this model in the viewer (without one, the built-in demo rig).
    pub file: Option<PathBuf>,
    /// Save a screenshot of the window after N frames to PATH, then exit (for tests).
    #[arg(long, num_args = 2, value_names = ["N", "PATH"])]
    pub screenshot_after_frames: Option<Vec<String>>,
    /// Draw N frames after a warm-up, print their median and 95th-percentile times as JSON,
    /// then exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub benchmark_frames: Option<u32>,
    #[command(flatten)]
    pub crowd: crowd_args::CrowdArgs,
    /// Close the window after this many seconds and print what was drawn as JSON (frames,
    /// seconds of clip time played), for tests and scripts.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_to_run)]
    pub exit_after: Option<std::time::Duration>,
    /// Open with playback paused.
    #[arg(long)]
    pub paused: bool,
    /// Print the licences of rigscope and of every crate and C or C++ library compiled into it,
    /// then exit.
    #[arg(long)]
    pub licenses: bool,
    /// Select this joint at start, as clicking it would (a name, a joint index as `rigscope
    /// joints` numbers them, or node:N for the file's node N).
    #[arg(long, value_name = "JOINT")]
    pub select: Option<String>,
    /// Open with the curve view shown (G toggles it).
    #[arg(long)]
    pub curves: bool,
    /// Open with the clip played in place: its travel taken out, the ground sliding under it.
    #[arg(long)]
    pub in_place: bool,
    /// Open with the root's path and the feet's contacts drawn on the ground and under the
    /// timeline.
    #[arg(long)]
    pub motion: bool,
    /// What the renderer spends per frame [default: fast on a software renderer such as
    /// llvmpipe, best on a GPU].
    #[arg(long, value_enum)]
    pub quality: Option<QualityArg>,
    #[command(flatten)]
    pub lighting: lighting_args::LightingArgs,
    #[command(flatten)]
    pub morph: morph_args::MorphArgs,
    #[command(flatten)]
    pub expression: expression_args::ExpressionArgs,
    #[command(flatten)]
    pub clips_from: ClipsFromArgs,
    #[command(flatten)]
    pub variant: variant_args::VariantArgs,
    #[command(flatten)]
    pub compare: compare_args::CompareArgs,
}

/// `--exit-after`: a number of seconds, more than 0 and at most a day.
fn seconds_to_run(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!("{text} s is not between 0 and a day"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarise a model: nodes, skins, meshes, influences, clips, morph targets, extensions,
    /// and what the loader had to repair.
    Inspect {
        /// Models (.glb, .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh), or directories to search for them; several are
        /// processed in parallel.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print JSON instead of text: one object for one file, one line per file for several.
        #[arg(long)]
        json: bool,
    },
    /// Check rigs for problems (weights, inverse bind matrices, bind pose, scale, rotation keys,
    /// loop seams); exit status 1 when any model has errors.
    Lint {
        /// Models (.glb, .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh), or directories to search for them; several are
        /// linted in parallel.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON line per file instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The joint hierarchy with each joint's skins, the vertices it moves and whether the clip
    /// animates it; with --joint, one joint's local and world transform and bone length.
    Joints(joints::JointsArgs),
    /// Write the posed model (after morphing and skinning) in world space; without --clip, the
    /// rest pose.
    Pose(pose::PoseArgs),
    /// Render the model to a PNG with the viewer's renderer, without a window; without --clip,
    /// its first clip.
    Render(Box<render::RenderArgs>),
    /// A square thumbnail PNG of a model (its first clip at its widest pose; the skeleton for
    /// files without meshes); with --out-dir, of many models and directories in parallel.
    Thumbnail(thumbnail::ThumbnailArgs),
    /// A contact sheet PNG: one row per clip, N frames across, labelled with names and times.
    Sheet(sheet::SheetArgs),
    /// A clip as an MP4 (H.264), an animated GIF, an animated PNG or a numbered PNG sequence,
    /// optionally on a turntable.
    Video(video::VideoArgs),
    /// Write models as glTF 2.0 (.glb, or .gltf with its .bin): any model rigscope reads, with
    /// clips from other files added and clips kept, renamed, trimmed, resampled or key-reduced.
    Convert(convert::ConvertArgs),
    /// What changed from one version of a rig to another: joints, rest pose and binds, meshes,
    /// weights, morph targets, materials and clips, with numbers; exit status 0 when nothing
    /// differs beyond tolerance, 1 when something does, 2 when the files cannot be compared.
    Diff(diff::DiffArgs),
    /// A joint's animation curves over a clip (translation, Euler and quaternion rotation,
    /// scale, morph weights), its keys and the problems on them (sign flips, pops, open loop
    /// seams), as JSON, CSV or a PNG plot.
    Curves(curves::CurvesArgs),
    /// Register rigscope with the Linux desktop: application entry, icon, MIME types for .glb,
    /// .gltf, .vrm, .vrma, .fbx, .obj, .md5mesh and .md5anim, and a thumbnailer.
    InstallDesktop(desktop::DesktopArgs),
    /// Remove exactly what install-desktop installed.
    UninstallDesktop(desktop::DesktopArgs),
    /// The manual page (roff, for man), made from these commands' own help.
    Man {
        /// Write a page per command (rigscope.1, rigscope-render.1, ...) into this folder
        /// instead of printing rigscope's.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
    /// Everything a package installs under /usr/share, below DIR: the desktop entry, icons, MIME
    /// types, thumbnailer, AppStream metainfo, manual pages and bash, zsh and fish completions.
    PackageData {
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
    },
    /// The completion script for a shell (bash, zsh, fish, elvish or powershell).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// How skinned vertices blend their joints (see `skin::SkinningMethod`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SkinMethodArg {
    /// Linear blend skinning.
    Linear,
    /// Dual-quaternion skinning (keeps volume at twisting joints).
    DualQuaternion,
}

impl From<SkinMethodArg> for SkinningMethod {
    fn from(arg: SkinMethodArg) -> Self {
        match arg {
            SkinMethodArg::Linear => SkinningMethod::Linear,
            SkinMethodArg::DualQuaternion => SkinningMethod::DualQuaternion,
        }
    }
}

/// `--quality` (see `view::Quality`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum QualityArg {
    /// No antialiasing, the 3D view at half its width and height scaled up, a hard-edged
    /// shadow: for software renderers.
    Fast,
    /// No antialiasing, full resolution, a lightly filtered shadow.
    Balanced,
    /// 4x antialiasing, full resolution, a 2048² shadow map with wide soft filtering.
    Best,
}

impl From<QualityArg> for Quality {
    fn from(arg: QualityArg) -> Self {
        match arg {
            QualityArg::Fast => Quality::Fast,
            QualityArg::Balanced => Quality::Balanced,
            QualityArg::Best => Quality::Best,
        }
    }
}

/// How `--time` maps onto a clip (see `anim::Playback`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PlaybackArg {
    /// Clamp to the clip: before 0 is the first frame, past the end the last.
    Once,
    /// Wrap around at the end of the clip.
    Loop,
    /// Play forwards then backwards.
    Pingpong,
}

impl From<PlaybackArg> for Playback {
    fn from(arg: PlaybackArg) -> Self {
        match arg {
            PlaybackArg::Once => Playback::Once,
            PlaybackArg::Loop => Playback::Loop,
            PlaybackArg::Pingpong => Playback::PingPong,
        }
    }
}

impl Cli {
    /// What the viewer opens with, from the options given without a command.
    pub fn viewer_options(self) -> anyhow::Result<ViewerOptions> {
        let screenshot = match self.screenshot_after_frames.as_deref() {
            Some([frames, path]) => {
                let frames = frames
                    .parse()
                    .map_err(|_| anyhow::anyhow!("--screenshot-after-frames: '{frames}' is not a frame count"))?;
                Some((frames, PathBuf::from(path)))
            }
            _ => None,
        };
        Ok(ViewerOptions {
            file: self.file,
            screenshot,
            benchmark_frames: self.benchmark_frames.map(|n| n as usize),
            crowd: self.crowd.options(),
            lights: self.lighting.lights(),
            lighting: self.lighting.lighting_of_any_model(),
            environment: self.lighting.environment,
            quality: self.quality.map(Quality::from),
            paused: self.paused,
            select: self.select,
            curves: self.curves,
            in_place: self.in_place,
            motion: self.motion,
            exit_after: self.exit_after,
            morph: self.morph.morph,
            expression: self.expression.expression,
            look_at: self.expression.look_at,
            clips_from: self.clips_from.clips_from,
            variant: self.variant.variant,
            compare: self.compare.compare,
            compare_layout: self.compare.compare_layout.into(),
        })
    }
}

/// Runs a headless command, writing its results to `out`.
pub fn run(command: Command, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        Command::Inspect { files, json } => inspect::run(&files, json, out),
        Command::Lint { files, json } => lint::run(&files, json, out),
        Command::Joints(args) => joints::run(&args, out),
        Command::Pose(args) => pose::run(&args, out),
        Command::Render(args) => render::run(&args),
        Command::Thumbnail(args) => thumbnail::run(&args),
        Command::Sheet(args) => sheet::run(&args),
        Command::Video(args) => video::run(&args),
        Command::Curves(args) => curves::run(&args, out),
        Command::Convert(args) => convert::run(&args, out),
        Command::Diff(args) => diff::run(&args, out),
        Command::InstallDesktop(args) => desktop::install(&args, out),
        Command::UninstallDesktop(args) => desktop::uninstall(&args, out),
        Command::Man { out_dir } => shell_docs::man(out_dir.as_deref(), out),
        Command::PackageData { out_dir } => package_data::run(&out_dir, out),
        Command::Completions { shell } => {
            shell_docs::completions(shell, out);
            Ok(())
        }
    }
}
