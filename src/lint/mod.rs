//! Rig lint: problems in a model that make it deform, animate or export badly, found from the
//! loaded `Model` (and what the loader had to repair). Each finding names what it is about
//! (mesh primitive, skin, joint or clip), says what is wrong and how many times; identical
//! findings are merged and their counts added. Errors are things that are broken (a viewer or
//! engine has to guess); warnings are things that often go wrong; notes are worth knowing.
//!
//! The rules, one per `Rule`, live in `skin.rs` (weights, inverse bind matrices, bind pose),
//! `hierarchy.rs` (scale along joint chains, transforms on skinned mesh nodes), `clips.rs`
//! (rotation keys, loop seams once a clip's travel is taken out), `feet.rs` (feet sliding
//! while they stand), `extensions.rs` (extensions the file needs that rigscope does not
//! read), `copies.rs` (meshes drawn as copies that cannot be seen or are mirrored),
//! `invisible.rs` (materials that make what they cover invisible) and `humanoid.rs` (a VRM
//! avatar's humanoid map and T-pose).

mod clips;
mod copies;
mod extensions;
mod feet;
mod hierarchy;
mod humanoid;
pub(crate) mod invisible;
mod skin;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::anim::joint_extent;
use crate::asset::Model;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// What a lint rule checks; its name is the rule's identifier in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Rule {
    JointIndexOutOfRange,
    NegativeWeight,
    WeightsNotNormalised,
    UnweightedVertex,
    ZeroWeightInfluence,
    TooManyInfluences,
    UnusedJoint,
    MissingInverseBindMatrices,
    NonInvertibleInverseBindMatrix,
    BindPoseFarFromRest,
    NegativeScale,
    NonUniformScale,
    SkinnedMeshNodeTransform,
    RotationKeysNotUnit,
    QuaternionSignFlip,
    LoopSeamJump,
    FootSliding,
    UnsupportedRequiredExtension,
    UnsupportedExtension,
    CopyScaledToNothing,
    MirroredCopy,
    InvisibleMaterial,
    HumanoidBoneMissing,
    HumanoidOrderBroken,
    HumanoidNotTPose,
}

impl Rule {
    pub fn severity(self) -> Severity {
        match self {
            Self::JointIndexOutOfRange
            | Self::NegativeWeight
            | Self::UnweightedVertex
            | Self::NonInvertibleInverseBindMatrix
            | Self::HumanoidBoneMissing
            | Self::HumanoidOrderBroken => Severity::Error,
            Self::WeightsNotNormalised
            | Self::TooManyInfluences
            | Self::MissingInverseBindMatrices
            | Self::BindPoseFarFromRest
            | Self::NegativeScale
            | Self::SkinnedMeshNodeTransform
            | Self::RotationKeysNotUnit
            | Self::LoopSeamJump
            | Self::FootSliding
            | Self::UnsupportedRequiredExtension
            | Self::CopyScaledToNothing
            | Self::MirroredCopy
            | Self::InvisibleMaterial
            | Self::HumanoidNotTPose => Severity::Warning,
            Self::ZeroWeightInfluence
            | Self::UnusedJoint
            | Self::NonUniformScale
            | Self::QuaternionSignFlip
            | Self::UnsupportedExtension => Severity::Note,
        }
    }

    /// The identifier used in reports, e.g. `negative-weight`.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// One problem a rule found, merged over every place it occurs (`count`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    pub severity: Severity,
    pub rule: Rule,
    /// What it is about: `mesh 'Body' primitive 0`, `skin 'Armature'`, `joint 'hand.L'`,
    /// `clip 'Walk' joint 'hips'`.
    pub subject: String,
    pub message: String,
    /// How many vertices, influences, keys or joints.
    pub count: usize,
}

/// Collects findings, merging identical ones.
#[derive(Default)]
struct Findings {
    merged: BTreeMap<(Rule, String, String), usize>,
}

impl Findings {
    fn add(&mut self, rule: Rule, subject: impl Into<String>, message: impl Into<String>, count: usize) {
        if count > 0 {
            *self.merged.entry((rule, subject.into(), message.into())).or_default() += count;
        }
    }
}

/// The rest pose's model matrices and the rig's size (the yardstick for "far"), worked out
/// once for all the rules.
struct Rest {
    matrices: Vec<glam::Mat4>,
    size: f32,
}

/// Every finding for `model`, errors first.
pub fn lint(model: &Model) -> Vec<Finding> {
    let matrices = model.skeleton.rest_pose().to_model_matrices();
    let rest = Rest {
        size: joint_extent(&matrices).max(1e-6),
        matrices,
    };
    let mut findings = Findings::default();
    skin::check(model, &rest, &mut findings);
    hierarchy::check(model, &rest, &mut findings);
    clips::check(model, &rest, &mut findings);
    feet::check(model, &mut findings);
    extensions::check(model, &mut findings);
    copies::check(model, &mut findings);
    invisible::check(model, &mut findings);
    humanoid::check(model, &rest, &mut findings);
    let mut list: Vec<Finding> = findings
        .merged
        .into_iter()
        .map(|((rule, subject, message), count)| Finding {
            severity: rule.severity(),
            rule,
            subject,
            message,
            count,
        })
        .collect();
    list.sort_by_key(|f| (f.severity, f.rule));
    list
}

/// How many findings of `severity` there are.
pub fn count(findings: &[Finding], severity: Severity) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}

/// `'name'` of a joint, for subjects and messages.
fn joint_name(model: &Model, joint: usize) -> String {
    format!("'{}'", model.skeleton.name(joint))
}
