//! Writing the pictures the commands make: in the format the file's extension names (PNG,
//! JPEG, TGA), without alpha where the format has none, and never as a partial file.

use std::path::Path;

use anyhow::{Context, anyhow};
use image::{DynamicImage, ImageFormat, RgbaImage};

/// Writes `image` to `path`. It is written beside `path` under a temporary name and renamed,
/// so a failure leaves no file (and an existing one as it was).
pub fn save(image: &RgbaImage, path: &Path) -> anyhow::Result<()> {
    let format = ImageFormat::from_path(path)
        .ok()
        // The formats the README promises (the `image` crate writes WebP too, for reading
        // EXT_texture_webp; the commands keep to these).
        .filter(|f| matches!(f, ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Tga))
        .ok_or_else(|| anyhow!("cannot write {}: give it a .png, .jpg or .tga name", path.display()))?;
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = Path::new(&partial);
    let written = if format == ImageFormat::Jpeg {
        DynamicImage::ImageRgba8(image.clone())
            .to_rgb8()
            .save_with_format(partial, format)
    } else {
        image.save_with_format(partial, format)
    };
    written
        .map_err(anyhow::Error::from)
        .and_then(|()| std::fs::rename(partial, path).map_err(anyhow::Error::from))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(partial);
        })
        .with_context(|| format!("cannot write {}", path.display()))
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
        for name in ["a.xyz", "a", "a.webp"] {
            let path = dir.join(name);
            assert!(save(&image, &path).is_err(), "{name}");
            assert!(
                !path.exists() && !dir.join(format!("{name}.partial")).exists(),
                "{name}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
