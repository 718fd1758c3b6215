//! Material textures: images decoded once (PNG, JPEG), uploaded with mipmaps, sRGB for colour
//! (base colour, emissive) and linear for data (metallic-roughness, normals, occlusion), each
//! read through a sampler with the file's wrap and filter modes. A texture that cannot be
//! decoded is left out with a note and the material falls back to its factors.

use std::collections::HashMap;

use wgpu::util::DeviceExt;

use super::layouts::Layouts;
use super::uniforms::{MaterialTexture, MaterialUniform};
use crate::asset::texture::{SamplerModes, Wrap};
use crate::asset::{Material, Model, TextureRef};

pub struct MaterialTextures {
    /// (image index, sRGB) → view.
    views: HashMap<(usize, bool), wgpu::TextureView>,
    white: wgpu::TextureView,
    flat_normal: wgpu::TextureView,
    /// One sampler per distinct set of modes the materials use (and the default's).
    samplers: HashMap<SamplerModes, wgpu::Sampler>,
}

impl MaterialTextures {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, model: &Model, notes: &mut Vec<String>) -> Self {
        let mut wanted: Vec<(usize, bool)> = Vec::new();
        let mut samplers = HashMap::new();
        samplers.insert(SamplerModes::default(), sampler(device, SamplerModes::default()));
        for material in &model.materials {
            for texture in MaterialTexture::ALL {
                if let Some(reference) = texture.of(material) {
                    wanted.push((reference.image, texture.srgb()));
                    samplers
                        .entry(reference.sampler)
                        .or_insert_with(|| sampler(device, reference.sampler));
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
            samplers,
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
    ) -> MaterialBinding {
        let views = MaterialTexture::ALL.map(|texture| self.view(texture.of(material), texture.srgb()));
        let present = views.map(|v| v.is_some());
        let uniform = MaterialUniform::new(material, present);
        // Rewritten each frame when a clip animates the material.
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("material"),
            contents: bytemuck::bytes_of(&uniform),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }];
        for (slot, texture) in MaterialTexture::ALL.into_iter().enumerate() {
            let fallback = if texture == MaterialTexture::Normal {
                &self.flat_normal
            } else {
                &self.white
            };
            entries.push(wgpu::BindGroupEntry {
                binding: 1 + slot as u32,
                resource: wgpu::BindingResource::TextureView(views[slot].unwrap_or(fallback)),
            });
        }
        for (slot, texture) in MaterialTexture::ALL.into_iter().enumerate() {
            let modes = texture.of(material).map_or(SamplerModes::default(), |r| r.sampler);
            entries.push(wgpu::BindGroupEntry {
                binding: 1 + MaterialTexture::ALL.len() as u32 + slot as u32,
                resource: wgpu::BindingResource::Sampler(&self.samplers[&modes]),
            });
        }
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&format!("material {index:?}")),
            layout: &layouts.material,
            entries: &entries,
        });
        MaterialBinding {
            group,
            uniform: buffer,
            present,
        }
    }
}

/// A material's bind group, its uniform buffer, and which of its textures could be loaded
/// (what `MaterialUniform::new` needs to rewrite the uniform).
pub struct MaterialBinding {
    pub group: wgpu::BindGroup,
    pub uniform: wgpu::Buffer,
    pub present: [bool; 5],
}

/// A sampler with the file's modes.
fn sampler(device: &wgpu::Device, modes: SamplerModes) -> wgpu::Sampler {
    let address = |wrap: Wrap| match wrap {
        Wrap::Repeat => wgpu::AddressMode::Repeat,
        Wrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
        Wrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
    };
    let filter = |linear: bool| {
        if linear {
            wgpu::FilterMode::Linear
        } else {
            wgpu::FilterMode::Nearest
        }
    };
    // Without mipmaps the sampler stays on the first level.
    let (mipmap_filter, lod_max_clamp) = match modes.mipmap_linear {
        Some(true) => (wgpu::MipmapFilterMode::Linear, 32.0),
        Some(false) => (wgpu::MipmapFilterMode::Nearest, 32.0),
        None => (wgpu::MipmapFilterMode::Nearest, 0.0),
    };
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("material"),
        address_mode_u: address(modes.wrap_u),
        address_mode_v: address(modes.wrap_v),
        mag_filter: filter(modes.mag_linear),
        min_filter: filter(modes.min_linear),
        mipmap_filter,
        lod_max_clamp,
        ..Default::default()
    })
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
