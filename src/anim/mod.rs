//! The animation core: transforms, poses, skeletons, keyframe tracks and clips.
//!
//! Depends on glam and `crate::simd` only (no rendering, windowing or file formats). Spaces are named:
//! *local* is a joint's parent space, *model* the space of the hierarchy's roots, *bind* the
//! pose the skin was bound in, *rest* the transforms as authored.

pub mod additive;
pub mod animator;
pub mod avatar;
pub mod blend;
mod channel;
mod clip;
mod clip_resample;
mod clip_trim;
pub mod crossfade;
pub mod delta_clip;
pub mod fast_slerp;
#[cfg(test)]
mod fixtures;
pub mod ik;
mod joint_group;
pub mod joint_match;
mod key_block;
mod key_decimation;
mod key_rate;
mod key_reduction;
pub mod key_times;
pub mod keys;
mod lanes;
mod local_to_model;
pub mod morph_override;
pub mod player;
pub mod pose;
pub mod quat;
mod reduction_check;
pub mod retarget;
pub mod skeleton;
pub mod sync_blend;
pub mod track;
pub mod transform;
pub use additive::{AdditiveLayer, AdditiveSpace};
pub use animator::Animator;
pub use blend::{JointMask, blend, blend_into};
pub use clip::{Channel, ChannelTrack, Clip, ClipCursor, Playback};
pub use clip_resample::{ResampleError, resample_clip};
pub use clip_trim::{TrimError, trim_clip};
pub use crossfade::CrossFade;
pub use ik::{IkLayer, JointConstraint, Solver};
pub use joint_match::{JointMatching, JointPair, MatchedBy, match_joints, normalise_joint_name};
pub use key_rate::DEFAULT_KEY_RATE;
pub use key_reduction::{KeyCounts, KeyReduction, KeyTolerance, reduce_keys};
pub use key_times::key_times;
pub use keys::{Interpolation, TrackError};
pub use morph_override::{MorphMode, MorphOverride};
pub use player::Player;
pub use pose::{Hierarchy, HierarchyError, Pose, joint_extent};
pub use retarget::Retarget;
pub use skeleton::{JointDesc, Skeleton};
pub use sync_blend::SyncBlend;
pub use track::{Track, WeightsTrack};
pub use transform::Transform;
