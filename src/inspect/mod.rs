//! Rig inspection: what the joint browser, the weight views and the pose modes show, worked
//! out from a model and a pose without any GPU or window, so the panel, the renderer and the
//! headless commands show the same facts.
//!
//! - [`JointFacts`]: per joint, its children, the skins it belongs to, how many vertices it
//!   moves and which clips animate it (made once per model); [`JointReport`]: one joint in a
//!   pose (local and world transform, bone length).
//! - [`VertexView`]: a value per vertex (a joint's weight, the influence count, the loader's
//!   repairs) that the renderer shows as colours instead of the material.
//! - [`PoseMode`]: the animated pose, the rest pose or the bind pose.
//! - [`CurveSet`]: a joint's animation curves over a clip, its keys and the problems on them
//!   (sign flips, pops, open loop seams), for the curve view and `rigscope curves`.
//! - [`SkinDifference`]: how far CPU and GPU skinning are apart, vertex by vertex.
//! - [`Trails`]: motion trails, the paths joints take over a clip ([`JointTrail`]), and the
//!   root-motion trail.
//! - [`motion`]: a clip's root motion (travel and heading), its feet's contacts and sliding,
//!   and the clip played in place.

mod curve;
mod curve_pops;
mod curve_problems;
mod curves;
pub(crate) mod expression_lookup;
mod joints;
pub(crate) mod lookup;
pub(crate) mod morph_lookup;
pub mod motion;
mod pose_mode;
pub(crate) mod skin_difference;
pub mod trail;
mod trails;
mod vertex_view;

pub use curve::{Curve, CurveGroup};
#[cfg(any(test, feature = "internals"))]
pub use curve::CurveKey;
#[cfg(any(test, feature = "internals"))]
pub use curve_problems::{Problem, ProblemKind};
pub use curves::CurveSet;
pub use joints::{JointFacts, JointReport, TrsReport};
pub use pose_mode::PoseMode;
pub use skin_difference::SkinDifference;
pub use trail::{JointTrail, TrailClock, TrailWindow};
#[cfg(any(test, feature = "internals"))]
pub use trail::TrailPoint;
pub use trails::{TrailTime, Trails, root_motion_joint};
pub use vertex_view::{Ramp, VertexView};
