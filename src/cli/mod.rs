//! Headless commands. They use the same loading, animation and skinning code as the viewer,
//! so their output is what the viewer shows.

mod inspect;
mod pose;

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::anim::Playback;

#[derive(Parser, Debug)]
#[command(
    name = "rigscope",
    version,
    about = "Look at skinned, animated 3D models (glTF 2.0)"
)]
#[command(arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
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
    /// Write the posed model (after morphing and skinning) in world space.
    Pose(pose::PoseArgs),
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

/// Runs a parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match cli.command {
        Command::Inspect { file, json } => inspect::run(&file, json, out),
        Command::Pose(args) => pose::run(&args, out),
    }
}
