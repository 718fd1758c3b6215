//! Headless commands. They use the same loading, animation and skinning code as the viewer,
//! so their output is what the viewer shows.

mod inspect;
mod pose;
pub mod render;

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::anim::Playback;
use crate::asset::Model;

#[derive(Parser, Debug)]
#[command(name = "rigscope", version, about = "Look at skinned, animated 3D models (glTF 2.0)")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open this model in the viewer (without one, the built-in demo rig).
    pub file: Option<PathBuf>,
    /// Save a screenshot of the window after N frames to PATH, then exit (for tests).
    #[arg(long, num_args = 2, value_names = ["N", "PATH"])]
    pub screenshot_after_frames: Option<Vec<String>>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarise a model: nodes, skins, meshes, influences, clips, morph targets, extensions,
    /// and what the loader had to repair.
    Inspect {
        /// The model (.glb or .gltf).
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the posed model (after morphing and skinning) in world space; without --clip, the
    /// rest pose.
    Pose(pose::PoseArgs),
    /// Render the model to a PNG with the viewer's renderer, without a window; without --clip,
    /// its first clip.
    Render(render::RenderArgs),
}

/// Which clip to pose, and when (shared by `pose` and `render`).
#[derive(Args, Debug)]
pub struct ClipArgs {
    /// Clip to pose, by name or index.
    #[arg(long)]
    pub clip: Option<String>,
    /// Playback time in seconds.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub time: f32,
    /// How the time maps onto the clip.
    #[arg(long, value_enum, default_value_t = PlaybackArg::Once)]
    pub playback: PlaybackArg,
}

impl ClipArgs {
    /// The clip index named by `--clip`, or `default` without it. Fails on a bad `--time` or an
    /// unknown clip, listing the clips there are.
    pub fn resolve(&self, model: &Model, default: Option<usize>) -> anyhow::Result<Option<usize>> {
        if !self.time.is_finite() {
            anyhow::bail!("--time must be a finite number of seconds");
        }
        let Some(wanted) = &self.clip else {
            return Ok(default);
        };
        let names: Vec<&str> = model.clips.iter().map(|c| c.name()).collect();
        model.find_clip(wanted).map(Some).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no clip '{wanted}' (clips: {})",
                model.path.display(),
                names.join(", ")
            )
        })
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

/// Runs a parsed command line, writing results to `out`; without a command, opens the viewer.
pub fn run(cli: Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Inspect { file, json }) => inspect::run(&file, json, out),
        Some(Command::Pose(args)) => pose::run(&args, out),
        Some(Command::Render(args)) => render::run(&args),
        None => {
            let screenshot = match cli.screenshot_after_frames.as_deref() {
                Some([frames, path]) => {
                    let frames = frames
                        .parse()
                        .map_err(|_| anyhow::anyhow!("--screenshot-after-frames: '{frames}' is not a frame count"))?;
                    Some((frames, PathBuf::from(path)))
                }
                _ => None,
            };
            crate::app::run(crate::app::AppOptions {
                file: cli.file,
                screenshot,
            })
        }
    }
}
