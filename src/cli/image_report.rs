//! What `inspect` says about a model's images (each one's container, size and what it decodes
//! to) and its material variants: a compressed or WebP texture is checked by decoding it.

use std::io::Write;

use serde::Serialize;

use crate::asset::Model;
use crate::asset::image_decode::{self, ImageContainer};

/// The longest side an image is decoded at for the report (the renderer's limit is the GPU's).
const MAX_SIDE: u32 = 16384;

#[derive(Serialize)]
pub struct ImageReport {
    pub name: String,
    /// PNG, JPEG, WebP, KTX2/Basis ETC1S, KTX2/Basis UASTC, ...
    pub container: String,
    /// Bytes in the file.
    pub bytes: usize,
    /// Pixels, when it decodes.
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// What it decodes to ("RGBA8 64×64, transcoded from UASTC"), or why it does not.
    pub decoded_to: String,
    /// Whether a GPU that samples BC formats receives it as BC7 (a KTX2/Basis image with its whole
    /// mip chain) instead of `decoded_to`'s RGBA8; CPU rasterisers always take the RGBA8.
    pub bc7_on_gpus: bool,
}

pub fn image_reports(model: &Model) -> Vec<ImageReport> {
    model
        .images
        .iter()
        .map(|image| {
            let container = ImageContainer::detect(&image.bytes).to_string();
            let (width, height, decoded_to) = match image_decode::decode(&image.bytes, MAX_SIDE) {
                Ok(decoded) => (
                    Some(decoded.rgba.width()),
                    Some(decoded.rgba.height()),
                    decoded.decoded_to(),
                ),
                Err(why) => (None, None, format!("not decoded: {why}")),
            };
            let bc7_on_gpus = matches!(image_decode::Bc7Levels::of(&image.bytes, MAX_SIDE, u32::MAX), Ok(Some(_)));
            ImageReport {
                name: image.name.clone(),
                container,
                bytes: image.bytes.len(),
                width,
                height,
                decoded_to,
                bc7_on_gpus,
            }
        })
        .collect()
}

/// One line per image, then the variants.
pub fn write_text(images: &[ImageReport], variants: &[String], out: &mut dyn Write) -> std::io::Result<()> {
    for (index, image) in images.iter().enumerate() {
        let on_gpus = if image.bc7_on_gpus { " (BC7 on a GPU that samples BC formats)" } else { "" };
        writeln!(
            out,
            "  image {index} '{}': {}, {} bytes, {}{on_gpus}",
            image.name, image.container, image.bytes, image.decoded_to
        )?;
    }
    if !variants.is_empty() {
        writeln!(out, "  material variants: {}", variants.join(", "))?;
    }
    Ok(())
}
