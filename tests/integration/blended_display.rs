//! Blended (alpha BLEND) surfaces mix with what is behind them as three.js mixes them: in
//! displayed colours (tone-mapped and sRGB-encoded), not in linear light before the tone curve.

use std::io::Cursor;

use base64::Engine;
use rigscope::view::{Lighting, Quality};

use super::picture::{Renderer, load, plain, save};
use crate::common::quad::quad_gltf;

/// rigscope's flat background (the default view's, displayed), as three.js was given it
/// (`--background '#1e242e'`).
pub(crate) const BACKGROUND: [u8; 3] = [30, 36, 46];

/// The quad's middle in three.js r187 (peer-three's `render.mjs QUAD.gltf -o OUT.png --size
/// 320x240 --azimuth 0 --elevation 0 --fov 40 --margin 1.1 --background '#1e242e'`, Neutral
/// tone mapping, sRGB output, headless Chromium with SwiftShader), for an unlit quad whose
/// base colour factor is black, and a grey of 0.5 (linear), times a white texture of alpha
/// 128/255: the files `blended_quad` writes. Black keeps half the background (50%; mixed in
/// linear light before the tone curve, rigscope kept 70%).
const THREE_BLACK: [u8; 3] = [15, 18, 23];
const THREE_GREY: [u8; 3] = [106, 109, 114];

/// A 1 × 1 PNG, white with alpha 128, as a data URI.
fn half_alpha_png_uri() -> String {
    let image = image::RgbaImage::from_pixel(1, 1, image::Rgba([255, 255, 255, 128]));
    let mut png = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let encoded = base64::engine::general_purpose::STANDARD.encode(&png);
    format!("data:image/png;base64,{encoded}")
}

/// The quad, unlit, blended, its base colour `factor` (grey level, linear) times the
/// half-alpha texture.
fn blended_quad(name: &str, factor: f32) -> rigscope::asset::Model {
    let root = format!(
        r#""extensionsUsed":["KHR_materials_unlit"],"images":[{{"uri":"{png}"}}],"textures":[{{"source":0}}],
        "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[{factor},{factor},{factor},1],
            "baseColorTexture":{{"index":0}}}},"alphaMode":"BLEND","extensions":{{"KHR_materials_unlit":{{}}}}}}]"#,
        png = half_alpha_png_uri(),
    );
    load(name, &quad_gltf(r#""material":0"#, &root))
}

/// At Best quality (4 samples: the displayed image's multisampled copy) and at Fast (one
/// sample: drawn into the displayed image itself).
#[test]
fn a_half_alpha_quad_shows_the_background_at_three_js_mix() {
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let quads = [("blend-black", 0.0, THREE_BLACK), ("blend-grey", 0.5, THREE_GREY)];
    for ((name, factor, three), quality) in [Quality::Best, Quality::Fast]
        .into_iter()
        .flat_map(|q| quads.map(|quad| (quad, q)))
    {
        renderer.scene.set_quality(&renderer.gpu, quality);
        let name = &format!("{name}-{quality:?}");
        let image = renderer.render(&blended_quad(name, factor), &view);
        save(&image, name);
        let corner = image.get_pixel(0, 0).0;
        assert_eq!(&corner[..3], &BACKGROUND, "{name}: the background three.js was given");
        let middle = image.get_pixel(image.width() / 2, image.height() / 2).0;
        for channel in 0..3 {
            assert!(
                middle[channel].abs_diff(three[channel]) <= 2,
                "{name}: {:?} where three.js shows {three:?}",
                &middle[..3]
            );
        }
    }
}
