//! The KHR_materials_* extensions that add to the metallic-roughness model (`MaterialLayers`):
//! ior, specular, sheen, clearcoat, transmission, volume, dispersion, iridescence, diffuse
//! transmission and anisotropy, their factors and textures, the legacy
//! KHR_materials_pbrSpecularGlossiness, and VRM's MToon in the model's place.

use glam::{Vec3, Vec4};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::factor_ranges::{at_least_or, colour_or, unit_or};
use super::mtoon;
use crate::asset::material::{MaterialLayers, MaterialTexture, SpecularGlossiness};

/// A texture reference as an extension writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonTextureInfo {
    pub index: usize,
    #[serde(default)]
    pub tex_coord: u32,
    #[serde(default)]
    pub extensions: Option<Map<String, Value>>,
    /// A normal texture's strength (clearcoatNormalTexture).
    pub scale: Option<f32>,
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
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sheen {
    #[serde(default)]
    sheen_color_factor: [f32; 3],
    #[serde(default)]
    sheen_roughness_factor: f32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Clearcoat {
    #[serde(default)]
    clearcoat_factor: f32,
    #[serde(default)]
    clearcoat_roughness_factor: f32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Transmission {
    #[serde(default)]
    transmission_factor: f32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Volume {
    #[serde(default)]
    thickness_factor: f32,
    /// Absent: infinite (no fading).
    attenuation_distance: Option<f32>,
    #[serde(default = "white")]
    attenuation_color: [f32; 3],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Dispersion {
    #[serde(default)]
    dispersion: f32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Iridescence {
    #[serde(default)]
    iridescence_factor: f32,
    #[serde(default = "default_iridescence_ior")]
    iridescence_ior: f32,
    #[serde(default = "default_thinnest_film")]
    iridescence_thickness_minimum: f32,
    #[serde(default = "default_thickest_film")]
    iridescence_thickness_maximum: f32,
}

fn default_iridescence_ior() -> f32 {
    1.3
}

fn default_thinnest_film() -> f32 {
    100.0
}

fn default_thickest_film() -> f32 {
    400.0
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiffuseTransmission {
    #[serde(default)]
    diffuse_transmission_factor: f32,
    #[serde(default = "white")]
    diffuse_transmission_color_factor: [f32; 3],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Anisotropy {
    #[serde(default)]
    anisotropy_strength: f32,
    #[serde(default)]
    anisotropy_rotation: f32,
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

/// What a material's extensions add: the factors, and the texture references the caller
/// resolves.
#[derive(Default)]
pub struct Layers {
    pub layers: MaterialLayers,
    pub specular_glossiness: Option<JsonSpecularGlossiness>,
    /// The extensions' textures.
    pub textures: Vec<(MaterialTexture, JsonTextureInfo)>,
}

/// What a material's extensions (`extensions`, the material's `extensions` object less those
/// gltf-json reads itself) add; `object` is the material's pointer. A value out of its range
/// or an extension that cannot be read is a warning, and its default is used.
pub fn load(extensions: Option<&Map<String, Value>>, object: &str, warnings: &mut Vec<String>) -> Layers {
    let Some(extensions) = extensions else {
        return Layers::default();
    };
    let mut layers = MaterialLayers::default();
    if let Some((Ior { ior }, at)) = extension::<Ior>(extensions, object, "KHR_materials_ior", warnings) {
        // 0 is the specification's "no reflection at all"; otherwise 1 or more.
        match ior == 0.0 || (ior.is_finite() && ior >= 1.0) {
            true => layers.ior = ior,
            false => warnings.push(format!(
                "{at}: ior {ior} is neither 0 nor a number of 1 or more (1.5 used)"
            )),
        }
    }
    if let Some((specular, at)) = extension::<Specular>(extensions, object, "KHR_materials_specular", warnings) {
        layers.specular = unit_or(specular.specular_factor, 1.0, (&at, "specularFactor"), warnings);
        let colour = specular.specular_color_factor;
        layers.specular_color = colour_or(colour, Vec3::ONE, f32::MAX, (&at, "specularColorFactor"), warnings);
    }
    if let Some((sheen, at)) = extension::<Sheen>(extensions, object, "KHR_materials_sheen", warnings) {
        let colour = sheen.sheen_color_factor;
        layers.sheen_color = colour_or(colour, Vec3::ZERO, 1.0, (&at, "sheenColorFactor"), warnings);
        let roughness = sheen.sheen_roughness_factor;
        layers.sheen_roughness = unit_or(roughness, 0.0, (&at, "sheenRoughnessFactor"), warnings);
    }
    if let Some((coat, at)) = extension::<Clearcoat>(extensions, object, "KHR_materials_clearcoat", warnings) {
        layers.clearcoat = unit_or(coat.clearcoat_factor, 0.0, (&at, "clearcoatFactor"), warnings);
        let roughness = coat.clearcoat_roughness_factor;
        layers.clearcoat_roughness = unit_or(roughness, 0.0, (&at, "clearcoatRoughnessFactor"), warnings);
    }
    if let Some((transmission, at)) =
        extension::<Transmission>(extensions, object, "KHR_materials_transmission", warnings)
    {
        let factor = transmission.transmission_factor;
        layers.transmission = unit_or(factor, 0.0, (&at, "transmissionFactor"), warnings);
    }
    if let Some((volume, at)) = extension::<Volume>(extensions, object, "KHR_materials_volume", warnings) {
        let thickness = volume.thickness_factor;
        layers.thickness = at_least_or(thickness, 0.0, 0.0, (&at, "thicknessFactor"), warnings);
        if let Some(distance) = volume.attenuation_distance {
            if distance > 0.0 && !distance.is_nan() {
                layers.attenuation_distance = distance;
            } else {
                warnings.push(format!(
                    "{at}/attenuationDistance: {distance} is not a number above 0 (no fading used)"
                ));
            }
        }
        let colour = volume.attenuation_color;
        layers.attenuation_color = colour_or(colour, Vec3::ONE, 1.0, (&at, "attenuationColor"), warnings);
    }
    if let Some((Dispersion { dispersion }, at)) =
        extension::<Dispersion>(extensions, object, "KHR_materials_dispersion", warnings)
    {
        layers.dispersion = at_least_or(dispersion, 0.0, 0.0, (&at, "dispersion"), warnings);
    }
    if let Some((film, at)) = extension::<Iridescence>(extensions, object, "KHR_materials_iridescence", warnings) {
        layers.iridescence = unit_or(film.iridescence_factor, 0.0, (&at, "iridescenceFactor"), warnings);
        layers.iridescence_ior = at_least_or(film.iridescence_ior, 1.0, 1.3, (&at, "iridescenceIor"), warnings);
        let thickest = film.iridescence_thickness_maximum;
        // Without a thickness texture the film is as thick as its maximum.
        layers.iridescence_thickness =
            at_least_or(thickest, 0.0, 400.0, (&at, "iridescenceThicknessMaximum"), warnings);
        let thinnest = film.iridescence_thickness_minimum;
        layers.iridescence_thickness_minimum =
            at_least_or(thinnest, 0.0, 100.0, (&at, "iridescenceThicknessMinimum"), warnings);
    }
    if let Some((diffuse, at)) =
        extension::<DiffuseTransmission>(extensions, object, "KHR_materials_diffuse_transmission", warnings)
    {
        let factor = diffuse.diffuse_transmission_factor;
        layers.diffuse_transmission = unit_or(factor, 0.0, (&at, "diffuseTransmissionFactor"), warnings);
        let colour = diffuse.diffuse_transmission_color_factor;
        layers.diffuse_transmission_color = colour_or(
            colour,
            Vec3::ONE,
            1.0,
            (&at, "diffuseTransmissionColorFactor"),
            warnings,
        );
    }
    if let Some((anisotropy, at)) = extension::<Anisotropy>(extensions, object, "KHR_materials_anisotropy", warnings) {
        let strength = anisotropy.anisotropy_strength;
        layers.anisotropy = unit_or(strength, 0.0, (&at, "anisotropyStrength"), warnings);
        let rotation = anisotropy.anisotropy_rotation;
        if rotation.is_finite() {
            layers.anisotropy_rotation = rotation;
        } else {
            warnings.push(format!("{at}/anisotropyRotation: {rotation} is not a number (0 used)"));
        }
    }
    if let Some(json) = extensions.get(mtoon::EXTENSION) {
        layers.mtoon = mtoon::load(json, &format!("{object}/extensions/{}", mtoon::EXTENSION), warnings);
    }
    let specular_glossiness =
        extension::<JsonSpecularGlossiness>(extensions, object, "KHR_materials_pbrSpecularGlossiness", warnings).map(
            |(json, at)| {
                let specular = colour_or(json.specular_factor, Vec3::ONE, 1.0, (&at, "specularFactor"), warnings);
                let glossiness = unit_or(json.glossiness_factor, 1.0, (&at, "glossinessFactor"), warnings);
                layers.specular_glossiness = Some(SpecularGlossiness { specular, glossiness });
                json
            },
        );
    // Each extension's textures, wherever it names them.
    let mut textures = Vec::new();
    for texture in MaterialTexture::ALL {
        let Some(extension) = texture.extension() else {
            continue;
        };
        let Some(value) = extensions.get(extension).and_then(|e| e.get(texture.name())) else {
            continue;
        };
        match JsonTextureInfo::deserialize(value) {
            Ok(info) => textures.push((texture, info)),
            Err(error) => warnings.push(format!(
                "{object}/extensions/{extension}/{}: {error} (drawn without it)",
                texture.name()
            )),
        }
    }
    Layers {
        layers,
        specular_glossiness,
        textures,
    }
}

/// Extension `name` of a material's `extensions` read as a `T`, with its pointer (`object` is
/// the material's); None where the material has none, and with a warning where it cannot be
/// read.
fn extension<T: serde::de::DeserializeOwned>(
    extensions: &Map<String, Value>,
    object: &str,
    name: &str,
    warnings: &mut Vec<String>,
) -> Option<(T, String)> {
    let value = extensions.get(name)?;
    let at = format!("{object}/extensions/{name}");
    match T::deserialize(value) {
        Ok(read) => Some((read, at)),
        Err(error) => {
            warnings.push(format!("{at}: {error} (drawn without it)"));
            None
        }
    }
}

/// The specular-glossiness diffuse factor as a linear RGBA colour, or `None` when it is not
/// made of finite numbers.
pub fn diffuse_factor(json: &JsonSpecularGlossiness) -> Option<Vec4> {
    let factor = Vec4::from(json.diffuse_factor);
    factor.is_finite().then_some(factor.clamp(Vec4::ZERO, Vec4::ONE))
}
