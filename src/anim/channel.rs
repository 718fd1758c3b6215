//! A clip's channels: what each animates (a joint's translation, rotation or scale, morph
//! weights, other properties) and its keys.

use std::sync::Arc;

use glam::{Quat, Vec3};

use super::keys::Interpolation;
use super::track::{Track, WeightsTrack};

/// What a channel animates, with its keys.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelTrack {
    Translation(Track<Vec3>),
    Rotation(Track<Quat>),
    Scale(Track<Vec3>),
    /// Morph-target weights, written to `Pose::morph_weights()[offset..offset + width]`.
    MorphWeights {
        offset: usize,
        track: WeightsTrack,
    },
    /// Any other animated floats (a material's colour, a light's intensity, ...), written to
    /// `Pose::properties()[offset..offset + width]`; interpolated component-wise like weights.
    Properties {
        offset: usize,
        track: WeightsTrack,
    },
}

impl ChannelTrack {
    /// The property's name as glTF spells it.
    pub fn property(&self) -> &'static str {
        match self {
            Self::Translation(_) => "translation",
            Self::Rotation(_) => "rotation",
            Self::Scale(_) => "scale",
            Self::MorphWeights { .. } => "weights",
            Self::Properties { .. } => "pointer",
        }
    }

    pub fn interpolation(&self) -> Interpolation {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.interpolation(),
            Self::Rotation(track) => track.interpolation(),
            Self::MorphWeights { track, .. } | Self::Properties { track, .. } => track.interpolation(),
        }
    }

    pub fn end_time(&self) -> f32 {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.end_time(),
            Self::Rotation(track) => track.end_time(),
            Self::MorphWeights { track, .. } | Self::Properties { track, .. } => track.end_time(),
        }
    }

    pub fn times(&self) -> &Arc<[f32]> {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.times(),
            Self::Rotation(track) => track.times(),
            Self::MorphWeights { track, .. } | Self::Properties { track, .. } => track.times(),
        }
    }

    pub(super) fn share_times(&mut self, times: &Arc<[f32]>) {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.share_times(times),
            Self::Rotation(track) => track.share_times(times),
            Self::MorphWeights { track, .. } | Self::Properties { track, .. } => track.share_times(times),
        }
    }

    pub(super) fn drop_redundant_keys(&mut self) {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.drop_redundant_keys(),
            Self::Rotation(track) => track.drop_redundant_keys(),
            // Weight and property tracks are rare and small; they keep their keys.
            Self::MorphWeights { .. } | Self::Properties { .. } => {}
        }
    }
}

/// One animated property of one joint (or a run of morph weights or property values).
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    pub joint: usize,
    pub track: ChannelTrack,
}
