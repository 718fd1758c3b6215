//! `--crowd N`, `--crowd-seed S` and `--crowd-same`: the viewer and `render` draw N copies of
//! the model on a grid (see `view::crowd`).

use clap::Args;

use crate::view::crowd::{CrowdOptions, DEFAULT_SEED, MAX_CROWD};

#[derive(Args, Clone, Copy, Debug)]
pub struct CrowdArgs {
    /// Draw N copies of the model on a grid on the ground, each playing its own clip, phase
    /// and speed (1 to 10000; 1: the model alone).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crowd_size)]
    pub crowd: usize,
    /// Seed for the copies' clips, phases and speeds (the same seed, the same crowd).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub crowd_seed: u64,
    /// Every copy plays the model's clip in step, instead of its own clip, phase and speed.
    #[arg(long)]
    pub crowd_same: bool,
}

impl CrowdArgs {
    pub fn options(&self) -> CrowdOptions {
        CrowdOptions {
            count: self.crowd,
            seed: self.crowd_seed,
            varied: !self.crowd_same,
        }
    }
}

fn crowd_size(text: &str) -> Result<usize, String> {
    let count: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of copies"))?;
    if (1..=MAX_CROWD).contains(&count) {
        Ok(count)
    } else {
        Err(format!("a crowd has 1 to {MAX_CROWD} copies"))
    }
}
