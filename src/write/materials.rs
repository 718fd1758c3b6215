//! Materials: one glTF material per model material, in the model's order (the mesh writer
//! names them by index), with the textures, samplers and images they read (`textures`).
//!
//! The core metallic-roughness material is written with gltf_json's types; every extension
//! (emissive strength, unlit, each `MaterialLayers` layer, specular-glossiness, texture
//! transforms) as raw JSON in the `others` maps, each field left out where it is the
//! extension's default and each layer left out where all of it is. The result is what the
//! glTF loader reads back into an equal `Material`, with one exception: an emissive colour
//! brighter than 1 (which glTF's `emissiveFactor` cannot hold) is divided by its brightest
//! channel and that factor moved into KHR_materials_emissive_strength, so the light emitted,
//! `emissive × emissive_strength`, is the same. MToon (VRM) is VRMC_materials_mtoon
//! (`vrm_mtoon`), over the core material as its fallback.

use glam::{Vec3, Vec4};
use gltf_json as json;
use json::material::{AlphaCutoff, AlphaMode as JsonAlphaMode, EmissiveFactor, PbrBaseColorFactor, StrengthFactor};
use json::validation::Checked;
use serde_json::{Map, Value, json};

use super::document::Document;
use super::options::WriteOptions;
use super::texture_info::TextureInfo;
use super::textures::{Textures, written_slots};
use super::vrm_mtoon;
use crate::asset::Model;
use crate::asset::material::{AlphaMode, Material, MaterialLayers, MaterialTexture, SpecularGlossiness};

const EMISSIVE_STRENGTH: &str = "KHR_materials_emissive_strength";
const SPECULAR_GLOSSINESS: &str = "KHR_materials_pbrSpecularGlossiness";
const VARIANTS: &str = "KHR_materials_variants";

/// Writes every material of `model` (glTF material i is model material i), the textures,
/// samplers and images they use, and the names of the model's material variants.
pub fn write_materials(document: &mut Document, model: &Model, _options: &WriteOptions) {
    let mut textures = Textures::new(document, &model.images, &model.materials);
    for material in &model.materials {
        let json = MaterialWriter {
            document: &mut *document,
            textures: &mut textures,
            material,
        }
        .write();
        document.root.push(json);
    }
    write_variant_names(document, &model.material_variants);
}

/// One material being written, with what its texture slots are written into.
struct MaterialWriter<'a> {
    document: &'a mut Document,
    textures: &'a mut Textures,
    material: &'a Material,
}

impl MaterialWriter<'_> {
    /// The glTF material, its textures written.
    fn write(mut self) -> json::Material {
        let material = self.material;
        let base_color_texture = self.texture(MaterialTexture::BaseColor);
        let metallic_roughness_texture = self.texture(MaterialTexture::MetallicRoughness);
        let normal_texture = self
            .texture(MaterialTexture::Normal)
            .map(|info| json::material::NormalTexture {
                index: info.index,
                scale: material.normal_scale,
                tex_coord: info.tex_coord,
                extensions: info.core_extensions(),
                extras: None,
            });
        let occlusion_texture = self
            .texture(MaterialTexture::Occlusion)
            .map(|info| json::material::OcclusionTexture {
                index: info.index,
                strength: StrengthFactor(material.occlusion_strength),
                tex_coord: info.tex_coord,
                extensions: info.core_extensions(),
                extras: None,
            });
        let emissive_texture = self.texture(MaterialTexture::Emissive).map(|info| info.core());
        let (emissive, emissive_strength) = emissive_factor_and_strength(material.emissive, material.emissive_strength);
        let mut extensions = self.extensions(emissive_strength, [&base_color_texture, &metallic_roughness_texture]);
        // Specular-glossiness holds the metallic-roughness texture; the base colour texture
        // stays in the core material too, a fallback for readers without the extension.
        let metallic_roughness_texture =
            metallic_roughness_texture.filter(|_| material.layers.specular_glossiness.is_none());
        if let Some(mtoon) = &material.layers.mtoon {
            let textures = vrm_mtoon::TEXTURES.map(|slot| self.texture(slot));
            extensions.insert(vrm_mtoon::EXTENSION.into(), vrm_mtoon::extension_json(mtoon, textures));
            self.document.use_extension(vrm_mtoon::EXTENSION, false);
        }

        json::Material {
            name: Some(material.name.clone()),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor(material.base_color.to_array()),
                base_color_texture: base_color_texture.map(|info| info.core()),
                metallic_factor: StrengthFactor(material.metallic),
                roughness_factor: StrengthFactor(material.roughness),
                metallic_roughness_texture: metallic_roughness_texture.map(|info| info.core()),
                extensions: None,
                extras: None,
            },
            normal_texture,
            occlusion_texture,
            emissive_texture,
            emissive_factor: EmissiveFactor(emissive.to_array()),
            alpha_mode: Checked::Valid(match material.alpha {
                AlphaMode::Opaque => JsonAlphaMode::Opaque,
                AlphaMode::Mask { .. } => JsonAlphaMode::Mask,
                AlphaMode::Blend => JsonAlphaMode::Blend,
            }),
            alpha_cutoff: match material.alpha {
                AlphaMode::Mask { cutoff } => Some(AlphaCutoff(cutoff)),
                _ => None,
            },
            double_sided: material.double_sided,
            extensions: (!extensions.is_empty()).then(|| json::extensions::material::Material {
                others: extensions,
                ..Default::default()
            }),
            extras: None,
        }
    }

    /// The material's extensions, each declared: emissive strength, unlit, the layers, and
    /// specular-glossiness (which reads the base colour and metallic-roughness textures,
    /// `core_textures`).
    fn extensions(&mut self, emissive_strength: f32, core_textures: [&Option<TextureInfo>; 2]) -> Map<String, Value> {
        let material = self.material;
        let mut extensions = Map::new();
        if emissive_strength != 1.0 {
            extensions.insert(
                EMISSIVE_STRENGTH.into(),
                json!({ "emissiveStrength": emissive_strength }),
            );
        }
        if material.unlit {
            extensions.insert("KHR_materials_unlit".into(), json!({}));
        }
        self.write_layers(&mut extensions);
        if let Some(factors) = material.layers.specular_glossiness {
            let specular_glossiness = specular_glossiness_json(material.base_color, factors, core_textures);
            extensions.insert(SPECULAR_GLOSSINESS.into(), specular_glossiness);
        }
        for name in extensions.keys() {
            self.document.use_extension(name, false);
        }
        extensions
    }

    /// The texture the material's `slot` reads, written (None: it has none, or its image
    /// could not be written).
    fn texture(&mut self, slot: MaterialTexture) -> Option<TextureInfo> {
        let reference = slot.of(self.material)?;
        self.textures
            .reference(self.document, &reference, &self.material.name, slot)
    }

    /// The KHR_materials_* layers that differ from their defaults, into `extensions`: each
    /// extension's factors, then its textures.
    fn write_layers(&mut self, extensions: &mut Map<String, Value>) {
        for (name, factors) in layer_factors(&self.material.layers) {
            if !factors.is_empty() {
                extensions.insert(name.into(), Value::Object(factors));
            }
        }
        for slot in written_slots() {
            let Some(name) = slot.extension() else {
                continue;
            };
            let Some(info) = self.texture(slot) else {
                continue;
            };
            let mut info = info.to_json();
            if slot == MaterialTexture::ClearcoatNormal && self.material.layers.clearcoat_normal_scale != 1.0 {
                info.insert("scale".into(), json!(self.material.layers.clearcoat_normal_scale));
            }
            let extension = extensions.entry(name).or_insert_with(|| json!({}));
            if let Some(extension) = extension.as_object_mut() {
                extension.insert(slot.name().into(), Value::Object(info));
            }
        }
    }
}

/// Each layer extension's factors that differ from the extension's default (which
/// `MaterialLayers::default` holds), by extension.
fn layer_factors(layers: &MaterialLayers) -> [(&'static str, Map<String, Value>); 10] {
    let default = MaterialLayers::default();
    let (l, d) = (layers, &default);
    [
        ("KHR_materials_ior", Factors::new().scalar("ior", l.ior, d.ior)),
        (
            "KHR_materials_specular",
            Factors::new().scalar("specularFactor", l.specular, d.specular).colour(
                "specularColorFactor",
                l.specular_color,
                d.specular_color,
            ),
        ),
        (
            "KHR_materials_sheen",
            Factors::new()
                .colour("sheenColorFactor", l.sheen_color, d.sheen_color)
                .scalar("sheenRoughnessFactor", l.sheen_roughness, d.sheen_roughness),
        ),
        (
            "KHR_materials_clearcoat",
            Factors::new()
                .scalar("clearcoatFactor", l.clearcoat, d.clearcoat)
                .scalar("clearcoatRoughnessFactor", l.clearcoat_roughness, d.clearcoat_roughness),
        ),
        (
            "KHR_materials_transmission",
            Factors::new().scalar("transmissionFactor", l.transmission, d.transmission),
        ),
        (
            "KHR_materials_volume",
            Factors::new()
                .scalar("thicknessFactor", l.thickness, d.thickness)
                // Infinite (no fading) is the default, which JSON could not hold anyway.
                .scalar("attenuationDistance", l.attenuation_distance, d.attenuation_distance)
                .colour("attenuationColor", l.attenuation_color, d.attenuation_color),
        ),
        (
            "KHR_materials_dispersion",
            Factors::new().scalar("dispersion", l.dispersion, d.dispersion),
        ),
        (
            "KHR_materials_iridescence",
            Factors::new()
                .scalar("iridescenceFactor", l.iridescence, d.iridescence)
                .scalar("iridescenceIor", l.iridescence_ior, d.iridescence_ior)
                .scalar(
                    "iridescenceThicknessMinimum",
                    l.iridescence_thickness_minimum,
                    d.iridescence_thickness_minimum,
                )
                .scalar(
                    "iridescenceThicknessMaximum",
                    l.iridescence_thickness,
                    d.iridescence_thickness,
                ),
        ),
        (
            "KHR_materials_diffuse_transmission",
            Factors::new()
                .scalar(
                    "diffuseTransmissionFactor",
                    l.diffuse_transmission,
                    d.diffuse_transmission,
                )
                .colour(
                    "diffuseTransmissionColorFactor",
                    l.diffuse_transmission_color,
                    d.diffuse_transmission_color,
                ),
        ),
        (
            "KHR_materials_anisotropy",
            Factors::new()
                .scalar("anisotropyStrength", l.anisotropy, d.anisotropy)
                .scalar("anisotropyRotation", l.anisotropy_rotation, d.anisotropy_rotation),
        ),
    ]
    .map(|(name, factors)| (name, factors.0))
}

/// An extension's JSON fields, each added only where it differs from its default.
struct Factors(Map<String, Value>);

impl Factors {
    /// No fields yet.
    fn new() -> Self {
        Self(Map::new())
    }

    /// Adds `key` where `value` is not `default`.
    fn scalar(mut self, key: &str, value: f32, default: f32) -> Self {
        if value != default {
            self.0.insert(key.into(), json!(value));
        }
        self
    }

    /// Adds the RGB `key` where `value` is not `default`.
    fn colour(mut self, key: &str, value: Vec3, default: Vec3) -> Self {
        if value != default {
            self.0.insert(key.into(), json!(value.to_array()));
        }
        self
    }

    /// Adds the RGBA `key` where `value` is not `default`.
    fn colour_alpha(mut self, key: &str, value: Vec4, default: Vec4) -> Self {
        if value != default {
            self.0.insert(key.into(), json!(value.to_array()));
        }
        self
    }
}

/// KHR_materials_pbrSpecularGlossiness of a material that has it: the diffuse colour and
/// texture are the base colour's, the specular-glossiness texture sits in the
/// metallic-roughness texture's place.
fn specular_glossiness_json(
    diffuse: Vec4,
    factors: SpecularGlossiness,
    [diffuse_texture, specular_glossiness_texture]: [&Option<TextureInfo>; 2],
) -> Value {
    let mut json = Factors::new()
        .colour_alpha("diffuseFactor", diffuse, Vec4::ONE)
        .colour("specularFactor", factors.specular, Vec3::ONE)
        .scalar("glossinessFactor", factors.glossiness, 1.0)
        .0;
    for (key, info) in [
        ("diffuseTexture", diffuse_texture),
        ("specularGlossinessTexture", specular_glossiness_texture),
    ] {
        if let Some(info) = info {
            json.insert(key.into(), Value::Object(info.to_json()));
        }
    }
    Value::Object(json)
}

/// glTF's `emissiveFactor` (at most 1 per channel) and KHR_materials_emissive_strength for
/// a material's `emissive` colour and `strength` (the light emitted is their product): a
/// colour brighter than 1 is divided by its brightest channel, which moves into the strength.
fn emissive_factor_and_strength(emissive: Vec3, strength: f32) -> (Vec3, f32) {
    let brightest = emissive.max_element();
    match brightest > 1.0 {
        true => (emissive / brightest, strength * brightest),
        false => (emissive, strength),
    }
}

/// KHR_materials_variants' list of variant names on the root (the primitives' mappings are
/// the mesh writer's).
fn write_variant_names(document: &mut Document, names: &[String]) {
    if names.is_empty() {
        return;
    }
    let variants: Vec<Value> = names.iter().map(|name| json!({ "name": name })).collect();
    let extensions = document.root.extensions.get_or_insert_with(Default::default);
    extensions
        .others
        .insert(VARIANTS.into(), json!({ "variants": variants }));
    document.use_extension(VARIANTS, false);
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use glam::Vec2;

    use super::*;
    use crate::asset::demo::demo_model;
    use crate::asset::model::Image;
    use crate::asset::mtoon::{MToon, OutlineWidthMode};
    use crate::asset::texture::{SamplerModes, TextureRef, UvTransform, Wrap};
    use crate::write::to_glb;

    /// Bytes that start as a `magic` container does, told apart by `seed` (the loader keeps
    /// image bytes as they are, without decoding them).
    fn image(name: &str, mime_type: Option<&str>, magic: &[u8], seed: u8) -> Image {
        let mut bytes = magic.to_vec();
        bytes.extend([seed; 9]);
        Image {
            name: name.into(),
            mime_type: mime_type.map(Into::into),
            bytes: bytes.into(),
        }
    }

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
    const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF];
    const WEBP: &[u8] = b"RIFF\x20\0\0\0WEBPVP8L";
    const KTX2: &[u8] = b"\xABKTX 20\xBB\r\n\x1A\n";

    /// A reference to `image` that differs from the plain one in every way there is.
    fn unusual(image: usize) -> TextureRef {
        TextureRef {
            tex_coord: 1,
            sampler: SamplerModes {
                wrap_u: Wrap::ClampToEdge,
                wrap_v: Wrap::MirroredRepeat,
                mag_linear: false,
                min_linear: false,
                mipmap_linear: Some(false),
            },
            transform: UvTransform {
                offset: Vec2::new(0.25, -0.5),
                rotation: 0.3,
                scale: Vec2::new(2.0, 0.75),
            },
            ..TextureRef::plain(image)
        }
    }

    /// Every core field and every layer away from its default, with every texture slot.
    fn layered() -> Material {
        let mut material = Material {
            name: "layered".into(),
            base_color: Vec4::new(0.5, 0.25, 0.125, 0.75),
            base_color_texture: Some(unusual(0)),
            metallic: 0.25,
            roughness: 0.75,
            metallic_roughness_texture: Some(TextureRef::plain(1)),
            normal_texture: Some(TextureRef {
                tex_coord: 1,
                ..TextureRef::plain(2)
            }),
            normal_scale: 0.5,
            occlusion_texture: Some(TextureRef::plain(1)),
            occlusion_strength: 0.625,
            emissive: Vec3::new(1.0, 0.5, 0.2),
            emissive_texture: Some(unusual(3)),
            emissive_strength: 4.0,
            alpha: AlphaMode::Mask { cutoff: 0.375 },
            double_sided: true,
            unlit: false,
            layers: MaterialLayers {
                ior: 1.25,
                specular: 0.5,
                specular_color: Vec3::new(0.9, 0.8, 0.7),
                sheen_color: Vec3::new(0.1, 0.2, 0.3),
                sheen_roughness: 0.4,
                clearcoat: 0.6,
                clearcoat_roughness: 0.7,
                clearcoat_normal_scale: 0.75,
                transmission: 0.8,
                thickness: 0.05,
                attenuation_distance: 2.5,
                attenuation_color: Vec3::new(0.5, 0.6, 0.7),
                dispersion: 0.4,
                iridescence: 0.9,
                iridescence_ior: 1.8,
                iridescence_thickness: 500.0,
                iridescence_thickness_minimum: 120.0,
                diffuse_transmission: 0.3,
                diffuse_transmission_color: Vec3::new(0.2, 0.4, 0.6),
                anisotropy: 0.55,
                anisotropy_rotation: 1.25,
                ..MaterialLayers::default()
            },
        };
        let extension_slots = written_slots().filter(|slot| slot.extension().is_some());
        for (n, slot) in extension_slots.enumerate() {
            *slot.of_mut(&mut material) = Some(match n % 2 {
                0 => TextureRef::plain(n % 4),
                _ => unusual(n % 4),
            });
        }
        material
    }

    /// The layered material, a specular-glossiness one that is unlit, a plain one, and one
    /// reading WebP (with a PNG fallback) and KTX2 (without); variants; images of each kind.
    fn model() -> Model {
        let mut model = demo_model();
        model.images = vec![
            image("albedo", Some("image/png"), PNG, 0),
            image("orm.jpg", Some("image/jpeg"), JPEG, 1),
            // No MIME type, as a .gltf's external image may have: told from the bytes.
            image("normal", None, PNG, 2),
            image("glow", Some("image/png"), PNG, 3),
            image("albedo.webp", Some("image/webp"), WEBP, 4),
            image("glow.ktx2", Some("image/ktx2"), KTX2, 5),
        ];
        let glossy = Material {
            name: "glossy".into(),
            base_color: Vec4::new(0.25, 0.5, 0.75, 0.5),
            base_color_texture: Some(unusual(2)),
            metallic_roughness_texture: Some(TextureRef::plain(3)),
            alpha: AlphaMode::Blend,
            unlit: true,
            layers: MaterialLayers {
                specular_glossiness: Some(SpecularGlossiness {
                    specular: Vec3::new(0.5, 0.5, 0.25),
                    glossiness: 0.5,
                }),
                ..MaterialLayers::default()
            },
            ..Material::default()
        };
        let compressed = Material {
            name: "compressed".into(),
            base_color_texture: Some(TextureRef {
                fallback: Some(0),
                ..TextureRef::plain(4)
            }),
            emissive_texture: Some(TextureRef::plain(5)),
            emissive: Vec3::ONE,
            ..Material::default()
        };
        let plain = Material {
            name: "plain".into(),
            ..Material::default()
        };
        model.materials = vec![layered(), glossy, plain, compressed];
        model.material_variants = vec!["day".into(), "night".into()];
        model
    }

    /// `model` written as GLB, its JSON, the writer's warnings, and the model read back.
    fn round_trip(model: &Model) -> (Model, Value, Vec<String>) {
        let (glb, warnings) = to_glb(model, &WriteOptions::default()).expect("the model is written");
        let length = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
        let json = serde_json::from_slice(&glb[20..20 + length]).expect("the JSON chunk is JSON");
        let read = crate::asset::load_bytes(Path::new("written.glb"), &glb).expect("the GLB reads back");
        (read, json, warnings)
    }

    /// Every field equal (destructured, so that a new field cannot be forgotten here).
    fn assert_same(read: &Material, written: &Material) {
        let Material {
            name,
            base_color,
            base_color_texture,
            metallic,
            roughness,
            metallic_roughness_texture,
            normal_texture,
            normal_scale,
            occlusion_texture,
            occlusion_strength,
            emissive,
            emissive_texture,
            emissive_strength,
            alpha,
            double_sided,
            unlit,
            layers,
        } = written;
        let at = &written.name;
        assert_eq!(&read.name, name);
        assert_eq!(&read.base_color, base_color, "{at}");
        assert_eq!(&read.base_color_texture, base_color_texture, "{at}");
        assert_eq!(&read.metallic, metallic, "{at}");
        assert_eq!(&read.roughness, roughness, "{at}");
        assert_eq!(&read.metallic_roughness_texture, metallic_roughness_texture, "{at}");
        assert_eq!(&read.normal_texture, normal_texture, "{at}");
        assert_eq!(&read.normal_scale, normal_scale, "{at}");
        assert_eq!(&read.occlusion_texture, occlusion_texture, "{at}");
        assert_eq!(&read.occlusion_strength, occlusion_strength, "{at}");
        assert_eq!(&read.emissive, emissive, "{at}");
        assert_eq!(&read.emissive_texture, emissive_texture, "{at}");
        assert_eq!(&read.emissive_strength, emissive_strength, "{at}");
        assert_eq!(&read.alpha, alpha, "{at}");
        assert_eq!(&read.double_sided, double_sided, "{at}");
        assert_eq!(&read.unlit, unlit, "{at}");
        assert_eq!(&read.layers, layers, "{at}");
    }

    #[test]
    fn every_field_layer_and_texture_reads_back_equal() {
        let model = model();
        let (read, _, warnings) = round_trip(&model);
        assert_eq!(read.materials.len(), model.materials.len());
        for (read, written) in read.materials.iter().zip(&model.materials) {
            assert_same(read, written);
        }
        assert_eq!(read.images.len(), model.images.len());
        for (read, written) in read.images.iter().zip(&model.images) {
            assert_eq!(read.name, written.name);
            assert_eq!(read.bytes, written.bytes, "{}: byte for byte", written.name);
            let sniffed = written.mime_type.as_deref().unwrap_or("image/png");
            assert_eq!(read.mime_type.as_deref(), Some(sniffed), "{}", written.name);
        }
        assert_eq!(read.material_variants, ["day", "night"]);
        let material_notes: Vec<&String> = (read.warnings.iter())
            .filter(|w| w.contains("/materials") || w.contains("/textures"))
            .collect();
        assert!(material_notes.is_empty(), "{material_notes:?}");
        assert!(
            !warnings.iter().any(|w| w.contains("material") || w.contains("image")),
            "{warnings:?}"
        );
    }

    #[test]
    fn every_extension_is_declared_and_only_extension_images_are_required() {
        let (_, json, _) = round_trip(&model());
        let used: Vec<&str> = json["extensionsUsed"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for extension in [
            "KHR_materials_emissive_strength",
            "KHR_materials_unlit",
            "KHR_materials_ior",
            "KHR_materials_specular",
            "KHR_materials_sheen",
            "KHR_materials_clearcoat",
            "KHR_materials_transmission",
            "KHR_materials_volume",
            "KHR_materials_dispersion",
            "KHR_materials_iridescence",
            "KHR_materials_diffuse_transmission",
            "KHR_materials_anisotropy",
            "KHR_materials_pbrSpecularGlossiness",
            "KHR_materials_variants",
            "KHR_texture_transform",
            "EXT_texture_webp",
            "KHR_texture_basisu",
        ] {
            assert!(used.contains(&extension), "{extension} in {used:?}");
        }
        let required = json["extensionsRequired"].as_array().unwrap();
        assert_eq!(
            required,
            &[json!("KHR_texture_basisu")],
            "the KTX2 image has no fallback"
        );
        // The plain material: no extensions, and its layers' defaults not written.
        assert_eq!(json["materials"][2].get("extensions"), None);
    }

    #[test]
    fn textures_and_samplers_are_written_once_each_with_only_what_is_not_default() {
        let (_, json, _) = round_trip(&model());
        let textures = json["textures"].as_array().unwrap();
        let samplers = json["samplers"].as_array().unwrap();
        // One sampler besides the default (which is not written): the unusual references'.
        assert_eq!(samplers.len(), 1);
        assert_eq!(
            samplers[0],
            json!({ "magFilter": 9728, "minFilter": 9984, "wrapS": 33071, "wrapT": 33648 })
        );
        // Per distinct (image, fallback, sampler): images 0 to 3 plain and unusual, the WebP
        // over its fallback, the KTX2.
        assert_eq!(textures.len(), 10, "{textures:?}");
        let plain_orm = &json["materials"][0]["pbrMetallicRoughness"]["metallicRoughnessTexture"];
        assert_eq!(plain_orm, &json!({ "index": plain_orm["index"], "texCoord": 0 }));
        assert_eq!(
            json["materials"][0]["occlusionTexture"]["index"], plain_orm["index"],
            "shared"
        );
        let webp = &textures[json["materials"][3]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
            .as_u64()
            .unwrap() as usize];
        assert_eq!(
            webp,
            &json!({ "source": 0, "extensions": { "EXT_texture_webp": { "source": 4 } } })
        );
        let ktx2 = &textures[json["materials"][3]["emissiveTexture"]["index"].as_u64().unwrap() as usize];
        assert_eq!(
            ktx2,
            &json!({ "extensions": { "KHR_texture_basisu": { "source": 5 } } })
        );
        let transform = &json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"];
        assert_eq!(
            transform["KHR_texture_transform"],
            json!({ "offset": [0.25, -0.5], "rotation": 0.3f32, "scale": [2.0, 0.75] })
        );
    }

    #[test]
    fn an_emissive_colour_brighter_than_one_moves_into_the_strength() {
        let mut model = model();
        model.materials = vec![Material {
            emissive: Vec3::new(4.0, 2.0, 1.0),
            emissive_strength: 1.5,
            ..Material::default()
        }];
        let (read, json, _) = round_trip(&model);
        assert_eq!(json["materials"][0]["emissiveFactor"], json!([1.0, 0.5, 0.25]));
        assert_eq!(read.materials[0].emissive, Vec3::new(1.0, 0.5, 0.25));
        assert_eq!(read.materials[0].emissive_strength, 6.0, "the same light: 4 × 1.5");
    }

    #[test]
    fn an_image_gltf_cannot_hold_is_written_as_png_with_a_warning() {
        let pixels = image::RgbaImage::from_fn(3, 2, |x, y| image::Rgba([x as u8 * 80, y as u8 * 100, 7, 200]));
        let mut tga = std::io::Cursor::new(Vec::new());
        pixels.write_to(&mut tga, image::ImageFormat::Tga).unwrap();
        let mut model = model();
        model.images = vec![Image {
            name: "skin.tga".into(),
            mime_type: None,
            bytes: tga.into_inner().into(),
        }];
        model.materials = vec![Material {
            base_color_texture: Some(TextureRef::plain(0)),
            ..Material::default()
        }];
        let (read, _, warnings) = round_trip(&model);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("'skin.tga'") && w.contains("TGA") && w.contains("PNG")),
            "{warnings:?}"
        );
        assert_eq!(read.materials[0].base_color_texture, Some(TextureRef::plain(0)));
        let png = &read.images[0];
        assert_eq!(png.mime_type.as_deref(), Some("image/png"));
        let decoded = image::load_from_memory_with_format(&png.bytes, image::ImageFormat::Png).unwrap();
        assert_eq!(decoded.to_rgba8(), pixels, "the same pixels");
    }

    #[test]
    fn an_image_that_cannot_be_written_is_left_out_and_its_textures_with_it() {
        let mut model = model();
        model.images[1] = Image {
            name: "missing.png".into(),
            mime_type: None,
            bytes: Arc::from([]),
        };
        model.images[3] = image("glow.bmp", None, b"BM", 3);
        let (read, _, warnings) = round_trip(&model);
        let warned = |words: &[&str]| warnings.iter().any(|w| words.iter().all(|word| w.contains(word)));
        assert!(warned(&["'missing.png'", "no data", "left out"]), "{warnings:?}");
        assert!(warned(&["'glow.bmp'", "cannot be decoded", "left out"]), "{warnings:?}");
        assert!(
            warned(&["'layered'", "metallicRoughnessTexture", "'missing.png'"]),
            "{warnings:?}"
        );
        assert!(warned(&["'layered'", "emissiveTexture", "'glow.bmp'"]), "{warnings:?}");
        let layered = &read.materials[0];
        assert_eq!(layered.metallic_roughness_texture, None);
        assert_eq!(layered.occlusion_texture, None);
        assert_eq!(layered.emissive_texture, None);
        assert_eq!(read.images.len(), model.images.len() - 2);
        // The images after a missing one moved up; the textures still read the same bytes.
        let normal = layered.normal_texture.expect("the normal texture is kept");
        assert_eq!(read.images[normal.image].bytes, model.images[2].bytes);
    }

    #[test]
    fn an_mtoon_material_reads_back_equal_with_every_factor_and_texture() {
        let mut model = model();
        let mut toon = Material {
            name: "toon".into(),
            base_color: Vec4::new(0.9, 0.6, 0.5, 1.0),
            base_color_texture: Some(TextureRef::plain(0)),
            alpha: AlphaMode::Blend,
            ..Material::default()
        };
        toon.layers.mtoon = Some(MToon {
            transparent_with_z_write: true,
            render_queue_offset: -3,
            shade_color: Vec3::new(0.25, 0.5, 0.75),
            shading_shift: -0.25,
            shading_shift_texture_scale: 0.5,
            shading_toony: 0.625,
            gi_equalization: 0.25,
            matcap: Vec3::new(0.5, 0.5, 0.25),
            parametric_rim_color: Vec3::new(0.1, 0.2, 0.3),
            parametric_rim_fresnel_power: 2.5,
            parametric_rim_lift: 0.125,
            rim_lighting_mix: 0.75,
            outline_width_mode: OutlineWidthMode::Screen,
            outline_width: 0.015,
            outline_color: Vec3::new(0.3, 0.2, 0.1),
            outline_lighting_mix: 0.5,
            uv_scroll_x: 0.1,
            uv_scroll_y: -0.2,
            uv_rotation: 0.3,
        });
        for (n, slot) in vrm_mtoon::TEXTURES.into_iter().enumerate() {
            *slot.of_mut(&mut toon) = Some(match n % 2 {
                0 => TextureRef::plain(n % 4),
                _ => unusual(n % 4),
            });
        }
        // The defaults are written too: three-vrm and UniVRM disagree on some.
        let mut plain_toon = Material {
            name: "plain toon".into(),
            ..Material::default()
        };
        plain_toon.layers.mtoon = Some(MToon::default());
        model.materials = vec![toon, plain_toon];
        let (read, json, warnings) = round_trip(&model);
        assert!(!warnings.iter().any(|w| w.contains("MToon")), "{warnings:?}");
        for (read, written) in read.materials.iter().zip(&model.materials) {
            assert_same(read, written);
        }
        let plain = &json["materials"][1]["extensions"]["VRMC_materials_mtoon"];
        assert_eq!(plain["parametricRimFresnelPowerFactor"], json!(5.0));
        assert_eq!(plain["outlineWidthMode"], "none");
        assert_eq!(
            json["materials"][0]["extensions"]["VRMC_materials_mtoon"]["shadingShiftTexture"]["scale"],
            json!(0.5)
        );
        let used = json["extensionsUsed"].as_array().unwrap();
        assert!(used.contains(&json!("VRMC_materials_mtoon")), "{used:?}");
        assert_eq!(json["images"].as_array().map(Vec::len), Some(4), "MToon's images");
    }
}
