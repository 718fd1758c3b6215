//! Materials that make what they cover invisible: blended with alpha 0 (an OBJ's `d 0`, an
//! FBX's opacity 0, a glTF base colour alpha 0 in BLEND mode), or masked with an alpha under
//! the cutoff. Texture and vertex-colour alpha only multiply the base colour's, so such a
//! surface draws nothing whatever its textures hold; the file looks empty without a word.

use super::{Findings, Rule};
use crate::asset::Model;
use crate::asset::material::{AlphaMode, Material};

/// Below this the base colour's alpha is 0 once stored in 8 bits.
const ALPHA_ZERO: f32 = 0.5 / 255.0;

/// How a material hides everything it covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Hiding {
    /// Blended with alpha 0.
    Transparent,
    /// Masked with an alpha under its cutoff.
    CutOut { alpha: f32, cutoff: f32 },
}

/// How `material` hides what it covers, or None when it shows something. The renderer asks
/// too: what draws nothing casts no shadow either.
pub(crate) fn hiding(material: &Material) -> Option<Hiding> {
    let alpha = material.base_color.w;
    match material.alpha {
        AlphaMode::Blend if alpha < ALPHA_ZERO => Some(Hiding::Transparent),
        AlphaMode::Mask { cutoff } if alpha < cutoff => Some(Hiding::CutOut { alpha, cutoff }),
        _ => None,
    }
}

/// Whether draws in `model`'s material `material` show anything (the default material, past
/// the file's, does): the renderer casts shadows only from those.
pub(crate) fn draws_something(model: &Model, material: usize) -> bool {
    !(model.materials.get(material)).is_some_and(|m| hiding(m).is_some())
}

pub(super) fn check(model: &Model, findings: &mut Findings) {
    for (index, material) in model.materials.iter().enumerate() {
        let why = match hiding(material) {
            Some(Hiding::Transparent) => "is fully transparent (alpha 0, blended)".to_string(),
            Some(Hiding::CutOut { alpha, cutoff }) => {
                format!("is cut out everywhere (alpha {alpha} under its cutoff {cutoff})")
            }
            None => continue,
        };
        let mut meshes: Vec<String> = Vec::new();
        let mut primitives = 0;
        for mesh in &model.meshes {
            let using = (mesh.primitives.iter()).filter(|p| p.material == Some(index)).count();
            if using > 0 && !meshes.iter().any(|m| m.as_str() == mesh.name) {
                meshes.push(mesh.name.clone());
            }
            primitives += using;
        }
        let names: Vec<String> = meshes.iter().map(|m| format!("'{m}'")).collect();
        let meshes = match names.len() {
            1 => format!("mesh {} draws", names.join("")),
            _ => format!("meshes {} draw", names.join(", ")),
        };
        findings.add(
            Rule::InvisibleMaterial,
            format!("material '{}'", material.name),
            format!("{why}: {meshes} nothing where it covers them"),
            primitives,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::draws_something;
    use crate::asset::demo::demo_model;
    use crate::asset::material::AlphaMode;
    use crate::lint::{Rule, lint};

    fn invisible(model: &crate::asset::Model) -> Vec<(String, String, usize)> {
        (lint(model).into_iter())
            .filter(|f| f.rule == Rule::InvisibleMaterial)
            .map(|f| (f.subject, f.message, f.count))
            .collect()
    }

    #[test]
    fn a_blended_material_with_alpha_zero_names_the_meshes_it_hides() {
        let mut model = demo_model();
        assert_eq!(invisible(&model), [], "the demo is seen");
        let material = model.meshes[0].primitives[0].material.unwrap_or(0);
        model.meshes[0].primitives[0].material = Some(material);
        model.materials[material].alpha = AlphaMode::Blend;
        model.materials[material].base_color.w = 0.0;
        let name = model.materials[material].name.clone();
        let mesh = model.meshes[0].name.clone();
        let found = invisible(&model);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, format!("material '{name}'"));
        assert!(
            found[0].1
                == format!("is fully transparent (alpha 0, blended): mesh '{mesh}' draws nothing where it covers them"),
            "{found:?}"
        );

        // Half transparent is seen; opaque ignores alpha.
        model.materials[material].base_color.w = 0.5;
        assert_eq!(invisible(&model), []);
        model.materials[material].base_color.w = 0.0;
        model.materials[material].alpha = AlphaMode::Opaque;
        assert_eq!(invisible(&model), []);
    }

    #[test]
    fn what_draws_nothing_casts_no_shadow_either() {
        let mut model = demo_model();
        let material = model.meshes[0].primitives[0].material.unwrap_or(0);
        model.meshes[0].primitives[0].material = Some(material);
        assert!(draws_something(&model, material), "the demo's material");
        model.materials[material].alpha = AlphaMode::Blend;
        model.materials[material].base_color.w = 0.0;
        assert!(
            !draws_something(&model, material),
            "blended with alpha 0 (an OBJ's d 0)"
        );
        model.materials[material].base_color.w = 0.5;
        assert!(draws_something(&model, material), "half transparent");
        model.materials[material].alpha = AlphaMode::Mask { cutoff: 0.75 };
        assert!(!draws_something(&model, material), "masked under its cutoff everywhere");
        model.materials[material].alpha = AlphaMode::Opaque;
        model.materials[material].base_color.w = 0.0;
        assert!(draws_something(&model, material), "opaque ignores alpha");
        assert!(draws_something(&model, model.materials.len()), "the default material");
    }

    #[test]
    fn a_mask_whose_alpha_is_under_its_cutoff_hides_everything() {
        let mut model = demo_model();
        let material = model.meshes[0].primitives[0].material.unwrap_or(0);
        model.meshes[0].primitives[0].material = Some(material);
        model.materials[material].alpha = AlphaMode::Mask { cutoff: 0.5 };
        model.materials[material].base_color.w = 0.25;
        let found = invisible(&model);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .1
                .starts_with("is cut out everywhere (alpha 0.25 under its cutoff 0.5)"),
            "{found:?}"
        );
        model.materials[material].base_color.w = 0.5;
        assert_eq!(invisible(&model), [], "alpha at the cutoff is drawn");
    }
}
