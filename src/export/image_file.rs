//! Writing the pictures the commands make: in the format the file's extension names (PNG,
//! JPEG, TGA; PNG to standard output), without alpha where the format has none, and never as
//! a partial file (`output`).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::tga::TgaEncoder;
use image::{DynamicImage, ImageFormat, RgbaImage};

use super::output;

/// Writes `image` to `path`, or as a PNG to standard output for `-`. A file is written beside
/// `path` under a temporary name and renamed, so a failure leaves no file (and an existing one
/// as it was).
pub fn save(image: &RgbaImage, path: &Path) -> anyhow::Result<()> {
    let format = match output::is_standard_output(path) {
        true => ImageFormat::Png,
        false => ImageFormat::from_path(path)
            .ok()
            // The formats the README promises (the `image` crate writes WebP too, for reading
            // EXT_texture_webp; the commands keep to these).
            .filter(|f| matches!(f, ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Tga))
            .ok_or_else(|| anyhow!("cannot write {}: give it a .png, .jpg or .tga name", path.display()))?,
    };
    let context = || format!("cannot write {}", output::describe(path));
    output::refuse_binary_on_terminal(path, "a PNG").with_context(context)?;
    let (mut writer, partial) = output::open(path).with_context(context)?;
    encode(image, format, &mut writer).with_context(context)?;
    output::finish(writer, partial).with_context(context)
}

/// Encodes `image` as `format` into `out`.
fn encode(image: &RgbaImage, format: ImageFormat, out: &mut dyn Write) -> image::ImageResult<()> {
    match format {
        ImageFormat::Jpeg => DynamicImage::ImageRgba8(image.clone())
            .to_rgb8()
            .write_with_encoder(JpegEncoder::new(out)),
        ImageFormat::Tga => image.write_with_encoder(TgaEncoder::new(out)),
        _ => image.write_with_encoder(PngEncoder::new(out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jpeg_drops_alpha_and_bad_names_leave_no_file() {
        let dir = std::env::temp_dir().join(format!("rigscope-image-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let image = RgbaImage::from_pixel(4, 2, image::Rgba([200, 10, 10, 128]));
        for name in ["a.png", "a.jpg", "a.jpeg", "a.tga"] {
            let path = dir.join(name);
            save(&image, &path).unwrap();
            assert_eq!(image::open(&path).unwrap().to_rgba8().dimensions(), (4, 2), "{name}");
        }
        let jpeg = image::open(dir.join("a.jpg")).unwrap();
        assert!(!jpeg.color().has_alpha());
        for name in ["a.xyz", "a", "a.webp"] {
            let path = dir.join(name);
            assert!(save(&image, &path).is_err(), "{name}");
            assert!(!path.exists(), "{name}");
        }
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["a.jpeg", "a.jpg", "a.png", "a.tga"], "no temporary left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
