//! Decoding a model's images to RGBA8, whatever container they come in: PNG, JPEG and WebP
//! (EXT_texture_webp) through the `image` crate, KTX2 with Basis Universal supercompression
//! (KHR_texture_basisu, ETC1S or UASTC) transcoded to RGBA8 by `basisu`, and KTX2 of raw 8-bit
//! pixels (one to four channels, plain or Zstandard-supercompressed), as texture tools write
//! for data that must not be compressed. A KTX2/Basis image with its mip chain can instead be
//! transcoded level by level to BC7 blocks (`Bc7Levels`) for a GPU that samples them.
//!
//! The container is told by the bytes (magic numbers), not by the MIME type the file
//! declares. A KTX2 image's own colour space (its data format descriptor's transfer function)
//! is reported so that a caller can compare it with the material slot's (glTF: base colour
//! and emissive are sRGB, the others linear). Decoded sizes are bounded before anything is
//! allocated: a KTX2 image may not claim more than `PIXELS_ALWAYS_ALLOWED` pixels or
//! `MAX_PIXELS_PER_BYTE` per byte of its file, whichever is more, nor a side longer than the
//! caller's limit.

use std::fmt;

use image::RgbaImage;
use ktx2::{ColorModel, Format, SupercompressionScheme, TransferFunction};

use super::mip_chain;

/// The most pixels a KTX2 image may decode to per byte of its file, beyond `PIXELS_ALWAYS_ALLOWED`.
/// ETC1S reaches about 0.3 bits per pixel on real images; flat colours compress further.
pub const MAX_PIXELS_PER_BYTE: u64 = 256;

/// Pixels any KTX2 image may decode to whatever its size (4096 × 4096, 64 MiB of RGBA8), so
/// that a flat placeholder texture, which BasisLZ or Zstandard shrink to almost nothing, loads.
pub const PIXELS_ALWAYS_ALLOWED: u64 = 4096 * 4096;

/// The container an image's bytes are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageContainer {
    Png,
    Jpeg,
    Webp,
    /// KTX2, with the Basis Universal codec its data format descriptor names (None: not
    /// Basis, e.g. a KTX2 of raw or block-compressed pixels).
    Ktx2(Option<BasisCodec>),
    /// Any other content (TGA for MD5 models, or bytes no decoder knows).
    Other,
}

/// Basis Universal's two LDR codecs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BasisCodec {
    /// ETC1S with BasisLZ supercompression: small, lower quality.
    Etc1s,
    /// UASTC 4×4, optionally Zstandard-supercompressed: larger, higher quality.
    Uastc,
}

impl ImageContainer {
    /// Tells the container from the first bytes of `bytes`.
    pub fn detect(bytes: &[u8]) -> Self {
        const KTX2: &[u8] = b"\xABKTX 20\xBB\r\n\x1A\n";
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Self::Png
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Self::Jpeg
        } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Self::Webp
        } else if bytes.starts_with(KTX2) {
            Self::Ktx2(ktx2::Reader::new(bytes).ok().and_then(|r| basis_codec(&r)))
        } else {
            Self::Other
        }
    }
}

impl fmt::Display for ImageContainer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Png => "PNG",
            Self::Jpeg => "JPEG",
            Self::Webp => "WebP",
            Self::Ktx2(Some(BasisCodec::Etc1s)) => "KTX2/Basis ETC1S",
            Self::Ktx2(Some(BasisCodec::Uastc)) => "KTX2/Basis UASTC",
            Self::Ktx2(None) => "KTX2 (not Basis)",
            Self::Other => "unknown",
        })
    }
}

/// An image decoded to 8-bit RGBA.
#[derive(Clone, Debug)]
pub struct DecodedImage {
    pub rgba: RgbaImage,
    pub container: ImageContainer,
    /// The colour space the file declares for its values (KTX2's transfer function): Some(true)
    /// sRGB, Some(false) linear; None where the container does not say.
    pub declared_srgb: Option<bool>,
}

impl DecodedImage {
    /// What the image was decoded to, for `inspect` ("RGBA8", "RGBA8 transcoded from UASTC").
    pub fn decoded_to(&self) -> String {
        let (width, height) = self.rgba.dimensions();
        match self.container {
            ImageContainer::Ktx2(Some(codec)) => {
                let codec = if codec == BasisCodec::Etc1s { "ETC1S" } else { "UASTC" };
                format!("RGBA8 {width}×{height}, transcoded from {codec}")
            }
            _ => format!("RGBA8 {width}×{height}"),
        }
    }
}

/// Why an image could not be decoded, in words ("its KTX2 container cannot be read (...)").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImageDecodeError(pub String);

/// Decodes `bytes` to RGBA8 at full size. `max_side` bounds the sides of a KTX2 image before
/// it is transcoded (the other decoders bound their own allocations).
pub fn decode(bytes: &[u8], max_side: u32) -> Result<DecodedImage, ImageDecodeError> {
    // Nothing is shrunk, so the colour space the texels are averaged in does not matter.
    decode_at_most(bytes, max_side, u32::MAX, false)
}

/// Decodes `bytes` to RGBA8 of at most `wanted_side` texels a side, for a picture that could
/// not show more: a KTX2 image's own mip level of that size where the file has one (the larger
/// levels are never transcoded), any other image decoded and then shrunk at once to the mip
/// level that fits (its full size is dropped before the caller sees it). An image already
/// that small is kept as it is. Shrinking halves it as its mip chain does (`mip_chain::fitted`),
/// colour in linear light when the slot reads it as `srgb`, so that the image is the level of
/// its size that the full image's chain would have had. `max_side` bounds the level
/// transcoded, as for `decode`.
pub fn decode_at_most(
    bytes: &[u8],
    max_side: u32,
    wanted_side: u32,
    srgb: bool,
) -> Result<DecodedImage, ImageDecodeError> {
    let fit = Fit {
        side: wanted_side.max(1),
        srgb,
    };
    decode_or_say_why(bytes, max_side, fit).map_err(ImageDecodeError)
}

/// The sides `decode_at_most` holds `bytes` at before shrinking them to `wanted_side`: a KTX2
/// image's level of that size (`ktx2_level`: the only one transcoded), any other image whole,
/// as its header declares them. None where the header cannot be read.
pub fn decoded_size(bytes: &[u8], wanted_side: u32) -> Option<(u32, u32)> {
    if let ImageContainer::Ktx2(_) = ImageContainer::detect(bytes) {
        let reader = ktx2::Reader::new(bytes).ok()?;
        return Some(ktx2_level(&reader.header(), wanted_side).1);
    }
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format();
    reader.ok()?.into_dimensions().ok()
}

/// The level of a KTX2 image with `header` that a picture wanting `wanted_side` texels a side
/// takes (where the file has one that small, else its smallest), and that level's sides.
fn ktx2_level(header: &ktx2::Header, wanted_side: u32) -> (u32, (u32, u32)) {
    let (width, height) = (header.pixel_width, header.pixel_height.max(1));
    let level = halvings_to_fit((width, height), wanted_side).min(header.level_count.max(1) - 1);
    (level, (halved(width, level), halved(height, level)))
}

/// The size a decoded image is shrunk to, and how its texels are averaged on the way.
#[derive(Clone, Copy)]
struct Fit {
    /// The longest side wanted (at least 1).
    side: u32,
    /// Colour averaged in linear light (an sRGB slot), else every channel as stored.
    srgb: bool,
}

impl Fit {
    /// `image` shrunk to the mip level whose sides are at most `side` (itself when it fits).
    fn apply(self, image: RgbaImage) -> RgbaImage {
        mip_chain::fitted(image, self.side, self.srgb)
    }

    /// `image` as RGBA8 (`widened`) shrunk as `apply` shrinks it. An RGB8 image (every JPEG's)
    /// that must shrink is halved once straight from its three channels
    /// (`mip_chain::halved_opaque`, the same bytes), so its full size is never widened.
    fn apply_to_decoded(self, image: image::DynamicImage) -> RgbaImage {
        if let image::DynamicImage::ImageRgb8(rgb) = &image
            && (rgb.width() > self.side || rgb.height() > self.side)
            && let Some(half) = mip_chain::halved_opaque(rgb, self.srgb)
        {
            return self.apply(half);
        }
        self.apply(widened(image))
    }
}

fn decode_or_say_why(bytes: &[u8], max_side: u32, fit: Fit) -> Result<DecodedImage, String> {
    if bytes.is_empty() {
        return Err("the image has no data".into());
    }
    match ImageContainer::detect(bytes) {
        ImageContainer::Ktx2(codec) => decode_ktx2(bytes, codec, max_side, fit),
        container => {
            let image = image::load_from_memory(bytes).map_err(|e| match container {
                ImageContainer::Other => format!("its format is not one rigscope reads ({e})"),
                _ => format!("its {container} data cannot be decoded ({e})"),
            })?;
            // Halved as the GPU's mip chain is, from the RGBA8 texels widening gives.
            Ok(DecodedImage {
                rgba: fit.apply_to_decoded(image),
                container,
                declared_srgb: None,
            })
        }
    }
}

/// `image` as RGBA8, as `into_rgba8` makes it. An RGB8 image (every JPEG's) is widened here,
/// each texel's bytes copied and made opaque: `into_rgba8` goes through its colour-space
/// conversion a texel at a time, several times slower, for the same bytes.
fn widened(image: image::DynamicImage) -> RgbaImage {
    let image::DynamicImage::ImageRgb8(rgb) = image else {
        return image.into_rgba8();
    };
    let mut rgba = RgbaImage::new(rgb.width(), rgb.height());
    for (to, from) in rgba.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        to[..3].copy_from_slice(from);
        to[3] = u8::MAX;
    }
    rgba
}

/// How many times `(width, height)` must be halved, as mip levels are (each side rounded down,
/// at least 1), for both sides to be at most `side`: the mip level a picture needs.
fn halvings_to_fit((width, height): (u32, u32), side: u32) -> u32 {
    let side = side.max(1);
    (0..32)
        .find(|&level| halved(width, level) <= side && halved(height, level) <= side)
        .unwrap_or(31)
}

/// `length` halved `times` times, as a mip level's side is (at least 1).
fn halved(length: u32, times: u32) -> u32 {
    length.checked_shr(times).unwrap_or(0).max(1)
}

/// The Basis codec of a KTX2 file, from its data format descriptor's colour model.
fn basis_codec(reader: &ktx2::Reader<&[u8]>) -> Option<BasisCodec> {
    match reader.color_model() {
        Some(ColorModel::ETC1S) => Some(BasisCodec::Etc1s),
        Some(ColorModel::UASTC) => Some(BasisCodec::Uastc),
        _ => None,
    }
}

/// A KTX2 image checked for what rigscope reads (one 2D image of Basis or raw 8-bit pixels,
/// sizes bounded before anything is allocated), and the level a picture needs.
struct CheckedKtx2<'a> {
    reader: ktx2::Reader<&'a [u8]>,
    /// Raw pixels' layout; None for Basis.
    raw: Option<RawPixels>,
    /// The level read: the one of at most the wanted side, or the file's smallest.
    level: u32,
    /// That level's sides.
    level_size: (u32, u32),
    declared_srgb: Option<bool>,
}

/// Checks a KTX2 image of Basis `codec` (None: raw pixels) and finds the level of at most
/// `wanted_side` a side, no side over `max_side`.
fn check_ktx2(
    bytes: &[u8],
    codec: Option<BasisCodec>,
    max_side: u32,
    wanted_side: u32,
) -> Result<CheckedKtx2<'_>, String> {
    let reader = ktx2::Reader::new(bytes).map_err(|e| format!("its KTX2 container cannot be read ({e})"))?;
    let header = reader.header();
    let raw = header.format.and_then(RawPixels::of);
    if codec.is_none() && raw.is_none() {
        return Err(format!(
            "it is a KTX2 image of format {:?}, neither Basis Universal (ETC1S or UASTC) nor raw 8-bit pixels",
            header.format
        ));
    }
    let scheme = header.supercompression_scheme;
    let expected = match codec {
        Some(BasisCodec::Etc1s) => matches!(scheme, Some(SupercompressionScheme::BasisLZ)),
        _ => matches!(scheme, None | Some(SupercompressionScheme::Zstandard)),
    };
    if !expected {
        return Err(format!(
            "its {} data has supercompression {scheme:?}, which that format does not use",
            codec.map_or("raw".to_string(), |codec| format!("{codec:?}"))
        ));
    }
    let (width, height) = (header.pixel_width, header.pixel_height.max(1));
    // The level transcoded: the one the picture needs, where the file has it.
    let (level, (level_width, level_height)) = ktx2_level(&header, wanted_side);
    if level_width > max_side || level_height > max_side {
        return Err(format!(
            "it is {level_width}×{level_height}, larger than this GPU's {max_side}-texel limit"
        ));
    }
    let pixels = u64::from(width) * u64::from(height);
    if pixels > PIXELS_ALWAYS_ALLOWED.max(MAX_PIXELS_PER_BYTE * bytes.len() as u64) {
        return Err(format!(
            "it claims {width}×{height} pixels, more than its {} bytes can hold",
            bytes.len()
        ));
    }
    if header.layer_count > 1 || header.face_count != 1 || header.pixel_depth > 1 {
        return Err(format!(
            "it holds {} layers, {} faces and a depth of {}, but a glTF texture is one 2D image",
            header.layer_count, header.face_count, header.pixel_depth
        ));
    }
    if codec.is_some() {
        // The transcoder allocates each Zstandard level's stated unpacked size before inflating
        // it: no level of one 2D image unpacks to more than 16 bytes per 4×4 block of level 0.
        let largest_level = 16 * u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4));
        if let Some(level) = reader.levels().find(|l| l.uncompressed_byte_length > largest_level) {
            return Err(format!(
                "a level claims to unpack to {} bytes, more than a {width}×{height} image needs",
                level.uncompressed_byte_length
            ));
        }
    }
    let declared_srgb = match reader.transfer_function() {
        Some(TransferFunction::SRGB) => Some(true),
        Some(TransferFunction::Linear) => Some(false),
        _ => None,
    };
    Ok(CheckedKtx2 {
        reader,
        raw,
        level,
        level_size: (level_width, level_height),
        declared_srgb,
    })
}

/// Decodes a KTX2 image to RGBA8 of at most `fit.side` a side: the Basis level of that size
/// transcoded (the file's smallest shrunk where it has no such level), raw 8-bit pixels copied
/// from that level and shrunk.
fn decode_ktx2(bytes: &[u8], codec: Option<BasisCodec>, max_side: u32, fit: Fit) -> Result<DecodedImage, String> {
    let checked = check_ktx2(bytes, codec, max_side, fit.side)?;
    let codec = match (codec, checked.raw) {
        (Some(codec), _) => codec,
        (None, Some(raw)) => {
            let rgba = raw.decode(&checked.reader, checked.level, checked.level_size)?;
            return Ok(DecodedImage {
                rgba: fit.apply(rgba),
                container: ImageContainer::Ktx2(None),
                declared_srgb: checked.declared_srgb.or(Some(raw.srgb)),
            });
        }
        (None, None) => unreachable!("refused by check_ktx2"),
    };
    let transcoder = basisu::Transcoder::new(bytes).map_err(|e| format!("Basis Universal cannot read it ({e:?})"))?;
    let level = checked.level.min(transcoder.level_count().max(1) - 1);
    let data = transcoder
        .transcode(level, basisu::TargetFormat::Rgba32, basisu::DecodeFlags::NONE)
        .map_err(|e| format!("Basis Universal cannot transcode it ({e:?})"))?;
    let (width, height) = transcoder
        .image_level_info(level)
        .map(|info| (info.width, info.height))
        .map_err(|e| format!("Basis Universal cannot size its level {level} ({e:?})"))?;
    let rgba = RgbaImage::from_raw(width, height, data)
        .ok_or_else(|| format!("the transcoder returned the wrong amount of data for {width}×{height}"))?;
    Ok(DecodedImage {
        rgba: fit.apply(rgba),
        container: ImageContainer::Ktx2(Some(codec)),
        declared_srgb: checked.declared_srgb,
    })
}

/// A KTX2/Basis image's mip chain transcoded to BC7 blocks (16 bytes per 4×4 texels), one
/// level at a time, for a GPU that samples BC7: from the level a picture needs down to the
/// file's smallest. No level is held as RGBA8 or made on the CPU, and the GPU keeps a quarter
/// of RGBA8's bytes.
pub struct Bc7Levels<'a> {
    transcoder: basisu::Transcoder<'a>,
    /// The file's level that becomes the texture's first.
    first: u32,
    /// The first level's sides in texels: multiples of 4, as a BC7 texture's must be.
    pub size: (u32, u32),
    /// Levels from the first to the file's smallest (1×1).
    pub count: u32,
    /// The colour space the file declares, as for `DecodedImage::declared_srgb`.
    pub declared_srgb: Option<bool>,
}

impl<'a> Bc7Levels<'a> {
    /// `bytes` as BC7 levels of at most `wanted_side` a side (none over `max_side`). None where
    /// BC7 cannot hold the image as the file stands, so the caller decodes it to RGBA8
    /// (`decode_at_most`): not Basis; without every level down to 1×1 (a GPU cannot make the
    /// smaller ones from BC7 blocks, and a texture without them shimmers); or a first level
    /// whose sides are not multiples of 4. An error where the file is damaged, as `decode` says.
    pub fn of(bytes: &'a [u8], max_side: u32, wanted_side: u32) -> Result<Option<Self>, ImageDecodeError> {
        let ImageContainer::Ktx2(Some(codec)) = ImageContainer::detect(bytes) else {
            return Ok(None);
        };
        let checked = check_ktx2(bytes, Some(codec), max_side, wanted_side.max(1)).map_err(ImageDecodeError)?;
        let header = checked.reader.header();
        let full_chain = 32 - header.pixel_width.max(header.pixel_height).max(1).leading_zeros();
        let (width, height) = checked.level_size;
        if header.level_count != full_chain || !width.is_multiple_of(4) || !height.is_multiple_of(4) {
            return Ok(None);
        }
        let transcoder = basisu::Transcoder::new(bytes)
            .map_err(|e| ImageDecodeError(format!("Basis Universal cannot read it ({e:?})")))?;
        if transcoder.level_count() != full_chain || !transcoder.supports(basisu::TargetFormat::Bc7Rgba) {
            return Ok(None);
        }
        Ok(Some(Self {
            transcoder,
            first: checked.level,
            size: (width, height),
            count: full_chain - checked.level,
            declared_srgb: checked.declared_srgb,
        }))
    }

    /// Texels of the first level: what the file's pixel budget counts.
    pub fn pixels(&self) -> u64 {
        u64::from(self.size.0) * u64::from(self.size.1)
    }

    /// Level `index` (0: the first) as BC7 blocks, rows of blocks top to bottom, written over
    /// `blocks` (one buffer serves every level; the first is the largest); its sides in texels.
    pub fn transcode(&self, index: u32, blocks: &mut Vec<u8>) -> Result<(u32, u32), ImageDecodeError> {
        let level = self.first + index;
        let failed =
            |e: basisu::Error| ImageDecodeError(format!("Basis Universal cannot transcode its level {level} ({e:?})"));
        let target = basisu::TargetFormat::Bc7Rgba;
        let info = self.transcoder.image_level_info(level).map_err(failed)?;
        blocks.resize(self.transcoder.output_size(level, target).map_err(failed)?, 0);
        // Without the BC7 chroma filter basisu applies to ETC1S by default (Basis Universal 2's
        // addition): it blurs colour across block edges, away from what the RGBA8 path and
        // Binomial's 1.x transcoder give.
        (self.transcoder)
            .transcode_into(level, target, basisu::DecodeFlags::NO_ETC1S_CHROMA_FILTERING, blocks)
            .map_err(failed)?;
        Ok((info.width, info.height))
    }
}

/// A KTX2 format of raw 8-bit pixels: how many channels, whether they run blue first, and
/// whether they are sRGB-encoded.
#[derive(Clone, Copy, Debug)]
struct RawPixels {
    channels: usize,
    blue_first: bool,
    srgb: bool,
}

impl RawPixels {
    fn of(format: Format) -> Option<Self> {
        let (channels, blue_first, srgb) = match format {
            Format::R8_UNORM => (1, false, false),
            Format::R8_SRGB => (1, false, true),
            Format::R8G8_UNORM => (2, false, false),
            Format::R8G8_SRGB => (2, false, true),
            Format::R8G8B8_UNORM => (3, false, false),
            Format::R8G8B8_SRGB => (3, false, true),
            Format::B8G8R8_UNORM => (3, true, false),
            Format::B8G8R8_SRGB => (3, true, true),
            Format::R8G8B8A8_UNORM => (4, false, false),
            Format::R8G8B8A8_SRGB => (4, false, true),
            Format::B8G8R8A8_UNORM => (4, true, false),
            Format::B8G8R8A8_SRGB => (4, true, true),
            _ => return None,
        };
        Some(Self {
            channels,
            blue_first,
            srgb,
        })
    }

    /// Level `level` of `reader` (`width` × `height`, already bounded) as RGBA8, the channels it
    /// lacks as a GPU samples them (colour 0, alpha 1).
    fn decode(
        self,
        reader: &ktx2::Reader<&[u8]>,
        index: u32,
        (width, height): (u32, u32),
    ) -> Result<RgbaImage, String> {
        let size = width as usize * height as usize * self.channels;
        let level = (reader.levels().nth(index as usize)).ok_or_else(|| format!("it holds no image level {index}"))?;
        let unpacked;
        let data = match reader.header().supercompression_scheme {
            Some(SupercompressionScheme::Zstandard) => {
                if level.uncompressed_byte_length != size as u64 {
                    return Err(format!(
                        "its level {index} unpacks to {} bytes where {width}×{height} pixels of {} bytes take {size}",
                        level.uncompressed_byte_length, self.channels
                    ));
                }
                let mut inflated = vec![0; size];
                let written = ruzstd::decoding::FrameDecoder::new()
                    .decode_all(level.data, &mut inflated)
                    .map_err(|e| format!("its Zstandard data cannot be inflated ({e})"))?;
                if written != size {
                    return Err(format!("its Zstandard data inflates to {written} bytes, not {size}"));
                }
                unpacked = inflated;
                &unpacked[..]
            }
            _ => level.data,
        };
        let pixels = data.get(..size).ok_or_else(|| {
            format!(
                "its level {index} holds {} bytes, fewer than {width}×{height} pixels of {} bytes",
                data.len(),
                self.channels
            )
        })?;
        let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
        for pixel in pixels.chunks_exact(self.channels) {
            let mut out = [0, 0, 0, 255];
            out[..self.channels].copy_from_slice(pixel);
            if self.blue_first {
                out.swap(0, 2);
            }
            rgba.extend_from_slice(&out);
        }
        RgbaImage::from_raw(width, height, rgba).ok_or_else(|| "its pixels do not fill the image".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_rgb_image_is_widened_to_the_bytes_into_rgba8_gives() {
        let rgb = image::RgbImage::from_fn(7, 5, |x, y| image::Rgb([(x * 37) as u8, (y * 51) as u8, (x * y) as u8]));
        let expected = image::DynamicImage::ImageRgb8(rgb.clone()).into_rgba8();
        assert_eq!(widened(image::DynamicImage::ImageRgb8(rgb)), expected);
        // Other layouts go through `into_rgba8` itself.
        let grey = image::GrayImage::from_fn(3, 2, |x, _| image::Luma([x as u8 * 100]));
        let expected = image::DynamicImage::ImageLuma8(grey.clone()).into_rgba8();
        assert_eq!(widened(image::DynamicImage::ImageLuma8(grey)), expected);
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        png_of(&RgbaImage::from_pixel(width, height, image::Rgba([10, 20, 30, 255])))
    }

    /// `image` as a PNG file.
    fn png_of(image: &RgbaImage) -> Vec<u8> {
        let mut bytes = Vec::new();
        image
            .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes
    }

    /// `width` × `height` texels of repeatable noise, every channel and alpha varying: a
    /// contrasty texture, where averaging in the wrong space or over the wrong texels shows.
    fn noise(width: u32, height: u32) -> RgbaImage {
        let mut state = 0x2545_f491_u32;
        RgbaImage::from_fn(width, height, |_, _| {
            image::Rgba(std::array::from_fn(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            }))
        })
    }

    #[test]
    fn containers_are_told_by_their_magic_numbers() {
        assert_eq!(ImageContainer::detect(&png(1, 1)), ImageContainer::Png);
        assert_eq!(ImageContainer::detect(&[0xFF, 0xD8, 0xFF, 0xE0]), ImageContainer::Jpeg);
        assert_eq!(ImageContainer::detect(b"RIFF\0\0\0\0WEBPVP8L"), ImageContainer::Webp);
        assert_eq!(
            ImageContainer::detect(b"\xABKTX 20\xBB\r\n\x1A\n"),
            ImageContainer::Ktx2(None)
        );
        assert_eq!(ImageContainer::detect(b"GIF89a"), ImageContainer::Other);
    }

    #[test]
    fn a_png_decodes_to_its_pixels() {
        let decoded = decode(&png(3, 2), 16).unwrap();
        assert_eq!(decoded.rgba.dimensions(), (3, 2));
        assert_eq!(decoded.rgba.get_pixel(2, 1).0, [10, 20, 30, 255]);
        assert_eq!(decoded.container, ImageContainer::Png);
        assert_eq!(decoded.decoded_to(), "RGBA8 3×2");
    }

    /// A KTX2 file of one level of `format` (a VkFormat number), `width` × `height`, holding
    /// `data` (Zstandard-supercompressed when `zstandard`, with `unpacked` its inflated length).
    fn raw_ktx2(format: u32, (width, height): (u32, u32), data: &[u8], zstandard: bool, unpacked: usize) -> Vec<u8> {
        let mut file = b"\xABKTX 20\xBB\r\n\x1A\n".to_vec();
        let scheme = if zstandard { 2 } else { 0 };
        for value in [format, 1, width, height, 0, 0, 1, 1, scheme] {
            file.extend(value.to_le_bytes());
        }
        // The index: a data format descriptor of no blocks right after the level index, no
        // key/value or supercompression data; then the one level.
        let dfd_offset: u32 = 80 + 24;
        for value in [dfd_offset, 4, 0, 0] {
            file.extend(value.to_le_bytes());
        }
        file.extend([0; 16]);
        for value in [dfd_offset + 4, data.len() as u32, unpacked as u32] {
            file.extend(u64::from(value).to_le_bytes());
        }
        file.extend(4u32.to_le_bytes());
        file.extend(data);
        file
    }

    /// A KTX2 file of uncompressed R8G8B8A8_UNORM levels, `levels[0]` of `width` × `height`
    /// and each next one half as large.
    fn raw_ktx2_levels((width, height): (u32, u32), levels: &[Vec<u8>]) -> Vec<u8> {
        let mut file = b"\xABKTX 20\xBB\r\n\x1A\n".to_vec();
        for value in [37, 1, width, height, 0, 0, 1, levels.len() as u32, 0] {
            file.extend(value.to_le_bytes());
        }
        let dfd_offset = 80 + 24 * levels.len() as u32;
        for value in [dfd_offset, 4, 0, 0] {
            file.extend(value.to_le_bytes());
        }
        file.extend([0; 16]);
        let mut offset = dfd_offset + 4;
        for level in levels {
            for value in [offset, level.len() as u32, level.len() as u32] {
                file.extend(u64::from(value).to_le_bytes());
            }
            offset += level.len() as u32;
        }
        file.extend(4u32.to_le_bytes());
        levels.iter().for_each(|level| file.extend(level));
        file
    }

    #[test]
    fn the_mip_level_a_picture_needs_is_the_one_that_fits_its_side() {
        assert_eq!(halvings_to_fit((4096, 4096), 1024), 2);
        assert_eq!(halvings_to_fit((4096, 1024), 1024), 2);
        assert_eq!(halvings_to_fit((1000, 1000), 1024), 0);
        assert_eq!(halvings_to_fit((1025, 3), 1024), 1);
        assert_eq!(halvings_to_fit((4096, 4096), 1), 12);
        assert_eq!(halvings_to_fit((4096, 4096), 0), 12, "a side of 0 is read as 1");
    }

    #[test]
    fn an_image_for_a_small_picture_is_decoded_at_the_level_that_fits() {
        // A PNG is decoded whole, then shrunk to the mip level of at most 16 a side.
        let decoded = decode_at_most(&png(64, 32), 4096, 16, false).unwrap();
        assert_eq!(decoded.rgba.dimensions(), (16, 8));
        assert_eq!(decoded.rgba.get_pixel(15, 7).0, [10, 20, 30, 255]);
        // One that already fits is kept as it is.
        assert_eq!(
            decode_at_most(&png(3, 2), 4096, 16, false).unwrap().rgba.dimensions(),
            (3, 2)
        );
        // A KTX2 file's own smaller level is read, not its first one shrunk: level 0 red,
        // level 1 green, level 2 blue.
        let level = |side: usize, colour: [u8; 4]| colour.repeat(side * side);
        let ktx2 = raw_ktx2_levels(
            (4, 4),
            &[
                level(4, [255, 0, 0, 255]),
                level(2, [0, 255, 0, 255]),
                level(1, [0, 0, 255, 255]),
            ],
        );
        let full = decode_at_most(&ktx2, 4096, 4, false).unwrap();
        assert_eq!(
            (full.rgba.dimensions(), full.rgba.get_pixel(0, 0).0),
            ((4, 4), [255, 0, 0, 255])
        );
        let half = decode_at_most(&ktx2, 4096, 3, false).unwrap();
        assert_eq!(
            (half.rgba.dimensions(), half.rgba.get_pixel(1, 1).0),
            ((2, 2), [0, 255, 0, 255])
        );
        let smallest = decode_at_most(&ktx2, 4096, 1, false).unwrap();
        assert_eq!(smallest.rgba.get_pixel(0, 0).0, [0, 0, 255, 255]);
        // What is held before shrinking, as the prefetch counts it: the level read, or a PNG whole.
        assert_eq!([4, 3, 1].map(|side| decoded_size(&ktx2, side)), [4, 2, 1].map(|s| Some((s, s))));
        assert_eq!(decoded_size(&png(64, 32), 16), Some((64, 32)));
        assert_eq!(decoded_size(b"neither", 16), None);
        // A level larger than the device allows is refused only when it is the one read.
        assert!(
            decode(&ktx2, 2)
                .unwrap_err()
                .0
                .contains("4×4, larger than this GPU's 2-texel limit")
        );
        assert_eq!(decode_at_most(&ktx2, 2, 2, false).unwrap().rgba.dimensions(), (2, 2));
        // A file of one level is read whole and shrunk.
        let one_level = raw_ktx2_levels((4, 4), &[level(4, [255, 0, 0, 255])]);
        assert_eq!(decoded_size(&one_level, 2), Some((4, 4)));
        let shrunk = decode_at_most(&one_level, 4096, 2, false).unwrap();
        assert_eq!(
            (shrunk.rgba.dimensions(), shrunk.rgba.get_pixel(1, 1).0),
            ((2, 2), [255, 0, 0, 255])
        );
    }

    #[test]
    fn an_image_fitted_to_a_side_is_the_level_of_that_size_in_its_full_mip_chain() {
        // Odd and uneven sides (37×22 halves to 18×11, 9×5, 4×2, 2×1, 1×1), colour averaged in
        // linear light or as stored: decoding at a side gives, byte for byte, the level of that
        // size the GPU would have made from the whole image.
        let full = noise(37, 22);
        let one_level_ktx2 = raw_ktx2_levels((37, 22), &[full.as_raw().clone()]);
        for srgb in [false, true] {
            let chain: Vec<RgbaImage> = mip_chain::levels(full.clone(), srgb).collect();
            for (side, level) in [(37, 0), (36, 1), (20, 1), (18, 1), (9, 2), (4, 3), (3, 4), (1, 5)] {
                for (container, bytes) in [("PNG", png_of(&full)), ("KTX2 of one level", one_level_ktx2.clone())] {
                    let fitted = decode_at_most(&bytes, 4096, side, srgb).unwrap().rgba;
                    assert!(
                        fitted == chain[level],
                        "{container} at side {side} (sRGB {srgb}): {:?}, not level {level} {:?}",
                        fitted.dimensions(),
                        chain[level].dimensions()
                    );
                }
            }
        }
        // A PNG of three channels is widened to RGBA8 (opaque) before it is halved.
        let rgb = image::DynamicImage::ImageRgba8(noise(8, 4)).into_rgb8();
        let mut bytes = Vec::new();
        rgb.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        let opaque = image::DynamicImage::ImageRgb8(rgb).into_rgba8();
        let fitted = decode_at_most(&bytes, 4096, 2, true).unwrap().rgba;
        assert!(fitted == mip_chain::fitted(opaque, 2, true), "{fitted:?}");
    }

    #[test]
    fn a_jpeg_fitted_is_its_whole_decode_widened_and_fitted() {
        // A JPEG decodes to three channels: where it shrinks, its first level is halved from
        // them straight, and must give the bytes the widened image's level has (odd sides
        // still go through the widened image).
        for (width, height) in [(64, 48), (40, 22), (37, 22)] {
            let mut bytes = Vec::new();
            let rgb = image::DynamicImage::ImageRgba8(noise(width, height)).into_rgb8();
            rgb.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
                .unwrap();
            assert_eq!(ImageContainer::detect(&bytes), ImageContainer::Jpeg);
            let whole = decode(&bytes, 4096).unwrap().rgba;
            for (side, srgb) in [(64, true), (32, true), (20, false), (5, true), (1, false)] {
                let fitted = decode_at_most(&bytes, 4096, side, srgb).unwrap().rgba;
                assert!(
                    fitted == mip_chain::fitted(whole.clone(), side, srgb),
                    "{width}×{height} at side {side} (sRGB {srgb})"
                );
            }
        }
    }

    #[test]
    fn an_srgb_checkerboard_fits_to_half_the_light_and_a_data_one_to_half_its_value() {
        // Black and white texels in equal parts: 0.5 in linear light, sRGB byte 188, for a
        // colour slot; 128 for a data slot (normals, metallic-roughness), and for alpha.
        let checkerboard = RgbaImage::from_fn(16, 8, |x, y| {
            let level = if (x + y) % 2 == 0 { 0 } else { 255 };
            image::Rgba([level, level, level, level])
        });
        let bytes = png_of(&checkerboard);
        for (srgb, colour) in [(true, 188), (false, 128)] {
            let fitted = decode_at_most(&bytes, 4096, 4, srgb).unwrap().rgba;
            assert_eq!(fitted.dimensions(), (4, 2));
            assert!(
                fitted.pixels().all(|texel| texel.0 == [colour, colour, colour, 128]),
                "sRGB {srgb}: {fitted:?}"
            );
        }
    }

    /// Names the test that `fitting_holds_at_most_two_levels` runs in a process of its own.
    const MEASURE_FIT: &str = "RIGSCOPE_MEASURE_FIT";

    /// The side of the image whose fitting is measured: large enough that the test harness's
    /// own memory (about 0.6 MiB) is small beside a level.
    const MEASURED_SIDE: u32 = 4096;

    /// This process's peak resident memory since the last reset, in bytes (`VmHWM`).
    fn peak_resident() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM")).unwrap();
        let kilobytes: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kilobytes << 10
    }

    /// Fits a `MEASURED_SIDE`-square image to 16 texels and prints how far the peak resident
    /// memory rose; run by `fitting_holds_at_most_two_levels` alone in a process.
    #[test]
    fn fit_one_measured() {
        if std::env::var_os(MEASURE_FIT).is_none() {
            return;
        }
        let full = RgbaImage::from_fn(MEASURED_SIDE, MEASURED_SIDE, |x, y| {
            image::Rgba([x as u8, y as u8, 0, 255])
        });
        // Resident from here: the growth is what fitting holds beside the full image.
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
        let before = peak_resident();
        let fitted = mip_chain::fitted(full, 16, true);
        eprintln!("peak growth: {}", peak_resident() - before);
        assert_eq!(fitted.dimensions(), (16, 16));
    }

    #[test]
    fn fitting_holds_at_most_two_levels() {
        // Halving a 4096² image (64 MiB) to 16²: the level being made (16 MiB at most) beside
        // the one it is made from, which is then dropped. Holding every level would add a
        // third of the image (21.3 MiB); a copy in floats, four times the image.
        let run = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["asset::image_decode::tests::fit_one_measured", "--exact", "--nocapture"])
            .args(["--test-threads=1"])
            .env(MEASURE_FIT, "1")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{said}");
        let growth: usize = (said.lines())
            .find_map(|l| l.strip_prefix("peak growth: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no measure in {said}"));
        let full = 4 * (MEASURED_SIDE as usize).pow(2);
        assert!(
            growth * 10 <= full * 3,
            "fitting grew the peak by {growth} bytes beside an image of {full}"
        );
    }

    #[test]
    fn raw_ktx2_pixels_decode_in_any_channel_order_plain_or_inflated() {
        // B8G8R8_SRGB (36): blue first; the missing alpha is opaque.
        let decoded = decode(&raw_ktx2(36, (2, 1), &[1, 2, 3, 4, 5, 6], false, 6), 16).unwrap();
        assert_eq!(decoded.rgba.get_pixel(0, 0).0, [3, 2, 1, 255]);
        assert_eq!(decoded.rgba.get_pixel(1, 0).0, [6, 5, 4, 255]);
        assert_eq!(decoded.declared_srgb, Some(true));
        // R8G8_UNORM (16), Zstandard-supercompressed: blue 0, alpha 1 as a GPU samples it.
        let pixels = [10, 20, 30, 40, 50, 60, 70, 80];
        let packed = ruzstd::encoding::compress_to_vec(&pixels[..], ruzstd::encoding::CompressionLevel::Fastest);
        let decoded = decode(&raw_ktx2(16, (2, 2), &packed, true, 8), 16).unwrap();
        assert_eq!(decoded.rgba.get_pixel(1, 1).0, [70, 80, 0, 255]);
        assert_eq!(decoded.declared_srgb, Some(false));
        // Too little data, or a level that claims to unpack to more than the image holds.
        let short = decode(&raw_ktx2(37, (2, 2), &[0; 12], false, 12), 16).unwrap_err().0;
        assert!(short.contains("fewer than 2×2 pixels of 4 bytes"), "{short}");
        let liar = decode(&raw_ktx2(16, (2, 2), &packed, true, 1 << 30), 16).unwrap_err().0;
        assert!(liar.contains("unpacks to 1073741824 bytes"), "{liar}");
        // Block-compressed formats other than Basis are not read.
        let bc7 = decode(&raw_ktx2(145, (4, 4), &[0; 16], false, 16), 16).unwrap_err().0;
        assert!(bc7.contains("neither Basis Universal"), "{bc7}");
    }

    #[test]
    fn broken_data_is_an_error_not_a_panic() {
        assert!(decode(&[], 16).unwrap_err().0.contains("no data"));
        assert!(decode(b"RIFF\0\0\0\0WEBPVP8 garbage", 16).is_err());
        let mut ktx = b"\xABKTX 20\xBB\r\n\x1A\n".to_vec();
        ktx.extend([0xFF; 80]);
        assert!(decode(&ktx, 16).unwrap_err().0.contains("KTX2"));
    }
}
