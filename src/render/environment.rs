//! Image-based lighting: an environment's radiance (an equirectangular image), prefiltered on
//! the GPU when it is made (shaders/environment.wgsl): the specular cube map, whose mip levels
//! hold the environment blurred for roughness 0 to 1 (the roughest, the cosine lobe, is the
//! diffuse irradiance, as three.js reads its PMREM's); the irradiance as nine
//! spherical-harmonic coefficients too, for MToon, which three-vrm lights by a light probe of
//! them (computed into a 9 × 1 image, then copied into a uniform buffer, all on the GPU); and
//! the split-sum BRDF table. Both are cheap per fragment: a cube map finds its texel by
//! direction without trigonometry, and the harmonics are thirty multiply-adds (on a software
//! rasteriser, the two equirectangular lookups this replaced cost a sixth of the frame). The
//! built-in studio is drawn by a shader at start-up (nothing to
//! download); a user's equirectangular Radiance `.hdr` replaces it. The prepared maps are kept
//! on disk (environment_cache.rs), so only the first run with an environment prepares it.

use std::path::Path;

use anyhow::{Context, bail};
use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::environment_cache::{self, CacheKey, EnvironmentCache, MapShape, PreparedMaps};
use super::fullscreen;
use super::gpu::Gpu;
use super::layouts::Layouts;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// The built-in studio's radiance image.
const STUDIO_SIZE: (u32, u32) = (512, 256);
/// The side of a specular cube face at its first level; each further level halves it, for
/// roughness up to 1 at 16 texels a side. (Levels of 8 and 4 texels drew the cube's faces and
/// texels as creases on rough metal: bilinear filtering over so few texels is visibly
/// piecewise.) Five levels at three.js's PMREM's spacing of roughness (`level_roughness`),
/// denser towards the mirror, so that a lookup between two mixes lobes as near as three.js's:
/// with four evenly spaced ones (roughness 0, 1/3, 2/3, 1) a roughness-0.1 metal mixed the
/// mirror with a lobe three times as wide, and read 8-10 levels brighter than three.js's. The
/// first level's side is three.js's; six levels from 512 texels drew the table of real files
/// no closer to three.js's and cost a `render` of Fox 12% more CPU and 18 MB.
const SPECULAR_SIZE: u32 = 256;
const SPECULAR_LEVELS: u32 = 5;
/// Spherical-harmonic coefficients of the irradiance (orders 0 to 2).
const IRRADIANCE_COEFFICIENTS: u32 = 9;
/// The irradiance image's format: the bits of four floats per texel, which the uniform buffer
/// takes as they are (32-bit float images are not renderable on every device; integer ones
/// are).
const IRRADIANCE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;
/// The split-sum table's side: three.js's 16 × 16, which it computes at texel centres and reads
/// at (roughness, n·v) from edge to edge, so that roughness 1 reads the table at 0.97 (a
/// rough surface's specular 12% stronger than at 1). The same table at the same size reads
/// the same; a 64-texel table left a rough grey metal 3 levels darker than three.js.
const TABLE_SIZE: u32 = 16;
/// A user's image larger than this is scaled down to fit first (the specular map is far
/// smaller).
const MAX_SOURCE_SIZE: (u32, u32) = (2048, 1024);
/// The prepared maps' sizes and formats (and so the cache file's).
const SHAPE: MapShape = MapShape {
    specular_size: SPECULAR_SIZE,
    specular_levels: SPECULAR_LEVELS,
    format: FORMAT,
    irradiance_bytes: IRRADIANCE_COEFFICIENTS * 16,
    table_size: TABLE_SIZE,
};

pub struct Environment {
    /// "studio", or the file's name.
    pub name: String,
    pub specular: wgpu::TextureView,
    /// `Irradiance` in frame.wgsl: nine coefficients (vec4 each).
    pub irradiance: wgpu::Buffer,
    pub brdf_table: wgpu::TextureView,
    /// Linear with mipmaps (its wrapping, around in u and clamped at the poles, is for the
    /// equirectangular source; cube maps have no edges).
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
    /// x: the drawn image's width, y: its cube face.
    output: [f32; 4],
}

impl Environment {
    /// The specular map's highest mip level (roughness 1).
    pub const MAX_LEVEL: f32 = (SPECULAR_LEVELS - 1) as f32;

    /// The built-in neutral studio.
    pub fn studio(gpu: &Gpu, layouts: &Layouts) -> Self {
        Self::prepared(gpu, layouts, "studio", b"studio", |maker, encoder| {
            let source = maker.texture("studio", STUDIO_SIZE, mip_levels(STUDIO_SIZE), 1);
            let target = Target {
                view: &level_view(&source, 0, 0),
                width: STUDIO_SIZE.0,
                face: 0,
            };
            maker.draw(encoder, &maker.studio, target, None, [0.0; 4]);
            source
        })
    }

    /// The environment `image` shows.
    pub fn from_image(gpu: &Gpu, layouts: &Layouts, image: &EnvironmentImage) -> Self {
        let (pixels, name) = (&image.pixels, image.name.as_str());
        Self::prepared(gpu, layouts, name, &image.file_hash.to_le_bytes(), |maker, _| {
            let size = pixels.dimensions();
            let source = maker.texture(name, size, mip_levels(size), 1);
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
            source
        })
    }

    /// The environment whose radiance `draw_source` makes (`source` says which: `b"studio"`,
    /// or the hash of an image file's bytes): its maps from the cache when it holds them, else
    /// prepared from that radiance and kept in the cache.
    fn prepared(
        gpu: &Gpu,
        layouts: &Layouts,
        name: &str,
        source: &[u8],
        draw_source: impl FnOnce(&Maker, &mut wgpu::CommandEncoder) -> wgpu::Texture,
    ) -> Self {
        let cache = EnvironmentCache::for_user(&cache_key(&gpu.adapter.get_info(), source), SHAPE);
        let cached = cache
            .as_ref()
            .and_then(EnvironmentCache::read)
            .and_then(|payload| environment_cache::upload(gpu, &payload, &SHAPE));
        let maps = match cached {
            Some(maps) => maps,
            None => {
                let maker = Maker::new(gpu, layouts);
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                let radiance = draw_source(&maker, &mut encoder);
                let (maps, faces) = maker.prefilter(encoder, &radiance);
                if let Some(cache) = &cache
                    && let Some(payload) = environment_cache::read_back(gpu, &maps, &faces, &SHAPE)
                {
                    cache.write(&payload);
                }
                maps
            }
        };
        Self::with_maps(gpu, name, maps)
    }

    /// The environment lit by `maps`.
    fn with_maps(gpu: &Gpu, name: &str, maps: PreparedMaps) -> Self {
        let device = &gpu.device;
        Self {
            name: name.to_string(),
            specular: cube_view(&maps.specular),
            irradiance: maps.irradiance,
            brdf_table: maps.brdf_table.create_view(&Default::default()),
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

/// Everything that determines an environment's prepared maps but its radiance (`source`): the
/// preparation's shaders and the code that draws and stores them (this file, fullscreen.rs and
/// environment_cache.rs, so that a change to any misses the cache even before the crate's
/// version changes), the sizes and formats, and the adapter and its driver (another rasteriser
/// rounds differently).
fn cache_key(adapter: &wgpu::AdapterInfo, source: &[u8]) -> CacheKey {
    let mut key = CacheKey::versioned();
    key.add(source)
        .add(fullscreen::WGSL.as_bytes())
        .add(preparation_shader().as_bytes())
        .add(include_str!("environment.rs").as_bytes())
        .add(include_str!("fullscreen.rs").as_bytes())
        .add(include_str!("environment_cache.rs").as_bytes())
        .add_value(&SHAPE)
        .add_value(&(STUDIO_SIZE, MAX_SOURCE_SIZE, IRRADIANCE_FORMAT))
        .add_value(adapter);
    key
}

/// The preparation's shaders (after fullscreen.wgsl's vertex shader).
fn preparation_shader() -> String {
    format!(
        "{}\n{}",
        include_str!("../../shaders/brdf.wgsl"),
        include_str!("../../shaders/environment.wgsl")
    )
}

/// Pixels one byte of a Radiance file can hold at most: run-length encoding packs up to 127
/// pixels of one channel in two bytes, so a whole file holds far fewer per byte than this.
const MAX_PIXELS_PER_BYTE: u64 = 64;

/// An environment's radiance as its file holds it, decoded once however many renderers it
/// then lights (a batch makes one per thread).
pub struct EnvironmentImage {
    /// The file's name.
    name: String,
    /// A hash of the file's bytes: what its prepared maps are cached under.
    file_hash: u64,
    /// Linear RGB, equirectangular, row 0 looking up.
    pixels: image::Rgb32FImage,
}

impl EnvironmentImage {
    /// Reads an equirectangular Radiance `.hdr` image (2:1, +Y up in its first row).
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read the environment", path.display()))?;
        let pixels =
            decode_hdr(&bytes).with_context(|| format!("{}: not an environment rigscope can read", path.display()))?;
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Self {
            name,
            file_hash: environment_cache::content_hash(&bytes),
            pixels,
        })
    }
}

/// Decodes a Radiance `.hdr` image, scaled down to fit `MAX_SOURCE_SIZE`, each value at the
/// middle of its RGBE step.
fn decode_hdr(bytes: &[u8]) -> anyhow::Result<image::Rgb32FImage> {
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Hdr);
    // A small file may not make the decoder allocate for a huge image: its header's size is
    // checked against what the file could hold first.
    let (width, height) = reader().into_dimensions()?;
    if width as u64 * height as u64 > MAX_PIXELS_PER_BYTE * bytes.len() as u64 {
        bail!(
            "its header says {width}x{height} pixels, more than its {} bytes can hold",
            bytes.len()
        );
    }
    let mut image = reader().decode()?.to_rgb32f();
    image.pixels_mut().for_each(centre_in_step);
    let (width, height) = image.dimensions();
    if width < 2 || height < 1 {
        bail!("the image is {width}x{height} pixels; an environment needs at least 2x1");
    }
    if image.pixels().any(|p| p.0.iter().any(|c| !c.is_finite())) {
        bail!("the image holds values that are not finite numbers");
    }
    let (max_width, max_height) = MAX_SOURCE_SIZE;
    if width <= max_width && height <= max_height {
        return Ok(image);
    }
    let scale = (max_width as f64 / width as f64).min(max_height as f64 / height as f64);
    let scaled = |side: u32| ((side as f64 * scale) as u32).max(1);
    Ok(image::imageops::resize(
        &image,
        scaled(width),
        scaled(height),
        image::imageops::FilterType::Triangle,
    ))
}

/// Moves a pixel decoded from RGBE (8-bit mantissas sharing an exponent) from the bottom of its
/// step, where the image crate reads it, to the middle, where Radiance's own reader
/// (`colr_color`) does: writers round down (Radiance, the image crate, peer-three's
/// room-hdr.mjs), so the bottom left three.js's room 0.27% dimmer on average.
fn centre_in_step(pixel: &mut image::Rgb<f32>) {
    let largest = pixel.0.into_iter().fold(0.0, f32::max);
    if !(largest > 0.0 && largest.is_normal()) {
        // A black pixel (exponent 0) is exactly black.
        return;
    }
    // The largest channel's mantissa is 128 to 255 steps: its float exponent less 7 is the step's.
    let exponent = ((largest.to_bits() >> 23) & 0xff) as i32 - 127;
    let half_step = 2f32.powi(exponent - 8);
    pixel.0.iter_mut().for_each(|channel| *channel += half_step);
}

/// IEEE half-precision bits of a radiance value (negative and non-finite values become 0;
/// values past half's range its largest).
fn f16_bits(value: f32) -> u16 {
    let value = if value.is_finite() {
        value.clamp(0.0, 65504.0)
    } else {
        0.0
    };
    let bits = value.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    if exponent <= 0 {
        // Below half's normal range: too dim to see.
        return 0;
    }
    (((exponent as u32) << 10) | ((bits >> 13) & 0x3ff)) as u16
}

/// The roughness specular level `level` is prefiltered for: three.js's PMREM's
/// (`lodToRoughness`, Filament's spacing), 1 − √(1 − level / max), denser towards the mirror,
/// where the lobe changes fastest. frame.wgsl's `environment_radiance` reads it back by its
/// inverse.
fn level_roughness(level: u32) -> f32 {
    1.0 - (1.0 - level as f32 / Environment::MAX_LEVEL).sqrt()
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

/// One level of one layer (a cube face) of `texture`, to draw into or read from.
fn level_view(texture: &wgpu::Texture, level: u32, layer: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2),
        base_mip_level: level,
        mip_level_count: Some(1),
        base_array_layer: layer,
        array_layer_count: Some(1),
        ..Default::default()
    })
}

fn cube_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::Cube),
        ..Default::default()
    })
}

/// What a pass draws into: one level of one layer, `width` texels wide.
#[derive(Clone, Copy)]
struct Target<'t> {
    view: &'t wgpu::TextureView,
    width: u32,
    face: u32,
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
        let shader = fullscreen::shader(device, "environment", &preparation_shader());
        let pipeline = |fragment: &str, format: wgpu::TextureFormat| {
            fullscreen::pipeline(device, &shader, fragment, &layouts.environment, format)
        };
        Self {
            gpu,
            layouts,
            studio: pipeline("fs_studio", FORMAT),
            downsample: pipeline("fs_downsample", FORMAT),
            specular: pipeline("fs_specular", FORMAT),
            irradiance: pipeline("fs_irradiance", IRRADIANCE_FORMAT),
            brdf_table: pipeline("fs_brdf_table", FORMAT),
            sampler: environment_sampler(device),
        }
    }

    /// The irradiance's coefficients from `source`, drawn into a 9 × 1 image and copied into
    /// a uniform buffer (rows of copies are 256-byte aligned: the buffer holds one row).
    fn irradiance(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::TextureView,
        params: [f32; 4],
    ) -> wgpu::Buffer {
        let device = &self.gpu.device;
        let image = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("irradiance"),
            size: extent((IRRADIANCE_COEFFICIENTS, 1)),
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: IRRADIANCE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let target = Target {
            view: &image.create_view(&Default::default()),
            width: IRRADIANCE_COEFFICIENTS,
            face: 0,
        };
        self.draw(encoder, &self.irradiance, target, Some(source), params);
        let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("irradiance"),
            size: row as u64,
            usage: environment_cache::IRRADIANCE_USAGE,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            image.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            extent((IRRADIANCE_COEFFICIENTS, 1)),
        );
        buffer
    }

    /// A texture of `layers` layers (6: a cube map) of `size`, with `levels` mip levels.
    fn texture(&self, label: &str, size: (u32, u32), levels: u32, layers: u32) -> wgpu::Texture {
        self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: layers,
            },
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
    /// with `params`.
    fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &wgpu::RenderPipeline,
        target: Target,
        source: Option<&wgpu::TextureView>,
        params: [f32; 4],
    ) {
        let device = &self.gpu.device;
        let stand_in;
        let source = match source {
            Some(source) => source,
            None => {
                stand_in = self.texture("stand-in", (1, 1), 1, 1).create_view(&Default::default());
                &stand_in
            }
        };
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("environment pass"),
            contents: bytemuck::bytes_of(&PassUniform {
                params,
                output: [target.width as f32, target.face as f32, 0.0, 0.0],
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
        fullscreen::draw(encoder, pipeline, &group, target.view, None);
    }

    /// Fills `source`'s mip chain from its first level, then makes the specular map, the
    /// irradiance and the BRDF table from it, and submits the work. Returns the maps and the
    /// specular map's faces as an array (what the cache reads back).
    fn prefilter(&self, mut encoder: wgpu::CommandEncoder, source: &wgpu::Texture) -> (PreparedMaps, wgpu::Texture) {
        let (width, height) = (source.width(), source.height());
        let levels = source.mip_level_count();
        for level in 1..levels {
            let above = level_view(source, level - 1, 0);
            let target = Target {
                view: &level_view(source, level, 0),
                width: (width >> level).max(1),
                face: 0,
            };
            self.draw(&mut encoder, &self.downsample, target, Some(&above), [0.0; 4]);
        }
        let source_view = source.create_view(&Default::default());
        let source_params = |roughness: f32| [roughness, width as f32, height as f32, (levels - 1) as f32];

        // Drawn into an array of faces, then copied into the cube map: the array can be read
        // back for the cache (environment_cache::faces_descriptor).
        let faces = self.gpu.device.create_texture(&SHAPE.faces_descriptor());
        for face in 0..6 {
            for level in 0..SPECULAR_LEVELS {
                let roughness = level_roughness(level);
                let target = Target {
                    view: &level_view(&faces, level, face),
                    width: (SPECULAR_SIZE >> level).max(1),
                    face,
                };
                self.draw(
                    &mut encoder,
                    &self.specular,
                    target,
                    Some(&source_view),
                    source_params(roughness),
                );
            }
        }
        let specular = self.gpu.device.create_texture(&SHAPE.specular_descriptor());
        environment_cache::copy_faces_to_cube(&mut encoder, &faces, &specular, &SHAPE);
        let irradiance = self.irradiance(&mut encoder, &source_view, source_params(0.0));
        let table = self.gpu.device.create_texture(&SHAPE.table_descriptor());
        let target = Target {
            view: &level_view(&table, 0, 0),
            width: TABLE_SIZE,
            face: 0,
        };
        self.draw(&mut encoder, &self.brdf_table, target, None, [0.0; 4]);
        self.gpu.queue.submit([encoder.finish()]);
        let maps = PreparedMaps {
            specular,
            irradiance,
            brdf_table: table,
        };
        (maps, faces)
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
            .encode(&image.pixels().map(|p| image::Rgb(p.0)).collect::<Vec<_>>(), 8, 4)
            .unwrap();
        let decoded = decode_hdr(&bytes).unwrap();
        assert_eq!(decoded.dimensions(), (8, 4));
        assert!((decoded.get_pixel(3, 2)[0] - 3.0).abs() < 0.05);
        assert!(decode_hdr(&bytes[..bytes.len() / 2]).is_err(), "truncated");
        assert!(decode_hdr(b"not an image").is_err());
        // A tall image is scaled to fit too (the irradiance pass reads its every texel).
        let tall: Vec<image::Rgb<f32>> = vec![image::Rgb([1.0, 1.0, 1.0]); 4 * 3000];
        let mut tall_bytes = Vec::new();
        image::codecs::hdr::HdrEncoder::new(&mut tall_bytes)
            .encode(&tall, 4, 3000)
            .unwrap();
        assert_eq!(decode_hdr(&tall_bytes).unwrap().dimensions(), (1, 1024));
        // Values across a span of mantissas read back unbiased (at the bottom of each step they
        // read 0.27% dim).
        let radiances: Vec<f32> = (0..1000).map(|i| 0.5 + i as f32 / 1000.0).collect();
        let mut ramp_bytes = Vec::new();
        image::codecs::hdr::HdrEncoder::new(&mut ramp_bytes)
            .encode(
                &radiances.iter().map(|&v| image::Rgb([v; 3])).collect::<Vec<_>>(),
                1000,
                1,
            )
            .unwrap();
        let ramp = decode_hdr(&ramp_bytes).unwrap();
        let read: f32 = ramp.pixels().map(|p| p[0]).sum();
        let ratio = read / radiances.iter().sum::<f32>();
        assert!((ratio - 1.0).abs() < 5e-4, "read back as {ratio} of the radiance");
        assert!(
            ramp.pixels()
                .zip(&radiances)
                .all(|(p, v)| (p[1] - v).abs() <= v / 256.0)
        );
        let huge = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n\x02\x02\x00\x10";
        let error = decode_hdr(huge).unwrap_err().to_string();
        assert!(error.contains("100000x100000 pixels, more than its"), "{error}");
    }
}
