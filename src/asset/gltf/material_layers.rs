//! The KHR_materials_* extensions that add to the metallic-roughness model (`MaterialLayers`):
//! ior, specular, sheen and clearcoat as their factors, and the legacy
//! KHR_materials_pbrSpecularGlossiness. Their textures other than specular-glossiness's are
//! not drawn yet: a material that has one says so, and draws with the factors.

use glam::{Vec3, Vec4};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::asset::material::{MaterialLayers, SpecularGlossiness};

/// A texture reference as an extension writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonTextureInfo {
    pub index: usize,
    #[serde(default)]
    pub tex_coord: u32,
    #[serde(default)]
    pub extensions: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Ior {
    #[serde(default = "default_ior")]
    ior: f32,
}

fn default_ior() -> f32 {
    1.5
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Specular {
    #[serde(default = "one")]
    specular_factor: f32,
    #[serde(default = "white")]
    specular_color_factor: [f32; 3],
    specular_texture: Option<Value>,
    specular_color_texture: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sheen {
    #[serde(default)]
    sheen_color_factor: [f32; 3],
    #[serde(default)]
    sheen_roughness_factor: f32,
    sheen_color_texture: Option<Value>,
    sheen_roughness_texture: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Clearcoat {
    #[serde(default)]
    clearcoat_factor: f32,
    #[serde(default)]
    clearcoat_roughness_factor: f32,
    clearcoat_texture: Option<Value>,
    clearcoat_roughness_texture: Option<Value>,
    clearcoat_normal_texture: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonSpecularGlossiness {
    #[serde(default = "white_opaque")]
    pub diffuse_factor: [f32; 4],
    pub diffuse_texture: Option<JsonTextureInfo>,
    #[serde(default = "white")]
    specular_factor: [f32; 3],
    #[serde(default = "one")]
    glossiness_factor: f32,
    pub specular_glossiness_texture: Option<JsonTextureInfo>,
}

fn one() -> f32 {
    1.0
}

fn white() -> [f32; 3] {
    [1.0; 3]
}

fn white_opaque() -> [f32; 4] {
    [1.0; 4]
}

/// What a material's extensions (`extensions`, the material's `extensions` object less those
/// gltf-json reads itself) add; `object` is the material's pointer. A value out of its range
/// or an extension that cannot be read is a warning, and its default is used.
pub fn load(
    extensions: Option<&Map<String, Value>>,
    object: &str,
    warnings: &mut Vec<String>,
) -> (MaterialLayers, Option<JsonSpecularGlossiness>) {
    let mut layers = MaterialLayers::default();
    let Some(extensions) = extensions else {
        return (layers, None);
    };
    let read = |name: &str| extensions.get(name);
    let pointer = |name: &str| format!("{object}/extensions/{name}");
    let unreadable = |name: &str, error: serde_json::Error, warnings: &mut Vec<String>| {
        warnings.push(format!("{}: {error} (drawn without it)", pointer(name)));
    };
    let mut textures_not_drawn = Vec::new();
    if let Some(value) = read("KHR_materials_ior") {
        match Ior::deserialize(value) {
            // 0 is the specification's "no reflection at all"; otherwise 1 or more.
            Ok(Ior { ior }) if ior == 0.0 || (ior.is_finite() && ior >= 1.0) => layers.ior = ior,
            Ok(Ior { ior }) => warnings.push(format!(
                "{}: ior {ior} is neither 0 nor a number of 1 or more (1.5 used)",
                pointer("KHR_materials_ior")
            )),
            Err(error) => unreadable("KHR_materials_ior", error, warnings),
        }
    }
    if let Some(value) = read("KHR_materials_specular") {
        match Specular::deserialize(value) {
            Ok(specular) => {
                let at = pointer("KHR_materials_specular");
                layers.specular = unit_or(specular.specular_factor, 1.0, (&at, "specularFactor"), warnings);
                let colour = specular.specular_color_factor;
                layers.specular_color = colour_or(colour, Vec3::ONE, f32::MAX, (&at, "specularColorFactor"), warnings);
                if specular.specular_texture.is_some() || specular.specular_color_texture.is_some() {
                    textures_not_drawn.push("KHR_materials_specular");
                }
            }
            Err(error) => unreadable("KHR_materials_specular", error, warnings),
        }
    }
    if let Some(value) = read("KHR_materials_sheen") {
        match Sheen::deserialize(value) {
            Ok(sheen) => {
                let at = pointer("KHR_materials_sheen");
                let colour = sheen.sheen_color_factor;
                layers.sheen_color = colour_or(colour, Vec3::ZERO, 1.0, (&at, "sheenColorFactor"), warnings);
                let roughness = sheen.sheen_roughness_factor;
                layers.sheen_roughness = unit_or(roughness, 0.0, (&at, "sheenRoughnessFactor"), warnings);
                if sheen.sheen_color_texture.is_some() || sheen.sheen_roughness_texture.is_some() {
                    textures_not_drawn.push("KHR_materials_sheen");
                }
            }
            Err(error) => unreadable("KHR_materials_sheen", error, warnings),
        }
    }
    if let Some(value) = read("KHR_materials_clearcoat") {
        match Clearcoat::deserialize(value) {
            Ok(coat) => {
                let at = pointer("KHR_materials_clearcoat");
                layers.clearcoat = unit_or(coat.clearcoat_factor, 0.0, (&at, "clearcoatFactor"), warnings);
                let roughness = coat.clearcoat_roughness_factor;
                layers.clearcoat_roughness = unit_or(roughness, 0.0, (&at, "clearcoatRoughnessFactor"), warnings);
                if coat.clearcoat_texture.is_some()
                    || coat.clearcoat_roughness_texture.is_some()
                    || coat.clearcoat_normal_texture.is_some()
                {
                    textures_not_drawn.push("KHR_materials_clearcoat");
                }
            }
            Err(error) => unreadable("KHR_materials_clearcoat", error, warnings),
        }
    }
    let specular_glossiness = read("KHR_materials_pbrSpecularGlossiness").and_then(|value| {
        match JsonSpecularGlossiness::deserialize(value) {
            Ok(json) => {
                let at = pointer("KHR_materials_pbrSpecularGlossiness");
                let specular = colour_or(json.specular_factor, Vec3::ONE, 1.0, (&at, "specularFactor"), warnings);
                let glossiness = unit_or(json.glossiness_factor, 1.0, (&at, "glossinessFactor"), warnings);
                layers.specular_glossiness = Some(SpecularGlossiness { specular, glossiness });
                Some(json)
            }
            Err(error) => {
                unreadable("KHR_materials_pbrSpecularGlossiness", error, warnings);
                None
            }
        }
    });
    for name in textures_not_drawn {
        warnings.push(format!(
            "{}: its textures are not drawn yet (drawn with its factors)",
            pointer(name)
        ));
    }
    (layers, specular_glossiness)
}

/// The specular-glossiness diffuse factor as a linear RGBA colour, or `None` when it is not
/// made of finite numbers.
pub fn diffuse_factor(json: &JsonSpecularGlossiness) -> Option<Vec4> {
    let factor = Vec4::from(json.diffuse_factor);
    factor.is_finite().then_some(factor.clamp(Vec4::ZERO, Vec4::ONE))
}

/// `value` where it is a number from 0 to 1, else `default` with a warning that names the
/// `(extension pointer, property)`.
fn unit_or(value: f32, default: f32, (at, property): (&str, &str), warnings: &mut Vec<String>) -> f32 {
    if (0.0..=1.0).contains(&value) {
        return value;
    }
    warnings.push(format!(
        "{at}/{property}: {value} is not a number from 0 to 1 ({default} used)"
    ));
    default
}

/// `rgb` as a colour where its numbers are from 0 to `most`, else `default` with a warning.
fn colour_or(
    rgb: [f32; 3],
    default: Vec3,
    most: f32,
    (at, property): (&str, &str),
    warnings: &mut Vec<String>,
) -> Vec3 {
    let colour = Vec3::from(rgb);
    if colour.is_finite() && colour.min_element() >= 0.0 && colour.max_element() <= most {
        return colour;
    }
    warnings.push(format!(
        "{at}/{property}: {rgb:?} is not a colour of numbers from 0 to {most} ({default} used)"
    ));
    default
}
