//! VRM 0.x's materials (`VRM.materialProperties`, one per glTF material, in order) converted
//! to MToon 1.0 as three-vrm's VRMMaterialsV0CompatPlugin converts them: "VRM/MToon" with
//! its colours (gamma 2.2 to linear), textures (all but the matcap moved by `_MainTex`'s
//! scale and offset, V flipped), toony and shift, rim, outline (centimetres to metres) and
//! UV animation (Y reversed); the "VRM/Unlit*" shaders as MToon whose shade is its lit
//! colour; "VRM_USE_GLTFSHADER" leaves the glTF material; any other shader is a warning and
//! leaves it too.

use glam::{Vec2, Vec3, Vec4};
use gltf_json::Root;
use serde_json::Value;

use super::material::{TextureInfo, texture_ref};
use super::vrm_json;
use crate::asset::TextureRef;
use crate::asset::material::{AlphaMode, Material, MaterialLayers, MaterialTexture};
use crate::asset::mtoon::{MToon, OutlineWidthMode};
use crate::asset::texture::UvTransform;

/// Converts each of `materials` that VRM 0.x extension `extension` gives a VRM shader.
pub fn convert(root: &Root, extension: &Value, materials: &mut [Material], warnings: &mut Vec<String>) {
    let properties: Vec<&Value> = vrm_json::array(extension, "materialProperties").collect();
    if properties.len() > materials.len() {
        warnings.push(format!(
            "/extensions/VRM/materialProperties: {} entries for {} materials (the rest ignored)",
            properties.len(),
            materials.len()
        ));
    }
    let queues = QueueOffsets::new(&properties);
    for (index, (json, material)) in properties.iter().zip(materials.iter_mut()).enumerate() {
        let at = format!("/extensions/VRM/materialProperties/{index}");
        let shader = json.get("shader").and_then(Value::as_str).unwrap_or_default();
        let mut reader = Properties {
            root,
            json,
            at: &at,
            warnings,
        };
        let converted = match shader {
            "VRM/MToon" => mtoon(&mut reader),
            "VRM/UnlitTexture" | "VRM/UnlitCutout" | "VRM/UnlitTransparent" | "VRM/UnlitTransparentZWrite" => {
                unlit(&mut reader, shader)
            }
            "VRM_USE_GLTFSHADER" => continue,
            other => {
                warnings.push(format!(
                    "{at}/shader: '{other}' is not a VRM shader rigscope knows (drawn as its glTF material)"
                ));
                continue;
            }
        };
        let mut converted = converted;
        if let Some(mtoon) = &mut converted.layers.mtoon {
            mtoon.render_queue_offset = queues.offset(json);
        }
        *material = Material {
            name: std::mem::take(&mut material.name),
            ..converted
        };
    }
}

/// "VRM/MToon": every property three-vrm reads.
fn mtoon(p: &mut Properties) -> Material {
    let keyword = |name: &str| p.json.pointer(&format!("/keywordMap/{name}")).and_then(Value::as_bool) == Some(true);
    let alpha = if keyword("_ALPHABLEND_ON") {
        AlphaMode::Blend
    } else if keyword("_ALPHATEST_ON") {
        AlphaMode::Mask {
            cutoff: p.float("_Cutoff").unwrap_or(0.5),
        }
    } else {
        AlphaMode::Opaque
    };
    let blended = alpha == AlphaMode::Blend;
    let main = p.main_transform();
    let base = p.vector("_Color").unwrap_or(Vec4::ONE);
    let mut layers = MaterialLayers::default();
    let mut texture = |p: &mut Properties, slot: MaterialTexture, name: &str| {
        layers.textures[slot as usize - MaterialTexture::Transmission as usize] = p.texture(name, Some(main));
    };
    texture(p, MaterialTexture::ShadeMultiply, "_ShadeTexture");
    texture(p, MaterialTexture::RimMultiply, "_RimTexture");
    texture(p, MaterialTexture::OutlineWidthMultiply, "_OutlineWidthTexture");
    texture(p, MaterialTexture::UvAnimationMask, "_UvAnimMaskTexture");
    layers.textures[MaterialTexture::Matcap as usize - MaterialTexture::Transmission as usize] =
        p.texture("_SphereAdd", None);
    // Toony and shift moved from 0.x's ramp to 1.0's (three-vrm's formula).
    let shade_shift = p.float("_ShadeShift").unwrap_or(0.0);
    let shade_toony = p.float("_ShadeToony").unwrap_or(0.9);
    let shading_toony = shade_toony + (1.0 - shade_toony) * (0.5 + 0.5 * shade_shift);
    let outline_width_mode = match p.float("_OutlineWidthMode").unwrap_or(0.0) as i32 {
        1 => OutlineWidthMode::World,
        2 => OutlineWidthMode::Screen,
        _ => OutlineWidthMode::None,
    };
    let mixed_outline = p.float("_OutlineColorMode") == Some(1.0);
    let indirect = p.float("_IndirectLightIntensity").filter(|&x| x != 0.0);
    let defaults = MToon::default();
    layers.mtoon = Some(MToon {
        transparent_with_z_write: blended && p.float("_ZWrite") == Some(1.0),
        render_queue_offset: 0,
        shade_color: p.colour("_ShadeColor").unwrap_or(Vec3::new(0.97, 0.81, 0.86)),
        shading_shift: -shade_shift - (1.0 - shading_toony),
        shading_shift_texture_scale: 1.0,
        shading_toony: shading_toony.clamp(0.0, 1.0),
        gi_equalization: indirect.map_or(defaults.gi_equalization, |x| (1.0 - x).clamp(0.0, 1.0)),
        matcap: Vec3::ONE,
        parametric_rim_color: p.colour("_RimColor").unwrap_or(Vec3::ZERO),
        parametric_rim_fresnel_power: p.float("_RimFresnelPower").unwrap_or(1.0).max(0.0),
        parametric_rim_lift: p.float("_RimLift").unwrap_or(0.0),
        rim_lighting_mix: p.float("_RimLightingMix").unwrap_or(0.0).clamp(0.0, 1.0),
        outline_width_mode,
        outline_width: (0.01 * p.float("_OutlineWidth").unwrap_or(0.0)).max(0.0),
        outline_color: p.colour("_OutlineColor").unwrap_or(Vec3::ZERO),
        outline_lighting_mix: match mixed_outline {
            true => p.float("_OutlineLightingMix").unwrap_or(1.0).clamp(0.0, 1.0),
            false => 0.0,
        },
        uv_scroll_x: p.float("_UvAnimScrollX").unwrap_or(0.0),
        uv_scroll_y: -p.float("_UvAnimScrollY").unwrap_or(0.0),
        uv_rotation: p.float("_UvAnimRotation").unwrap_or(0.0),
    });
    let emission = p
        .vector("_EmissionColor")
        .map_or(Vec3::ZERO, |c| gamma_to_linear(c.truncate()));
    Material {
        base_color: gamma_to_linear(base.truncate()).extend(base.w.clamp(0.0, 1.0)),
        base_color_texture: p.texture("_MainTex", Some(main)),
        metallic: 0.0,
        roughness: 1.0,
        normal_texture: p.texture("_BumpMap", Some(main)),
        normal_scale: p.float("_BumpScale").unwrap_or(1.0),
        emissive: emission,
        emissive_texture: p.texture("_EmissionMap", Some(main)),
        alpha,
        double_sided: p.float("_CullMode").unwrap_or(2.0) == 0.0,
        layers,
        ..Material::default()
    }
}

/// "VRM/Unlit*": MToon whose shade is its lit colour (so it still takes the light, as in
/// three-vrm).
fn unlit(p: &mut Properties, shader: &str) -> Material {
    let alpha = match shader {
        "VRM/UnlitCutout" => AlphaMode::Mask {
            cutoff: p.float("_Cutoff").unwrap_or(0.5),
        },
        "VRM/UnlitTransparent" | "VRM/UnlitTransparentZWrite" => AlphaMode::Blend,
        _ => AlphaMode::Opaque,
    };
    let main = p.main_transform();
    // three-vrm takes the alpha through the gamma curve too.
    let colour = p.vector("_Color").unwrap_or(Vec4::ONE);
    let base = colour.clamp(Vec4::ZERO, Vec4::ONE).powf(2.2);
    let base_texture = p.texture("_MainTex", Some(main));
    let mut layers = MaterialLayers::default();
    layers.textures[MaterialTexture::ShadeMultiply as usize - MaterialTexture::Transmission as usize] = base_texture;
    layers.mtoon = Some(MToon {
        transparent_with_z_write: shader == "VRM/UnlitTransparentZWrite",
        shade_color: base.truncate(),
        ..MToon::default()
    });
    Material {
        base_color: base,
        base_color_texture: base_texture,
        metallic: 0.0,
        roughness: 1.0,
        alpha,
        double_sided: false,
        layers,
        ..Material::default()
    }
}

/// 0.x colours are gamma-encoded; three-vrm decodes them with a plain 2.2 power. (Unity's HDR
/// colours may pass 1; an absurd one stays finite.)
fn gamma_to_linear(colour: Vec3) -> Vec3 {
    colour.clamp(Vec3::ZERO, Vec3::splat(1000.0)).powf(2.2)
}

/// One material's properties, read with warnings naming them.
struct Properties<'a> {
    root: &'a Root,
    json: &'a Value,
    at: &'a str,
    warnings: &'a mut Vec<String>,
}

impl Properties<'_> {
    /// `floatProperties/name`, where it is a finite number.
    fn float(&self, name: &str) -> Option<f32> {
        self.json.get("floatProperties").and_then(|f| vrm_json::number(f, name))
    }

    /// `vectorProperties/name` as four finite numbers.
    fn vector(&mut self, name: &str) -> Option<Vec4> {
        let value = self.json.get("vectorProperties")?.get(name)?;
        let vector = vrm_json::numbers::<4>(value).map(Vec4::from);
        if vector.is_none() {
            self.warnings.push(format!(
                "{}/vectorProperties/{name}: {value} is not four finite numbers (ignored)",
                self.at
            ));
        }
        vector
    }

    /// Colour `name` (RGB of a vector), gamma-decoded.
    fn colour(&mut self, name: &str) -> Option<Vec3> {
        self.vector(name).map(|c| gamma_to_linear(c.truncate()))
    }

    /// `_MainTex`'s scale and offset as a texture transform ([offset x, offset y, scale x,
    /// scale y], V flipped as glTF's coordinates run).
    fn main_transform(&mut self) -> UvTransform {
        let Some(st) = self.vector("_MainTex") else {
            return UvTransform::default();
        };
        UvTransform {
            offset: Vec2::new(st.x, 1.0 - st.w - st.y),
            rotation: 0.0,
            scale: Vec2::new(st.z, st.w),
        }
    }

    /// Texture `textureProperties/name` (a glTF texture index), moved by `transform`.
    fn texture(&mut self, name: &str, transform: Option<UvTransform>) -> Option<TextureRef> {
        let value = self.json.get("textureProperties")?.get(name)?;
        let object = format!("{}/textureProperties/{name}", self.at);
        let Some(index) = value.as_u64() else {
            self.warnings
                .push(format!("{object}: {value} is not a texture index (ignored)"));
            return None;
        };
        let info = TextureInfo {
            texture: index as usize,
            tex_coord: 0,
            extensions: None,
        };
        match texture_ref(self.root, info, &object, self.warnings) {
            Ok(reference) => reference.map(|r| TextureRef {
                transform: transform.unwrap_or(r.transform),
                ..r
            }),
            Err(error) => {
                self.warnings.push(format!("{error} (drawn without it)"));
                None
            }
        }
    }
}

/// 0.x's render queues as 1.0's offsets (three-vrm's rule): per kind of blended material
/// (writing depth or not), its distinct queues in order; those that write depth count up
/// from 0, the others down to 0, each within 9.
struct QueueOffsets {
    writing_depth: Vec<i64>,
    not_writing_depth: Vec<i64>,
}

impl QueueOffsets {
    fn new(properties: &[&Value]) -> Self {
        let mut queues = Self {
            writing_depth: Vec::new(),
            not_writing_depth: Vec::new(),
        };
        for json in properties {
            match blended_writing_depth(json) {
                Some(true) => queues.writing_depth.push(queue(json)),
                Some(false) => queues.not_writing_depth.push(queue(json)),
                None => {}
            }
        }
        for list in [&mut queues.writing_depth, &mut queues.not_writing_depth] {
            list.sort_unstable();
            list.dedup();
        }
        queues
    }

    fn offset(&self, json: &Value) -> i32 {
        let Some(writes_depth) = blended_writing_depth(json) else {
            return 0;
        };
        let list = if writes_depth {
            &self.writing_depth
        } else {
            &self.not_writing_depth
        };
        let rank = list.binary_search(&queue(json)).unwrap_or(0) as i64;
        let offset = if writes_depth {
            rank
        } else {
            rank - list.len() as i64 + 1
        };
        offset.clamp(-9, 9) as i32
    }
}

/// Whether a material blends (three-vrm: it names `_ALPHABLEND_ON` at all, or is an
/// unlit transparent shader), and if so whether it writes depth.
fn blended_writing_depth(json: &Value) -> Option<bool> {
    let shader = json.get("shader").and_then(Value::as_str).unwrap_or_default();
    let blended = json.pointer("/keywordMap/_ALPHABLEND_ON").is_some()
        || matches!(shader, "VRM/UnlitTransparent" | "VRM/UnlitTransparentZWrite");
    let writes_depth = json.pointer("/floatProperties/_ZWrite").and_then(Value::as_f64) == Some(1.0)
        || shader == "VRM/UnlitTransparentZWrite";
    blended.then_some(writes_depth)
}

/// A material's `renderQueue` (Unity's; 2000 for opaque where absent).
fn queue(json: &Value) -> i64 {
    json.get("renderQueue").and_then(Value::as_i64).unwrap_or(2000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A root with two textures and `properties` as the VRM extension's material properties,
    /// one plain material per entry; the materials converted, and the warnings.
    fn converted(properties: Value) -> (Vec<Material>, Vec<String>) {
        let count = properties.as_array().unwrap().len();
        let root: Root = serde_json::from_value(json!({
            "asset": { "version": "2.0" },
            "images": [{ "uri": "a.png" }, { "uri": "b.png" }],
            "textures": [{ "source": 0 }, { "source": 1 }],
            "materials": vec![json!({ "name": "m" }); count],
        }))
        .unwrap();
        let mut materials = vec![Material::default(); count];
        let mut warnings = Vec::new();
        convert(
            &root,
            &json!({ "materialProperties": properties }),
            &mut materials,
            &mut warnings,
        );
        (materials, warnings)
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn mtoon_properties_become_mtoon_1_0_as_three_vrm_converts_them() {
        let (materials, warnings) = converted(json!([{
            "shader": "VRM/MToon",
            "renderQueue": 2000,
            "keywordMap": { "_ALPHATEST_ON": true },
            "floatProperties": {
                "_Cutoff": 0.3, "_ShadeShift": -0.2, "_ShadeToony": 0.8, "_CullMode": 0,
                "_OutlineWidthMode": 1, "_OutlineWidth": 0.5, "_OutlineColorMode": 1, "_OutlineLightingMix": 0.7,
                "_UvAnimScrollX": 0.1, "_UvAnimScrollY": 0.2, "_UvAnimRotation": 0.3, "_IndirectLightIntensity": 0.25
            },
            "vectorProperties": {
                "_Color": [0.5, 1.0, 1.0, 0.8], "_ShadeColor": [0.5, 0.5, 0.5, 1.0],
                "_OutlineColor": [1.0, 0.0, 0.0, 1.0], "_MainTex": [0.1, 0.2, 2.0, 3.0]
            },
            "textureProperties": { "_MainTex": 0, "_ShadeTexture": 1, "_SphereAdd": 1, "_OutlineWidthTexture": 0 }
        }]));
        assert!(warnings.is_empty(), "{warnings:?}");
        let m = &materials[0];
        let mtoon = m.layers.mtoon.as_ref().unwrap();
        assert_eq!(m.name, "default", "the name stays the material's");
        assert_eq!(m.alpha, AlphaMode::Mask { cutoff: 0.3 });
        assert!(m.double_sided);
        assert!(close(m.base_color.x, 0.5f32.powf(2.2)) && close(m.base_color.w, 0.8));
        assert!(close(mtoon.shade_color.x, 0.5f32.powf(2.2)));
        // toony = lerp(0.8, 1, 0.5 + 0.5 × −0.2) = 0.88; shift = 0.2 − (1 − 0.88) = 0.08.
        assert!(
            close(mtoon.shading_toony, 0.88) && close(mtoon.shading_shift, 0.08),
            "{mtoon:?}"
        );
        assert!(close(mtoon.gi_equalization, 0.75));
        assert_eq!(mtoon.outline_width_mode, OutlineWidthMode::World);
        assert!(close(mtoon.outline_width, 0.005) && close(mtoon.outline_lighting_mix, 0.7));
        assert_eq!(mtoon.outline_color, Vec3::X);
        assert!(close(mtoon.uv_scroll_x, 0.1) && close(mtoon.uv_scroll_y, -0.2) && close(mtoon.uv_rotation, 0.3));
        // `_MainTex`'s scale and offset, V flipped, on every texture but the matcap.
        let main = m.base_color_texture.unwrap();
        assert_eq!(main.transform.scale, Vec2::new(2.0, 3.0));
        assert!(close(main.transform.offset.y, 1.0 - 3.0 - 0.2));
        let texture = |t: MaterialTexture| t.of(m).unwrap();
        assert_eq!(texture(MaterialTexture::ShadeMultiply).image, 1);
        assert_eq!(texture(MaterialTexture::ShadeMultiply).transform, main.transform);
        assert_eq!(texture(MaterialTexture::Matcap).transform, UvTransform::default());
        assert_eq!(texture(MaterialTexture::OutlineWidthMultiply).image, 0);
    }

    #[test]
    fn unlit_shaders_shade_with_their_lit_colour_and_other_shaders_are_left_alone() {
        let (materials, warnings) = converted(json!([
            { "shader": "VRM/UnlitTransparentZWrite", "vectorProperties": { "_Color": [0.5, 0.5, 0.5, 0.5] }, "textureProperties": { "_MainTex": 1 } },
            { "shader": "VRM_USE_GLTFSHADER" },
            { "shader": "Standard" },
            { "shader": "VRM/MToon", "textureProperties": { "_MainTex": 7 } }
        ]));
        let unlit = &materials[0];
        let mtoon = unlit.layers.mtoon.as_ref().unwrap();
        assert_eq!(unlit.alpha, AlphaMode::Blend);
        assert!(mtoon.transparent_with_z_write);
        assert!(
            close(unlit.base_color.w, 0.5f32.powf(2.2)),
            "three-vrm decodes the alpha too"
        );
        assert_eq!(mtoon.shade_color, unlit.base_color.truncate());
        assert_eq!(
            MaterialTexture::ShadeMultiply.of(unlit).map(|t| t.image),
            Some(1),
            "the shade is the lit texture"
        );
        assert!(materials[1].layers.mtoon.is_none() && materials[2].layers.mtoon.is_none());
        assert!(
            warnings.iter().any(|w| w.contains("'Standard' is not a VRM shader")),
            "{warnings:?}"
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("textureProperties/_MainTex") && w.contains("texture 7")),
            "{warnings:?}"
        );
        assert!(materials[3].base_color_texture.is_none());
    }

    #[test]
    fn blended_render_queues_become_offsets_counting_towards_zero_or_up_from_it() {
        let blended = |queue: i64, z_write: bool| {
            json!({
                "shader": "VRM/MToon", "renderQueue": queue,
                "keywordMap": { "_ALPHABLEND_ON": true },
                "floatProperties": { "_ZWrite": if z_write { 1 } else { 0 } }
            })
        };
        let (materials, _) = converted(json!([
            blended(3000, false),
            blended(3002, false),
            blended(3001, false),
            blended(2501, true),
            blended(2502, true),
            { "shader": "VRM/MToon", "renderQueue": 2000 }
        ]));
        let offsets: Vec<i32> = (materials.iter())
            .map(|m| m.layers.mtoon.as_ref().unwrap().render_queue_offset)
            .collect();
        assert_eq!(offsets, [-2, 0, -1, 0, 1, 0]);
    }
}
