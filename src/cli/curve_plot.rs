//! The curve view drawn into an image without egui, for `rigscope curves --format png`: a
//! title, then one plot per curve group (translation, Euler rotation, quaternion, scale, morph
//! weights) stacked down the image, each with its value axis, the time axis in seconds, a
//! legend naming its curves in their colours, the keys as dots and problems as red rings
//! with a red line at their time; the problems are listed under the plots.

use anyhow::bail;
use image::{Rgba, RgbaImage};

use super::text::{TextPainter, filled};
use crate::inspect::{CurveGroup, CurveSet};

const BACKGROUND: [u8; 3] = [24, 26, 30];
const PLOT_BACKGROUND: [u8; 3] = [32, 35, 40];
const GRID: [u8; 3] = [58, 62, 70];
const AXIS_TEXT: [u8; 3] = [170, 175, 185];
const TITLE: [u8; 3] = [235, 235, 235];
const PROBLEM: [u8; 3] = [255, 40, 40];
/// Room left of each plot for the value labels, and around the plots.
const LEFT: f32 = 70.0;
const MARGIN: f32 = 10.0;
/// Font sizes of the title, the group labels and the axes.
const TITLE_SIZE: f32 = 18.0;
const LABEL_SIZE: f32 = 14.0;
const AXIS_SIZE: f32 = 11.0;
/// The most problems listed under the plots (the rest are counted).
const LISTED_PROBLEMS: usize = 6;
/// The smallest image the plot fits in.
const MIN_SIZE: (u32, u32) = (320, 200);

/// Draws `set` into a `width`×`height` image under `title`.
pub fn plot(set: &CurveSet, title: &str, (width, height): (u32, u32)) -> anyhow::Result<RgbaImage> {
    if width < MIN_SIZE.0 || height < MIN_SIZE.1 {
        bail!(
            "a curve plot needs at least {}x{} pixels (asked for {width}x{height})",
            MIN_SIZE.0,
            MIN_SIZE.1
        );
    }
    let text = TextPainter::new();
    let mut image = filled(width, height, BACKGROUND);
    text.draw(
        &mut image,
        title,
        (MARGIN, 6.0),
        TITLE_SIZE,
        width as f32 - 2.0 * MARGIN,
        TITLE,
    );
    let listed = set.problems.len().min(LISTED_PROBLEMS) + usize::from(set.problems.len() > LISTED_PROBLEMS);
    let list_height = listed as f32 * (AXIS_SIZE + 4.0) + if listed > 0 { MARGIN } else { 0.0 };
    let top = TITLE_SIZE + 14.0;
    let bottom = height as f32 - list_height - AXIS_SIZE - 8.0;
    let groups: Vec<CurveGroup> = CurveGroup::ALL.into_iter().filter(|&g| set.has_group(g)).collect();
    if groups.is_empty() {
        text.draw(
            &mut image,
            "(the clip does not animate this joint)",
            (LEFT, top + 20.0),
            LABEL_SIZE,
            width as f32,
            AXIS_TEXT,
        );
        return Ok(image);
    }
    let band = (bottom - top) / groups.len() as f32;
    for (index, &group) in groups.iter().enumerate() {
        let rect = Frame {
            left: LEFT,
            right: width as f32 - MARGIN,
            top: top + index as f32 * band + LABEL_SIZE + 6.0,
            bottom: top + (index + 1) as f32 * band - 6.0,
        };
        draw_group(&mut image, &text, set, group, &rect);
    }
    draw_time_axis(&mut image, &text, set.duration, LEFT, width as f32 - MARGIN, bottom);
    let mut y = height as f32 - list_height;
    for problem in set.problems.iter().take(LISTED_PROBLEMS) {
        let line = format!(
            "{} at {:.3} s on {}: {}",
            problem.kind.label(),
            problem.time,
            problem.curve,
            problem.message
        );
        text.draw(
            &mut image,
            &line,
            (MARGIN, y),
            AXIS_SIZE,
            width as f32 - 2.0 * MARGIN,
            PROBLEM,
        );
        y += AXIS_SIZE + 4.0;
    }
    if set.problems.len() > LISTED_PROBLEMS {
        let more = format!("and {} more problems", set.problems.len() - LISTED_PROBLEMS);
        text.draw(&mut image, &more, (MARGIN, y), AXIS_SIZE, width as f32, PROBLEM);
    }
    Ok(image)
}

/// A plot's area in pixels, and the value range it shows.
struct Frame {
    left: f32,
    right: f32,
    top: f32,
    bottom: f32,
}

impl Frame {
    fn x(&self, time: f32, duration: f32) -> f32 {
        let fraction = if duration > 0.0 { time / duration } else { 0.0 };
        self.left + fraction * (self.right - self.left)
    }
    fn y(&self, value: f32, (low, high): (f32, f32)) -> f32 {
        self.bottom - (value - low) / (high - low) * (self.bottom - self.top)
    }
}

fn draw_group(image: &mut RgbaImage, text: &TextPainter, set: &CurveSet, group: CurveGroup, rect: &Frame) {
    let curves: Vec<_> = set.curves.iter().filter(|c| c.group == group).collect();
    let range = value_range(curves.iter().flat_map(|c| c.values.iter().copied()));
    fill_rect(image, rect, PLOT_BACKGROUND);
    // The group's name, then its curves' names in their colours.
    let mut x = rect.left;
    text.draw(
        image,
        group.label(),
        (x, rect.top - LABEL_SIZE - 4.0),
        LABEL_SIZE,
        400.0,
        TITLE,
    );
    x += text.width(group.label(), LABEL_SIZE) + 16.0;
    for curve in &curves {
        text.draw(
            image,
            &curve.name,
            (x, rect.top - LABEL_SIZE - 2.0),
            AXIS_SIZE + 1.0,
            200.0,
            curve.color(),
        );
        x += text.width(&curve.name, AXIS_SIZE + 1.0) + 12.0;
    }
    for step in 0..=4 {
        let value = range.0 + (range.1 - range.0) * step as f32 / 4.0;
        let y = rect.y(value, range);
        line(image, (rect.left, y), (rect.right, y), GRID, 1.0);
        let label = format!("{value:.3}");
        let label_x = rect.left - 6.0 - text.width(&label, AXIS_SIZE);
        text.draw(
            image,
            &label,
            (label_x, y - AXIS_SIZE / 2.0 - 1.0),
            AXIS_SIZE,
            LEFT,
            AXIS_TEXT,
        );
    }
    for curve in &curves {
        let points: Vec<(f32, f32)> = set
            .times
            .iter()
            .zip(&curve.values)
            .map(|(&t, &v)| (rect.x(t, set.duration), rect.y(v, range)))
            .collect();
        for pair in points.windows(2) {
            line(image, pair[0], pair[1], curve.color(), 1.6);
        }
        for key in &curve.keys {
            disc(
                image,
                (rect.x(key.time, set.duration), rect.y(key.value, range)),
                3.0,
                curve.color(),
            );
        }
    }
    for problem in set.problems.iter().filter(|p| curves.iter().any(|c| c.name == p.curve)) {
        let at = (rect.x(problem.time, set.duration), rect.y(problem.value, range));
        line(image, (at.0, rect.top), (at.0, rect.bottom), PROBLEM, 1.0);
        ring(image, at, 7.0, PROBLEM);
    }
}

/// Seconds along the bottom at a round step.
fn draw_time_axis(image: &mut RgbaImage, text: &TextPainter, duration: f32, left: f32, right: f32, y: f32) {
    let step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        .into_iter()
        .find(|step| duration / step <= 12.0)
        .unwrap_or(duration.max(1.0));
    let frame = Frame {
        left,
        right,
        top: 0.0,
        bottom: 0.0,
    };
    let mut time = 0.0;
    while time <= duration + step * 1e-3 {
        let label = format!("{time:.2} s");
        let label_width = text.width(&label, AXIS_SIZE);
        let x = (frame.x(time, duration) - label_width / 2.0).min(image.width() as f32 - label_width - 2.0);
        text.draw(image, &label, (x, y + 2.0), AXIS_SIZE, 100.0, AXIS_TEXT);
        time += step;
    }
}

/// The values' range with a margin; a flat curve gets a unit range around its value.
fn value_range(values: impl Iterator<Item = f32>) -> (f32, f32) {
    let (low, high) = values.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    if !(low.is_finite() && high.is_finite()) {
        return (-1.0, 1.0);
    }
    // A flat curve gets room in proportion to its value, so the labels differ.
    let pad = ((high - low) * 0.08).max(high.abs().max(low.abs()) * 0.02).max(1e-3);
    (low - pad, high + pad)
}

fn fill_rect(image: &mut RgbaImage, rect: &Frame, color: [u8; 3]) {
    for y in rect.top.max(0.0) as u32..(rect.bottom.max(0.0) as u32).min(image.height()) {
        for x in rect.left.max(0.0) as u32..(rect.right.max(0.0) as u32).min(image.width()) {
            image.put_pixel(x, y, Rgba([color[0], color[1], color[2], 255]));
        }
    }
}

/// Blends `color` over the pixel at (x, y) with coverage `alpha`.
fn blend(image: &mut RgbaImage, (x, y): (i64, i64), color: [u8; 3], alpha: f32) {
    if x < 0 || y < 0 || x >= image.width() as i64 || y >= image.height() as i64 {
        return;
    }
    let pixel = image.get_pixel_mut(x as u32, y as u32);
    for channel in 0..3 {
        let under = pixel[channel] as f32;
        pixel[channel] = (under + (color[channel] as f32 - under) * alpha.clamp(0.0, 1.0)).round() as u8;
    }
}

/// An antialiased line `width` pixels wide: each pixel near the segment is covered by how
/// close it is.
fn line(image: &mut RgbaImage, from: (f32, f32), to: (f32, f32), color: [u8; 3], width: f32) {
    let radius = width / 2.0 + 0.5;
    let (min_x, max_x) = (from.0.min(to.0) - radius, from.0.max(to.0) + radius);
    let (min_y, max_y) = (from.1.min(to.1) - radius, from.1.max(to.1) + radius);
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length_squared = (dx * dx + dy * dy).max(1e-6);
    // Clipped to the image, so a wild value cannot make the loop long.
    let (x0, x1) = (
        min_x.floor().max(0.0) as i64,
        max_x.ceil().min(image.width() as f32) as i64,
    );
    let (y0, y1) = (
        min_y.floor().max(0.0) as i64,
        max_y.ceil().min(image.height() as f32) as i64,
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let t = (((px - from.0) * dx + (py - from.1) * dy) / length_squared).clamp(0.0, 1.0);
            let distance = ((px - from.0 - t * dx).powi(2) + (py - from.1 - t * dy).powi(2)).sqrt();
            blend(image, (x, y), color, width / 2.0 + 0.5 - distance);
        }
    }
}

fn disc(image: &mut RgbaImage, center: (f32, f32), radius: f32, color: [u8; 3]) {
    for_pixels_near(image, center, radius, |image, at, distance| {
        blend(image, at, color, radius + 0.5 - distance);
    });
}

fn ring(image: &mut RgbaImage, center: (f32, f32), radius: f32, color: [u8; 3]) {
    for_pixels_near(image, center, radius + 1.5, |image, at, distance| {
        blend(image, at, color, 1.5 - (distance - radius).abs());
    });
}

fn for_pixels_near(
    image: &mut RgbaImage,
    (cx, cy): (f32, f32),
    reach: f32,
    mut paint: impl FnMut(&mut RgbaImage, (i64, i64), f32),
) {
    let reach = reach.ceil() as i64 + 1;
    let (x, y) = (cx.round() as i64, cy.round() as i64);
    for py in y - reach..=y + reach {
        for px in x - reach..=x + reach {
            let distance = ((px as f32 + 0.5 - cx).powi(2) + (py as f32 + 0.5 - cy).powi(2)).sqrt();
            paint(image, (px, py), distance);
        }
    }
}
