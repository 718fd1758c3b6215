//! Materials compared: paired by name, then by index; their factors, their textures (by the
//! image's bytes, so a texture embedded in one file and beside the other compares equal) and
//! the extensions whose layers they use.

use serde::Serialize;

use super::{Finding, Section, Tolerance, pair_by_name};
use crate::asset::material::{AlphaMode, MaterialLayers, MaterialTexture};
use crate::asset::{Material, Model};

/// How far two factors may be apart and still agree (colours, roughness, strengths: all of
/// them are shown in steps far coarser).
const FACTOR_TOLERANCE: f32 = 1.0e-4;

/// A material that differs, or that only one model has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MaterialDiff {
    /// A's name (B's for a material only in B).
    pub name: String,
    pub material: Option<usize>,
    pub material_b: Option<usize>,
    /// What changed, one line each ("roughness 0.5 → 0.8", "baseColorTexture: other image").
    pub changes: Vec<String>,
}

/// One factor of a material: its name, the extension that holds it (None: the core
/// material) and its value: up to four numbers, and how many it has.
type Factor = (&'static str, Option<&'static str>, ([f32; 4], usize));

/// A material's factors, in the order the report lists them.
fn factors(material: &Material) -> Vec<Factor> {
    let l = &material.layers;
    let v3 = |v: glam::Vec3| ([v.x, v.y, v.z, 0.0], 3);
    let one = |x: f32| ([x, 0.0, 0.0, 0.0], 1);
    let two = |x: f32, y: f32| ([x, y, 0.0, 0.0], 2);
    let flag = |b: bool| one(f32::from(u8::from(b)));
    let (alpha_mode, cutoff) = match material.alpha {
        AlphaMode::Opaque => (0.0, 0.0),
        AlphaMode::Mask { cutoff } => (1.0, cutoff),
        AlphaMode::Blend => (2.0, 0.0),
    };
    let spec_gloss = l
        .specular_glossiness
        .map_or([0.0; 4], |s| [s.specular.x, s.specular.y, s.specular.z, s.glossiness]);
    vec![
        ("base colour", None, (material.base_color.to_array(), 4)),
        ("metallic", None, one(material.metallic)),
        ("roughness", None, one(material.roughness)),
        ("normal scale", None, one(material.normal_scale)),
        ("occlusion strength", None, one(material.occlusion_strength)),
        ("emissive", None, v3(material.emissive)),
        (
            "emissive strength",
            Some("KHR_materials_emissive_strength"),
            one(material.emissive_strength),
        ),
        (
            "alpha mode (0 opaque, 1 mask, 2 blend) and cutoff",
            None,
            two(alpha_mode, cutoff),
        ),
        ("double sided", None, flag(material.double_sided)),
        ("unlit", Some("KHR_materials_unlit"), flag(material.unlit)),
        ("ior", Some("KHR_materials_ior"), one(l.ior)),
        ("specular", Some("KHR_materials_specular"), one(l.specular)),
        ("specular colour", Some("KHR_materials_specular"), v3(l.specular_color)),
        ("sheen colour", Some("KHR_materials_sheen"), v3(l.sheen_color)),
        ("sheen roughness", Some("KHR_materials_sheen"), one(l.sheen_roughness)),
        ("clearcoat", Some("KHR_materials_clearcoat"), one(l.clearcoat)),
        (
            "clearcoat roughness",
            Some("KHR_materials_clearcoat"),
            one(l.clearcoat_roughness),
        ),
        (
            "clearcoat normal scale",
            Some("KHR_materials_clearcoat"),
            one(l.clearcoat_normal_scale),
        ),
        ("transmission", Some("KHR_materials_transmission"), one(l.transmission)),
        ("thickness", Some("KHR_materials_volume"), one(l.thickness)),
        (
            "attenuation distance",
            Some("KHR_materials_volume"),
            one(l.attenuation_distance),
        ),
        (
            "attenuation colour",
            Some("KHR_materials_volume"),
            v3(l.attenuation_color),
        ),
        ("dispersion", Some("KHR_materials_dispersion"), one(l.dispersion)),
        ("iridescence", Some("KHR_materials_iridescence"), one(l.iridescence)),
        (
            "iridescence ior",
            Some("KHR_materials_iridescence"),
            one(l.iridescence_ior),
        ),
        (
            "iridescence thickness (minimum, maximum)",
            Some("KHR_materials_iridescence"),
            two(l.iridescence_thickness_minimum, l.iridescence_thickness),
        ),
        (
            "diffuse transmission",
            Some("KHR_materials_diffuse_transmission"),
            one(l.diffuse_transmission),
        ),
        (
            "diffuse transmission colour",
            Some("KHR_materials_diffuse_transmission"),
            v3(l.diffuse_transmission_color),
        ),
        ("anisotropy", Some("KHR_materials_anisotropy"), one(l.anisotropy)),
        (
            "anisotropy rotation",
            Some("KHR_materials_anisotropy"),
            one(l.anisotropy_rotation),
        ),
        (
            "specular and glossiness",
            Some("KHR_materials_pbrSpecularGlossiness"),
            (spec_gloss, 4),
        ),
    ]
}

/// The extensions whose layers `material` uses: those where a factor differs from the
/// default, a texture is given, or (MToon, specular-glossiness) the layer is present.
fn extensions(material: &Material) -> Vec<&'static str> {
    let defaults = factors(&Material {
        layers: MaterialLayers::default(),
        ..material.clone()
    });
    let mut used: Vec<&'static str> = (factors(material).into_iter().zip(defaults))
        .filter(|(factor, default)| !agree(&factor.2.0, &default.2.0))
        .filter_map(|(factor, _)| factor.1)
        .filter(|extension| !matches!(*extension, "KHR_materials_emissive_strength" | "KHR_materials_unlit"))
        .collect();
    let textured = MaterialTexture::ALL.into_iter().filter(|t| t.of(material).is_some());
    used.extend(textured.filter_map(MaterialTexture::extension));
    if material.layers.mtoon.is_some() {
        used.push("VRMC_materials_mtoon");
    }
    if material.layers.specular_glossiness.is_some() {
        used.push("KHR_materials_pbrSpecularGlossiness");
    }
    used.sort_unstable();
    used.dedup();
    used
}

fn agree(a: &[f32; 4], b: &[f32; 4]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| x == y || (x - y).abs() <= FACTOR_TOLERANCE)
}

/// "0.5" or "(1, 0.5, 0.25, 1)": the first `width` numbers of a factor.
fn shown(values: &[f32; 4], width: usize) -> String {
    let numbers: Vec<String> = values[..width].iter().map(|v| format!("{v}")).collect();
    match width {
        1 => numbers.join(""),
        _ => format!("({})", numbers.join(", ")),
    }
}

/// What changed from material `a` of `model_a` to material `b` of `model_b`.
fn changes<'a>(model_a: &'a Model, a: &Material, model_b: &'a Model, b: &Material) -> Vec<String> {
    let mut changes = Vec::new();
    for ((name, _, (value, width)), (_, _, (value_b, _))) in factors(a).into_iter().zip(factors(b)) {
        if !agree(&value, &value_b) {
            changes.push(format!("{name} {} → {}", shown(&value, width), shown(&value_b, width)));
        }
    }
    if a.layers.mtoon != b.layers.mtoon {
        changes.push("MToon factors changed".to_owned());
    }
    for slot in MaterialTexture::ALL {
        let image = |model: &'a Model, material: &Material| {
            let texture = slot.of(material)?;
            Some((model.images.get(texture.image).map(|i| &i.bytes[..]), texture.tex_coord))
        };
        let change = match (image(model_a, a), image(model_b, b)) {
            (None, None) => continue,
            (Some(_), None) => "removed".to_owned(),
            (None, Some(_)) => "added".to_owned(),
            (Some((bytes, set)), Some((bytes_b, set_b))) => {
                if bytes != bytes_b {
                    let size = |bytes: Option<&[u8]>| bytes.map_or(0, <[u8]>::len);
                    format!("other image ({} → {} bytes)", size(bytes), size(bytes_b))
                } else if set != set_b {
                    format!("reads TEXCOORD_{set_b} in place of TEXCOORD_{set}")
                } else {
                    continue;
                }
            }
        };
        changes.push(format!("{}: {change}", slot.name()));
    }
    let (used, used_b) = (extensions(a), extensions(b));
    for extension in used_b.iter().filter(|e| !used.contains(e)) {
        changes.push(format!("{extension} added"));
    }
    for extension in used.iter().filter(|e| !used_b.contains(e)) {
        changes.push(format!("{extension} removed"));
    }
    changes
}

/// Compares the materials of `a` and `b`; the tolerance is fixed (`FACTOR_TOLERANCE`).
pub fn compare(a: &Model, b: &Model, _tolerance: &Tolerance, findings: &mut Vec<Finding>) -> Vec<MaterialDiff> {
    let pairs = pair_by_name(a.materials.iter().map(|m| m.name.as_str()), &b.materials, |m| {
        m.name.as_str()
    });
    let mut diffs = Vec::new();
    for (index, material) in a.materials.iter().enumerate() {
        let pair = pairs[index].and_then(|i| Some((i, b.materials.get(i)?)));
        let changes = match pair {
            Some((_, material_b)) => changes(a, material, b, material_b),
            None => vec!["removed".to_owned()],
        };
        if !changes.is_empty() {
            diffs.push(MaterialDiff {
                name: material.name.clone(),
                material: Some(index),
                material_b: pair.map(|(i, _)| i),
                changes,
            });
        }
    }
    for (index, material) in b
        .materials
        .iter()
        .enumerate()
        .filter(|(i, _)| !pairs.contains(&Some(*i)))
    {
        diffs.push(MaterialDiff {
            name: material.name.clone(),
            material: None,
            material_b: Some(index),
            changes: vec!["added".to_owned()],
        });
    }
    for diff in &diffs {
        findings.extend(diff.changes.iter().map(|change| Finding {
            section: Section::Materials,
            text: format!("'{}': {change}", diff.name),
            joint: None,
            clip: None,
            time: None,
        }));
    }
    diffs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_with(material: Material) -> Model {
        let mut model = crate::asset::demo::demo_model();
        model.materials = vec![material];
        model
    }

    #[test]
    fn changed_factors_and_extensions_are_named_with_their_values() {
        let a = model_with(Material::default());
        let mut changed = Material {
            roughness: 0.25,
            ..Material::default()
        };
        changed.layers.sheen_color = glam::Vec3::new(1.0, 0.5, 0.0);
        let b = model_with(changed);
        let mut findings = Vec::new();
        let diffs = compare(&a, &b, &Tolerance::default(), &mut findings);
        assert_eq!(
            diffs[0].changes,
            [
                "roughness 1 → 0.25",
                "sheen colour (0, 0, 0) → (1, 0.5, 0)",
                "KHR_materials_sheen added"
            ]
        );
        assert_eq!(findings[0].text, "'default': roughness 1 → 0.25");
        assert!(compare(&a, &a, &Tolerance::default(), &mut Vec::new()).is_empty());
    }
}
