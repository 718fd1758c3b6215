//! VRM 0.x's `materialProperties`, one per material: an MToon material as "VRM/MToon"
//! properties, the inverse of the loader's conversion to MToon 1.0 (`asset::gltf::vrm_mtoon`,
//! three-vrm's): colours back to gamma 2.2, toony and shift back to 0.x's ramp, the outline
//! width in centimetres, the UV scroll's Y reversed, `_MainTex`'s scale and offset (V flipped)
//! from the base colour texture's transform, and the blended materials' render queues from
//! their offsets (the loader ranks the queues, so a rank's queue reads back as that rank). The
//! unlit shaders read as MToon; they are written as the MToon they read as. Any other material
//! is "VRM_USE_GLTFSHADER".
//!
//! The textures are the ones the material writer wrote: it put MToon's in the material's
//! VRMC_materials_mtoon, which a 0.x file does not use, so that is taken off here.
//! What 0.x MToon cannot hold (a texture moved otherwise than the base colour's, metal, a
//! shading shift texture, a matcap colour) is a warning.

use glam::{Vec3, Vec4};
use gltf_json as json;
use serde_json::{Map, Value, json};

use super::document::Document;
use super::vrm_mtoon::EXTENSION as MTOON;
use crate::asset::material::{AlphaMode, Material, MaterialTexture};
use crate::asset::mtoon::{MToon, OutlineWidthMode};
use crate::asset::texture::UvTransform;

/// The properties of every material, in order (glTF material i is model material i); the
/// VRMC_materials_mtoon the material writer wrote is taken off each.
pub fn material_properties(document: &mut Document, materials: &[Material]) -> Value {
    let mut properties = Vec::with_capacity(materials.len());
    for (index, material) in materials.iter().enumerate() {
        let Some(written) = document.root.materials.get_mut(index) else {
            break;
        };
        let mtoon_json = (written.extensions.as_mut()).and_then(|e| e.others.remove(MTOON));
        if written.extensions.as_ref().is_some_and(|e| e.others.is_empty()) {
            written.extensions = None;
        }
        let textures = WrittenTextures::of(written, mtoon_json.as_ref());
        let json = match &material.layers.mtoon {
            Some(mtoon) => {
                for why in unheld(material, mtoon) {
                    document.warn(format!(
                        "material '{}': VRM 0.x MToon has no {why} (left out)",
                        material.name
                    ));
                }
                mtoon_properties(material, mtoon, &textures)
            }
            None => json!({ "name": material.name, "shader": "VRM_USE_GLTFSHADER" }),
        };
        properties.push(json);
    }
    document.root.extensions_used.retain(|e| e != MTOON);
    Value::Array(properties)
}

/// The glTF texture index of each slot, as the material writer wrote them.
struct WrittenTextures(Vec<(MaterialTexture, usize)>);

impl WrittenTextures {
    /// The textures of `material` as written, MToon's from its VRMC_materials_mtoon `mtoon`.
    fn of(material: &json::Material, mtoon: Option<&Value>) -> Self {
        let pbr = &material.pbr_metallic_roughness;
        let mut slots = vec![
            (
                MaterialTexture::BaseColor,
                pbr.base_color_texture.as_ref().map(|t| t.index.value()),
            ),
            (
                MaterialTexture::Normal,
                material.normal_texture.as_ref().map(|t| t.index.value()),
            ),
            (
                MaterialTexture::Emissive,
                material.emissive_texture.as_ref().map(|t| t.index.value()),
            ),
        ];
        for slot in super::vrm_mtoon::TEXTURES {
            let index = mtoon.and_then(|m| m.pointer(&format!("/{}/index", slot.name())));
            slots.push((slot, index.and_then(Value::as_u64).map(|i| i as usize)));
        }
        Self(
            slots
                .into_iter()
                .filter_map(|(slot, index)| Some((slot, index?)))
                .collect(),
        )
    }

    /// The glTF texture of `slot` (None: the material has none there).
    fn get(&self, slot: MaterialTexture) -> Option<usize> {
        self.0.iter().find(|(s, _)| *s == slot).map(|&(_, index)| index)
    }
}

/// What of `material` 0.x MToon cannot hold, one phrase each.
fn unheld(material: &Material, mtoon: &MToon) -> Vec<&'static str> {
    let main = main_transform(material);
    let moved_otherwise = (MaterialTexture::ALL.into_iter())
        .filter(|&slot| slot != MaterialTexture::Matcap)
        .filter_map(|slot| slot.of(material))
        .any(|texture| texture.transform != main || texture.tex_coord != 0);
    [
        (moved_otherwise, "texture moved otherwise than the base colour's"),
        (
            material.metallic != 0.0 || material.roughness != 1.0,
            "metal or roughness",
        ),
        (
            material.metallic_roughness_texture.is_some(),
            "metallic-roughness texture",
        ),
        (material.occlusion_texture.is_some(), "occlusion texture"),
        (
            MaterialTexture::ShadingShift.of(material).is_some(),
            "shading shift texture",
        ),
        (mtoon.matcap != Vec3::ONE, "matcap colour"),
    ]
    .into_iter()
    .filter_map(|(unheld, why)| unheld.then_some(why))
    .collect()
}

/// `_MainTex`'s transform: the base colour texture's, else the first other texture's.
fn main_transform(material: &Material) -> UvTransform {
    let moved = [
        MaterialTexture::BaseColor,
        MaterialTexture::ShadeMultiply,
        MaterialTexture::Normal,
    ];
    (moved.into_iter().chain(MaterialTexture::ALL))
        .filter(|&slot| slot != MaterialTexture::Matcap)
        .find_map(|slot| slot.of(material))
        .map(|texture| texture.transform)
        .unwrap_or_default()
}

/// "VRM/MToon" properties that the loader converts back to `material`.
fn mtoon_properties(material: &Material, mtoon: &MToon, textures: &WrittenTextures) -> Value {
    let blended = material.alpha == AlphaMode::Blend;
    let mut keywords = Map::new();
    let mut floats = Map::new();
    let queue = match material.alpha {
        AlphaMode::Opaque => 2000,
        AlphaMode::Mask { cutoff } => {
            keywords.insert("_ALPHATEST_ON".into(), json!(true));
            floats.insert("_Cutoff".into(), json!(cutoff));
            2450
        }
        // The loader ranks the blended queues of each kind: those writing depth count up
        // from 0, the others down to 0.
        AlphaMode::Blend => {
            keywords.insert("_ALPHABLEND_ON".into(), json!(true));
            match mtoon.transparent_with_z_write {
                true => 2501 + mtoon.render_queue_offset,
                false => 3000 + mtoon.render_queue_offset,
            }
        }
    };
    if material.normal_texture.is_some() {
        keywords.insert("_NORMALMAP".into(), json!(true));
    }
    let (shade_shift, shade_toony) = ramp_0_x(mtoon.shading_toony, mtoon.shading_shift);
    // The loader reads 0 as "not given" (0.9); a gi equalisation of 1 is any intensity below 0.
    let intensity = 1.0 - mtoon.gi_equalization;
    let indirect = if intensity == 0.0 { -f32::EPSILON } else { intensity };
    let outline_mode = match mtoon.outline_width_mode {
        OutlineWidthMode::None => 0.0,
        OutlineWidthMode::World => 1.0,
        OutlineWidthMode::Screen => 2.0,
    };
    for (name, value) in [
        ("_ShadeShift", shade_shift),
        ("_ShadeToony", shade_toony),
        ("_CullMode", if material.double_sided { 0.0 } else { 2.0 }),
        (
            "_ZWrite",
            if blended && !mtoon.transparent_with_z_write {
                0.0
            } else {
                1.0
            },
        ),
        ("_BumpScale", material.normal_scale),
        ("_IndirectLightIntensity", indirect),
        ("_RimFresnelPower", mtoon.parametric_rim_fresnel_power),
        ("_RimLift", mtoon.parametric_rim_lift),
        ("_RimLightingMix", mtoon.rim_lighting_mix),
        ("_OutlineWidthMode", outline_mode),
        ("_OutlineWidth", 100.0 * mtoon.outline_width),
        ("_OutlineColorMode", 1.0),
        ("_OutlineLightingMix", mtoon.outline_lighting_mix),
        ("_UvAnimScrollX", mtoon.uv_scroll_x),
        ("_UvAnimScrollY", -mtoon.uv_scroll_y),
        ("_UvAnimRotation", mtoon.uv_rotation),
    ] {
        floats.insert(name.into(), json!(value));
    }
    let main = main_transform(material);
    let st = [
        main.offset.x,
        1.0 - main.scale.y - main.offset.y,
        main.scale.x,
        main.scale.y,
    ];
    let base = material.base_color;
    let vectors = json!({
        "_Color": gamma(base.truncate()).extend(base.w).to_array(),
        "_ShadeColor": gamma(mtoon.shade_color).extend(1.0).to_array(),
        "_RimColor": gamma(mtoon.parametric_rim_color).extend(1.0).to_array(),
        "_OutlineColor": gamma(mtoon.outline_color).extend(1.0).to_array(),
        "_EmissionColor": gamma(material.emissive * material.emissive_strength).extend(1.0).to_array(),
        "_MainTex": Vec4::from(st).to_array(),
    });
    let mut texture_properties = Map::new();
    for (name, slot) in [
        ("_MainTex", MaterialTexture::BaseColor),
        ("_ShadeTexture", MaterialTexture::ShadeMultiply),
        ("_BumpMap", MaterialTexture::Normal),
        ("_EmissionMap", MaterialTexture::Emissive),
        ("_SphereAdd", MaterialTexture::Matcap),
        ("_RimTexture", MaterialTexture::RimMultiply),
        ("_OutlineWidthTexture", MaterialTexture::OutlineWidthMultiply),
        ("_UvAnimMaskTexture", MaterialTexture::UvAnimationMask),
    ] {
        if let Some(index) = textures.get(slot) {
            texture_properties.insert(name.into(), json!(index));
        }
    }
    json!({
        "name": material.name,
        "shader": "VRM/MToon",
        "renderQueue": queue,
        "keywordMap": keywords,
        "tagMap": { "RenderType": if blended { "Transparent" } else { "Opaque" } },
        "floatProperties": floats,
        "vectorProperties": vectors,
        "textureProperties": texture_properties,
    })
}

/// 0.x's `_ShadeShift` and `_ShadeToony` for 1.0's toony and shift, inverting three-vrm's
/// `toony = t + (1 - t)(0.5 + 0.5 s)`, `shift = -s - (1 - toony)`. At `s = 1` every `t`
/// gives a toony of 1: 0 is taken.
fn ramp_0_x(toony: f32, shift: f32) -> (f32, f32) {
    let shade_shift = -(shift + 1.0 - toony);
    let rest = 0.5 - 0.5 * shade_shift;
    let shade_toony = match rest.abs() > f32::EPSILON {
        true => (toony - 0.5 - 0.5 * shade_shift) / rest,
        false => 0.0,
    };
    (shade_shift, shade_toony)
}

/// Linear to gamma 2.2, as the loader decodes 0.x's colours (negative channels are 0).
fn gamma(colour: Vec3) -> Vec3 {
    colour.max(Vec3::ZERO).powf(1.0 / 2.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_goes_back_to_what_three_vrm_converts_to_it() {
        for (t, s) in [(0.8f32, -0.2f32), (0.9, 0.0), (0.0, 0.5), (1.0, -1.0), (0.3, 0.9)] {
            let toony = t + (1.0 - t) * (0.5 + 0.5 * s);
            let shift = -s - (1.0 - toony);
            let (shade_shift, shade_toony) = ramp_0_x(toony, shift);
            assert!(
                (shade_shift - s).abs() < 1e-6 && (shade_toony - t).abs() < 1e-5,
                "{t} {s}"
            );
        }
    }
}
