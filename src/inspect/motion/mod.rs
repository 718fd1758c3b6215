//! The motion of a clip, not only its rig: where the character travels (root motion), where
//! its feet stand and how far they slide while standing.
//!
//! Everything is measured in model space (glTF's: +Y up, metres for glTF, VRM and FBX) on
//! the clip sampled alone over the rest pose, every `STEP` seconds (`samples`):
//! - **root motion** (`root`, `travel`): the joint that carries the character's travel (the
//!   topmost of the hips and their ancestors that moves over the ground, else the hips), its
//!   ground-plane travel (x, z from where it starts) and heading (its turn about +Y from where
//!   it starts), and the rest of its motion (height and sway around the travel);
//! - **feet** (`feet`, `contacts`): which joints are the feet, when each stands on the ground
//!   (low and still, with hysteresis) and how far it moves over the ground while it stands.
//!
//! `in_place` takes a clip's travel out of a pose, for views that keep a walking character in
//! frame.

mod contacts;
mod curves;
mod feet;
mod in_place;
mod root;
mod samples;
#[cfg(test)]
pub(crate) mod test_walker;
mod travel;

pub use contacts::{Contact, FootContacts, SLIDE_SHARE, detect_contacts};
pub use curves::root_motion_curves;
pub use feet::{Side, find_feet};
#[cfg(any(test, feature = "internals"))]
pub use feet::Foot;
pub use in_place::InPlace;
pub use root::{RootChoice, RootReason, choose_root};
pub use samples::{MotionSamples, character_height};
#[cfg(any(test, feature = "internals"))]
pub use samples::STEP;
pub use travel::RootMotion;

use crate::anim::Clip;
use crate::asset::Model;

/// A clip's motion: its root motion and its feet's contacts.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionReport {
    /// None for a model without joints.
    pub root: Option<RootMotion>,
    pub feet: Vec<FootContacts>,
    /// How tall the rig stands at rest (`character_height`): what the tolerances scale with.
    pub height: f32,
}

/// The root motion of `model`'s clip `clip` alone (no feet), carried by `root` when given,
/// else by the joint `choose_root` picks.
pub fn root_motion(model: &Model, clip: usize, root: Option<usize>) -> Option<RootMotion> {
    let clip_data = model.clips.get(clip)?;
    let choice = carrier(model, clip_data, root)?;
    let samples = MotionSamples::new(&model.skeleton, clip_data, &[choice.joint]);
    Some(RootMotion::new(&samples, choice))
}

/// The joint the user chose (`root`), else the one `choose_root` picks.
fn carrier(model: &Model, clip: &Clip, root: Option<usize>) -> Option<RootChoice> {
    match root {
        Some(joint) if joint < model.skeleton.len() => Some(RootChoice {
            joint,
            reason: RootReason::Chosen,
        }),
        _ => choose_root(model, clip),
    }
}

/// The motion of `model`'s clip `clip` (an index into `Model::clips`), with its root motion
/// carried by `root` when given (the user's choice), else by the joint `choose_root` picks.
pub fn analyse(model: &Model, clip: usize, root: Option<usize>) -> Option<MotionReport> {
    let clip_data = model.clips.get(clip)?;
    let skeleton = &model.skeleton;
    let choice = carrier(model, clip_data, root);
    let feet = find_feet(model);
    let mut joints: Vec<usize> = feet.iter().map(|f| f.joint).collect();
    joints.extend(choice.map(|c| c.joint));
    let samples = MotionSamples::new(skeleton, clip_data, &joints);
    let root = choice.map(|choice| RootMotion::new(&samples, choice));
    let height = character_height(model);
    let feet = detect_contacts(&samples, &feet, height);
    Some(MotionReport { root, feet, height })
}
