//! FBX and OBJ materials and textures.
//!
//! ufbx maps every material model FBX files carry (Lambert and Phong, and the PBR forms of
//! Maya's Standard Surface, 3ds Max's Physical Material, Blender's Principled BSDF and
//! Stingray) onto one set of PBR maps; those become glTF's metallic-roughness material: base
//! colour (times its factor) and alpha from opacity, metalness, roughness, normal map,
//! ambient occlusion and emission (colour times factor), each with its texture. Colours are
//! taken as they are (FBX has no colour management; Maya, 3ds Max and Blender write linear
//! values). A material with opacity below 1 blends.
//!
//! A texture's image is the file's embedded copy, else the file it names: its path relative
//! to the model's folder, then as written, then its name alone beside the model (exporters
//! write the artist's absolute paths). One that cannot be found is a warning, and the material
//! is drawn with its factors.

use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};

use super::{vec3, vec4};
use crate::asset::material::{AlphaMode, Material};
use crate::asset::model::Image;
use crate::asset::texture::{SamplerModes, TextureRef, UvTransform, Wrap};

/// The images of the file's textures, and per texture (by `typed_id`) its image.
pub fn load_textures(scene: &ufbx::Scene, path: &Path, warnings: &mut Vec<String>) -> (Vec<Image>, Vec<Option<usize>>) {
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut images = Vec::new();
    let mut image_of_texture = vec![None; scene.textures.len()];
    for texture in &scene.textures {
        let name = texture.element.name.to_string();
        let bytes = if !texture.content.is_empty() {
            Some(texture.content.to_vec())
        } else {
            texture_file(folder, texture).and_then(|file| std::fs::read(file).ok())
        };
        match bytes {
            Some(bytes) => {
                image_of_texture[texture.element.typed_id as usize] = Some(images.len());
                images.push(Image {
                    name: if name.is_empty() {
                        texture.relative_filename.to_string()
                    } else {
                        name
                    },
                    mime_type: None,
                    bytes: bytes.into(),
                });
            }
            None if texture.has_file || !texture.filename.is_empty() => warnings.push(format!(
                "texture '{name}': its file '{}' was not found (drawn without it)",
                texture.relative_filename
            )),
            None => {}
        }
    }
    (images, image_of_texture)
}

/// The file a texture names, where it exists.
fn texture_file(folder: &Path, texture: &ufbx::Texture) -> Option<PathBuf> {
    let relative = texture.relative_filename.to_string().replace('\\', "/");
    let written = texture.filename.to_string().replace('\\', "/");
    let alone = Path::new(&written).file_name().map(|n| folder.join(n));
    [Some(folder.join(&relative)), Some(PathBuf::from(&written)), alone]
        .into_iter()
        .flatten()
        .find(|candidate| !candidate.as_os_str().is_empty() && candidate.is_file())
}

/// The file's materials, in its order; `images` maps textures to images.
pub fn load_materials(scene: &ufbx::Scene, images: &[Option<usize>]) -> Vec<Material> {
    (scene.materials.iter())
        .map(|material| load_material(material, images))
        .collect()
}

fn load_material(material: &ufbx::Material, images: &[Option<usize>]) -> Material {
    let pbr = &material.pbr;
    let texture = |map: &ufbx::MaterialMap| -> Option<TextureRef> {
        let texture = map.texture.as_ref().filter(|_| map.texture_enabled || map.has_value)?;
        let image = (*images.get(texture.element.typed_id as usize)?)?;
        Some(texture_ref(texture, image))
    };
    let scalar = |map: &ufbx::MaterialMap, default: f32| {
        if map.has_value {
            map.value_vec4.x as f32
        } else {
            default
        }
    };
    let color = |map: &ufbx::MaterialMap| vec4(map.value_vec4).truncate();
    let base_factor = scalar(&pbr.base_factor, 1.0);
    let opacity = scalar(&pbr.opacity, 1.0).clamp(0.0, 1.0);
    let base = if pbr.base_color.has_value {
        color(&pbr.base_color)
    } else {
        Vec3::ONE
    };
    let emission = if pbr.emission_color.has_value {
        color(&pbr.emission_color)
    } else {
        Vec3::ZERO
    };
    Material {
        name: material.element.name.to_string(),
        base_color: (base * base_factor).extend(opacity),
        base_color_texture: texture(&pbr.base_color),
        metallic: scalar(&pbr.metalness, 0.0).clamp(0.0, 1.0),
        roughness: scalar(&pbr.roughness, 0.5).clamp(0.0, 1.0),
        metallic_roughness_texture: None,
        normal_texture: texture(&pbr.normal_map),
        normal_scale: 1.0,
        occlusion_texture: texture(&pbr.ambient_occlusion),
        occlusion_strength: 1.0,
        emissive: emission * scalar(&pbr.emission_factor, 1.0),
        emissive_texture: texture(&pbr.emission_color),
        emissive_strength: 1.0,
        alpha: if opacity < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        double_sided: false,
        unlit: false,
        layers: Default::default(),
    }
}

/// How a material reads a texture: wrap modes and the texture's UV transform (FBX's
/// translation, rotation about +Z and scale of the UVs).
fn texture_ref(texture: &ufbx::Texture, image: usize) -> TextureRef {
    let wrap = |mode: ufbx::WrapMode| match mode {
        ufbx::WrapMode::Clamp => Wrap::ClampToEdge,
        _ => Wrap::Repeat,
    };
    let transform = match texture.has_uv_transform {
        true => {
            let uv = &texture.uv_transform;
            let rotation = super::quat(uv.rotation).to_euler(glam::EulerRot::XYZ).2;
            UvTransform {
                offset: vec3(uv.translation).truncate(),
                rotation,
                scale: Vec2::new(uv.scale.x as f32, uv.scale.y as f32),
            }
        }
        false => UvTransform::default(),
    };
    TextureRef {
        sampler: SamplerModes {
            wrap_u: wrap(texture.wrap_u),
            wrap_v: wrap(texture.wrap_v),
            ..SamplerModes::default()
        },
        transform,
        ..TextureRef::plain(image)
    }
}
