//! Image-based lighting: an environment's radiance as equirectangular images, prefiltered on
//! the GPU when it is made (shaders/environment.wgsl): the specular map, whose mip levels
//! hold the environment blurred for roughness 0 to 1; the diffuse irradiance; and the
//! split-sum BRDF table. The built-in studio is drawn by a shader at start-up (nothing to
//! download, nothing stored); a user's equirectangular Radiance `.hdr` replaces it.

use std::borrow::Cow;
use std::path::Path;

use anyhow::{Context, bail};
use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::gpu::Gpu;
use super::layouts::Layouts;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// The built-in studio's radiance image.
const STUDIO_SIZE: (u32, u32) = (512, 256);
/// The specular map's first level; each further level halves it, for roughness up to 1.
const SPECULAR_SIZE: (u32, u32) = (256, 128);
const SPECULAR_LEVELS: u32 = 6;
const IRRADIANCE_SIZE: (u32, u32) = (64, 32);
const TABLE_SIZE: u32 = 64;
/// A user's image wider than this is scaled down first (the specular map is far smaller).
const MAX_SOURCE_WIDTH: u32 = 2048;

pub struct Environment {
    /// "studio", or the file's name.
    pub name: String,
    pub specular: wgpu::TextureView,
    pub irradiance: wgpu::TextureView,
    pub brdf_table: wgpu::TextureView,
    /// Linear with mipmaps, wrapping around in u and clamped at the poles.
    pub sampler: wgpu::Sampler,
    /// Linear, clamped (the BRDF table).
    pub table_sampler: wgpu::Sampler,
}

/// `Pass` in environment.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct PassUniform {
    /// x: roughness, y, z: the source's size, w: its highest mip level.
    params: [f32; 4],
    /// x: the drawn image's width.
    output: [f32; 4],
}

impl Environment {
    /// The specular map's highest mip level (roughness 1).
    pub const MAX_LEVEL: f32 = (SPECULAR_LEVELS - 1) as f32;

    /// The built-in neutral studio.
    pub fn studio(gpu: &Gpu, layouts: &Layouts) -> Self {
        let maker = Maker::new(gpu, layouts);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let source = maker.texture("studio", STUDIO_SIZE, mip_levels(STUDIO_SIZE));
        maker.draw(&mut encoder, &maker.studio, &level_view(&source, 0), None, [0.0; 4], STUDIO_SIZE.0);
        maker.prefilter(encoder, &source, "studio")
    }

    /// An equirectangular Radiance `.hdr` image (2:1, +Y up in its first row).
    pub fn from_hdr_file(gpu: &Gpu, layouts: &Layouts, path: &Path) -> anyhow::Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read the environment", path.display()))?;
        let pixels = decode_hdr(&bytes).with_context(|| format!("{}: not an environment rigscope can read", path.display()))?;
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Self::from_pixels(gpu, layouts, &pixels, &name))
    }

    /// An environment from linear RGB radiance, row 0 looking up.
    pub fn from_pixels(gpu: &Gpu, layouts: &Layouts, pixels: &image::Rgb32FImage, name: &str) -> Self {
        let maker = Maker::new(gpu, layouts);
        let size = pixels.dimensions();
        let source = maker.texture(name, size, mip_levels(size));
        let halves: Vec<u16> = pixels
            .pixels()
            .flat_map(|p| [p[0], p[1], p[2], 1.0])
            .map(f16_bits)
            .collect();
        gpu.queue.write_texture(
            source.as_image_copy(),
            bytemuck::cast_slice(&halves),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(size.0 * 8),
                rows_per_image: Some(size.1),
            },
            extent(size),
        );
        let encoder = gpu.device.create_command_encoder(&Default::default());
        maker.prefilter(encoder, &source, name)
    }
}

/// Decodes a Radiance `.hdr` image, scaled down to at most `MAX_SOURCE_WIDTH` wide.
fn decode_hdr(bytes: &[u8]) -> anyhow::Result<image::Rgb32FImage> {
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Hdr);
    // The decoder's own limits bound what a small file may make it allocate.
    reader.limits(image::Limits::default());
    let image = reader.decode()?.to_rgb32f();
    let (width, height) = image.dimensions();
    if width < 2 || height < 1 {
        bail!("the image is {width}x{height} pixels; an environment needs at least 2x1");
    }
    if image.pixels().any(|p| p.0.iter().any(|c| !c.is_finite())) {
        bail!("the image holds values that are not finite numbers");
    }
    if width <= MAX_SOURCE_WIDTH {
        return Ok(image);
    }
    let scaled_height = (height as u64 * MAX_SOURCE_WIDTH as u64 / width as u64).max(1) as u32;
    Ok(image::imageops::resize(
        &image,
        MAX_SOURCE_WIDTH,
        scaled_height,
        image::imageops::FilterType::Triangle,
    ))
}

/// IEEE half-precision bits of a radiance value (negative and non-finite values become 0;
/// values past half's range its largest).
fn f16_bits(value: f32) -> u16 {
    let value = if value.is_finite() { value.clamp(0.0, 65504.0) } else { 0.0 };
    let bits = value.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    if exponent <= 0 {
        // Below half's normal range: too dim to see.
        return 0;
    }
    (((exponent as u32) << 10) | ((bits >> 13) & 0x3ff)) as u16
}

fn mip_levels((width, height): (u32, u32)) -> u32 {
    32 - width.max(height).max(1).leading_zeros()
}

fn extent((width, height): (u32, u32)) -> wgpu::Extent3d {
    wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    }
}

fn level_view(texture: &wgpu::Texture, level: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        base_mip_level: level,
        mip_level_count: Some(1),
        ..Default::default()
    })
}

/// The pipelines and sampler that make an environment's images.
struct Maker<'a> {
    gpu: &'a Gpu,
    layouts: &'a Layouts,
    studio: wgpu::RenderPipeline,
    downsample: wgpu::RenderPipeline,
    specular: wgpu::RenderPipeline,
    irradiance: wgpu::RenderPipeline,
    brdf_table: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
}

impl<'a> Maker<'a> {
    fn new(gpu: &'a Gpu, layouts: &'a Layouts) -> Self {
        let device = &gpu.device;
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("environment"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(include_str!("../../shaders/environment.wgsl"))),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("environment"),
            bind_group_layouts: &[Some(&layouts.environment)],
            immediate_size: 0,
        });
        let pipeline = |entry_point: &str| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(entry_point),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some(entry_point),
                    compilation_options: Default::default(),
                    targets: &[Some(FORMAT.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        Self {
            gpu,
            layouts,
            studio: pipeline("fs_studio"),
            downsample: pipeline("fs_downsample"),
            specular: pipeline("fs_specular"),
            irradiance: pipeline("fs_irradiance"),
            brdf_table: pipeline("fs_brdf_table"),
            sampler: environment_sampler(device),
        }
    }

    fn texture(&self, label: &str, size: (u32, u32), levels: u32) -> wgpu::Texture {
        self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: extent(size),
            mip_level_count: levels,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        })
    }

    /// Draws `pipeline` over all of `target`, reading `source` (a 1×1 stand-in when None)
    /// with `params`; `width` is the target's.
    fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &wgpu::RenderPipeline,
        target: &wgpu::TextureView,
        source: Option<&wgpu::TextureView>,
        params: [f32; 4],
        width: u32,
    ) {
        let device = &self.gpu.device;
        let stand_in;
        let source = match source {
            Some(source) => source,
            None => {
                stand_in = self.texture("stand-in", (1, 1), 1).create_view(&Default::default());
                &stand_in
            }
        };
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("environment pass"),
            contents: bytemuck::bytes_of(&PassUniform {
                params,
                output: [width as f32, 0.0, 0.0, 0.0],
            }),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("environment pass"),
            layout: &self.layouts.environment,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(source),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: uniform.as_entire_binding(),
                },
            ],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("environment"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }

    /// Fills `source`'s mip chain from its first level, then makes the specular map, the
    /// irradiance and the BRDF table from it, and submits the work.
    fn prefilter(&self, mut encoder: wgpu::CommandEncoder, source: &wgpu::Texture, name: &str) -> Environment {
        let (width, height) = (source.width(), source.height());
        let levels = source.mip_level_count();
        for level in 1..levels {
            let size = ((width >> level).max(1), (height >> level).max(1));
            let above = level_view(source, level - 1);
            self.draw(
                &mut encoder,
                &self.downsample,
                &level_view(source, level),
                Some(&above),
                [0.0; 4],
                size.0,
            );
        }
        let source_view = source.create_view(&Default::default());
        let source_params = |roughness: f32| [roughness, width as f32, height as f32, (levels - 1) as f32];

        let specular = self.texture("specular map", SPECULAR_SIZE, SPECULAR_LEVELS);
        for level in 0..SPECULAR_LEVELS {
            let roughness = level as f32 / (SPECULAR_LEVELS - 1) as f32;
            let level_width = (SPECULAR_SIZE.0 >> level).max(1);
            self.draw(
                &mut encoder,
                &self.specular,
                &level_view(&specular, level),
                Some(&source_view),
                source_params(roughness),
                level_width,
            );
        }
        let irradiance = self.texture("irradiance", IRRADIANCE_SIZE, 1);
        self.draw(
            &mut encoder,
            &self.irradiance,
            &level_view(&irradiance, 0),
            Some(&source_view),
            source_params(1.0),
            IRRADIANCE_SIZE.0,
        );
        let table = self.texture("BRDF table", (TABLE_SIZE, TABLE_SIZE), 1);
        self.draw(&mut encoder, &self.brdf_table, &level_view(&table, 0), None, [0.0; 4], TABLE_SIZE);
        self.gpu.queue.submit([encoder.finish()]);
        let device = &self.gpu.device;
        Environment {
            name: name.to_string(),
            specular: specular.create_view(&Default::default()),
            irradiance: irradiance.create_view(&Default::default()),
            brdf_table: table.create_view(&Default::default()),
            sampler: environment_sampler(device),
            table_sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("BRDF table"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            }),
        }
    }
}

fn environment_sampler(device: &wgpu::Device) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("environment"),
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::ClampToEdge,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_floats_of_radiance() {
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(f16_bits(0.5), 0x3800);
        assert_eq!(f16_bits(2.0), 0x4000);
        assert_eq!(f16_bits(65504.0), 0x7bff);
        assert_eq!(f16_bits(1e9), 0x7bff);
        assert_eq!(f16_bits(-3.0), 0);
        assert_eq!(f16_bits(f32::NAN), 0);
        assert_eq!(f16_bits(1e-9), 0);
    }

    #[test]
    fn hdr_files_are_decoded_and_bad_ones_refused() {
        let mut bytes = Vec::new();
        let image = image::Rgb32FImage::from_fn(8, 4, |x, y| image::Rgb([x as f32, y as f32, 2.5]));
        image::codecs::hdr::HdrEncoder::new(&mut bytes)
            .encode(
                &image.pixels().map(|p| image::Rgb(p.0)).collect::<Vec<_>>(),
                8,
                4,
            )
            .unwrap();
        let decoded = decode_hdr(&bytes).unwrap();
        assert_eq!(decoded.dimensions(), (8, 4));
        assert!((decoded.get_pixel(3, 2)[0] - 3.0).abs() < 0.05);
        assert!(decode_hdr(&bytes[..bytes.len() / 2]).is_err(), "truncated");
        assert!(decode_hdr(b"not an image").is_err());
    }
}
