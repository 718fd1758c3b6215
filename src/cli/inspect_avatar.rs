//! What `inspect` says about a VRM avatar: its version, meta (title, authors, licence, the
//! permissions it sets and the work it derives from), the humanoid map (each bone and the node
//! it maps to, and how many of the 55 are mapped), its look-at (eye bones or look expressions,
//! and its range maps), its expressions and what each binds, and the parts rigscope does not
//! show yet; and about a VRM animation (`.vrma`): which humanoid bones and expressions its
//! clips animate, and whether they move the eyes.

use std::io::Write;

use serde::Serialize;

use crate::anim::avatar::{Expression, LookAt, LookAtKind, Override, RangeMap};
use crate::asset::human_bone::HUMAN_BONES;
use crate::asset::{Material, Model};

#[derive(Serialize)]
pub struct AvatarReport {
    /// "VRM 0.x" or "VRM 1.0".
    version: String,
    spec_version: String,
    title: String,
    avatar_version: String,
    authors: Vec<String>,
    contact: String,
    licence: String,
    /// What each permission is about, and what the avatar says.
    permissions: Vec<(String, String)>,
    /// The original work the avatar derives from (the meta's `reference`s).
    references: Vec<String>,
    /// Where the eyes look from and how (none: no head mapped, or no look-at in the file).
    look_at: Option<LookAtReport>,
    /// Each mapped humanoid bone (VRM 1.0 names) and its node.
    humanoid: Vec<HumanBoneReport>,
    expressions: Vec<ExpressionReport>,
    /// Spring bones: simulated joints and colliders.
    spring_joints: usize,
    colliders: usize,
    node_constraints: usize,
    /// The materials drawn as MToon, "(outlined)" after those with an outline.
    mtoon_materials: Vec<String>,
}

/// A look-at: its type and the range maps that turn a gaze (degrees) into eye turns or weights.
#[derive(Serialize)]
struct LookAtReport {
    #[serde(rename = "type")]
    kind: LookAtType,
    horizontal_inner: RangeMapReport,
    horizontal_outer: RangeMapReport,
    vertical_down: RangeMapReport,
    vertical_up: RangeMapReport,
}

/// A look-at's type, as VRM 1.0 names it.
#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
enum LookAtType {
    /// Turns the eye bones.
    Bone,
    /// Sets lookUp, lookDown, lookLeft and lookRight.
    Expression,
}

/// A range map: gaze angles up to `input_max` degrees map to 0 to `output_scale` (degrees for
/// the bone type, a weight for the expression type).
#[derive(Serialize)]
struct RangeMapReport {
    input_max: f32,
    output_scale: f32,
}

impl From<RangeMap> for RangeMapReport {
    fn from(map: RangeMap) -> Self {
        Self {
            input_max: map.input_max,
            output_scale: map.output_scale,
        }
    }
}

impl LookAtReport {
    fn of(look_at: &LookAt) -> Self {
        Self {
            kind: match look_at.kind {
                LookAtKind::Bone => LookAtType::Bone,
                LookAtKind::Expression => LookAtType::Expression,
            },
            horizontal_inner: look_at.horizontal_inner.into(),
            horizontal_outer: look_at.horizontal_outer.into(),
            vertical_down: look_at.vertical_down.into(),
            vertical_up: look_at.vertical_up.into(),
        }
    }
}

/// What a VRM animation's clips animate through its `VRMC_vrm_animation` map.
#[derive(Serialize)]
pub struct VrmAnimationReport {
    /// How many humanoid bones the file maps.
    mapped_bones: usize,
    /// The mapped humanoid bones a clip animates (VRM 1.0 names, in `HUMAN_BONES` order).
    humanoid: Vec<String>,
    /// The expressions a clip sets the weight of.
    expressions: Vec<String>,
    /// Whether a clip moves where the eyes look.
    look_at: bool,
}

impl VrmAnimationReport {
    /// The report of `model`, when it is a VRM animation.
    pub fn of(model: &Model) -> Option<Self> {
        let animation = &model.vrm_animation;
        if animation.humanoid.is_empty() && animation.expressions.is_empty() && animation.look_at.is_none() {
            return None;
        }
        let animated = |joint: usize| (model.clips.iter()).any(|clip| clip.channels().iter().any(|c| c.joint == joint));
        Some(Self {
            mapped_bones: animation.humanoid.len(),
            humanoid: (animation.humanoid.iter())
                .filter(|&&(_, joint)| animated(joint))
                .map(|&(bone, _)| bone.to_owned())
                .collect(),
            expressions: (animation.expressions.iter())
                .filter(|&&(_, joint)| animated(joint))
                .map(|(name, _)| name.clone())
                .collect(),
            look_at: animation.look_at.is_some_and(animated),
        })
    }
}

#[derive(Serialize)]
struct HumanBoneReport {
    bone: String,
    node: usize,
    name: String,
}

#[derive(Serialize)]
struct ExpressionReport {
    name: String,
    preset: bool,
    binary: bool,
    /// Morph-target weights and material values it sets.
    morph_binds: usize,
    material_binds: usize,
    /// What it overrides ("blink: block", ...).
    overrides: Vec<String>,
}

impl ExpressionReport {
    fn of(expression: &Expression) -> Self {
        let overrides = [
            ("blink", expression.override_blink),
            ("look-at", expression.override_look_at),
            ("mouth", expression.override_mouth),
        ];
        Self {
            name: expression.name.clone(),
            preset: expression.is_preset,
            binary: expression.is_binary,
            morph_binds: expression.morph_binds.len(),
            material_binds: expression.property_binds.len(),
            overrides: (overrides.iter())
                .filter(|(_, how)| *how != Override::None)
                .map(|(what, how)| format!("{what}: {}", if *how == Override::Block { "block" } else { "blend" }))
                .collect(),
        }
    }
}

impl AvatarReport {
    pub fn of(model: &Model) -> Option<Self> {
        let avatar = model.avatar.as_ref()?;
        let meta = &avatar.meta;
        Some(Self {
            version: avatar.version.to_string(),
            spec_version: avatar.spec_version.clone(),
            title: meta.title.clone(),
            avatar_version: meta.version.clone(),
            authors: meta.authors.clone(),
            contact: meta.contact.clone(),
            licence: meta.licence.clone(),
            permissions: (meta.permissions.iter())
                .map(|(about, value)| (about.to_string(), value.clone()))
                .collect(),
            references: meta.references.clone(),
            look_at: avatar.look_at.as_ref().map(LookAtReport::of),
            humanoid: (avatar.humanoid.iter())
                .map(|&(bone, joint)| HumanBoneReport {
                    bone: bone.to_owned(),
                    node: model.file_node[joint],
                    name: model.skeleton.name(joint).to_owned(),
                })
                .collect(),
            expressions: avatar.expressions.iter().map(ExpressionReport::of).collect(),
            spring_joints: model.spring_bones.joints.len(),
            colliders: model.spring_bones.colliders.len(),
            node_constraints: model.node_constraints.len(),
            mtoon_materials: model.materials.iter().filter_map(Material::mtoon_description).collect(),
        })
    }
}

/// The avatar's lines, when the model is one.
pub fn write_text(avatar: Option<&AvatarReport>, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(avatar) = avatar else {
        return Ok(());
    };
    let or_none = |text: &str| {
        if text.is_empty() {
            "(none)".to_owned()
        } else {
            text.to_owned()
        }
    };
    writeln!(
        out,
        "  avatar: {} (spec {}) '{}' version {}, by {}",
        avatar.version,
        or_none(&avatar.spec_version),
        avatar.title,
        or_none(&avatar.avatar_version),
        or_none(&avatar.authors.join(", "))
    )?;
    writeln!(
        out,
        "    licence: {}; contact: {}",
        or_none(&avatar.licence),
        or_none(&avatar.contact)
    )?;
    for (about, value) in &avatar.permissions {
        writeln!(out, "    {about}: {value}")?;
    }
    if !avatar.references.is_empty() {
        writeln!(out, "    derived from: {}", avatar.references.join(", "))?;
    }
    writeln!(
        out,
        "    humanoid: {} of {} bones mapped",
        avatar.humanoid.len(),
        HUMAN_BONES.len()
    )?;
    for bone in &avatar.humanoid {
        writeln!(out, "      {} → node {} '{}'", bone.bone, bone.node, bone.name)?;
    }
    if let Some(look_at) = &avatar.look_at {
        write_look_at(look_at, out)?;
    }
    if !avatar.expressions.is_empty() {
        writeln!(out, "    expressions: {}", avatar.expressions.len())?;
    }
    for expression in &avatar.expressions {
        let mut notes = vec![format!(
            "{} morph weights, {} material values",
            expression.morph_binds, expression.material_binds
        )];
        notes.extend(
            [
                (!expression.preset).then(|| "custom".to_owned()),
                expression.binary.then(|| "binary".to_owned()),
            ]
            .into_iter()
            .flatten(),
        );
        notes.extend(expression.overrides.iter().map(|o| format!("overrides {o}")));
        writeln!(out, "      {}: {}", expression.name, notes.join("; "))?;
    }
    if avatar.spring_joints > 0 {
        writeln!(
            out,
            "    spring bones: {} joints, {} colliders",
            avatar.spring_joints, avatar.colliders
        )?;
    }
    if avatar.node_constraints > 0 {
        writeln!(out, "    node constraints: {}", avatar.node_constraints)?;
    }
    if !avatar.mtoon_materials.is_empty() {
        writeln!(out, "    MToon materials: {}", avatar.mtoon_materials.join(", "))?;
    }
    Ok(())
}

/// "look-at: expression (sets lookUp, ...); range maps, degrees → weight: horizontal inner 90 → 1, ...".
fn write_look_at(look_at: &LookAtReport, out: &mut dyn Write) -> std::io::Result<()> {
    let (kind, what, output) = match look_at.kind {
        LookAtType::Bone => ("bone", "turns the eye bones", "degrees"),
        LookAtType::Expression => ("expression", "sets lookUp, lookDown, lookLeft and lookRight", "weight"),
    };
    let maps = [
        ("horizontal inner", &look_at.horizontal_inner),
        ("horizontal outer", &look_at.horizontal_outer),
        ("vertical down", &look_at.vertical_down),
        ("vertical up", &look_at.vertical_up),
    ]
    .map(|(name, map)| format!("{name} {} → {}", map.input_max, map.output_scale));
    writeln!(
        out,
        "    look-at: {kind} ({what}); range maps, degrees → {output}: {}",
        maps.join(", ")
    )
}

/// The VRM animation's lines, when the model is one.
pub fn write_vrm_animation_text(animation: Option<&VrmAnimationReport>, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(animation) = animation else {
        return Ok(());
    };
    let listed = |names: &[String]| match names.is_empty() {
        true => "none".to_owned(),
        false => names.join(", "),
    };
    writeln!(
        out,
        "  VRM animation: {} of its {} humanoid bones animated: {}",
        animation.humanoid.len(),
        animation.mapped_bones,
        listed(&animation.humanoid)
    )?;
    writeln!(out, "    expressions animated: {}", listed(&animation.expressions))?;
    let look_at = if animation.look_at { "yes" } else { "no" };
    writeln!(out, "    look-at track: {look_at}")
}
