//! One model's animation: the base, then additive layers, then IK chains, in that order, into
//! one pose per frame. The base is the weighted blend of clips (`sync_blend`) while any weight is set, and
//! otherwise the clip playing or the cross-fade between clips (`crossfade`). It allocates
//! nothing per frame once every clip has been sampled once.

use super::additive::AdditiveLayer;
use super::clip::{Clip, Playback};
use super::crossfade::CrossFade;
use super::ik::IkLayer;
use super::pose::Pose;
use super::sync_blend::SyncBlend;

#[derive(Clone, Debug)]
pub struct Animator {
    pub crossfade: CrossFade,
    pub sync_blend: SyncBlend,
    pub layers: Vec<AdditiveLayer>,
    /// How playback time maps onto every clip.
    pub mode: Playback,
    /// Playback time of the additive layers.
    pub layer_time: f32,
    /// IK chains, solved in order on the blended pose (a later chain sees the earlier ones).
    pub ik: Vec<IkLayer>,
}

impl Animator {
    pub fn new(clip: Option<usize>) -> Self {
        Self {
            crossfade: CrossFade::new(clip),
            sync_blend: SyncBlend::default(),
            layers: Vec::new(),
            mode: Playback::Loop,
            layer_time: 0.0,
            ik: Vec::new(),
        }
    }

    /// Advances clips and layers by `clip_dt` seconds of playback time and fades by `dt`.
    pub fn advance(&mut self, clips: &[Clip], clip_dt: f32, dt: f32) {
        self.crossfade.advance(clip_dt, dt);
        self.sync_blend.advance(clips, clip_dt);
        self.layer_time += clip_dt;
    }

    /// Writes the composed pose into `out`.
    pub fn pose(&mut self, clips: &[Clip], rest: &Pose, out: &mut Pose) {
        if self.sync_blend.is_active() {
            self.sync_blend.pose(clips, rest, out);
        } else {
            self.crossfade.pose(clips, self.mode, rest, out);
        }
        for layer in &mut self.layers {
            let duration = clips.get(layer.clip()).map_or(0.0, Clip::duration);
            layer.apply(clips, rest, self.mode.clip_time(self.layer_time, duration), out);
        }
        for ik in &mut self.ik {
            ik.apply(rest, out);
        }
    }
}
