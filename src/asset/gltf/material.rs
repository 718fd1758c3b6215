//! glTF materials and images.

use glam::{Vec3, Vec4};
use gltf_json::material::AlphaMode as JsonAlphaMode;
use gltf_json::validation::Checked;
use gltf_json::{Root, texture};

use super::container::{Container, read_uri};
use crate::asset::model::{AlphaMode, Image, Material, TextureRef};

pub fn load_materials(root: &Root) -> Result<Vec<Material>, String> {
    root.materials
        .iter()
        .enumerate()
        .map(|(index, material)| {
            let texture = |info: Option<&texture::Info>| -> Result<Option<TextureRef>, String> {
                info.map(|info| texture_ref(root, info.index.value(), info.tex_coord))
                    .transpose()
                    .map_err(|e| format!("material {index}: {e}"))
            };
            let pbr = &material.pbr_metallic_roughness;
            let normal_texture = material
                .normal_texture
                .as_ref()
                .map(|t| texture_ref(root, t.index.value(), t.tex_coord))
                .transpose()
                .map_err(|e| format!("material {index}: {e}"))?;
            let base_color = Vec4::from(pbr.base_color_factor.0);
            let emissive = Vec3::from(material.emissive_factor.0);
            if !base_color.is_finite() || !emissive.is_finite() {
                return Err(format!("material {index}: its colours are not finite numbers"));
            }
            Ok(Material {
                name: material.name.clone().unwrap_or_else(|| format!("Material {index}")),
                base_color,
                base_color_texture: texture(pbr.base_color_texture.as_ref())?,
                metallic: finite_or(pbr.metallic_factor.0, 1.0),
                roughness: finite_or(pbr.roughness_factor.0, 1.0),
                metallic_roughness_texture: texture(pbr.metallic_roughness_texture.as_ref())?,
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
            })
        })
        .collect()
}

fn finite_or(value: f32, default: f32) -> f32 {
    if value.is_finite() { value } else { default }
}

fn texture_ref(root: &Root, texture: usize, tex_coord: u32) -> Result<TextureRef, String> {
    let image = root
        .textures
        .get(texture)
        .ok_or_else(|| format!("texture {texture} does not exist"))?
        .source
        .value();
    if image >= root.images.len() {
        return Err(format!("texture {texture} uses image {image}, which does not exist"));
    }
    Ok(TextureRef { image, tex_coord })
}

/// Reads every image's encoded bytes. A missing external image file is a warning (the model is
/// still worth looking at); a broken buffer view is an error.
pub fn load_images(container: &Container, warnings: &mut Vec<String>) -> Result<Vec<Image>, String> {
    let root = &container.root;
    let mut images = Vec::with_capacity(root.images.len());
    for (index, image) in root.images.iter().enumerate() {
        let bytes = match (&image.uri, image.buffer_view) {
            (Some(uri), _) => read_uri(&container.base_dir, uri).unwrap_or_else(|e| {
                warnings.push(format!("image {index}: {e}"));
                Vec::new()
            }),
            (None, Some(view)) => container
                .view(view.value())
                .map_err(|e| format!("image {index}: {e}"))?
                .to_vec(),
            (None, None) => {
                return Err(format!("image {index} has neither a uri nor a buffer view"));
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
