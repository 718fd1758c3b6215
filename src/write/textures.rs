//! Textures, samplers and images: what a material's `TextureRef`s become in glTF.
//!
//! Each image the materials use is written once, its own bytes as they are (PNG, JPEG, WebP,
//! KTX2) in a buffer view, with the MIME type its bytes show (a .gltf's external image often
//! has none); one in a format glTF cannot hold (a TGA an FBX or MD5 model names) is decoded
//! and written as PNG, and one without bytes (an external file that could not be read) is
//! left out. Images keep the model's order, so a model whose images are all written gets back
//! the same indices when the file is read.
//!
//! One glTF texture is written per distinct (image, fallback, sampler) and one sampler per
//! distinct `SamplerModes` other than the default (a texture with the default names none).
//! An image in WebP or KTX2 is named by EXT_texture_webp or KHR_texture_basisu, with the
//! reference's fallback as the texture's core `source`; without a fallback the extension is
//! required and the texture has no core `source`.

use std::collections::{BTreeSet, HashMap};
use std::io::Cursor;
use std::path::Path;

use gltf_json as json;
use json::texture::{MagFilter, MinFilter, WrappingMode};
use json::validation::Checked;
use serde_json::{Map, Value, json};

use super::document::{Document, Usage};
use super::texture_info::TextureInfo;
use super::vrm_mtoon;
use crate::asset::image_decode::ImageContainer;
use crate::asset::material::{Material, MaterialTexture};
use crate::asset::model::Image;
use crate::asset::texture::{SamplerModes, TextureRef, UvTransform, Wrap};

/// The texture slots this writer writes: all but MToon's (the VRM writer's).
pub fn written_slots() -> impl Iterator<Item = MaterialTexture> {
    MaterialTexture::ALL
        .into_iter()
        .filter(|slot| slot.extension() != Some("VRMC_materials_mtoon"))
}

/// An image as written: its glTF index, and the extension that must name it when it is not
/// one of glTF's core formats (PNG, JPEG).
#[derive(Clone, Copy, Debug)]
struct WrittenImage {
    index: json::Index<json::Image>,
    extension: Option<&'static str>,
}

/// A glTF texture's identity: its core source, the image its extension names, its sampler.
type TextureKey = (Option<usize>, Option<usize>, SamplerModes);

/// The textures, samplers and images written so far.
pub struct Textures {
    /// Per model image: what it became (None: left out, or not used by any material).
    images: Vec<Option<WrittenImage>>,
    /// Per model image: its name, for warnings.
    image_names: Vec<String>,
    textures: HashMap<TextureKey, json::Index<json::Texture>>,
    samplers: HashMap<SamplerModes, json::Index<json::texture::Sampler>>,
}

impl Textures {
    /// Writes the images `materials` read (MToon's too, for the VRM writer), in the model's order.
    pub fn new(document: &mut Document, images: &[Image], materials: &[Material]) -> Self {
        let used: BTreeSet<usize> = materials
            .iter()
            .flat_map(|material| {
                let slots = written_slots().chain(vrm_mtoon::written_slots(material));
                slots.filter_map(|slot| slot.of(material))
            })
            .flat_map(|reference| [Some(reference.image), reference.fallback])
            .flatten()
            .collect();
        let mut written = vec![None; images.len()];
        for index in used {
            let Some(image) = images.get(index) else {
                continue;
            };
            match write_image(document, image) {
                Ok(image) => written[index] = Some(image),
                Err(warning) => document.warn(warning),
            }
        }
        Self {
            images: written,
            image_names: images.iter().map(|image| image.name.clone()).collect(),
            textures: HashMap::new(),
            samplers: HashMap::new(),
        }
    }

    /// The texture `reference` reads, for `material`'s `slot`; None, with a warning, where
    /// neither its image nor its fallback was written.
    pub fn reference(
        &mut self,
        document: &mut Document,
        reference: &TextureRef,
        material: &str,
        slot: MaterialTexture,
    ) -> Option<TextureInfo> {
        let written = |index: Option<usize>| index.and_then(|i| Some((i, (*self.images.get(i)?)?)));
        let (core, extended) = match (written(Some(reference.image)), written(reference.fallback)) {
            (Some((index, written)), fallback) if written.extension.is_some() => {
                (fallback.filter(|(_, f)| f.extension.is_none()), Some((index, written)))
            }
            (Some(core), _) => (Some(core), None),
            // The extension's image is missing: its fallback stands in, if it is a core one.
            (None, Some(fallback)) if fallback.1.extension.is_none() => (Some(fallback), None),
            _ => {
                let image = self.image_names.get(reference.image).map_or("(none)", String::as_str);
                document.warn(format!(
                    "material '{material}': its {} is left out: its image '{image}' could not be written",
                    slot.name()
                ));
                return None;
            }
        };
        let key = (core.map(|(i, _)| i), extended.map(|(i, _)| i), reference.sampler);
        let index = match self.textures.get(&key) {
            Some(&index) => index,
            None => {
                let sampler = self.sampler(document, reference.sampler);
                let mut extensions = Map::new();
                if let Some((_, written)) = extended
                    && let Some(name) = written.extension
                {
                    extensions.insert(name.into(), json!({ "source": written.index.value() }));
                    document.use_extension(name, core.is_none());
                }
                let index = document.root.push(json::Texture {
                    name: None,
                    sampler,
                    // u32::MAX is gltf_json's "no source": it is not written.
                    source: core.map_or(json::Index::new(u32::MAX), |(_, written)| written.index),
                    extensions: (!extensions.is_empty())
                        .then_some(json::extensions::texture::Texture { others: extensions }),
                    extras: None,
                });
                self.textures.insert(key, index);
                index
            }
        };
        let mut extensions = Map::new();
        if let Some(transform) = transform_json(&reference.transform) {
            extensions.insert("KHR_texture_transform".into(), transform);
            document.use_extension("KHR_texture_transform", false);
        }
        Some(TextureInfo {
            index,
            tex_coord: reference.tex_coord,
            extensions,
        })
    }

    /// The sampler of `modes`: none for the default, one per distinct modes otherwise.
    fn sampler(&mut self, document: &mut Document, modes: SamplerModes) -> Option<json::Index<json::texture::Sampler>> {
        if modes == SamplerModes::default() {
            return None;
        }
        let index = *self
            .samplers
            .entry(modes)
            .or_insert_with(|| document.root.push(sampler_json(modes)));
        Some(index)
    }
}

/// A glTF sampler of `modes`, filters left out where they are the loader's defaults (linear,
/// with linear mipmaps).
fn sampler_json(modes: SamplerModes) -> json::texture::Sampler {
    let wrap = |wrap: Wrap| {
        Checked::Valid(match wrap {
            Wrap::Repeat => WrappingMode::Repeat,
            Wrap::MirroredRepeat => WrappingMode::MirroredRepeat,
            Wrap::ClampToEdge => WrappingMode::ClampToEdge,
        })
    };
    let min_filter = match (modes.min_linear, modes.mipmap_linear) {
        (true, Some(true)) => None,
        (false, None) => Some(MinFilter::Nearest),
        (true, None) => Some(MinFilter::Linear),
        (false, Some(false)) => Some(MinFilter::NearestMipmapNearest),
        (true, Some(false)) => Some(MinFilter::LinearMipmapNearest),
        (false, Some(true)) => Some(MinFilter::NearestMipmapLinear),
    };
    json::texture::Sampler {
        mag_filter: (!modes.mag_linear).then_some(Checked::Valid(MagFilter::Nearest)),
        min_filter: min_filter.map(Checked::Valid),
        wrap_s: wrap(modes.wrap_u),
        wrap_t: wrap(modes.wrap_v),
        ..Default::default()
    }
}

/// KHR_texture_transform's JSON, what equals the default left out; none for the identity.
fn transform_json(transform: &UvTransform) -> Option<Value> {
    let mut json = Map::new();
    if transform.offset != glam::Vec2::ZERO {
        json.insert("offset".into(), json!(transform.offset.to_array()));
    }
    if transform.rotation != 0.0 {
        json.insert("rotation".into(), json!(transform.rotation));
    }
    if transform.scale != glam::Vec2::ONE {
        json.insert("scale".into(), json!(transform.scale.to_array()));
    }
    (!json.is_empty()).then_some(Value::Object(json))
}

/// Writes `image` in a buffer view of its own: its bytes as they are where glTF (or one of
/// its image extensions) holds the format, else re-encoded as PNG with a warning. The error
/// is the warning for an image that cannot be written.
fn write_image(document: &mut Document, image: &Image) -> Result<WrittenImage, String> {
    let name = &image.name;
    if image.bytes.is_empty() {
        return Err(format!(
            "image '{name}' has no data (its file could not be read): left out"
        ));
    }
    let (mime_type, extension) = match ImageContainer::detect(&image.bytes) {
        ImageContainer::Png => ("image/png", None),
        ImageContainer::Jpeg => ("image/jpeg", None),
        ImageContainer::Webp => ("image/webp", Some("EXT_texture_webp")),
        ImageContainer::Ktx2(_) => ("image/ktx2", Some("KHR_texture_basisu")),
        ImageContainer::Other => {
            let (png, format) = png_of(&image.bytes, name)
                .map_err(|why| format!("image '{name}' cannot be written: {why}; left out"))?;
            document.warn(format!(
                "image '{name}' is {format}, which glTF cannot hold: written as PNG"
            ));
            return Ok(push_image(document, &png, name, "image/png", None));
        }
    };
    Ok(push_image(document, &image.bytes, name, mime_type, extension))
}

/// Appends an image of `bytes` to the buffer and the document.
fn push_image(
    document: &mut Document,
    bytes: &[u8],
    name: &str,
    mime_type: &str,
    extension: Option<&'static str>,
) -> WrittenImage {
    let view = document.view(bytes, Usage::Other);
    let index = document.root.push(json::Image {
        buffer_view: Some(view),
        mime_type: Some(json::image::MimeType(mime_type.into())),
        name: Some(name.into()),
        uri: None,
        extensions: None,
        extras: None,
    });
    WrittenImage { index, extension }
}

/// `bytes` decoded and encoded as PNG, with the name of the format they were in. The format
/// is told by the bytes, else by the extension of the image's `name` (TGA has no magic
/// number), else taken to be TGA.
fn png_of(bytes: &[u8], name: &str) -> Result<(Vec<u8>, String), String> {
    let format = image::guess_format(bytes)
        .ok()
        .or_else(|| image::ImageFormat::from_path(Path::new(name)).ok())
        .unwrap_or(image::ImageFormat::Tga);
    let format_name = format.extensions_str().first().map_or("unknown", |e| e).to_uppercase();
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|e| format!("its {format_name} data cannot be decoded ({e})"))?;
    // 8 bits per channel, as the formats glTF models carry have; alpha where there is one.
    let decoded = match decoded.color().has_alpha() {
        true => image::DynamicImage::ImageRgba8(decoded.to_rgba8()),
        false => image::DynamicImage::ImageRgb8(decoded.to_rgb8()),
    };
    let mut png = Cursor::new(Vec::new());
    decoded
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| format!("it cannot be encoded as PNG ({e})"))?;
    Ok((png.into_inner(), format_name))
}
