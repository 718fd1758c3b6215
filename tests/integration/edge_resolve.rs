//! A multisampled picture averages its samples' displayed colours, as three.js's canvas
//! averages the tone-mapped, sRGB-encoded samples its materials write: a pixel an edge
//! crosses reads between the two sides in displayed levels, by how many of its samples each
//! covers. Averaged in linear light before the tone curve, a pixel only partly over a
//! surface brighter than white mapped to white, and the edge was stair-stepped.

use rigscope::view::{Lighting, Quality};

use super::blended_display::BACKGROUND;
use super::picture::{Renderer, load, plain, save};
use crate::common::quad::quad_gltf;

/// MSAA samples per pixel at Best quality.
const SAMPLES: u32 = 4;

/// A quad glowing a thousand times brighter than white (black base, emissive strength 1000):
/// displayed as white by any curve, at any exposure near the default.
fn glowing_quad() -> rigscope::asset::Model {
    let root = r#""extensionsUsed":["KHR_materials_emissive_strength"],
        "materials":[{"pbrMetallicRoughness":{"baseColorFactor":[0,0,0,1],"metallicFactor":0,"roughnessFactor":1},
            "emissiveFactor":[1,1,1],"extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":1000}}}]"#;
    load("glowing-quad", &quad_gltf(r#""material":0"#, root))
}

/// What a pixel with `covered` of its samples over white and the others over the background
/// reads: the mean of the samples' displayed levels.
fn displayed_mean(covered: u32) -> [f32; 3] {
    let share = covered as f32 / SAMPLES as f32;
    BACKGROUND.map(|level| level as f32 + share * (255.0 - level as f32))
}

#[test]
fn an_edge_over_a_surface_brighter_than_white_reads_the_mean_of_its_displayed_samples() {
    let mut renderer = Renderer::new();
    renderer.scene.set_quality(&renderer.gpu, Quality::Best);
    assert_eq!(
        renderer.scene.sample_count, SAMPLES,
        "llvmpipe gives Best its 4 samples"
    );
    let image = renderer.render(&glowing_quad(), &plain(Lighting::default()));
    save(&image, "edge-resolve");
    let mut partly_covered = [0; SAMPLES as usize + 1];
    for (x, y, pixel) in image.enumerate_pixels() {
        // How many samples over the quad fit this pixel's red level best.
        let covered = (0..=SAMPLES)
            .min_by(|&a, &b| {
                let miss = |covered| (displayed_mean(covered)[0] - pixel[0] as f32).abs();
                miss(a).total_cmp(&miss(b))
            })
            .unwrap_or(0);
        let expected = displayed_mean(covered);
        for channel in 0..3 {
            assert!(
                (pixel[channel] as f32 - expected[channel]).abs() <= 2.0,
                "({x}, {y}) reads {:?}: no mean of samples over white and over {BACKGROUND:?}",
                &pixel.0[..3]
            );
        }
        partly_covered[covered as usize] += 1;
    }
    let [background, one, two, three, white] = partly_covered;
    assert!(
        background > 1000 && white > 1000,
        "the quad and the background both show: {partly_covered:?}"
    );
    // The quad's outline is some 400 pixels long: each share of samples is met along it.
    for (covered, count) in [(1, one), (2, two), (3, three)] {
        assert!(
            count >= 20,
            "{count} pixels with {covered} of {SAMPLES} samples over the quad: the edge is stair-stepped ({partly_covered:?})"
        );
    }
}
