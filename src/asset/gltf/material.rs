//! glTF materials and images.

use std::collections::HashMap;
use std::sync::Arc;

use glam::{Vec2, Vec3, Vec4};
use gltf_json::Root;
use gltf_json::material::AlphaMode as JsonAlphaMode;
use gltf_json::texture::{MagFilter, MinFilter, WrappingMode};
use gltf_json::validation::Checked;

use super::container::{Container, backslash_note, read_uri};
use super::material_layers;
use crate::asset::LoadErrorKind;
use crate::asset::TextureRef;
use crate::asset::material::{AlphaMode, Material, MaterialTexture};
use crate::asset::model::Image;
use crate::asset::texture::{SamplerModes, UvTransform, Wrap};

/// The materials. A texture without an image rigscope can read is left out with a warning.
pub fn load_materials(root: &Root, warnings: &mut Vec<String>) -> Result<Vec<Material>, LoadErrorKind> {
    let mut materials = Vec::with_capacity(root.materials.len());
    for (index, material) in root.materials.iter().enumerate() {
        let object = format!("/materials/{index}");
        let pbr = &material.pbr_metallic_roughness;
        let extensions = material.extensions.as_ref();
        let material_layers::Layers {
            mut layers,
            specular_glossiness,
            textures: layer_textures,
        } = material_layers::load(extensions.map(|e| &e.others), &object, warnings);
        let mut texture = |property: &str, info: Option<TextureInfo>| match info {
            Some(info) => texture_ref(root, info, &format!("{object}/{property}"), warnings),
            None => Ok(None),
        };
        // Specular-glossiness puts its diffuse texture in the base colour's place and its
        // specular-glossiness texture in the metallic-roughness texture's.
        let (base_color_texture, metallic_roughness_texture) = match &specular_glossiness {
            Some(json) => {
                let at = "extensions/KHR_materials_pbrSpecularGlossiness";
                let diffuse = json.diffuse_texture.as_ref().map(json_info);
                let specular = json.specular_glossiness_texture.as_ref().map(json_info);
                (
                    texture(&format!("{at}/diffuseTexture"), diffuse)?,
                    texture(&format!("{at}/specularGlossinessTexture"), specular)?,
                )
            }
            None => (
                texture(
                    "pbrMetallicRoughness/baseColorTexture",
                    pbr.base_color_texture.as_ref().map(info),
                )?,
                texture(
                    "pbrMetallicRoughness/metallicRoughnessTexture",
                    pbr.metallic_roughness_texture.as_ref().map(info),
                )?,
            ),
        };
        let normal_texture = texture(
            "normalTexture",
            material.normal_texture.as_ref().map(|t| TextureInfo {
                texture: t.index.value(),
                tex_coord: t.tex_coord,
                extensions: t.extensions.as_ref().map(|e| &e.others),
            }),
        )?;
        let occlusion_texture = texture(
            "occlusionTexture",
            material.occlusion_texture.as_ref().map(|t| TextureInfo {
                texture: t.index.value(),
                tex_coord: t.tex_coord,
                extensions: t.extensions.as_ref().map(|e| &e.others),
            }),
        )?;
        let emissive_texture = texture("emissiveTexture", material.emissive_texture.as_ref().map(info))?;
        for (slot, info) in &layer_textures {
            let extension = slot.extension().unwrap_or_default();
            let reference = texture(
                &format!("extensions/{extension}/{}", slot.name()),
                Some(json_info(info)),
            )?;
            layers.textures[*slot as usize - MaterialTexture::Transmission as usize] = reference;
            if *slot == MaterialTexture::ClearcoatNormal {
                layers.clearcoat_normal_scale = info.scale.filter(|s| s.is_finite()).unwrap_or(1.0);
            }
        }
        let base_color = match &specular_glossiness {
            Some(json) => material_layers::diffuse_factor(json).ok_or_else(|| {
                LoadErrorKind::invalid(
                    format!("{object}/extensions/KHR_materials_pbrSpecularGlossiness/diffuseFactor"),
                    "it is not made of finite numbers",
                )
            })?,
            None => Vec4::from(pbr.base_color_factor.0),
        };
        let emissive = Vec3::from(material.emissive_factor.0);
        if !base_color.is_finite() || !emissive.is_finite() {
            return Err(LoadErrorKind::invalid(object, "its colours are not finite numbers"));
        }
        let emissive_strength = extensions
            .and_then(|e| e.emissive_strength.as_ref())
            .map_or(1.0, |s| s.emissive_strength.0);
        if !emissive_strength.is_finite() || emissive_strength < 0.0 {
            warnings.push(format!(
                "{object}/extensions/KHR_materials_emissive_strength: strength {emissive_strength} is not a number of zero or more (1 used)"
            ));
        }
        materials.push(Material {
            name: material.name.clone().unwrap_or_else(|| format!("Material {index}")),
            base_color,
            base_color_texture,
            metallic: finite_or(pbr.metallic_factor.0, 1.0),
            roughness: finite_or(pbr.roughness_factor.0, 1.0),
            metallic_roughness_texture,
            normal_texture,
            normal_scale: material
                .normal_texture
                .as_ref()
                .map_or(1.0, |t| finite_or(t.scale, 1.0)),
            occlusion_texture,
            occlusion_strength: material
                .occlusion_texture
                .as_ref()
                .map_or(1.0, |t| finite_or(t.strength.0, 1.0).clamp(0.0, 1.0)),
            emissive,
            emissive_texture,
            emissive_strength: if emissive_strength.is_finite() && emissive_strength >= 0.0 {
                emissive_strength
            } else {
                1.0
            },
            alpha: match material.alpha_mode {
                Checked::Valid(JsonAlphaMode::Mask) => AlphaMode::Mask {
                    cutoff: material.alpha_cutoff.map_or(0.5, |c| finite_or(c.0, 0.5)),
                },
                Checked::Valid(JsonAlphaMode::Blend) => AlphaMode::Blend,
                _ => AlphaMode::Opaque,
            },
            double_sided: material.double_sided,
            unlit: extensions.is_some_and(|e| e.unlit.is_some()),
            layers,
        });
    }
    Ok(materials)
}

fn info(info: &gltf_json::texture::Info) -> TextureInfo<'_> {
    TextureInfo {
        texture: info.index.value(),
        tex_coord: info.tex_coord,
        extensions: info.extensions.as_ref().map(|e| &e.others),
    }
}

fn json_info(info: &material_layers::JsonTextureInfo) -> TextureInfo<'_> {
    TextureInfo {
        texture: info.index,
        tex_coord: info.tex_coord,
        extensions: info.extensions.as_ref(),
    }
}

fn finite_or(value: f32, default: f32) -> f32 {
    if value.is_finite() { value } else { default }
}

/// A material's reference to a texture, whatever kind of texture info holds it.
pub(super) struct TextureInfo<'a> {
    pub texture: usize,
    pub tex_coord: u32,
    /// The info's extensions (KHR_texture_transform among them).
    pub extensions: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

/// KHR_texture_transform as the file writes it.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonTransform {
    #[serde(default)]
    offset: Option<[f32; 2]>,
    #[serde(default)]
    rotation: Option<f32>,
    #[serde(default)]
    scale: Option<[f32; 2]>,
    #[serde(default)]
    tex_coord: Option<u32>,
}

/// The image texture `info` shows, with its sampler and transform; `object` is the pointer
/// of the reference to it. An image named by EXT_texture_webp or KHR_texture_basisu comes
/// first, with the core `source` as its fallback; a texture with neither an image rigscope
/// reads nor a core `source` is a warning, and the material draws with its factors. A
/// transform or texture coordinate set rigscope cannot use is a warning too, and the texture
/// is read without it.
pub(super) fn texture_ref(
    root: &Root,
    info: TextureInfo,
    object: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<TextureRef>, LoadErrorKind> {
    let texture = info.texture;
    let json = root.textures.get(texture).ok_or_else(|| {
        LoadErrorKind::invalid(format!("{object}/index"), format!("texture {texture} does not exist"))
    })?;
    let core = Some(json.source.value())
        .filter(|&source| source != u32::MAX as usize)
        .map(|source| {
            if source < root.images.len() {
                Ok(source)
            } else {
                Err(LoadErrorKind::invalid(
                    format!("/textures/{texture}/source"),
                    format!("image {source} does not exist"),
                ))
            }
        })
        .transpose()?;
    let extension_image = extension_source(root, texture, json, warnings);
    let Some(image) = extension_image.or(core) else {
        warnings.push(format!(
            "/textures/{texture}: it has no source image rigscope can read (its image comes from an extension rigscope does not read); drawn without it"
        ));
        return Ok(None);
    };
    let sampler = match json.sampler {
        Some(sampler) => {
            let index = sampler.value();
            let sampler = root.samplers.get(index).ok_or_else(|| {
                LoadErrorKind::invalid(
                    format!("/textures/{texture}/sampler"),
                    format!("sampler {index} does not exist"),
                )
            })?;
            sampler_modes(sampler)
        }
        None => SamplerModes::default(),
    };
    let mut transform = UvTransform::default();
    let mut tex_coord = info.tex_coord;
    if let Some(value) = info.extensions.and_then(|e| e.get("KHR_texture_transform")) {
        let pointer = format!("{object}/extensions/KHR_texture_transform");
        match serde_json::from_value::<JsonTransform>(value.clone()) {
            Ok(json) => {
                let offset = Vec2::from(json.offset.unwrap_or([0.0, 0.0]));
                let rotation = json.rotation.unwrap_or(0.0);
                let scale = Vec2::from(json.scale.unwrap_or([1.0, 1.0]));
                if offset.is_finite() && rotation.is_finite() && scale.is_finite() {
                    transform = UvTransform {
                        offset,
                        rotation,
                        scale,
                    };
                    tex_coord = json.tex_coord.unwrap_or(tex_coord);
                } else {
                    warnings.push(format!("{pointer}: its numbers are not all finite (ignored)"));
                }
            }
            Err(error) => warnings.push(format!("{pointer}: {error} (ignored)")),
        }
    }
    if tex_coord > 1 {
        warnings.push(format!(
            "{object}: it reads TEXCOORD_{tex_coord}; rigscope reads sets 0 and 1, so it uses TEXCOORD_0"
        ));
        tex_coord = 0;
    }
    Ok(Some(TextureRef {
        image,
        fallback: core.filter(|_| extension_image.is_some()),
        tex_coord,
        sampler,
        transform,
    }))
}

/// The extensions that give a texture an image in another format, in the order they are tried.
const IMAGE_EXTENSIONS: [&str; 2] = ["KHR_texture_basisu", "EXT_texture_webp"];

/// The image the texture's first image extension names (`{"source": N}`), if that image
/// exists; a source that is missing or out of range is a warning.
fn extension_source(
    root: &Root,
    texture: usize,
    json: &gltf_json::Texture,
    warnings: &mut Vec<String>,
) -> Option<usize> {
    let extensions = json.extensions.as_ref().map(|e| &e.others)?;
    IMAGE_EXTENSIONS.iter().find_map(|&name| {
        let value = extensions.get(name)?;
        let pointer = format!("/textures/{texture}/extensions/{name}/source");
        match value.get("source").and_then(serde_json::Value::as_u64) {
            Some(source) if (source as usize) < root.images.len() => Some(source as usize),
            Some(source) => {
                warnings.push(format!("{pointer}: image {source} does not exist (ignored)"));
                None
            }
            None => {
                warnings.push(format!("{pointer}: it is missing or not an image index (ignored)"));
                None
            }
        }
    })
}

/// A glTF sampler's modes; values the file leaves out or gets wrong are the defaults
/// (repeat, linear, linear mipmaps).
fn sampler_modes(sampler: &gltf_json::texture::Sampler) -> SamplerModes {
    let wrap = |mode: &Checked<WrappingMode>| match mode {
        Checked::Valid(WrappingMode::ClampToEdge) => Wrap::ClampToEdge,
        Checked::Valid(WrappingMode::MirroredRepeat) => Wrap::MirroredRepeat,
        _ => Wrap::Repeat,
    };
    let (min_linear, mipmap_linear) = match sampler.min_filter {
        Some(Checked::Valid(MinFilter::Nearest)) => (false, None),
        Some(Checked::Valid(MinFilter::Linear)) => (true, None),
        Some(Checked::Valid(MinFilter::NearestMipmapNearest)) => (false, Some(false)),
        Some(Checked::Valid(MinFilter::LinearMipmapNearest)) => (true, Some(false)),
        Some(Checked::Valid(MinFilter::NearestMipmapLinear)) => (false, Some(true)),
        _ => (true, Some(true)),
    };
    SamplerModes {
        wrap_u: wrap(&sampler.wrap_s),
        wrap_v: wrap(&sampler.wrap_t),
        mag_linear: !matches!(sampler.mag_filter, Some(Checked::Valid(MagFilter::Nearest))),
        min_linear,
        mipmap_linear,
    }
}

/// Reads every image's encoded bytes. A missing external image file is a warning (the model is
/// still worth looking at); a broken buffer view is an error.
pub fn load_images(container: &Container, warnings: &mut Vec<String>) -> Result<Vec<Image>, LoadErrorKind> {
    let root = &container.root;
    let mut images = Vec::with_capacity(root.images.len());
    // Each buffer view is copied once, however many images read it.
    let mut view_bytes: HashMap<usize, Arc<[u8]>> = HashMap::new();
    for (index, image) in root.images.iter().enumerate() {
        let bytes: Arc<[u8]> = match (&image.uri, image.buffer_view) {
            (Some(uri), _) => match read_uri(&container.base_dir, uri) {
                Ok(bytes) => {
                    warnings.extend(backslash_note(uri).map(|note| format!("/images/{index}: {note}")));
                    bytes.into()
                }
                Err(e) => {
                    warnings.push(format!("/images/{index}: {e}"));
                    Arc::from([])
                }
            },
            (None, Some(view)) => match container.view_unavailable(view.value()) {
                // Like a missing image file: the model is still worth looking at.
                Some(why) => {
                    warnings.push(format!("/images/{index}: its buffer {why} (not shown)"));
                    Arc::from([])
                }
                None => match view_bytes.get(&view.value()) {
                    Some(bytes) => Arc::clone(bytes),
                    None => {
                        let bytes: Arc<[u8]> = container
                            .view(view.value())
                            .map_err(|e| LoadErrorKind::invalid(format!("/images/{index}/bufferView"), e))?
                            .into();
                        view_bytes.insert(view.value(), Arc::clone(&bytes));
                        bytes
                    }
                },
            },
            (None, None) => {
                warnings.push(format!(
                    "/images/{index}: it has neither a uri nor a buffer view (not shown)"
                ));
                Arc::from([])
            }
        };
        images.push(Image {
            name: image.name.clone().unwrap_or_else(|| format!("Image {index}")),
            mime_type: image.mime_type.as_ref().map(|m| m.0.clone()),
            bytes,
        });
    }
    Ok(images)
}
