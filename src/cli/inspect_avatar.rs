//! What `inspect` says about a VRM avatar: its version, meta (title, authors, licence and the
//! permissions it sets), the humanoid map (each bone and the node it maps to, and how many of
//! the 55 are mapped) and the parts rigscope does not show yet.

use std::io::Write;

use serde::Serialize;

use crate::asset::Model;
use crate::asset::human_bone::HUMAN_BONES;

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
    not_shown: Vec<String>,
}

#[derive(Serialize)]
struct HumanBoneReport {
    bone: String,
    node: usize,
    name: String,
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
            not_shown: avatar.not_shown.iter().map(|part| part.to_string()).collect(),
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
    if !avatar.not_shown.is_empty() {
        writeln!(out, "    not shown yet: {}", avatar.not_shown.join(", "))?;
    }
    Ok(())
}
