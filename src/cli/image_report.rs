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
            ImageReport {
                name: image.name.clone(),
                container,
                bytes: image.bytes.len(),
                width,
                height,
                decoded_to,
            }
        })
        .collect()
}

/// One line per image, then the variants.
pub fn write_text(images: &[ImageReport], variants: &[String], out: &mut dyn Write) -> std::io::Result<()> {
    for (index, image) in images.iter().enumerate() {
        writeln!(
            out,
            "  image {index} '{}': {}, {} bytes, {}",
            image.name, image.container, image.bytes, image.decoded_to
        )?;
    }
    if !variants.is_empty() {
        writeln!(out, "  material variants: {}", variants.join(", "))?;
    }
    Ok(())
}
