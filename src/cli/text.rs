//! Text drawn into images (contact sheet labels), with the Ubuntu Light font egui ships.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::{Rgba, RgbaImage};

pub struct TextPainter {
    font: FontRef<'static>,
}

impl TextPainter {
    pub fn new() -> Self {
        // The font is compiled in and known to parse.
        let font = FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).expect("egui's bundled font parses");
        Self { font }
    }

    /// Width in pixels of `text` at `size` pixels.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let font = self.font.as_scaled(PxScale::from(size));
        text.chars().map(|c| font.h_advance(font.glyph_id(c))).sum()
    }

    /// Draws `text` with its top-left corner at (x, y), `size` pixels high, blended over the
    /// image; clipped to the image and to `max_width` pixels.
    pub fn draw(
        &self,
        image: &mut RgbaImage,
        text: &str,
        (x, y): (f32, f32),
        size: f32,
        max_width: f32,
        color: [u8; 3],
    ) {
        let font = self.font.as_scaled(PxScale::from(size));
        let mut caret = x;
        for c in text.chars() {
            let id = font.glyph_id(c);
            let advance = font.h_advance(id);
            if caret + advance > x + max_width {
                break;
            }
            let glyph = id.with_scale_and_position(size, point(caret, y + font.ascent()));
            caret += advance;
            let Some(outlined) = self.font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let (px, py) = (bounds.min.x as i64 + gx as i64, bounds.min.y as i64 + gy as i64);
                if px < 0 || py < 0 || px >= image.width() as i64 || py >= image.height() as i64 {
                    return;
                }
                let pixel = image.get_pixel_mut(px as u32, py as u32);
                let alpha = coverage.clamp(0.0, 1.0);
                for channel in 0..3 {
                    let under = pixel[channel] as f32;
                    pixel[channel] = (under + (color[channel] as f32 - under) * alpha).round() as u8;
                }
                pixel[3] = 255;
            });
        }
    }
}

/// An opaque image filled with one colour.
pub fn filled(width: u32, height: u32, color: [u8; 3]) -> RgbaImage {
    RgbaImage::from_pixel(width, height, Rgba([color[0], color[1], color[2], 255]))
}
