//! A VRM avatar's own data beside the model, one form for VRM 0.x (`VRM`) and 1.0 (`VRMC_vrm`):
//! which humanoid bone each joint is, and who made the avatar and what others may do with it.

use crate::anim::avatar::{Expression, LookAt};

/// VRM 0.x's expression presets and their VRM 1.0 names (the loader reads 0.x names as 1.0's;
/// the writer turns them back).
pub const VRM_0_X_PRESETS: [(&str, &str); 17] = [
    ("joy", "happy"),
    ("angry", "angry"),
    ("sorrow", "sad"),
    ("fun", "relaxed"),
    ("a", "aa"),
    ("i", "ih"),
    ("u", "ou"),
    ("e", "ee"),
    ("o", "oh"),
    ("blink", "blink"),
    ("blink_l", "blinkLeft"),
    ("blink_r", "blinkRight"),
    ("lookup", "lookUp"),
    ("lookdown", "lookDown"),
    ("lookleft", "lookLeft"),
    ("lookright", "lookRight"),
    ("neutral", "neutral"),
];

/// VRM 1.0's permissions in the meta: what `AvatarMeta::permissions` calls each, and its key.
pub const VRM_1_0_PERMISSIONS: [(&str, &str); 10] = [
    ("who may use the avatar", "avatarPermission"),
    ("excessively violent use", "allowExcessivelyViolentUsage"),
    ("excessively sexual use", "allowExcessivelySexualUsage"),
    ("commercial use", "commercialUsage"),
    ("political or religious use", "allowPoliticalOrReligiousUsage"),
    ("antisocial or hateful use", "allowAntisocialOrHateUsage"),
    ("credit", "creditNotation"),
    ("redistribution", "allowRedistribution"),
    ("modification", "modification"),
    ("other licence", "otherLicenseUrl"),
];

/// VRM 0.x's permissions in the meta, likewise.
pub const VRM_0_X_PERMISSIONS: [(&str, &str); 6] = [
    ("who may use the avatar", "allowedUserName"),
    ("violent use", "violentUssageName"),
    ("sexual use", "sexualUssageName"),
    ("commercial use", "commercialUssageName"),
    ("other permissions", "otherPermissionUrl"),
    ("other licence", "otherLicenseUrl"),
];

/// Which VRM the file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VrmVersion {
    /// VRM 0.x (the `VRM` extension): the avatar faces -Z.
    V0,
    /// VRM 1.0 (`VRMC_vrm`): the avatar faces +Z.
    V1,
}

impl std::fmt::Display for VrmVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Self::V0 => "VRM 0.x",
            Self::V1 => "VRM 1.0",
        })
    }
}

/// A VRM avatar.
#[derive(Clone, Debug, PartialEq)]
pub struct Avatar {
    pub version: VrmVersion,
    /// The file's `specVersion` (0.x: `exporterVersion` when it has none).
    pub spec_version: String,
    /// Each mapped humanoid bone, by its VRM 1.0 name (0.x's thumbs renamed as three-vrm does),
    /// and its joint, in `HUMAN_BONES` order.
    pub humanoid: Vec<(&'static str, usize)>,
    pub meta: AvatarMeta,
    /// 1.0: presets in the specification's order, then custom ones by name; 0.x: as listed.
    pub expressions: Vec<Expression>,
    /// Where the eyes look from and how (none: no head mapped, or no look-at in the file).
    pub look_at: Option<LookAt>,
}

impl Avatar {
    /// The expression called `name`.
    pub fn expression(&self, name: &str) -> Option<usize> {
        self.expressions.iter().position(|e| e.name == name)
    }

    /// The joint humanoid bone `bone` (a VRM 1.0 name) maps to.
    pub fn joint(&self, bone: &str) -> Option<usize> {
        self.humanoid
            .iter()
            .find(|(name, _)| *name == bone)
            .map(|&(_, joint)| joint)
    }
}

/// What a VRM animation (`.vrma`, `VRMC_vrm_animation`) animates, by name, so that its clips
/// play on any avatar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VrmAnimation {
    /// Each humanoid bone it animates (VRM 1.0 name) and its joint, in `HUMAN_BONES` order.
    pub humanoid: Vec<(&'static str, usize)>,
    /// Each expression it animates (VRM 1.0 name) and the value joint whose translation's x
    /// is the expression's weight.
    pub expressions: Vec<(String, usize)>,
    /// The value joint whose rotation is where the eyes look (yaw and pitch, as YXZ angles).
    pub look_at: Option<usize>,
}

/// Who made the avatar, and what the licence lets others do with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AvatarMeta {
    pub title: String,
    pub version: String,
    pub authors: Vec<String>,
    pub contact: String,
    /// The licence: 0.x's name (`CC_BY`, `Redistribution_Prohibited`, ...) or 1.0's URL.
    pub licence: String,
    /// Each permission the avatar sets, in the specification's order: what it is about and
    /// what the file says.
    pub permissions: Vec<(&'static str, String)>,
    /// The original work the avatar derives from, as the file names it (1.0's `references`,
    /// 0.x's one `reference`): what a derived avatar's licence usually asks to credit.
    pub references: Vec<String>,
    /// The avatar's picture, an index into `Model::images` (1.0's `thumbnailImage`, 0.x's
    /// `texture`'s image).
    pub thumbnail: Option<usize>,
}
