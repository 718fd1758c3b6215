//! A texture's mip levels made as OpenGL's `glGenerateMipmap` makes them under three.js
//! (ANGLE blits each level from the one above with a linear filter): each texel of the next
//! level reads the previous level bilinearly at its own centre, so that halving an even side
//! averages each pair of texels with equal weights (a 2×2 box) and an odd side leans on the
//! texels nearest the centre. sRGB levels are averaged in linear light and encoded back, as
//! the device does for an `sRGB8_ALPHA8` texture; alpha and data textures are averaged as
//! stored. Each level is made from the one above it, rounded to bytes, as the device stores it.
//!
//! A texture decoded for a picture smaller than itself (`image_decode::decode_at_most`) is
//! shrunk by the same halvings (`fitted`): it is the level of its size that the full texture's
//! chain would have had, and the levels the GPU then makes below it are the same too.

use std::sync::LazyLock;

use image::{RgbImage, RgbaImage};

/// Each byte of an sRGB texel in linear light.
static SRGB_TO_LINEAR: LazyLock<[f32; 256]> = LazyLock::new(|| std::array::from_fn(|code| decode_srgb(code as f32)));

/// Each byte of a texel stored as it is filtered (alpha, data), over 255.
static UNORM_TO_LINEAR: LazyLock<[f32; 256]> = LazyLock::new(|| std::array::from_fn(|code| code as f32 / 255.0));

/// The linear values halfway (in encoded levels) between consecutive sRGB bytes: a linear
/// value's byte is the number of these at or below it, the byte nearest its encoding.
static SRGB_ROUNDING_EDGES: LazyLock<[f32; 255]> =
    LazyLock::new(|| std::array::from_fn(|code| decode_srgb(code as f32 + 0.5)));

/// An sRGB-encoded level (0-255, fractions allowed) in linear light (0-1).
fn decode_srgb(level: f32) -> f32 {
    let encoded = level / 255.0;
    if encoded <= 0.04045 {
        encoded / 12.92
    } else {
        ((encoded + 0.055) / 1.055).powf(2.4)
    }
}

/// `image` and each level below it down to 1×1, in order: the mip chain a texture of
/// `image`'s size holds. Each level is made as the one before it is handed out, so at most
/// two are held.
pub fn levels(image: RgbaImage, srgb: bool) -> impl Iterator<Item = RgbaImage> {
    std::iter::successors(Some(image), move |level| {
        (level.width() > 1 || level.height() > 1).then(|| next_level(level, srgb))
    })
}

/// `image`'s mip level whose sides are both at most `side` (at least 1): `image` itself when it
/// fits, else the level `levels` would reach by halving it that many times. Only the level
/// being halved and the one made from it are held at once.
pub fn fitted(image: RgbaImage, side: u32, srgb: bool) -> RgbaImage {
    let side = side.max(1);
    let mut level = image;
    while level.width() > side || level.height() > side {
        level = next_level(&level, srgb);
    }
    level
}

/// The level below `image` made opaque (each texel's alpha 255, as widening it to RGBA8 makes
/// it), where both its sides are even: the bytes `next_level` gives of the opaque image, made
/// from the three channels straight, without the opaque copy (4 MiB for a 1024² JPEG) or its
/// alpha averaged. None where a side is odd: widen it and take `fitted`.
pub fn halved_opaque(image: &RgbImage, srgb: bool) -> Option<RgbaImage> {
    let size = image.dimensions();
    let even = size.0.is_multiple_of(2) && size.1.is_multiple_of(2);
    even.then(|| match srgb {
        true => halved::<true, 3>(image.as_raw(), size),
        false => halved::<false, 3>(image.as_raw(), size),
    })
}

/// The level below `level`: each side halved (rounded down, at least 1), each texel `level`
/// read bilinearly at its centre, colour in linear light when `srgb` (`filtered`). Even sides
/// (every level of a square power-of-two texture but the last) take `halved`, which gives the
/// same bytes several times faster.
fn next_level(level: &RgbaImage, srgb: bool) -> RgbaImage {
    let even = level.width().is_multiple_of(2) && level.height().is_multiple_of(2);
    let size = level.dimensions();
    match (even, srgb) {
        (true, true) => halved::<true, 4>(level.as_raw(), size),
        (true, false) => halved::<false, 4>(level.as_raw(), size),
        (false, _) => filtered(level, srgb),
    }
}

/// `next_level` of any level, through the taps of each side. Made a row at a time (two rows of
/// the level above filtered across, then mixed down), so a large texture holds no copy of
/// itself in floats.
fn filtered(level: &RgbaImage, srgb: bool) -> RgbaImage {
    let (width, height) = level.dimensions();
    let (next_width, next_height) = ((width / 2).max(1), (height / 2).max(1));
    let to_linear: [&[f32; 256]; 4] = if srgb {
        [&SRGB_TO_LINEAR, &SRGB_TO_LINEAR, &SRGB_TO_LINEAR, &UNORM_TO_LINEAR]
    } else {
        [&UNORM_TO_LINEAR; 4]
    };
    let columns = taps(width, next_width);
    let encoding = SrgbEncoding::tables();
    let row_bytes = 4 * width as usize;
    let row = |y: usize| &level.as_raw()[y * row_bytes..][..row_bytes];
    let mut above = vec![0.0f32; 4 * columns.len()];
    let mut below = vec![0.0f32; 4 * columns.len()];
    let mut next = RgbaImage::new(next_width, next_height);
    let next_rows = next.chunks_exact_mut(4 * next_width as usize);
    for (next_row, row_tap) in next_rows.zip(taps(height, next_height)) {
        filter_across(row(row_tap.first), &columns, to_linear, &mut above);
        filter_across(row(row_tap.second), &columns, to_linear, &mut below);
        for (index, (byte, (above, below))) in next_row.iter_mut().zip(above.iter().zip(&below)).enumerate() {
            let value = row_tap.mix(*above, *below);
            *byte = if srgb && index % 4 < 3 {
                encoding.byte(value)
            } else {
                unorm_byte(value)
            };
        }
    }
    next
}

/// `next_level` of a level whose sides are both even, `level` holding its texels in `TEXEL`
/// bytes (4: RGBA; 3: RGB, read as opaque): each texel the 2×2 box above it, mixed across and
/// then down with the weight of one half that `taps` gives there, in the same order, so the
/// bytes are `filtered`'s; without the taps, the rows of floats and the per-byte choice of
/// colour space (`SRGB` picks it once for the whole level). Four opaque texels make an opaque
/// one without their alphas averaged (the box of four 1.0s is 1.0, byte 255 again).
fn halved<const SRGB: bool, const TEXEL: usize>(level: &[u8], (width, height): (u32, u32)) -> RgbaImage {
    let mut next = RgbaImage::new(width / 2, height / 2);
    let colour_to_linear: &[f32; 256] = if SRGB { &SRGB_TO_LINEAR } else { &UNORM_TO_LINEAR };
    let alpha_to_linear: &[f32; 256] = &UNORM_TO_LINEAR;
    let encoding = SrgbEncoding::tables();
    let row_bytes = TEXEL * width as usize;
    let level_rows = level.chunks_exact(2 * row_bytes);
    for (next_row, rows) in next.chunks_exact_mut(2 * width as usize).zip(level_rows) {
        let (top, bottom) = rows.split_at(row_bytes);
        let pairs = top.chunks_exact(2 * TEXEL).zip(bottom.chunks_exact(2 * TEXEL));
        for (texel, (top, bottom)) in next_row.chunks_exact_mut(4).zip(pairs) {
            let boxed = |to_linear: &[f32; 256], channel: usize| {
                let across = |pair: &[u8]| {
                    HALF.mix(
                        to_linear[usize::from(pair[channel])],
                        to_linear[usize::from(pair[TEXEL + channel])],
                    )
                };
                HALF.mix(across(top), across(bottom))
            };
            for channel in 0..3 {
                let value = boxed(colour_to_linear, channel);
                texel[channel] = if SRGB { encoding.byte(value) } else { unorm_byte(value) };
            }
            let opaque = TEXEL == 3 || [top[3], top[TEXEL + 3], bottom[3], bottom[TEXEL + 3]] == [u8::MAX; 4];
            texel[3] = if opaque {
                u8::MAX
            } else {
                unorm_byte(boxed(alpha_to_linear, 3))
            };
        }
    }
    next
}

/// A row of texels (RGBA bytes) shrunk across by `columns` into `out` (RGBA values), each
/// channel read through its table of `to_linear`.
fn filter_across(row: &[u8], columns: &[Tap], to_linear: [&[f32; 256]; 4], out: &mut [f32]) {
    for (value, tap) in out.chunks_exact_mut(4).zip(columns) {
        let first = &row[4 * tap.first..][..4];
        let second = &row[4 * tap.second..][..4];
        for (((value, table), &first), &second) in value.iter_mut().zip(to_linear).zip(first).zip(second) {
            *value = tap.mix(table[usize::from(first)], table[usize::from(second)]);
        }
    }
}

/// The tap of a texel of an even side halved (texel i of the next level reads 2i and 2i + 1):
/// only its weight is read.
const HALF: Tap = Tap {
    first: 0,
    second: 1,
    second_weight: 0.5,
};

/// One texel of the next level along one side: the two texels of the level above it reads
/// and the weight of the second.
struct Tap {
    first: usize,
    second: usize,
    second_weight: f32,
}

impl Tap {
    /// A channel of the two texels this tap reads, weighted.
    fn mix(&self, first: f32, second: f32) -> f32 {
        first + (second - first) * self.second_weight
    }
}

/// The taps of a side of `length` texels shrunk to `next_length`: texel i's centre mapped into
/// the level above, read between its two nearest texel centres (clamped to the edge).
fn taps(length: u32, next_length: u32) -> Vec<Tap> {
    let scale = length as f32 / next_length as f32;
    (0..next_length)
        .map(|i| {
            let centre = (i as f32 + 0.5) * scale - 0.5;
            let below = centre.floor();
            let last = length as usize - 1;
            Tap {
                first: (below.max(0.0) as usize).min(last),
                second: ((below + 1.0).max(0.0) as usize).min(last),
                second_weight: centre - below,
            }
        })
        .collect()
}

/// How finely `SRGB_BYTE_FLOOR` divides linear light: finer than the closest two rounding
/// edges (near black, 3e-4 apart), so no step holds more than one edge and a value's byte is
/// its step's or the next.
const FLOOR_STEPS: usize = 4096;

/// For each step `s` of `FLOOR_STEPS`, the sRGB byte of the linear value `s / FLOOR_STEPS`: no
/// more than the byte of any value in the step, where `SrgbEncoding::byte` starts counting.
static SRGB_BYTE_FLOOR: LazyLock<[u8; FLOOR_STEPS + 1]> = LazyLock::new(|| {
    std::array::from_fn(|step| {
        let value = step as f32 / FLOOR_STEPS as f32;
        SRGB_ROUNDING_EDGES.partition_point(|&edge| edge <= value) as u8
    })
});

/// `SRGB_ROUNDING_EDGES` and after them one that no value reaches (not a number compares
/// false), so that the edge above byte 255 is read without a check.
static SRGB_EDGES_AND_NONE: LazyLock<[f32; 256]> =
    LazyLock::new(|| std::array::from_fn(|code| SRGB_ROUNDING_EDGES.get(code).copied().unwrap_or(f32::NAN)));

/// The tables a linear value's sRGB byte is found with, looked up once a level (a `LazyLock`
/// checks that it is made on every read).
#[derive(Clone, Copy)]
struct SrgbEncoding {
    edges: &'static [f32; 256],
    floor: &'static [u8; FLOOR_STEPS + 1],
}

impl SrgbEncoding {
    fn tables() -> Self {
        Self {
            edges: &SRGB_EDGES_AND_NONE,
            floor: &SRGB_BYTE_FLOOR,
        }
    }

    /// A linear value's sRGB byte (the nearest): the number of `SRGB_ROUNDING_EDGES` at or
    /// below it, counted on from the byte of the step it falls in by one comparison without a
    /// branch (the step holds at most one edge), where a search of all 255 takes eight that
    /// the processor cannot foresee. Below 0 or not a number, 0; above 1, 255.
    fn byte(self, value: f32) -> u8 {
        // Exact: a power of two scales without rounding, so the step's start is at or below
        // `value` and the next step's above it; a cast saturates (below 0 and not a number
        // give 0). To `i32` rather than `usize`: one instruction on x86-64.
        let step = ((value * FLOOR_STEPS as f32) as i32).clamp(0, FLOOR_STEPS as i32) as usize;
        let byte = self.floor[step];
        byte + u8::from(self.edges[usize::from(byte)] <= value)
    }
}

/// A value stored as it is filtered (0-1), as the nearest byte: `(value * 255).round()`,
/// clamped to 0-255 (not a number gives 0), without `round`, which is a call into the maths
/// library on the baseline x86-64 target. Each whole byte and its fraction are exact in `f32`.
fn unorm_byte(value: f32) -> u8 {
    let scaled = (value * 255.0).clamp(0.0, 255.0);
    let whole = scaled as u8;
    whole + u8::from(scaled - f32::from(whole) >= 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×2 image whose columns alternate black and white (a one-texel checkerboard across).
    fn stripes(alpha: u8) -> RgbaImage {
        RgbaImage::from_fn(4, 2, |x, _| {
            let level = if x % 2 == 0 { 0 } else { 255 };
            image::Rgba([level, level, level, alpha])
        })
    }

    #[test]
    fn an_srgb_checkerboard_averages_to_half_the_light() {
        // Black and white in equal parts are 0.5 in linear light: byte 188 in sRGB (0.5 encodes
        // to 187.5), where averaging the stored bytes would give 128, far darker.
        let next = next_level(&stripes(255), true);
        assert_eq!(next.dimensions(), (2, 1));
        assert!(next.pixels().all(|texel| texel.0 == [188, 188, 188, 255]), "{next:?}");
    }

    #[test]
    fn a_linear_checkerboard_averages_the_stored_values_and_alpha_is_never_srgb() {
        let next = next_level(&stripes(255), false);
        assert!(next.pixels().all(|texel| texel.0 == [128, 128, 128, 255]), "{next:?}");
        // Alpha alternating 0 and 255 averages to 128 in an sRGB texture too.
        let alpha = RgbaImage::from_fn(2, 2, |x, _| image::Rgba([255, 255, 255, if x == 0 { 0 } else { 255 }]));
        assert_eq!(next_level(&alpha, true).get_pixel(0, 0).0, [255, 255, 255, 128]);
    }

    #[test]
    fn an_edge_stays_sharp_each_texel_averaging_only_the_two_above_it() {
        // A step between columns 3 and 4 of an 8-wide row: a 2×2 box keeps it a step at 1|2 of
        // the next level; a wider filter (image's Triangle reads 4 texels) would smear it over
        // columns 1 and 2.
        let edge = RgbaImage::from_fn(8, 2, |x, _| {
            let level = if x < 4 { 40 } else { 220 };
            image::Rgba([level, level, level, 255])
        });
        let next = next_level(&edge, false);
        let row: Vec<u8> = (0..4).map(|x| next.get_pixel(x, 0).0[0]).collect();
        assert_eq!(row, [40, 40, 220, 220]);
        // Shifted by one texel, the step falls inside a pair: that texel is their mean, the
        // others untouched.
        let edge = RgbaImage::from_fn(8, 2, |x, _| {
            let level = if x < 3 { 40 } else { 220 };
            image::Rgba([level, level, level, 255])
        });
        let next = next_level(&edge, false);
        let row: Vec<u8> = (0..4).map(|x| next.get_pixel(x, 0).0[0]).collect();
        assert_eq!(row, [40, 130, 220, 220]);
    }

    #[test]
    fn an_odd_side_reads_between_the_texels_nearest_each_centre_and_a_side_of_one_stays_one() {
        // 3 texels to 1: its centre falls on the middle texel.
        let odd = RgbaImage::from_fn(3, 1, |x, _| image::Rgba([[0, 90, 255][x as usize], 0, 0, 255]));
        let next = next_level(&odd, false);
        assert_eq!(next.dimensions(), (1, 1));
        assert_eq!(next.get_pixel(0, 0).0, [90, 0, 0, 255]);
        // A palette one texel high keeps its one row.
        let palette = RgbaImage::from_fn(4, 1, |x, _| image::Rgba([[10, 30, 100, 200][x as usize], 0, 0, 255]));
        let next = next_level(&palette, false);
        assert_eq!(next.dimensions(), (2, 1));
        assert_eq!([next.get_pixel(0, 0).0[0], next.get_pixel(1, 0).0[0]], [20, 150]);
    }

    #[test]
    fn a_chain_runs_down_to_one_texel_each_level_the_box_of_the_one_above() {
        let chain: Vec<RgbaImage> = levels(stripes(255), true).collect();
        let sizes: Vec<(u32, u32)> = chain.iter().map(RgbaImage::dimensions).collect();
        assert_eq!(sizes, [(4, 2), (2, 1), (1, 1)]);
        // Half the light all the way down: 188 is 0.502 in linear light, and stays 188.
        assert_eq!(chain[1].get_pixel(1, 0).0, [188, 188, 188, 255]);
        assert_eq!(chain[2].get_pixel(0, 0).0, [188, 188, 188, 255]);
    }

    #[test]
    fn halving_even_sides_gives_the_bytes_the_taps_give() {
        // Noise over every byte, so that values fall on every side of the rounding edges.
        let mut state = 0x2545_f491_u32;
        let mut noise = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        };
        // The left half opaque (its alphas not averaged), the right half's alpha noise too.
        let image = RgbaImage::from_fn(64, 32, |x, _| {
            let alpha = if x < 32 { u8::MAX } else { noise() };
            image::Rgba([noise(), noise(), noise(), alpha])
        });
        let size = image.dimensions();
        assert!(halved::<true, 4>(&image, size) == filtered(&image, true));
        assert!(halved::<false, 4>(&image, size) == filtered(&image, false));
        // Down the whole chain, as `levels` takes it.
        let chain: Vec<RgbaImage> = levels(image.clone(), true).collect();
        assert_eq!(chain.len(), 7);
        for pair in chain.windows(2) {
            assert!(pair[1] == filtered(&pair[0], true), "{:?}", pair[1].dimensions());
        }
        // Three channels halved straight give the bytes of the image widened to opaque RGBA.
        let rgb = image::DynamicImage::ImageRgba8(image).into_rgb8();
        let opaque = image::DynamicImage::ImageRgb8(rgb.clone()).into_rgba8();
        for srgb in [false, true] {
            assert!(
                halved_opaque(&rgb, srgb) == Some(filtered(&opaque, srgb)),
                "sRGB {srgb}"
            );
        }
        // An odd side is left to `filtered`, through the widened image.
        let odd = image::RgbImage::from_pixel(6, 3, image::Rgb([1, 2, 3]));
        assert_eq!(halved_opaque(&odd, true), None);
    }

    #[test]
    fn no_floor_step_holds_two_srgb_edges() {
        // What lets `SrgbEncoding::byte` count on by one comparison: consecutive edges lie
        // more than a step apart (the closest, near black, 1.24 steps).
        let step = 1.0 / FLOOR_STEPS as f32;
        let closest = (SRGB_ROUNDING_EDGES.windows(2).map(|pair| pair[1] - pair[0])).fold(f32::MAX, f32::min);
        assert!(closest > step, "{closest:e} apart, steps of {step:e}");
    }

    #[test]
    fn bytes_are_those_of_rounding_and_of_a_search_of_the_edges() {
        // Either side of each sRGB edge, each step of the floor table and each half-way point
        // between unorm bytes, a few values apart, and outside 0-1.
        let near =
            |value: f32| (-3..=3).map(move |ulps: i32| f32::from_bits(value.to_bits().wrapping_add_signed(ulps)));
        let edges = SRGB_ROUNDING_EDGES.iter().copied();
        let steps = (0..=FLOOR_STEPS).map(|step| step as f32 / FLOOR_STEPS as f32);
        let halves = (0..=255).map(|byte| (byte as f32 + 0.5) / 255.0);
        let outside = [-1.0, -0.0, 1.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        let values = (edges.chain(steps).chain(halves).flat_map(near)).chain(outside);
        for value in values.filter(|v| v.abs() < 2.0 || !v.is_finite()) {
            let searched = SRGB_ROUNDING_EDGES.partition_point(|&edge| edge <= value) as u8;
            assert_eq!(SrgbEncoding::tables().byte(value), searched, "{value:e}");
            let rounded = (value * 255.0).round().clamp(0.0, 255.0) as u8;
            assert_eq!(unorm_byte(value), rounded, "{value:e}");
        }
    }

    #[test]
    fn srgb_bytes_survive_a_level_of_one_colour_unchanged() {
        // Decoding and encoding back gives every byte again: a flat colour does not drift.
        for code in 0..=255u8 {
            let flat = RgbaImage::from_pixel(2, 2, image::Rgba([code, code, code, code]));
            assert_eq!(next_level(&flat, true).get_pixel(0, 0).0, [code; 4]);
        }
    }
}
