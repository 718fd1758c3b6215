//! The animation core: transforms, poses, skeletons, keyframe tracks and clips.
//!
//! Depends on glam and `crate::simd` only (no rendering, windowing or file formats). Spaces are named:
//! *local* is a joint's parent space, *model* the space of the hierarchy's roots, *bind* the
//! pose the skin was bound in, *rest* the transforms as authored.

pub mod additive;
mod animator;
pub mod avatar;
pub mod blend;
mod channel;
mod clip;
mod clip_resample;
mod clip_trim;
mod crossfade;
pub mod delta_clip;
mod fast_slerp;
#[cfg(test)]
mod fixtures;
pub mod ik;
mod joint_group;
mod joint_match;
mod key_block;
mod key_decimation;
mod key_rate;
mod key_reduction;
pub(crate) mod key_times;
mod keys;
mod lanes;
mod local_to_model;
mod morph_override;
mod player;
mod pose;
mod quat;
mod reduction_check;
pub(crate) mod retarget;
mod skeleton;
mod sync_blend;
pub(crate) mod track;
pub(crate) mod transform;
pub use additive::{AdditiveLayer, AdditiveSpace};
pub use animator::Animator;
#[cfg(any(test, feature = "internals"))]
pub use blend::{JointMask, blend, blend_into};
pub use clip::{Channel, ChannelTrack, Clip, ClipCursor, Playback};
#[cfg(any(test, feature = "internals"))]
pub use clip_resample::ResampleError;
pub use clip_resample::resample_clip;
#[cfg(any(test, feature = "internals"))]
pub use clip_trim::TrimError;
pub use clip_trim::trim_clip;
#[cfg(any(test, feature = "internals"))]
pub use crossfade::CrossFade;
pub use ik::{IkLayer, JointConstraint, Solver};
pub use joint_match::{JointMatching, JointPair, MatchedBy, match_joints, normalise_joint_name};
pub use key_rate::DEFAULT_KEY_RATE;
#[cfg(any(test, feature = "internals"))]
pub use key_reduction::{KeyCounts, KeyReduction};
pub use key_reduction::{KeyTolerance, reduce_keys};
pub use key_times::key_times;
pub use keys::{Interpolation, TrackError};
pub use morph_override::{MorphMode, MorphOverride};
pub use player::Player;
#[cfg(any(test, feature = "internals"))]
pub use pose::HierarchyError;
pub use pose::{Hierarchy, Pose, joint_extent};
pub use retarget::Retarget;
pub use skeleton::{JointDesc, Skeleton};
#[cfg(any(test, feature = "internals"))]
pub use sync_blend::SyncBlend;
pub use track::{Track, WeightsTrack};
pub use transform::Transform;
