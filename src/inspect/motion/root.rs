//! Which joint carries a clip's travel.
//!
//! The hips are found by the humanoid map (VRM), else by name (`hips`, `pelvis`, after the
//! retargeter's normalisation: `mixamorig:Hips` is the hips), else they are the shallowest
//! joint the clip translates. A game rig often has a root joint above the hips that carries
//! the travel while the hips only sway: so the topmost ancestor of the hips that moves over
//! the ground by more than `TRAVEL_SHARE` of the character's height in the clip carries it
//! instead.

use crate::anim::{Clip, normalise_joint_name};
use crate::asset::Model;
use crate::inspect::root_motion_joint;

use super::samples::{MotionSamples, character_height};

/// An ancestor of the hips carries the travel when it moves this share of the character's
/// height over the ground (9 cm for a 1.8 m character): more than a rig's root drifts.
const TRAVEL_SHARE: f32 = 0.05;

/// Why a joint was taken as the one carrying the travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RootReason {
    /// The user chose it.
    Chosen,
    /// An ancestor of the hips that moves over the ground (a game rig's root joint).
    Travels,
    /// The avatar's humanoid map names it the hips.
    HumanoidHips,
    /// Its name is the hips' or the pelvis'.
    NamedHips,
    /// No hips were found: the shallowest joint the clip translates.
    ShallowestTranslated,
}

impl RootReason {
    /// Why, in words, for the panel and `inspect`.
    pub fn words(self) -> &'static str {
        match self {
            Self::Chosen => "chosen by the user",
            Self::Travels => "the topmost joint above the hips that moves over the ground",
            Self::HumanoidHips => "the humanoid map's hips",
            Self::NamedHips => "named as the hips",
            Self::ShallowestTranslated => "no hips found: the shallowest joint the clip moves",
        }
    }
}

/// The joint carrying a clip's travel, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootChoice {
    pub joint: usize,
    pub reason: RootReason,
}

/// The joint that carries `clip`'s travel on `model` (see the module docs); none for a model
/// without joints.
pub fn choose_root(model: &Model, clip: &Clip) -> Option<RootChoice> {
    let skeleton = &model.skeleton;
    let hips = find_hips(model).or_else(|| {
        root_motion_joint(skeleton, clip).map(|joint| RootChoice {
            joint,
            reason: RootReason::ShallowestTranslated,
        })
    })?;
    let hierarchy = skeleton.hierarchy();
    let ancestors: Vec<usize> = hierarchy.ancestors(hips.joint).collect();
    if ancestors.is_empty() {
        return Some(hips);
    }
    let samples = MotionSamples::new(skeleton, clip, &ancestors);
    let reach = TRAVEL_SHARE * character_height(model);
    // `ancestors` runs from the parent up: the topmost that travels is the last.
    let travelling = ancestors.iter().rev().find(|&&joint| {
        let positions = samples.positions(joint);
        let start = positions.first().copied().unwrap_or_default();
        positions.iter().any(|p| (p.x - start.x).hypot(p.z - start.z) > reach)
    });
    Some(travelling.map_or(hips, |&joint| RootChoice {
        joint,
        reason: RootReason::Travels,
    }))
}

/// The hips by the humanoid map or by name.
fn find_hips(model: &Model) -> Option<RootChoice> {
    if let Some(joint) = model.avatar.as_ref().and_then(|a| a.joint("hips")) {
        return Some(RootChoice {
            joint,
            reason: RootReason::HumanoidHips,
        });
    }
    let mut names = model.skeleton.names().iter();
    let joint = names.position(|name| matches!(normalise_joint_name(name).as_str(), "hips" | "pelvis"))?;
    Some(RootChoice {
        joint,
        reason: RootReason::NamedHips,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::test_walker::{Carrier, Walk, walker};

    #[test]
    fn the_hips_carry_the_travel_unless_a_root_above_them_moves() {
        let model = walker(Walk::default());
        let choice = choose_root(&model, &model.clips[0]).unwrap();
        assert_eq!(
            (model.skeleton.name(choice.joint), choice.reason),
            ("root", RootReason::Travels)
        );

        let model = walker(Walk {
            carrier: Carrier::Hips,
            ..Walk::default()
        });
        let choice = choose_root(&model, &model.clips[0]).unwrap();
        assert_eq!(
            (model.skeleton.name(choice.joint), choice.reason),
            ("mixamorig:Hips", RootReason::NamedHips)
        );

        let model = walker(Walk {
            speed: 0.0,
            ..Walk::default()
        });
        let choice = choose_root(&model, &model.clips[0]).unwrap();
        assert_eq!(
            model.skeleton.name(choice.joint),
            "mixamorig:Hips",
            "a root that stays is not the carrier"
        );
    }
}
