//! glTF materials and images.

use glam::{Vec3, Vec4};
use gltf_json::Root;
use gltf_json::material::AlphaMode as JsonAlphaMode;
use gltf_json::validation::Checked;

use super::container::{Container, read_uri};
use crate::asset::LoadErrorKind;
use crate::asset::model::{AlphaMode, Image, Material, TextureRef};

/// The materials. A texture without an image rigscope can read is left out with a warning.
pub fn load_materials(root: &Root, warnings: &mut Vec<String>) -> Result<Vec<Material>, LoadErrorKind> {
    let mut materials = Vec::with_capacity(root.materials.len());
    for (index, material) in root.materials.iter().enumerate() {
        let object = format!("/materials/{index}");
        let mut texture = |property: &str, texture: usize, tex_coord: u32| {
            texture_ref(
                root,
                texture,
                tex_coord,
                &format!("{object}/{property}/index"),
                warnings,
            )
        };
        let pbr = &material.pbr_metallic_roughness;
        let base_color_texture = match &pbr.base_color_texture {
            Some(info) => texture(
                "pbrMetallicRoughness/baseColorTexture",
                info.index.value(),
                info.tex_coord,
            )?,
            None => None,
        };
        let metallic_roughness_texture = match &pbr.metallic_roughness_texture {
            Some(info) => texture(
                "pbrMetallicRoughness/metallicRoughnessTexture",
                info.index.value(),
                info.tex_coord,
            )?,
            None => None,
        };
        let normal_texture = match &material.normal_texture {
            Some(info) => texture("normalTexture", info.index.value(), info.tex_coord)?,
            None => None,
        };
        let base_color = Vec4::from(pbr.base_color_factor.0);
        let emissive = Vec3::from(material.emissive_factor.0);
        if !base_color.is_finite() || !emissive.is_finite() {
            return Err(LoadErrorKind::invalid(object, "its colours are not finite numbers"));
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
            emissive,
            alpha: match material.alpha_mode {
                Checked::Valid(JsonAlphaMode::Mask) => AlphaMode::Mask {
                    cutoff: material.alpha_cutoff.map_or(0.5, |c| finite_or(c.0, 0.5)),
                },
                Checked::Valid(JsonAlphaMode::Blend) => AlphaMode::Blend,
                _ => AlphaMode::Opaque,
            },
            double_sided: material.double_sided,
        });
    }
    Ok(materials)
}

fn finite_or(value: f32, default: f32) -> f32 {
    if value.is_finite() { value } else { default }
}

/// The image texture `texture` shows; `object` is the pointer of the reference to it. A texture
/// without `source` (its image comes from an extension such as EXT_texture_webp or
/// KHR_texture_basisu) is valid glTF that rigscope cannot show: a warning, and no texture.
fn texture_ref(
    root: &Root,
    texture: usize,
    tex_coord: u32,
    object: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<TextureRef>, LoadErrorKind> {
    let source = root
        .textures
        .get(texture)
        .ok_or_else(|| LoadErrorKind::invalid(object, format!("texture {texture} does not exist")))?
        .source
        .value();
    if source == u32::MAX as usize {
        warnings.push(format!(
            "/textures/{texture}: it has no source image rigscope can read (its image comes from an extension); drawn without it"
        ));
        return Ok(None);
    }
    if source >= root.images.len() {
        return Err(LoadErrorKind::invalid(
            format!("/textures/{texture}/source"),
            format!("image {source} does not exist"),
        ));
    }
    Ok(Some(TextureRef {
        image: source,
        tex_coord,
    }))
}

/// Reads every image's encoded bytes. A missing external image file is a warning (the model is
/// still worth looking at); a broken buffer view is an error.
pub fn load_images(container: &Container, warnings: &mut Vec<String>) -> Result<Vec<Image>, LoadErrorKind> {
    let root = &container.root;
    let mut images = Vec::with_capacity(root.images.len());
    for (index, image) in root.images.iter().enumerate() {
        let bytes = match (&image.uri, image.buffer_view) {
            (Some(uri), _) => read_uri(&container.base_dir, uri).unwrap_or_else(|e| {
                warnings.push(format!("/images/{index}: {e}"));
                Vec::new()
            }),
            (None, Some(view)) => match container.view_unavailable(view.value()) {
                // Like a missing image file: the model is still worth looking at.
                Some(why) => {
                    warnings.push(format!("/images/{index}: its buffer {why} (not shown)"));
                    Vec::new()
                }
                None => container
                    .view(view.value())
                    .map_err(|e| LoadErrorKind::invalid(format!("/images/{index}/bufferView"), e))?
                    .to_vec(),
            },
            (None, None) => {
                return Err(LoadErrorKind::invalid(
                    format!("/images/{index}"),
                    "it has neither a uri nor a buffer view",
                ));
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
