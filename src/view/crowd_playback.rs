//! The viewer's crowd: how many copies of the model the panel (or `--crowd`) asks for, and the
//! crowd itself, rebuilt when those or the model change and animated each frame beside the
//! model (which is its instance 0; see `view::crowd`).

use glam::Mat4;

use super::crowd::{Crowd, CrowdOptions};
use super::framing::animation_bounds;
use crate::asset::Model;
use crate::skin::Deformer;

/// What a crowd was built for: when any of it changes, the crowd is built anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Built {
    options: CrowdOptions,
    /// The clip a uniform crowd plays.
    clip: Option<usize>,
    model_generation: u64,
}

#[derive(Default)]
pub struct CrowdPlayback {
    /// What the panel (or `--crowd`) asks for; a count of 1 shows the model alone.
    pub options: CrowdOptions,
    crowd: Option<Crowd>,
    built: Option<Built>,
    /// Seconds on the crowd's clock (each member plays from its phase at its speed).
    time: f32,
}

impl CrowdPlayback {
    /// The same options for a newly opened model (its crowd is built on the next frame).
    pub fn for_new_model(&self) -> Self {
        Self {
            options: self.options,
            ..Self::default()
        }
    }

    /// The crowd to draw this frame, if the options ask for more than the model.
    pub fn shown(&self) -> Option<&Crowd> {
        self.crowd.as_ref().filter(|_| self.options.count > 1)
    }

    /// Advances the crowd's clock by `clip_dt` and poses every member; instance 0 takes
    /// `first` (the model's joint → model matrices). Builds the crowd first when the options,
    /// the clip (`clip`) or the model (`model_generation`) changed. Returns whether the region
    /// to frame changed (a crowd built or dropped).
    pub fn advance(
        &mut self,
        model: &Model,
        clip_dt: f32,
        first: &[Mat4],
        (clip, model_generation): (Option<usize>, u64),
    ) -> bool {
        if self.options.count <= 1 {
            self.built = None;
            return self.crowd.take().is_some();
        }
        let wanted = Built {
            options: self.options,
            // A varied crowd keeps its members' clips whichever clip the model plays.
            clip: clip.filter(|_| !self.options.varied),
            model_generation,
        };
        let rebuilt = self.built != Some(wanted);
        if rebuilt {
            let mut deformer = Deformer::new(model);
            let bounds = animation_bounds(model, clip.and_then(|c| model.clips.get(c)), None, &mut deformer);
            self.crowd = Some(Crowd::new(model, self.options, clip, &bounds));
            self.built = Some(wanted);
            self.time = 0.0;
        }
        self.time += clip_dt;
        if let Some(crowd) = &mut self.crowd {
            crowd.animate(model, self.time, first);
        }
        rebuilt
    }
}
