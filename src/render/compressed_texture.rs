//! Material textures kept block-compressed on the GPU: a KTX2/Basis image (KHR_texture_basisu)
//! with its mip chain is transcoded straight to BC7 where a GPU samples BC formats (desktop
//! GPUs), each of the file's levels from the one the picture needs down to 1×1 uploaded as it
//! is transcoded. The GPU keeps a quarter of RGBA8's bytes, and the CPU holds one level's
//! blocks at a time, never the image's pixels. Where the device has no BC formats, is a CPU
//! rasteriser (`prefers_bc7`), or the file has no mip chain, `textures` decodes the image to
//! RGBA8 and makes the levels itself, as for any other container.

use super::material_texture::{material_texture, write_level};
use crate::asset::image_decode::Bc7Levels;

/// Whether `device` samples BC7 (`Gpu` asks for the BC formats wherever the adapter has them).
pub(super) fn samples_bc7(device: &wgpu::Device) -> bool {
    device.features().contains(wgpu::Features::TEXTURE_COMPRESSION_BC)
}

/// Whether material textures go to `device` as BC7: where it samples BC formats, unless it is a
/// CPU rasteriser. Mesa's llvmpipe offers them, but compiles BC7's decoding into each shader
/// variant that reads one: `render` of a KTX2 avatar at 640×480 took 3.9 times the CPU time
/// (0.8 s → 3.5 s, 75% of it in LLVM) and `thumbnail` 7 times, for at most 12% less peak
/// memory, so there they stay RGBA8.
pub(super) fn prefers_bc7(device: &wgpu::Device) -> bool {
    samples_bc7(device) && device.adapter_info().device_type != wgpu::DeviceType::Cpu
}

/// Uploads `levels` as one BC7 texture, sRGB for a colour slot and linear for a data slot,
/// level by level through one buffer of blocks, and hands the queue's staging copies to the
/// device before the caller decodes the next image.
pub(super) fn upload_bc7(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    levels: &Bc7Levels,
    srgb: bool,
) -> Result<wgpu::TextureView, String> {
    let format = if srgb {
        wgpu::TextureFormat::Bc7RgbaUnormSrgb
    } else {
        wgpu::TextureFormat::Bc7RgbaUnorm
    };
    let texture = material_texture(device, "material texture (BC7)", levels.size, levels.count, format);
    let mut blocks = Vec::new();
    for level in 0..levels.count {
        let (level_width, level_height) = levels.transcode(level, &mut blocks).map_err(|e| e.0)?;
        // Levels under 4×4 still take a whole block: wgpu copies a level's size rounded up to
        // whole blocks (its physical size).
        let (columns, rows) = (level_width.div_ceil(4), level_height.div_ceil(4));
        write_level(
            queue,
            &texture,
            level,
            &blocks,
            (16 * columns, rows),
            (4 * columns, 4 * rows),
        );
    }
    drop(blocks);
    queue.submit([]);
    Ok(texture.create_view(&wgpu::TextureViewDescriptor::default()))
}

/// The integration tests' Basis Universal files, written by Binomial's encoder (a
/// dev-dependency); its reference transcoder is theirs alone.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../tests/common/basis.rs"]
mod basis;

#[cfg(test)]
pub(super) mod tests {
    use basis_universal::BasisTextureFormat;
    use image::RgbaImage;

    use super::basis;
    use super::*;
    use crate::asset::image_decode;
    use crate::render::capture::read_rgba;
    use crate::render::fullscreen;
    use crate::render::gpu::Gpu;

    /// The texture tests' four coloured quadrants, shaded by a diagonal ramp so that no two
    /// blocks are alike.
    fn pattern(side: u32) -> RgbaImage {
        RgbaImage::from_fn(side, side, |x, y| {
            let ramp = ((x + y) * 60 / (2 * side)) as u8;
            let shade = |channel: u8| channel / 2 + ramp;
            let (right, bottom) = (x >= side / 2, y >= side / 2);
            let [r, g, b] = match (right, bottom) {
                (false, false) => [230, 20, 20],
                (true, false) => [20, 20, 230],
                (false, true) => [20, 230, 20],
                (true, true) => [230, 230, 20],
            };
            image::Rgba([shade(r), shade(g), shade(b), 255])
        })
    }

    /// A 64×64 KTX2/Basis image of `pattern` in `format` with all 7 of its mip levels, UASTC
    /// Zstandard-supercompressed when `zstandard`.
    pub(in crate::render) fn mipmapped_ktx2(format: BasisTextureFormat, zstandard: bool) -> Vec<u8> {
        basis::ktx2_of_basis(&basis::encode_basis_mipmapped(&pattern(64), format), zstandard)
    }

    /// Level `level` of `texture` as the GPU reads it (each texel loaded, unfiltered), as RGBA8.
    fn texels(gpu: &Gpu, texture: &wgpu::Texture, level: u32) -> RgbaImage {
        let device = &gpu.device;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("texels"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let shader = fullscreen::shader(
            device,
            "texels",
            "@group(0) @binding(0) var level: texture_2d<f32>;
            @fragment fn fs_texels(in: FullscreenOut) -> @location(0) vec4<f32> {
                return textureLoad(level, vec2<i32>(in.clip.xy), 0);
            }",
        );
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let pipeline = fullscreen::pipeline(device, &shader, "fs_texels", &layout, format);
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            base_mip_level: level,
            mip_level_count: Some(1),
            ..Default::default()
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("texels"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        });
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("texels"),
            size: texture.size().mip_level_size(level, wgpu::TextureDimension::D2),
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let target_view = target.create_view(&wgpu::TextureViewDescriptor::default());
        fullscreen::draw(&mut encoder, &pipeline, &group, &target_view, None);
        gpu.queue.submit([encoder.finish()]);
        read_rgba(gpu, &target).unwrap()
    }

    /// The mean and the largest difference of any colour or alpha channel between two images.
    fn difference(a: &RgbaImage, b: &RgbaImage) -> (f64, u8) {
        assert_eq!(a.dimensions(), b.dimensions());
        let differences = a.as_raw().iter().zip(b.as_raw()).map(|(x, y)| x.abs_diff(*y));
        let (sum, max) = differences.fold((0u64, 0u8), |(sum, max), d| (sum + u64::from(d), max.max(d)));
        (sum as f64 / a.as_raw().len() as f64, max)
    }

    #[test]
    fn a_mipmapped_basis_image_uploads_as_bc7_whose_levels_read_as_its_rgba8_decoding() {
        let gpu = Gpu::headless().unwrap();
        let adapter_has_bc = gpu.adapter.features().contains(wgpu::Features::TEXTURE_COMPRESSION_BC);
        assert_eq!(
            samples_bc7(&gpu.device),
            adapter_has_bc,
            "BC asked for wherever offered"
        );
        assert_eq!(prefers_bc7(&gpu.device), adapter_has_bc && !gpu.is_software());
        if !adapter_has_bc {
            eprintln!("{} has no BC formats: only the RGBA8 path runs here", gpu.describe());
            return;
        }
        // BC7 against the RGBA8 decoding, every level of each codec: at most 2 levels apart
        // here (ETC1S's without the transcoder's chroma filter, which moved colours at the
        // quadrants' edges by up to 74 levels).
        for (format, zstandard) in [
            (BasisTextureFormat::UASTC4x4, false),
            (BasisTextureFormat::UASTC4x4, true),
            (BasisTextureFormat::ETC1S, false),
        ] {
            let ktx2 = mipmapped_ktx2(format, zstandard);
            let levels = image_decode::Bc7Levels::of(&ktx2, 4096, 64)
                .unwrap()
                .expect("BC7 holds it");
            assert_eq!(
                (levels.size, levels.count, levels.declared_srgb),
                ((64, 64), 7, Some(true))
            );
            let view = upload_bc7(&gpu.device, &gpu.queue, &levels, false).unwrap();
            let texture = view.texture();
            assert_eq!(
                (texture.format(), texture.mip_level_count()),
                (wgpu::TextureFormat::Bc7RgbaUnorm, 7)
            );
            for level in 0..7 {
                let side = 64 >> level;
                let rgba8 = image_decode::decode_at_most(&ktx2, 4096, side, false).unwrap().rgba;
                assert_eq!(rgba8.dimensions(), (side, side), "the file's own level {level}");
                let (mean, max) = difference(&texels(&gpu, texture, level), &rgba8);
                eprintln!("{format:?} (zstd {zstandard}) level {level}: BC7 vs RGBA8 mean {mean:.2}, max {max}");
                assert!(
                    max <= 4 && mean <= 1.0,
                    "{format:?} level {level}: mean {mean:.2}, max {max}"
                );
            }
            // A smaller picture starts at the file's level of its size; a colour slot reads sRGB.
            let half = image_decode::Bc7Levels::of(&ktx2, 4096, 32).unwrap().unwrap();
            assert_eq!((half.size, half.count), ((32, 32), 6));
            let srgb = upload_bc7(&gpu.device, &gpu.queue, &half, true).unwrap();
            assert_eq!(srgb.texture().format(), wgpu::TextureFormat::Bc7RgbaUnormSrgb);
            assert_eq!(srgb.texture().size().width, 32);
        }
    }

    #[test]
    fn images_bc7_cannot_hold_as_they_stand_are_left_to_rgba8() {
        let mipmapped = mipmapped_ktx2(BasisTextureFormat::UASTC4x4, false);
        // The level a 2-texel picture needs is 2×2, less than one BC7 block.
        assert!(image_decode::Bc7Levels::of(&mipmapped, 4096, 2).unwrap().is_none());
        assert!(image_decode::Bc7Levels::of(&mipmapped, 4096, 4).unwrap().is_some());
        // A file of one level: the GPU could not make the others from BC7 blocks.
        let one_level = basis::ktx2_of_basis(&basis::encode_basis(&pattern(64), BasisTextureFormat::UASTC4x4), false);
        assert!(image_decode::Bc7Levels::of(&one_level, 4096, 64).unwrap().is_none());
        let mut png = Vec::new();
        (pattern(8).write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)).unwrap();
        assert!(image_decode::Bc7Levels::of(&png, 4096, 64).unwrap().is_none());
        // A damaged or oversized file is the error the RGBA8 path gives.
        let error = image_decode::Bc7Levels::of(&mipmapped, 32, 64).err().unwrap().0;
        assert!(error.contains("larger than this GPU's 32-texel limit"), "{error}");
        assert!(image_decode::Bc7Levels::of(&mipmapped, 32, 32).unwrap().is_some());
    }

    #[test]
    fn damaged_mipmapped_basis_files_transcode_to_bc7_or_fail_without_panicking() {
        let mut random = 17u64;
        let mut below = |n: usize| {
            random = random
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (random >> 33) as usize % n
        };
        for format in [BasisTextureFormat::UASTC4x4, BasisTextureFormat::ETC1S] {
            let ktx2 = mipmapped_ktx2(format, false);
            let mut blocks = Vec::new();
            for round in 0..400 {
                let mut damaged = ktx2.clone();
                if round % 4 == 0 {
                    damaged.truncate(below(ktx2.len()));
                } else {
                    for _ in 0..1 + below(4) {
                        let at = below(damaged.len());
                        damaged[at] = below(256) as u8;
                    }
                }
                // Either result is fine; a panic or a runaway allocation is not.
                if let Ok(Some(levels)) = image_decode::Bc7Levels::of(&damaged, 4096, 4096) {
                    for level in 0..levels.count {
                        if let Ok((width, height)) = levels.transcode(level, &mut blocks) {
                            assert_eq!(blocks.len() as u32, 16 * width.div_ceil(4) * height.div_ceil(4));
                        }
                    }
                    assert!(levels.pixels() <= 64 * 64 * 256);
                }
            }
        }
    }

    #[test]
    fn a_device_asked_for_no_bc_formats_samples_no_bc7() {
        let gpu = Gpu::headless().unwrap();
        let (device, _queue) = pollster::block_on(gpu.adapter.request_device(&wgpu::DeviceDescriptor {
            required_limits: gpu.adapter.limits(),
            ..Default::default()
        }))
        .unwrap();
        assert!(!samples_bc7(&device));
    }
}
