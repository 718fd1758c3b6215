//! VRMC_materials_mtoon 1.0 on an MToon material: every factor the loader reads
//! (`asset::gltf::mtoon`), the defaults too (three-vrm reads the specification text's defaults,
//! UniVRM its JSON schema's, which differ for four of them, so a factor left out could read
//! back otherwise), and MToon's six textures. The shading shift texture carries its `scale`;
//! without the texture that scale changes nothing and is not written.

use serde_json::{Map, Value, json};

use super::texture_info::TextureInfo;
use crate::asset::material::{Material, MaterialTexture};
use crate::asset::mtoon::{MToon, OutlineWidthMode};

pub const EXTENSION: &str = "VRMC_materials_mtoon";

/// MToon's texture slots.
pub const TEXTURES: [MaterialTexture; 6] = [
    MaterialTexture::ShadeMultiply,
    MaterialTexture::ShadingShift,
    MaterialTexture::Matcap,
    MaterialTexture::RimMultiply,
    MaterialTexture::OutlineWidthMultiply,
    MaterialTexture::UvAnimationMask,
];

/// The texture slots of `material` this module writes (MToon's, where it is an MToon
/// material), so that the texture writer writes their images.
pub fn written_slots(material: &Material) -> impl Iterator<Item = MaterialTexture> {
    let mtoon = material.layers.mtoon.is_some();
    TEXTURES.into_iter().filter(move |_| mtoon)
}

/// The extension's JSON for `mtoon`, whose textures (in `TEXTURES` order) were written as
/// `textures` (None: the material has none there, or its image could not be written).
pub fn extension_json(mtoon: &MToon, textures: [Option<TextureInfo>; 6]) -> Value {
    let mut json = json!({
        "specVersion": "1.0",
        "transparentWithZWrite": mtoon.transparent_with_z_write,
        "renderQueueOffsetNumber": mtoon.render_queue_offset,
        "shadeColorFactor": mtoon.shade_color.to_array(),
        "shadingShiftFactor": mtoon.shading_shift,
        "shadingToonyFactor": mtoon.shading_toony,
        "giEqualizationFactor": mtoon.gi_equalization,
        "matcapFactor": mtoon.matcap.to_array(),
        "parametricRimColorFactor": mtoon.parametric_rim_color.to_array(),
        "parametricRimFresnelPowerFactor": mtoon.parametric_rim_fresnel_power,
        "parametricRimLiftFactor": mtoon.parametric_rim_lift,
        "rimLightingMixFactor": mtoon.rim_lighting_mix,
        "outlineWidthMode": match mtoon.outline_width_mode {
            OutlineWidthMode::None => "none",
            OutlineWidthMode::World => "worldCoordinates",
            OutlineWidthMode::Screen => "screenCoordinates",
        },
        "outlineWidthFactor": mtoon.outline_width,
        "outlineColorFactor": mtoon.outline_color.to_array(),
        "outlineLightingMixFactor": mtoon.outline_lighting_mix,
        "uvAnimationScrollXSpeedFactor": mtoon.uv_scroll_x,
        "uvAnimationScrollYSpeedFactor": mtoon.uv_scroll_y,
        "uvAnimationRotationSpeedFactor": mtoon.uv_rotation,
    });
    if let Some(object) = json.as_object_mut() {
        for (slot, info) in TEXTURES.into_iter().zip(textures) {
            let Some(info) = info else { continue };
            let mut info: Map<String, Value> = info.to_json();
            if slot == MaterialTexture::ShadingShift {
                info.insert("scale".into(), json!(mtoon.shading_shift_texture_scale));
            }
            object.insert(slot.name().into(), Value::Object(info));
        }
    }
    json
}
