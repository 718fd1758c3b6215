//! Material textures: images decoded once (PNG, JPEG, WebP, KTX2/Basis through
//! `asset::image_decode`), uploaded with mipmaps, sRGB for colour (base colour, emissive) and
//! linear for data (metallic-roughness, normals, occlusion), each read through a sampler with
//! the file's wrap and filter modes. An image that cannot be decoded gives way to the
//! texture's fallback (its core glTF `source`) where it has one; otherwise the material falls
//! back to its factors. Either way a note names the material, the slot and why. Images are
//! decoded, and their mip chains made, on a few worker threads (and on the calling thread while
//! the image it waits for is not ready) while the calling thread uploads them in the order one
//! thread would take them (`in_order`): the same textures and notes, with what is held at once
//! bounded.

use std::collections::{HashMap, HashSet};

use wgpu::util::DeviceExt;

use super::compressed_texture;
use super::layer_variant::LayerVariant;
use super::layouts::Layouts;
use super::material_texture::{material_texture, write_level};
use super::uniforms::{LAYER_SLOTS, MaterialUniform, layer_slots};
use crate::asset::material::MaterialTexture;
use crate::asset::mtoon::MToon;
use crate::asset::texture::{SamplerModes, Wrap};
use crate::asset::{Material, Model, TextureRef};
use crate::asset::{image_decode, mip_chain};
use crate::in_order;

pub struct MaterialTextures {
    /// (image index, sRGB) → view.
    views: HashMap<(usize, bool), wgpu::TextureView>,
    /// Which image each texture reference, as (image, fallback), draws: its own, its
    /// fallback or none.
    drawn: HashMap<(usize, Option<usize>), Option<usize>>,
    white: wgpu::TextureView,
    flat_normal: wgpu::TextureView,
    /// One sampler per distinct set of modes the materials use (and the default's).
    samplers: HashMap<SamplerModes, wgpu::Sampler>,
}

/// Images decoded so far, each decoded once at the side the picture needs (on a worker, ahead
/// of its turn, where prefetched), uploaded in the colour spaces its slots read it in, and its
/// pixels dropped once uploaded.
struct Decoder<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    model: &'a Model,
    max_side: u32,
    /// The longest side an image is decoded at: what the picture can show of it.
    wanted_side: u32,
    /// A KTX2/Basis image with its mip chain is uploaded as BC7, not decoded to RGBA8
    /// (`compressed_texture::prefers_bc7`: a GPU that samples BC formats).
    bc7: bool,
    /// Per image, the colour spaces (linear, sRGB) of the slots that may draw it.
    spaces: HashMap<usize, [bool; 2]>,
    /// Per image decoded: the colour space its file declares (`DecodedImage::declared_srgb`),
    /// or why it could not be decoded.
    decoded: HashMap<usize, Result<Option<bool>, String>>,
    /// (image index, sRGB) → the uploaded texture's view.
    views: HashMap<(usize, bool), wgpu::TextureView>,
    /// Pixels the file's images may still decode to: each image is bounded on its own, and
    /// this bounds them together (many small images each claiming the most).
    pixels_left: u64,
    /// Images decoded on worker threads ahead of their turn (`prefetched`), taken in order.
    prefetched: Option<in_order::Results<'a, Result<Prepared, String>>>,
    /// The image each prefetched job decodes.
    prefetch_order: &'a [usize],
}

/// An image decoded and its mip chains made, off the thread that uploads it.
struct Prepared {
    /// The colour space its file declares (`DecodedImage::declared_srgb`).
    declared_srgb: Option<bool>,
    /// Texels of its first level: what the pixel budget counts.
    pixels: u64,
    /// Its mip chain for each colour space (linear, sRGB) a slot reads it in; empty for the others.
    chains: [Vec<image::RgbaImage>; 2],
}

/// Decodes `bytes` at most `wanted_side` a side and makes its mip chain in each colour space of
/// `spaces` (linear, sRGB). Shrunk (where it is) in linear light when a colour slot reads it: an
/// image read in both colour spaces (rare) gives its data slots the colour slots' averages.
fn prepare(bytes: &[u8], max_side: u32, wanted_side: u32, spaces: [bool; 2]) -> Result<Prepared, String> {
    let decoded = image_decode::decode_at_most(bytes, max_side, wanted_side, spaces[1]).map_err(|e| e.0)?;
    let pixels = u64::from(decoded.rgba.width()) * u64::from(decoded.rgba.height());
    let chain = |image, srgb| mip_chain::levels(image, srgb).collect::<Vec<_>>();
    let chains = match spaces {
        [true, true] => [chain(decoded.rgba.clone(), false), chain(decoded.rgba, true)],
        [linear, srgb] if linear || srgb => {
            let mut chains = [Vec::new(), Vec::new()];
            chains[usize::from(srgb)] = chain(decoded.rgba, srgb);
            chains
        }
        _ => [Vec::new(), Vec::new()],
    };
    Ok(Prepared {
        declared_srgb: decoded.declared_srgb,
        pixels,
        chains,
    })
}

/// Bytes an image may hold as it is prepared for a picture wanting `wanted_side` texels a side,
/// from the size its header declares: its RGBA8 pixels at the size it is decoded at
/// (`image_decode::decoded_size`: a PNG or JPEG whole before shrinking, a KTX2 image's level of
/// that size) with a third more for the levels below (a chain kept whole until uploaded). What
/// a prefetched image costs against `PREFETCH_BYTES`; where the header cannot be read, the
/// whole budget: it is decoded alone.
fn decoded_bytes(bytes: &[u8], wanted_side: u32) -> u64 {
    match image_decode::decoded_size(bytes, wanted_side) {
        // Saturating: a header may declare sides up to 2³² each.
        Some((width, height)) => (u64::from(width).saturating_mul(u64::from(height))).saturating_mul(16) / 3,
        None => PREFETCH_BYTES,
    }
}

/// What the images decoded ahead of their upload may hold together: two 2048² images (22 MiB each
/// with their chains). An image over it alone (a 4096² one decoded whole is 64 MiB) is decoded on
/// the uploading thread in its turn, as one thread would: no two of those are decoded at once,
/// and no worker's allocator arena grows to hold one (glibc keeps much of what a thread's arena
/// freed: four 4096² images decoded on a worker raised a thumbnail's peak by 20 MiB).
const PREFETCH_BYTES: u64 = 64 << 20;

/// The images decoded on worker threads (`prefetch_order`) for a picture wanting `wanted_side`
/// texels a side, with what each costs, leaving out those over `PREFETCH_BYTES` alone: the
/// uploading thread decodes them in their turn.
fn prefetch_jobs(model: &Model, bc7: bool, wanted_side: u32) -> (Vec<usize>, Vec<u64>) {
    (prefetch_order(model, bc7).into_iter())
        .map(|image| (image, decoded_bytes(&model.images[image].bytes, wanted_side)))
        .filter(|&(_, cost)| cost <= PREFETCH_BYTES)
        .unzip()
}

/// Worker threads that decode images ahead of their upload: one per core besides the uploading
/// thread's (at least one, at most 4). Each worker's allocator arena keeps some of what it freed,
/// so more workers than cores would add memory and no speed.
fn prefetch_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| (cores.get() - 1).clamp(1, 4))
}

/// The images `model`'s materials draw first (each texture's own, not its fallback), in the
/// order `MaterialTextures::new` asks for them: those decoded on worker threads. A KTX2/Basis
/// image that may go up as BC7 (`bc7`) is left to the uploading thread, which transcodes it.
fn prefetch_order(model: &Model, bc7: bool) -> Vec<usize> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    for material in &model.materials {
        for texture in MaterialTexture::ALL {
            let Some(reference) = texture.of(material) else {
                continue;
            };
            let Some(image) = model.images.get(reference.image) else {
                continue;
            };
            let basis = matches!(
                image_decode::ImageContainer::detect(&image.bytes),
                image_decode::ImageContainer::Ktx2(Some(_))
            );
            if !(bc7 && basis) && seen.insert(reference.image) {
                order.push(reference.image);
            }
        }
    }
    order
}

/// The pixels `model`'s images may decode to in all: as many per byte of their distinct
/// encoded data as one image may, and at least four of the largest images always allowed.
fn pixel_budget(model: &Model) -> u64 {
    let mut distinct: Vec<&[u8]> = model.images.iter().map(|i| &i.bytes[..]).collect();
    distinct.sort_by_key(|bytes| bytes.as_ptr());
    distinct.dedup_by_key(|bytes| bytes.as_ptr());
    let bytes: u64 = distinct.iter().map(|b| b.len() as u64).sum();
    (4 * image_decode::PIXELS_ALWAYS_ALLOWED).max(image_decode::MAX_PIXELS_PER_BYTE.saturating_mul(bytes))
}

/// Per image, the colour spaces of the material slots that name it, as their image or as its
/// fallback: what it is uploaded in once decoded.
fn colour_spaces(model: &Model) -> HashMap<usize, [bool; 2]> {
    let mut spaces: HashMap<usize, [bool; 2]> = HashMap::new();
    for material in &model.materials {
        for texture in MaterialTexture::ALL {
            let Some(reference) = texture.of(material) else {
                continue;
            };
            for image in std::iter::once(reference.image).chain(reference.fallback) {
                spaces.entry(image).or_default()[usize::from(texture.srgb())] = true;
            }
        }
    }
    spaces
}

impl Decoder<'_> {
    /// Decodes image `index` (once), uploads it in the colour spaces its slots read, and
    /// drops its pixels; the colour space its file declares, or why it could not be decoded.
    fn get(&mut self, index: usize) -> &Result<Option<bool>, String> {
        if !self.decoded.contains_key(&index) {
            let prepared = self.take_prefetched(index);
            let result = self.decode_and_upload(index, prepared);
            self.decoded.insert(index, result);
        }
        &self.decoded[&index]
    }

    /// Image `index` as a worker prepared it, where it is the next one prefetched; prefetched
    /// images already decoded here (as an earlier texture's fallback) are dropped on the way.
    /// None where it is not next: it is decoded here.
    fn take_prefetched(&mut self, index: usize) -> Option<Result<Prepared, String>> {
        let prefetched = self.prefetched.as_mut()?;
        while let Some(job) = prefetched.upcoming() {
            let image = self.prefetch_order[job];
            if self.decoded.contains_key(&image) {
                prefetched.next();
                continue;
            }
            return (image == index)
                .then(|| prefetched.next().map(|(_, prepared)| prepared))
                .flatten();
        }
        None
    }

    /// Image `index` decoded at the wanted side (or as `prepared` by a worker), counted against
    /// the budget and uploaded; its pixels go out of scope here.
    fn decode_and_upload(
        &mut self,
        index: usize,
        prepared: Option<Result<Prepared, String>>,
    ) -> Result<Option<bool>, String> {
        let model = self.model;
        let image = (model.images.get(index)).ok_or_else(|| format!("image {index} does not exist"))?;
        let spaces = self.spaces.get(&index).copied().unwrap_or_default();
        if let Some(prepared) = prepared {
            return self.spend_and_upload(index, prepared?);
        }
        if self.bc7
            && let Some(levels) =
                image_decode::Bc7Levels::of(&image.bytes, self.max_side, self.wanted_side).map_err(|e| e.0)?
        {
            self.spend(levels.pixels())?;
            for srgb in [false, true].into_iter().filter(|&srgb| spaces[usize::from(srgb)]) {
                let view = compressed_texture::upload_bc7(self.device, self.queue, &levels, srgb)?;
                self.views.insert((index, srgb), view);
            }
            return Ok(levels.declared_srgb);
        }
        let prepared = prepare(&image.bytes, self.max_side, self.wanted_side, spaces)?;
        self.spend_and_upload(index, prepared)
    }

    /// Counts image `index`'s pixels against the budget and uploads its mip chains.
    fn spend_and_upload(&mut self, index: usize, prepared: Prepared) -> Result<Option<bool>, String> {
        self.spend(prepared.pixels)?;
        for (srgb, chain) in [false, true].into_iter().zip(&prepared.chains) {
            if !chain.is_empty() {
                let view = upload_with_mipmaps(self.device, self.queue, chain, srgb);
                self.views.insert((index, srgb), view);
            }
        }
        Ok(prepared.declared_srgb)
    }

    /// Counts `pixels` against what the file's images may decode to in all.
    fn spend(&mut self, pixels: u64) -> Result<(), String> {
        self.pixels_left = (self.pixels_left.checked_sub(pixels))
            .ok_or_else(|| format!("its {pixels} pixels would take the file's images past what its size allows"))?;
        Ok(())
    }

    /// The image `reference` draws: its own when it decodes, else its fallback's; a note
    /// naming the material and slot when either fails.
    fn choose(&mut self, reference: TextureRef, slot: &str, notes: &mut Vec<String>) -> Option<usize> {
        let name = |index: usize| self.model.images.get(index).map_or("?", |i| i.name.as_str()).to_owned();
        let why = match self.get(reference.image) {
            Ok(_) => return Some(reference.image),
            Err(why) => why.clone(),
        };
        let problem = format!("{slot}: image '{}' could not be decoded ({why})", name(reference.image));
        if let Some(fallback) = reference.fallback {
            match self.get(fallback) {
                Ok(_) => {
                    notes.push(format!("{problem}; drawn with its fallback image '{}'", name(fallback)));
                    return Some(fallback);
                }
                Err(also) => notes.push(format!(
                    "{problem}, nor its fallback image '{}' ({also}); the material uses its factors",
                    name(fallback)
                )),
            }
        } else {
            notes.push(format!("{problem}; the material uses its factors"));
        }
        None
    }
}

impl MaterialTextures {
    /// Decodes and uploads `model`'s textures at most `wanted_side` texels a side (the mip
    /// level a picture of that size can show; the device's limit for the window).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        wanted_side: u32,
        notes: &mut Vec<String>,
    ) -> Self {
        Self::with_workers(device, queue, model, wanted_side, notes, prefetch_workers())
    }

    /// `new` with images decoded on `workers` threads (their mip chains made there too) while
    /// this thread uploads each in the order it would have decoded them: views, notes and the
    /// pixel budget's errors are the same whatever the workers.
    fn with_workers(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        model: &Model,
        wanted_side: u32,
        notes: &mut Vec<String>,
        workers: usize,
    ) -> Self {
        let max_side = device.limits().max_texture_dimension_2d;
        let wanted_side = wanted_side.min(max_side);
        let bc7 = compressed_texture::prefers_bc7(device);
        let spaces = colour_spaces(model);
        let (order, costs) = prefetch_jobs(model, bc7, wanted_side);
        // One image for each worker and one for this thread to decode while it waits.
        let bound = in_order::Bound {
            workers,
            held: workers + 1,
            budget: PREFETCH_BYTES,
        };
        let work = |&image: &usize| {
            let image_spaces = spaces.get(&image).copied().unwrap_or_default();
            prepare(&model.images[image].bytes, max_side, wanted_side, image_spaces)
        };
        in_order::map(&order, &costs, bound, work, |prefetched| {
            let decoder = Decoder {
                device,
                queue,
                model,
                max_side,
                wanted_side,
                bc7,
                spaces: spaces.clone(),
                decoded: HashMap::new(),
                views: HashMap::new(),
                pixels_left: pixel_budget(model),
                prefetched: Some(prefetched),
                prefetch_order: &order,
            };
            Self::from_decoder(decoder, notes)
        })
    }

    /// Chooses and uploads the image each material texture draws through `decoder`, in the
    /// materials' order, noting what could not be drawn as the file asks.
    fn from_decoder(mut decoder: Decoder<'_>, notes: &mut Vec<String>) -> Self {
        let (device, queue, model) = (decoder.device, decoder.queue, decoder.model);
        let mut samplers = HashMap::new();
        samplers.insert(SamplerModes::default(), sampler(device, SamplerModes::default()));
        let mut drawn = HashMap::new();
        // Each (image, colour space) named once: the note on a declared colour space.
        let mut noted = HashSet::new();
        for material in &model.materials {
            for texture in MaterialTexture::ALL {
                let Some(reference) = texture.of(material) else {
                    continue;
                };
                samplers
                    .entry(reference.sampler)
                    .or_insert_with(|| sampler(device, reference.sampler));
                let slot = format!("material '{}' {}", material.name, texture.name());
                // Decoded (and a note given) once per reference; uploaded once per colour space.
                let key = (reference.image, reference.fallback);
                let chosen = *drawn
                    .entry(key)
                    .or_insert_with(|| decoder.choose(reference, &slot, notes));
                let srgb = texture.srgb();
                let Some(image) = chosen.filter(|&image| noted.insert((image, srgb))) else {
                    continue;
                };
                if let Ok(Some(declared)) = decoder.get(image)
                    && *declared != srgb
                {
                    notes.push(format!(
                        "{slot}: image '{}' declares {} values where glTF expects {} (read as glTF says)",
                        model.images[image].name,
                        colour_space(!srgb),
                        colour_space(srgb)
                    ));
                }
            }
        }
        let views = decoder.views;
        for material in &model.materials {
            let layer_textures: Vec<&str> = (MaterialTexture::ALL[MaterialTexture::BOUND..].iter())
                .filter(|texture| texture.of(material).is_some())
                .map(|texture| texture.name())
                .collect();
            if layer_textures.len() > LAYER_SLOTS {
                notes.push(format!(
                    "material '{}': {} extension textures, of which rigscope draws the first {LAYER_SLOTS} ({} drawn with their factors alone)",
                    material.name,
                    layer_textures.len(),
                    layer_textures[LAYER_SLOTS..].join(", ")
                ));
            }
        }
        let solid = |pixel: [u8; 4], srgb: bool| {
            upload_with_mipmaps(
                device,
                queue,
                &[image::RgbaImage::from_pixel(1, 1, image::Rgba(pixel))],
                srgb,
            )
        };
        Self {
            views,
            drawn,
            white: solid([255; 4], false),
            flat_normal: solid([128, 128, 255, 255], false),
            samplers,
        }
    }

    fn view(&self, texture: Option<TextureRef>, srgb: bool) -> Option<&wgpu::TextureView> {
        let texture = texture?;
        let image = self.drawn.get(&(texture.image, texture.fallback)).copied().flatten()?;
        self.views.get(&(image, srgb))
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
        // The bound textures, their samplers, then the layer slots' (layouts.rs).
        let mut slots = layer_slots(&present);
        let bound = MaterialTexture::ALL[..MaterialTexture::BOUND].iter().copied().map(Some);
        let in_slots = (0..LAYER_SLOTS).map(|_| slots.next());
        let textures: Vec<Option<MaterialTexture>> = bound.chain(in_slots).collect();
        let view = |texture: Option<MaterialTexture>| match texture {
            Some(texture) => views[texture as usize].unwrap_or(match texture {
                MaterialTexture::Normal | MaterialTexture::ClearcoatNormal => &self.flat_normal,
                _ => &self.white,
            }),
            None => &self.white,
        };
        let sampler = |texture: Option<MaterialTexture>| {
            let modes = texture
                .and_then(|t| t.of(material))
                .map_or(SamplerModes::default(), |r| r.sampler);
            &self.samplers[&modes]
        };
        let (bound, slot_count) = (MaterialTexture::BOUND as u32, LAYER_SLOTS as u32);
        for (index, &texture) in textures.iter().enumerate() {
            let index = index as u32;
            let (texture_binding, sampler_binding) = match index < bound {
                true => (1 + index, 1 + bound + index),
                false => (1 + bound + index, 1 + bound + slot_count + index),
            };
            entries.push(wgpu::BindGroupEntry {
                binding: texture_binding,
                resource: wgpu::BindingResource::TextureView(view(texture)),
            });
            entries.push(wgpu::BindGroupEntry {
                binding: sampler_binding,
                resource: wgpu::BindingResource::Sampler(sampler(texture)),
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
            layers: LayerVariant::of(material, &present),
            transmissive: material.layers.transmits(),
            toon: material.layers.mtoon.as_ref().map(|mtoon| Toon {
                outlined: mtoon.has_outline(),
                blend_writes_depth: mtoon.transparent_with_z_write,
            }),
            blend_queue: material.layers.mtoon.as_ref().map_or(0, MToon::blend_queue),
        }
    }
}

/// A material's bind group, its uniform buffer, and which of its textures could be loaded
/// (what `MaterialUniform::new` needs to rewrite the uniform).
pub struct MaterialBinding {
    pub group: wgpu::BindGroup,
    pub uniform: wgpu::Buffer,
    pub present: [bool; MaterialTexture::COUNT],
    /// The material's layers (a sheen, a clear coat, a thin film, diffuse transmission,
    /// anisotropy) and layer textures: which of the layered pipelines its draws use.
    pub layers: LayerVariant,
    /// The material lets light through (KHR_materials_transmission): its draws use the
    /// transmissive pipelines, after the opaque scene they refract is copied.
    pub transmissive: bool,
    /// The material is MToon: its draws use the toon pipelines.
    pub toon: Option<Toon>,
    /// Blended draws of a lower queue are drawn first (`MToon::blend_queue`; else 0).
    pub blend_queue: i32,
}

/// How an MToon material's draws are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toon {
    /// It has an outline, drawn after its surface.
    pub outlined: bool,
    /// Blended, it still writes depth (MToon's transparentWithZWrite).
    pub blend_writes_depth: bool,
}

fn colour_space(srgb: bool) -> &'static str {
    if srgb { "sRGB" } else { "linear" }
}

/// A sampler with the file's modes.
fn sampler(device: &wgpu::Device, modes: SamplerModes) -> wgpu::Sampler {
    device.create_sampler(&sampler_descriptor(modes))
}

/// The sampler for the file's modes, as three.js's WebGL sampler reads them: no anisotropy
/// (three.js's default of 1), no level-of-detail bias, every mip level where the modes have
/// mipmaps and only the first where they have none.
fn sampler_descriptor(modes: SamplerModes) -> wgpu::SamplerDescriptor<'static> {
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
    wgpu::SamplerDescriptor {
        label: Some("material"),
        address_mode_u: address(modes.wrap_u),
        address_mode_v: address(modes.wrap_v),
        mag_filter: filter(modes.mag_linear),
        min_filter: filter(modes.min_linear),
        mipmap_filter,
        lod_min_clamp: 0.0,
        lod_max_clamp,
        anisotropy_clamp: 1,
        ..Default::default()
    }
}

/// Uploads `chain`, an image's full mip chain (each level a half of the previous made as
/// three.js's `glGenerateMipmap` makes it: `mip_chain::levels`), and hands the queue's staging
/// copies to the device before the caller uploads the next image: no two textures wait on the
/// CPU at once.
fn upload_with_mipmaps(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    chain: &[image::RgbaImage],
    srgb: bool,
) -> wgpu::TextureView {
    let (width, height) = chain.first().map_or((1, 1), |image| image.dimensions());
    let levels = chain.len() as u32;
    let format = if srgb {
        wgpu::TextureFormat::Rgba8UnormSrgb
    } else {
        wgpu::TextureFormat::Rgba8Unorm
    };
    let texture = material_texture(device, "material texture", (width, height), levels, format);
    for (level, level_image) in (0..).zip(chain) {
        let (w, h) = level_image.dimensions();
        write_level(queue, &texture, level, level_image, (4 * w, h), (w, h));
    }
    // The queue stages every write until its next submission: submitting now lets the device
    // take this texture's levels (and free their staging copies) before the next is decoded.
    queue.submit([]);
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::asset::demo::demo_model;
    use crate::asset::model::Image;
    use crate::render::gpu::Gpu;

    fn png(side: u32) -> Arc<[u8]> {
        let mut bytes = Vec::new();
        let image = image::RgbaImage::from_pixel(side, side, image::Rgba([200, 100, 50, 255]));
        image
            .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes.into()
    }

    fn with_images(images: Vec<Arc<[u8]>>) -> Model {
        let mut model = demo_model();
        model.images = images
            .into_iter()
            .enumerate()
            .map(|(index, bytes)| Image {
                name: format!("Image {index}"),
                mime_type: None,
                bytes,
            })
            .collect();
        model
    }

    /// A decoder of `model`'s images at most `wanted_side` a side, allowed `pixels` in all; every
    /// image read as base colour.
    fn decoder<'a>(gpu: &'a Gpu, model: &'a Model, wanted_side: u32, pixels: u64) -> Decoder<'a> {
        Decoder {
            device: &gpu.device,
            queue: &gpu.queue,
            model,
            max_side: 4096,
            wanted_side,
            bc7: compressed_texture::prefers_bc7(&gpu.device),
            spaces: (0..model.images.len()).map(|image| (image, [false, true])).collect(),
            decoded: HashMap::new(),
            views: HashMap::new(),
            pixels_left: pixels,
            prefetched: None,
            prefetch_order: &[],
        }
    }

    #[test]
    fn images_stop_decoding_once_the_files_pixel_budget_is_spent() {
        let gpu = Gpu::headless().unwrap();
        let model = with_images(vec![png(64), png(64), png(64)]);
        let mut decoder = decoder(&gpu, &model, 4096, 2 * 64 * 64 + 10);
        assert!(decoder.get(0).is_ok() && decoder.get(1).is_ok());
        // Decoded once: asking again costs nothing.
        assert!(decoder.get(0).is_ok());
        let error = decoder.get(2).as_ref().unwrap_err();
        assert!(
            error.contains("4096 pixels would take the file's images past"),
            "{error}"
        );
        assert_eq!(decoder.views.len(), 2, "uploaded once each, as sRGB only");
    }

    #[test]
    fn images_for_a_small_picture_are_decoded_at_the_level_it_shows() {
        let gpu = Gpu::headless().unwrap();
        let model = with_images(vec![png(64), png(64), png(8)]);
        let budget = 2 * 64 * 64;
        let mut decoder = decoder(&gpu, &model, 16, budget);
        assert!((0..3).all(|image| decoder.get(image).is_ok()));
        // Two 16×16 levels of the 64×64 images and the 8×8 image whole: what the full sizes
        // would have spent leaves room.
        assert_eq!(budget - decoder.pixels_left, 2 * 16 * 16 + 8 * 8);
        assert_eq!(decoder.views.len(), 3);
    }

    #[test]
    fn a_basis_image_with_its_mip_chain_stays_bc7_where_the_device_samples_bc() {
        let gpu = Gpu::headless().unwrap();
        let ktx2 = compressed_texture::tests::mipmapped_ktx2(basis_universal::BasisTextureFormat::UASTC4x4, true);
        let model = with_images(vec![ktx2.into()]);
        let budget = 64 * 64;
        let uploaded = |bc7: bool| {
            let mut decoder = Decoder {
                bc7,
                ..decoder(&gpu, &model, 4096, budget)
            };
            assert_eq!(decoder.get(0), &Ok(Some(true)));
            assert_eq!(decoder.pixels_left, 0, "level 0's pixels counted");
            let texture = decoder.views[&(0, true)].texture();
            (texture.format(), texture.mip_level_count(), texture.width())
        };
        // Without BC7 (a device without BC formats, or a CPU rasteriser): RGBA8, levels made here.
        assert_eq!(uploaded(false), (wgpu::TextureFormat::Rgba8UnormSrgb, 7, 64));
        if compressed_texture::samples_bc7(&gpu.device) {
            assert_eq!(uploaded(true), (wgpu::TextureFormat::Bc7RgbaUnormSrgb, 7, 64));
        }
    }

    /// Materials drawing images 0-3 of `with_images`: a broken image (1) with a working fallback
    /// (2, which a later texture draws as its own), the same broken image without one, an image
    /// read in both colour spaces (0) and one that does not exist (9).
    fn materials_with_a_broken_image() -> Vec<Material> {
        let with_fallback = |image, fallback| TextureRef {
            fallback: Some(fallback),
            ..TextureRef::plain(image)
        };
        vec![
            Material {
                name: "first".into(),
                base_color_texture: Some(with_fallback(1, 2)),
                normal_texture: Some(TextureRef::plain(0)),
                ..Material::default()
            },
            Material {
                name: "second".into(),
                base_color_texture: Some(TextureRef::plain(1)),
                metallic_roughness_texture: Some(TextureRef::plain(2)),
                occlusion_texture: Some(with_fallback(3, 1)),
                emissive_texture: Some(TextureRef::plain(0)),
                ..Material::default()
            },
            Material {
                name: "third".into(),
                base_color_texture: Some(TextureRef::plain(9)),
                normal_texture: Some(TextureRef::plain(3)),
                ..Material::default()
            },
        ]
    }

    #[test]
    fn images_prefetched_are_each_textures_own_in_the_order_they_are_asked_for() {
        let mut model = with_images(vec![png(8), b"not an image".to_vec().into(), png(8), png(8)]);
        model.materials = materials_with_a_broken_image();
        // Not the fallbacks (decoded only where needed), nor an image that does not exist.
        assert_eq!(prefetch_order(&model, false), [1, 0, 2, 3]);
    }

    #[test]
    fn an_image_too_large_to_share_the_prefetch_budget_is_decoded_by_the_uploading_thread() {
        let mut model = with_images(vec![png(8), png(4096), png(8)]);
        model.materials = vec![Material {
            name: "large".into(),
            base_color_texture: Some(TextureRef::plain(0)),
            normal_texture: Some(TextureRef::plain(1)),
            emissive_texture: Some(TextureRef::plain(2)),
            ..Material::default()
        }];
        let small = decoded_bytes(&model.images[0].bytes, 4096);
        assert_eq!(prefetch_jobs(&model, false, 4096), (vec![0, 2], vec![small, small]));
        // The large PNG is decoded whole before it shrinks, whatever the picture wants.
        assert_eq!(prefetch_jobs(&model, false, 256).0, [0, 2]);
    }

    #[test]
    fn a_prefetched_image_costs_its_pixels_and_their_chain_or_the_whole_budget_when_unread() {
        assert_eq!(decoded_bytes(&png(64), 4096), 4 * 64 * 64 * 4 / 3);
        assert_eq!(decoded_bytes(&png(64), 16), 4 * 64 * 64 * 4 / 3, "decoded whole, then shrunk");
        assert_eq!(decoded_bytes(b"not an image", 4096), PREFETCH_BYTES);
        // A header may declare sides its file cannot hold (a PNG of 2³¹ − 1 a side): whether
        // the reader refuses it or the cost saturates, it is never cheap.
        let huge = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x7f\xff\xff\xff\x7f\xff\xff\xff\x08\x06\x00\x00\x00\x14\xc9\x0b\x66";
        assert!(decoded_bytes(huge, 4096) >= PREFETCH_BYTES);
    }

    #[test]
    fn a_ktx2_image_costs_the_level_the_picture_takes_so_it_is_prefetched_with_others() {
        let ktx2 = compressed_texture::tests::mipmapped_ktx2(basis_universal::BasisTextureFormat::ETC1S, false);
        // Only the level of the wanted side is transcoded: 16×16 of the 64×64 image's seven.
        assert_eq!(decoded_bytes(&ktx2, 16), 4 * 16 * 16 * 4 / 3);
        assert_eq!(decoded_bytes(&ktx2, 4096), 4 * 64 * 64 * 4 / 3);
        let mut model = with_images(vec![ktx2.into(), png(8)]);
        model.materials = vec![Material {
            name: "compressed".into(),
            base_color_texture: Some(TextureRef::plain(0)),
            emissive_texture: Some(TextureRef::plain(1)),
            ..Material::default()
        }];
        let (order, costs) = prefetch_jobs(&model, false, 16);
        assert_eq!(order, [0, 1]);
        assert!(costs.iter().sum::<u64>() < PREFETCH_BYTES, "{costs:?}: decoded side by side");
    }

    #[test]
    fn workers_give_the_views_and_notes_one_thread_gives() {
        let gpu = Gpu::headless().unwrap();
        let mut model = with_images(vec![png(64), b"not an image".to_vec().into(), png(32), png(16)]);
        model.materials = materials_with_a_broken_image();
        let textures = |workers: usize| {
            let mut notes = Vec::new();
            let textures = MaterialTextures::with_workers(&gpu.device, &gpu.queue, &model, 4096, &mut notes, workers);
            let mut views: Vec<_> = (textures.views.iter())
                .map(|(&key, view)| {
                    let texture = view.texture();
                    (key, texture.format(), texture.width(), texture.mip_level_count())
                })
                .collect();
            views.sort_by_key(|&(key, ..)| key);
            (notes, textures.drawn, views)
        };
        let one = textures(1);
        let (notes, drawn, views) = &one;
        // The broken image gives way to its fallback, or to the factors, with a note each time.
        assert_eq!(drawn[&(1, Some(2))], Some(2));
        assert_eq!(drawn[&(1, None)], None);
        assert_eq!(drawn[&(3, Some(1))], Some(3));
        assert_eq!(drawn[&(9, None)], None);
        let broken = "image 'Image 1' could not be decoded";
        assert!(notes[0].starts_with("material 'first' baseColorTexture"), "{notes:?}");
        assert!(notes[0].contains(broken) && notes[0].ends_with("drawn with its fallback image 'Image 2'"));
        assert!(notes[1].contains(broken) && notes[1].ends_with("the material uses its factors"));
        assert!(notes[2].contains("image 9 does not exist"), "{notes:?}");
        assert_eq!(notes.len(), 3, "{notes:?}");
        // Image 0 read as data and as colour: one texture for each, with its whole chain.
        let image_0: Vec<_> = views.iter().filter(|(key, ..)| key.0 == 0).collect();
        assert_eq!(image_0.len(), 2);
        assert!(image_0.iter().all(|&&(_, _, width, levels)| (width, levels) == (64, 7)));
        for workers in [2, 3, 4] {
            assert_eq!(textures(workers), one, "{workers} workers");
        }
    }

    #[test]
    fn shared_image_bytes_count_once_in_the_budget() {
        let shared = png(8);
        let one = pixel_budget(&with_images(vec![Arc::clone(&shared)]));
        let twice = pixel_budget(&with_images(vec![Arc::clone(&shared), shared.clone()]));
        assert_eq!(one, twice);
        let big: Arc<[u8]> = vec![0u8; 1 << 20].into();
        let distinct = pixel_budget(&with_images(vec![big.clone(), vec![0u8; 1 << 20].into()]));
        assert_eq!(distinct, 2 * pixel_budget(&with_images(vec![big])));
    }

    #[test]
    fn a_texture_without_a_sampler_is_read_as_three_js_reads_it() {
        // three.js: LinearMipmapLinear minification, Linear magnification, anisotropy 1,
        // every level; the file's repeat wrap.
        let descriptor = sampler_descriptor(SamplerModes::default());
        assert_eq!(descriptor.mag_filter, wgpu::FilterMode::Linear);
        assert_eq!(descriptor.min_filter, wgpu::FilterMode::Linear);
        assert_eq!(descriptor.mipmap_filter, wgpu::MipmapFilterMode::Linear);
        assert_eq!(descriptor.anisotropy_clamp, 1);
        assert_eq!((descriptor.lod_min_clamp, descriptor.lod_max_clamp), (0.0, 32.0));
        assert_eq!(
            (descriptor.address_mode_u, descriptor.address_mode_v),
            (wgpu::AddressMode::Repeat, wgpu::AddressMode::Repeat)
        );
        // A file's LINEAR minification has no mipmaps: the first level only, as three.js
        // (which makes none for it).
        let without_mipmaps = SamplerModes {
            mipmap_linear: None,
            ..SamplerModes::default()
        };
        assert_eq!(sampler_descriptor(without_mipmaps).lod_max_clamp, 0.0);
    }
}
