//! `convert`'s clip edits, applied in this order: `--clip-name` (the clips `--clips-from`
//! added, renamed), `--clip` (keep only these), `--rename OLD=NEW`, `--trim NAME=START:END`,
//! `--fps N` (resample every clip) and `--reduce [ERROR]` (remove keys within an error bound,
//! see `anim::key_reduction`). The edits themselves are functions on clips in `anim`.

use anyhow::{anyhow, bail};
use clap::Args;

use crate::anim::{Clip, KeyTolerance, reduce_keys, resample_clip, trim_clip};
use crate::asset::Model;

#[derive(Args, Debug, Default, Clone)]
pub struct ClipEditArgs {
    /// Name the clips --clips-from added, in the order they were added (repeat for each).
    #[arg(long, value_name = "NAME")]
    pub clip_name: Vec<String>,
    /// Keep only this clip (a name, or an index as `inspect` numbers them); repeat for several.
    #[arg(long, value_name = "NAME")]
    pub clip: Vec<String>,
    /// Rename a clip (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    pub rename: Vec<String>,
    /// Keep only the part of a clip between two times in seconds, as a clip starting at 0
    /// (repeatable).
    #[arg(long, value_name = "NAME=START:END")]
    pub trim: Vec<String>,
    /// Resample every clip at this many frames per second (linear keys on the frames).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub fps: Option<u32>,
    /// Remove keys while every joint's world position stays within ERROR model units (metres) of
    /// the original and its rotation within 0.01°; prints keys and bytes before and after.
    #[arg(long, value_name = "ERROR", num_args = 0..=1, default_missing_value = "0.0001", value_parser = reduce_error)]
    pub reduce: Option<f32>,
}

/// `--reduce`'s bound: a finite distance of at least 0.
fn reduce_error(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(error) if error.is_finite() && error >= 0.0 => Ok(error),
        _ => Err(format!("'{text}' is not a distance of 0 or more (model units, metres)")),
    }
}

impl ClipEditArgs {
    /// Edits `model`'s clips; returns what was done, one sentence each, for the user. `added`:
    /// how many clips at the end of the list `--clips-from` added.
    pub fn apply(&self, model: &mut Model, added: usize) -> anyhow::Result<Vec<String>> {
        let mut said = Vec::new();
        self.name_added(model, added)?;
        if !self.clip.is_empty() {
            let mut kept = Vec::with_capacity(self.clip.len());
            for wanted in &self.clip {
                let index = clip_index(model, wanted)?;
                kept.push(model.clips[index].clone());
            }
            model.clips = kept;
        }
        for rename in &self.rename {
            let (old, new) = split_once(rename, '=', "--rename", "OLD=NEW")?;
            let index = clip_index(model, old)?;
            model.clips[index] = model.clips[index].clone().renamed(new);
        }
        for trim in &self.trim {
            let (name, times) = split_once(trim, '=', "--trim", "NAME=START:END")?;
            let (start, end) = split_once(times, ':', "--trim", "NAME=START:END")?;
            let seconds = |text: &str| {
                text.parse::<f32>()
                    .map_err(|_| anyhow!("--trim {trim}: '{text}' is not a time in seconds"))
            };
            let index = clip_index(model, name)?;
            model.clips[index] = trim_clip(&model.clips[index], seconds(start)?, seconds(end)?)?;
        }
        if let Some(fps) = self.fps {
            for clip in &mut model.clips {
                *clip = resample_clip(clip, fps as f32)?;
            }
            said.push(format!("resampled every clip at {fps} fps"));
        }
        if let Some(error) = self.reduce {
            let tolerance = KeyTolerance {
                position: error,
                ..KeyTolerance::default()
            };
            for clip in &mut model.clips {
                let (reduced, reduction) = reduce_keys(clip, &model.skeleton, tolerance);
                said.push(format!(
                    "clip '{}': {} keys ({} bytes) reduced to {} ({} bytes); largest error {:.2e} model units, {:.4}°",
                    clip.name(),
                    reduction.keys_before,
                    reduction.bytes_before,
                    reduction.keys_after,
                    reduction.bytes_after,
                    reduction.largest_position_error,
                    reduction.largest_rotation_error_degrees
                ));
                *clip = reduced;
            }
        }
        Ok(said)
    }

    /// `--clip-name`: the clips `--clips-from` added, renamed in order.
    fn name_added(&self, model: &mut Model, added: usize) -> anyhow::Result<()> {
        if self.clip_name.is_empty() {
            return Ok(());
        }
        if self.clip_name.len() > added {
            bail!(
                "--clip-name: {} names for the {added} clips --clips-from added",
                self.clip_name.len()
            );
        }
        let first = model.clips.len() - added;
        for (clip, name) in model.clips[first..].iter_mut().zip(&self.clip_name) {
            *clip = clip.clone().renamed(name.as_str());
        }
        Ok(())
    }
}

/// The clip `name` names (a name, else an index), or an error listing the clips there are.
fn clip_index(model: &Model, name: &str) -> anyhow::Result<usize> {
    model.find_clip(name).ok_or_else(|| {
        let names: Vec<&str> = model.clips.iter().map(Clip::name).collect();
        anyhow!("there is no clip '{name}'; the clips are: {}", names.join(", "))
    })
}

/// `text` split at its first `separator`, or an error showing the `form` expected.
fn split_once<'a>(text: &'a str, separator: char, option: &str, form: &str) -> anyhow::Result<(&'a str, &'a str)> {
    text.split_once(separator)
        .ok_or_else(|| anyhow!("{option} {text}: expected {form}"))
}
