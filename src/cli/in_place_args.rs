//! `--in-place`, which `render`, `sheet`, `video` and `pose` share: the clip played with its
//! travel taken out (see `inspect::motion::in_place`).

use anyhow::bail;
use clap::Args;

use crate::asset::Model;
use crate::inspect::motion::{InPlace, choose_root};

#[derive(Args, Clone, Copy, Debug, Default)]
pub struct InPlaceArgs {
    /// Play the clip in place: its travel over the ground (the root motion) taken out, so the
    /// character stays framed and the ground's grid slides under it.
    #[arg(long)]
    pub in_place: bool,
}

impl InPlaceArgs {
    /// What takes `clip`'s travel out of its poses, when asked for; fails when asked for
    /// without a clip.
    pub fn for_clip(&self, model: &Model, clip: Option<usize>) -> anyhow::Result<Option<InPlace>> {
        if !self.in_place {
            return Ok(None);
        }
        let Some(clip) = clip.and_then(|c| model.clips.get(c)) else {
            bail!(
                "--in-place: {} plays no clip to take the travel out of",
                model.path.display()
            );
        };
        Ok(choose_root(model, clip).and_then(|root| InPlace::new(&model.skeleton, clip, root.joint)))
    }
}
