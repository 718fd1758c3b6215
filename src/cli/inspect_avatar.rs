//! What `inspect` says about a VRM avatar: its version, meta (title, authors, licence and the
//! permissions it sets), the humanoid map (each bone and the node it maps to, and how many of
//! the 55 are mapped), its expressions and what each binds, and the parts rigscope does not
//! show yet.

use std::io::Write;

use serde::Serialize;

use crate::anim::avatar::{Expression, Override};
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
    writeln!(
        out,
        "    humanoid: {} of {} bones mapped",
        avatar.humanoid.len(),
        HUMAN_BONES.len()
    )?;
    for bone in &avatar.humanoid {
        writeln!(out, "      {} → node {} '{}'", bone.bone, bone.node, bone.name)?;
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
