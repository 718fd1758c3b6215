//! Decoding a model's images to RGBA8, whatever container they come in: PNG, JPEG and WebP
//! (EXT_texture_webp) through the `image` crate, and KTX2 with Basis Universal
//! supercompression (KHR_texture_basisu, ETC1S or UASTC) transcoded to RGBA8 by `basisu`.
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
use ktx2::{ColorModel, SupercompressionScheme, TransferFunction};

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

/// Decodes `bytes` to RGBA8. `max_side` bounds the sides of a KTX2 image before it is
/// transcoded (the other decoders bound their own allocations).
pub fn decode(bytes: &[u8], max_side: u32) -> Result<DecodedImage, ImageDecodeError> {
    decode_or_say_why(bytes, max_side).map_err(ImageDecodeError)
}

fn decode_or_say_why(bytes: &[u8], max_side: u32) -> Result<DecodedImage, String> {
    if bytes.is_empty() {
        return Err("the image has no data".into());
    }
    match ImageContainer::detect(bytes) {
        ImageContainer::Ktx2(codec) => decode_ktx2(bytes, codec, max_side),
        container => {
            let image = image::load_from_memory(bytes).map_err(|e| match container {
                ImageContainer::Other => format!("its format is not one rigscope reads ({e})"),
                _ => format!("its {container} data cannot be decoded ({e})"),
            })?;
            Ok(DecodedImage {
                rgba: image.to_rgba8(),
                container,
                declared_srgb: None,
            })
        }
    }
}

/// The Basis codec of a KTX2 file, from its data format descriptor's colour model.
fn basis_codec(reader: &ktx2::Reader<&[u8]>) -> Option<BasisCodec> {
    match reader.color_model() {
        Some(ColorModel::ETC1S) => Some(BasisCodec::Etc1s),
        Some(ColorModel::UASTC) => Some(BasisCodec::Uastc),
        _ => None,
    }
}

/// Transcodes level 0 of a Basis KTX2 image to RGBA8.
fn decode_ktx2(bytes: &[u8], codec: Option<BasisCodec>, max_side: u32) -> Result<DecodedImage, String> {
    let reader = ktx2::Reader::new(bytes).map_err(|e| format!("its KTX2 container cannot be read ({e})"))?;
    let Some(codec) = codec else {
        return Err(format!(
            "it is a KTX2 image of format {:?}, not Basis Universal (ETC1S or UASTC)",
            reader.header().format
        ));
    };
    let header = reader.header();
    let scheme = header.supercompression_scheme;
    let expected = match codec {
        BasisCodec::Etc1s => matches!(scheme, Some(SupercompressionScheme::BasisLZ)),
        BasisCodec::Uastc => matches!(scheme, None | Some(SupercompressionScheme::Zstandard)),
    };
    if !expected {
        return Err(format!(
            "its {codec:?} data has supercompression {scheme:?}, which Basis does not use"
        ));
    }
    let (width, height) = (header.pixel_width, header.pixel_height.max(1));
    if width > max_side || height > max_side {
        return Err(format!(
            "it is {width}×{height}, larger than this GPU's {max_side}-texel limit"
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
    // The transcoder allocates each Zstandard level's stated unpacked size before inflating it:
    // no level of one 2D image unpacks to more than 16 bytes per 4×4 block of level 0.
    let largest_level = 16 * u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4));
    if let Some(level) = reader.levels().find(|l| l.uncompressed_byte_length > largest_level) {
        return Err(format!(
            "a level claims to unpack to {} bytes, more than a {width}×{height} image needs",
            level.uncompressed_byte_length
        ));
    }
    let transcoder = basisu::Transcoder::new(bytes).map_err(|e| format!("Basis Universal cannot read it ({e:?})"))?;
    let data = transcoder
        .transcode(0, basisu::TargetFormat::Rgba32, basisu::DecodeFlags::NONE)
        .map_err(|e| format!("Basis Universal cannot transcode it ({e:?})"))?;
    let (width, height) = transcoder.base_dimensions();
    let rgba = RgbaImage::from_raw(width, height, data)
        .ok_or_else(|| format!("the transcoder returned the wrong amount of data for {width}×{height}"))?;
    Ok(DecodedImage {
        rgba,
        container: ImageContainer::Ktx2(Some(codec)),
        declared_srgb: match reader.transfer_function() {
            Some(TransferFunction::SRGB) => Some(true),
            Some(TransferFunction::Linear) => Some(false),
            _ => None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        let image = RgbaImage::from_pixel(width, height, image::Rgba([10, 20, 30, 255]));
        image
            .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes
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

    #[test]
    fn broken_data_is_an_error_not_a_panic() {
        assert!(decode(&[], 16).unwrap_err().0.contains("no data"));
        assert!(decode(b"RIFF\0\0\0\0WEBPVP8 garbage", 16).is_err());
        let mut ktx = b"\xABKTX 20\xBB\r\n\x1A\n".to_vec();
        ktx.extend([0xFF; 80]);
        assert!(decode(&ktx, 16).unwrap_err().0.contains("KTX2"));
    }
}
