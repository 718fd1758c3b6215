//! Material textures: images decoded once (PNG, JPEG), uploaded with mipmaps, sRGB for base
//! colour and linear for data (metallic-roughness, normals). A texture that cannot be decoded
//! is left out with a note and the material falls back to its factors.

use std::collections::HashMap;

use wgpu::util::DeviceExt;

use super::layouts::Layouts;
use super::uniforms::MaterialUniform;
use crate::asset::{Material, Model, TextureRef};

pub struct MaterialTextures {
    /// (image index, sRGB) → view.
    views: HashMap<(usize, bool), wgpu::TextureView>,
    white: wgpu::TextureView,
    flat_normal: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl MaterialTextures {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, model: &Model, notes: &mut Vec<String>) -> Self {
        let mut wanted: Vec<(usize, bool)> = Vec::new();
        for material in &model.materials {
            let uses = [
                (material.base_color_texture, true),
                (material.metallic_roughness_texture, false),
                (material.normal_texture, false),
            ];
            for (texture, srgb) in uses {
                if let Some(texture) = texture {
                    wanted.push((texture.image, srgb));
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        let max_side = device.limits().max_texture_dimension_2d;
        let mut decoded: HashMap<usize, Option<image::RgbaImage>> = HashMap::new();
        let mut views = HashMap::new();
        for (image_index, srgb) in wanted {
            let rgba = decoded.entry(image_index).or_insert_with(|| {
                let image = &model.images[image_index];
                match image::load_from_memory(&image.bytes) {
                    Ok(decoded) => {
                        let mut rgba = decoded.to_rgba8();
                        if rgba.width() > max_side || rgba.height() > max_side {
                            rgba = image::imageops::resize(
                                &rgba,
                                rgba.width().min(max_side),
                                rgba.height().min(max_side),
                                image::imageops::FilterType::Triangle,
                            );
                        }
                        Some(rgba)
                    }
                    Err(error) => {
                        notes.push(format!(
                            "image '{}' could not be decoded ({error}); its material uses its factors",
                            image.name
                        ));
                        None
                    }
                }
            });
            if let Some(rgba) = rgba {
                views.insert((image_index, srgb), upload_with_mipmaps(device, queue, rgba, srgb));
            }
        }
        let solid = |pixel: [u8; 4], srgb: bool| {
            upload_with_mipmaps(
                device,
                queue,
                &image::RgbaImage::from_pixel(1, 1, image::Rgba(pixel)),
                srgb,
            )
        };
        Self {
            views,
            white: solid([255; 4], false),
            flat_normal: solid([128, 128, 255, 255], false),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("material"),
                address_mode_u: wgpu::AddressMode::Repeat,
                address_mode_v: wgpu::AddressMode::Repeat,
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Linear,
                ..Default::default()
            }),
        }
    }

    fn view(&self, texture: Option<TextureRef>, srgb: bool) -> Option<&wgpu::TextureView> {
        texture.and_then(|t| self.views.get(&(t.image, srgb)))
    }

    /// The bind group of `material` (group 2 of mesh.wgsl).
    pub fn bind_group(
        &self,
        device: &wgpu::Device,
        layouts: &Layouts,
        material: &Material,
        index: Option<usize>,
    ) -> wgpu::BindGroup {
        let base = self.view(material.base_color_texture, true);
        let metallic_roughness = self.view(material.metallic_roughness_texture, false);
        let normal = self.view(material.normal_texture, false);
        let uniform = MaterialUniform::new(
            material,
            [base.is_some(), metallic_roughness.is_some(), normal.is_some()],
        );
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("material"),
            contents: bytemuck::bytes_of(&uniform),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&format!("material {index:?}")),
            layout: &layouts.material,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(base.unwrap_or(&self.white)),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(metallic_roughness.unwrap_or(&self.white)),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(normal.unwrap_or(&self.flat_normal)),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        })
    }
}

/// Uploads `image` with a full mip chain (each level a box-filtered half of the previous).
fn upload_with_mipmaps(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &image::RgbaImage,
    srgb: bool,
) -> wgpu::TextureView {
    let (width, height) = image.dimensions();
    let levels = 32 - width.max(height).max(1).leading_zeros();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("material texture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: levels,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: if srgb {
            wgpu::TextureFormat::Rgba8UnormSrgb
        } else {
            wgpu::TextureFormat::Rgba8Unorm
        },
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut level_image = image.clone();
    for level in 0..levels {
        let (w, h) = level_image.dimensions();
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &level_image,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * w),
                rows_per_image: Some(h),
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        if level + 1 < levels {
            level_image = image::imageops::resize(
                &level_image,
                (w / 2).max(1),
                (h / 2).max(1),
                image::imageops::FilterType::Triangle,
            );
        }
    }
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}
