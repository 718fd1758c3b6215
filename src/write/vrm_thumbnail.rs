//! A VRM avatar's thumbnail, written as an image of its own (VRM 1.0's `meta.thumbnailImage`,
//! 0.x's `meta.texture`).

use super::document::{Document, Usage};
use crate::asset::Model;
use crate::asset::image_decode::ImageContainer;

/// Writes image `image` of `model` (the avatar's thumbnail) as an image of its own; None, with
/// a warning, where it has no bytes or is neither PNG nor JPEG (what VRM's thumbnails are).
pub fn thumbnail_image(
    document: &mut Document,
    model: &Model,
    image: usize,
) -> Option<gltf_json::Index<gltf_json::Image>> {
    let image = model.images.get(image)?;
    let mime_type = match ImageContainer::detect(&image.bytes) {
        ImageContainer::Png => "image/png",
        ImageContainer::Jpeg => "image/jpeg",
        _ => {
            document.warn(format!(
                "VRM thumbnail '{}' is not a PNG or JPEG image (left out)",
                image.name
            ));
            return None;
        }
    };
    let view = document.view(&image.bytes, Usage::Other);
    Some(document.root.push(gltf_json::Image {
        buffer_view: Some(view),
        mime_type: Some(gltf_json::image::MimeType(mime_type.into())),
        name: Some(image.name.clone()),
        uri: None,
        extensions: None,
        extras: None,
    }))
}
