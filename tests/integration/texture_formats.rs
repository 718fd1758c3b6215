//! Texture containers beyond PNG and JPEG: EXT_texture_webp (the WebP CesiumMan renders like
//! the PNG one), KHR_texture_basisu (KTX2 with Basis Universal ETC1S and UASTC, encoded by the
//! test from a known pattern), and what happens to a texture rigscope cannot decode (its core
//! `source` is drawn instead, else the material's factors, with a note).

#[path = "../common/basis.rs"]
mod basis;
use crate::common;

use basis_universal::BasisTextureFormat;
use common::quad::{colour_at, quad_gltf, write};
use rigscope::asset::image_decode::{self, BasisCodec, ImageContainer};
use rigscope::asset::{self, Model};
use rigscope::cli::render::render_image;
use rigscope::render::{Gpu, ModelView, SceneRenderer};
use rigscope::view::ViewOptions;

/// The test pattern: red top left, blue top right, green bottom left, yellow bottom right,
/// each quadrant a whole number of 4×4 blocks.
fn quadrants(side: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(side, side, |x, y| {
        let (right, bottom) = (x >= side / 2, y >= side / 2);
        image::Rgba(match (right, bottom) {
            (false, false) => [230, 20, 20, 255],
            (true, false) => [20, 20, 230, 255],
            (false, true) => [20, 230, 20, 255],
            (true, true) => [230, 230, 20, 255],
        })
    })
}

fn png_bytes(image: &image::RgbaImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// The largest difference of any channel between two RGBA buffers.
fn max_difference(a: &[u8], b: &[u8]) -> u8 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0)
}

/// An unlit quad whose base colour texture is texture 0 of `textures` (JSON), whose images
/// are `images` (data URIs, with their MIME types).
fn textured_quad_json(textures: &str, images: &[(&str, &[u8])], extensions_used: &str) -> String {
    let images: Vec<String> = images
        .iter()
        .map(|(mime, bytes)| {
            let uri = common::data_uri(bytes).replace("application/octet-stream", mime);
            format!(r#"{{"uri":"{uri}","mimeType":"{mime}"}}"#)
        })
        .collect();
    quad_gltf(
        r#""material":0"#,
        &format!(
            r#""extensionsUsed":["KHR_materials_unlit"{extensions_used}],
            "materials":[{{"pbrMetallicRoughness":{{"baseColorTexture":{{"index":0}},"baseColorFactor":[0.5,0.5,0.5,1]}},
                "extensions":{{"KHR_materials_unlit":{{}}}}}}],
            "samplers":[{{"magFilter":9728,"minFilter":9728}}],
            "textures":[{textures}],"images":[{}]"#,
            images.join(",")
        ),
    )
}

fn view() -> ViewOptions {
    ViewOptions {
        grid: false,
        ..ViewOptions::default()
    }
}

/// The colours at the centres of the four quadrants of the drawn quad: top left, top right,
/// bottom left, bottom right.
fn quadrant_colours(model: &Model, name: &str) -> [&'static str; 4] {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let pose = model.skeleton.rest_pose().clone();
    let image = render_image(&gpu, &mut renderer, model, &pose, None, (240, 240), &view()).unwrap();
    image
        .save(std::env::temp_dir().join(format!("rigscope-{name}.png")))
        .unwrap();
    [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].map(|(x, y)| colour_at(&image, x, y))
}

/// The notes the renderer gives when it uploads `model` (undecodable textures among them).
fn render_notes(model: &Model) -> Vec<String> {
    let gpu = Gpu::headless().unwrap();
    let renderer = SceneRenderer::new(&gpu);
    ModelView::new(&gpu, &renderer, model).buffers.notes
}

#[test]
fn basis_textures_decode_to_the_pattern_they_were_encoded_from_and_render_it() {
    let pattern = quadrants(64);
    let dir = common::temp_dir("basis");
    // Each codec's worst channel error on flat quadrants (ETC1S is the coarser).
    for (format, zstandard, codec, tolerance) in [
        (BasisTextureFormat::UASTC4x4, false, BasisCodec::Uastc, 4),
        (BasisTextureFormat::UASTC4x4, true, BasisCodec::Uastc, 4),
        (BasisTextureFormat::ETC1S, false, BasisCodec::Etc1s, 12),
    ] {
        let basis_file = basis::encode_basis(&pattern, format);
        let ktx2 = basis::ktx2_of_basis(&basis_file, zstandard);
        let supercompression = ktx2::Reader::new(&ktx2[..]).unwrap().header().supercompression_scheme;
        assert_eq!(supercompression.is_some(), zstandard || codec == BasisCodec::Etc1s);
        let decoded = image_decode::decode(&ktx2, 4096).unwrap_or_else(|e| panic!("{codec:?}: {e}"));
        assert_eq!(decoded.container, ImageContainer::Ktx2(Some(codec)));
        assert_eq!(decoded.declared_srgb, Some(true));
        assert_eq!(decoded.rgba.dimensions(), (64, 64));
        let error = max_difference(decoded.rgba.as_raw(), pattern.as_raw());
        eprintln!(
            "{codec:?} ({supercompression:?}): {} bytes of KTX2, largest error {error} levels",
            ktx2.len()
        );
        assert!(error <= tolerance, "{codec:?}: off the pattern by {error} levels");
        // The pure-Rust transcoder gives what Binomial's C++ transcoder gives.
        assert_eq!(
            decoded.rgba.as_raw(),
            &basis::reference_rgba(&basis_file),
            "{codec:?}: differs from the reference transcoder"
        );

        let json = textured_quad_json(
            r#"{"sampler":0,"extensions":{"KHR_texture_basisu":{"source":0}}}"#,
            &[("image/ktx2", &ktx2)],
            r#","KHR_texture_basisu""#,
        );
        let name = format!("basis-{codec:?}-{}", if zstandard { "zstd" } else { "plain" });
        let model = asset::load(&write(&dir, &name, &json)).unwrap();
        assert_eq!(model.materials[0].base_color_texture.map(|t| t.image), Some(0));
        assert!(model.warnings.is_empty(), "{:?}", model.warnings);
        assert!(render_notes(&model).is_empty(), "{:?}", render_notes(&model));
        // The factor (0.5 grey) darkens the texture: half of each linear value.
        let mut full = model.clone();
        full.materials[0].base_color = glam::Vec4::ONE;
        assert_eq!(
            quadrant_colours(&full, &name),
            ["red", "blue", "green", "yellow"],
            "{codec:?}"
        );
    }
}

#[test]
fn the_webp_cesium_man_renders_like_the_png_one() {
    let dir = common::temp_dir("webp-cesium");
    let render = |file: &std::path::Path, name: &str| {
        let out = dir.join(format!("{name}.png"));
        let (file, out_text) = (file.to_str().unwrap(), out.to_str().unwrap());
        common::succeed(&["render", file, "-o", out_text, "--size", "320x320", "--time", "0.5"]);
        image::open(&out).unwrap().to_rgba8()
    };
    let webp_file = common::compressed("CesiumMan-webp.glb");
    let webp_model = asset::load(&webp_file).unwrap();
    assert_eq!(
        ImageContainer::detect(&webp_model.images[0].bytes),
        ImageContainer::Webp
    );
    assert!(render_notes(&webp_model).is_empty(), "{:?}", render_notes(&webp_model));
    let webp = render(&webp_file, "webp");
    let png = render(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb"), "png");
    // WebP is lossy: a small mean difference per channel, and few pixels off by more than 24
    // levels in any channel.
    let differences: Vec<u8> = webp
        .pixels()
        .zip(png.pixels())
        .map(|(a, b)| (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap())
        .collect();
    let channel_sum: u64 = webp
        .pixels()
        .zip(png.pixels())
        .flat_map(|(a, b)| (0..3).map(move |c| u64::from(a[c].abs_diff(b[c]))))
        .sum();
    let mean = channel_sum as f64 / (3 * differences.len()) as f64;
    let far = differences.iter().filter(|&&d| d > 24).count() as f64 / differences.len() as f64;
    eprintln!(
        "WebP vs PNG: mean {mean:.3} levels per channel, {:.3}% of pixels off by > 24",
        far * 100.0
    );
    assert!(mean < 0.25, "mean difference per channel {mean:.3} levels");
    assert!(
        far < 0.001,
        "{:.3}% of pixels differ by more than 24 levels",
        far * 100.0
    );
    // And the texture is there: the picture is not the untextured (white) man.
    let untextured = {
        let mut model = webp_model.clone();
        model.materials[0].base_color_texture = None;
        let gpu = Gpu::headless().unwrap();
        let mut renderer = SceneRenderer::new(&gpu);
        let pose = model.skeleton.rest_pose().clone();
        render_image(&gpu, &mut renderer, &model, &pose, Some(0), (320, 320), &view()).unwrap()
    };
    let blue = |image: &image::RgbaImage| image.pixels().filter(|p| p[2] > p[0].saturating_add(60)).count();
    assert!(
        blue(&webp) > 500 && blue(&untextured) < 50,
        "{} {}",
        blue(&webp),
        blue(&untextured)
    );
}

#[test]
fn an_undecodable_image_falls_back_to_the_core_source_then_to_the_factors() {
    let dir = common::temp_dir("texture-fallback");
    let pattern = png_bytes(&quadrants(8));
    let broken_ktx2 = b"\xABKTX 20\xBB\r\n\x1A\n not really a texture".to_vec();
    // An extension image that cannot be decoded, with a PNG as the core source.
    let json = textured_quad_json(
        r#"{"sampler":0,"source":1,"extensions":{"KHR_texture_basisu":{"source":0}}}"#,
        &[("image/ktx2", &broken_ktx2), ("image/png", &pattern)],
        r#","KHR_texture_basisu""#,
    );
    let mut model = asset::load(&write(&dir, "with-fallback", &json)).unwrap();
    model.materials[0].base_color = glam::Vec4::ONE;
    let texture = model.materials[0].base_color_texture.unwrap();
    assert_eq!((texture.image, texture.fallback), (0, Some(1)));
    let notes = render_notes(&model);
    assert!(
        notes.len() == 1 && notes[0].contains("baseColorTexture") && notes[0].contains("fallback image 'Image 1'"),
        "{notes:?}"
    );
    assert_eq!(quadrant_colours(&model, "fallback"), ["red", "blue", "green", "yellow"]);

    // Without a core source: the factors, and a note that says why.
    let json = textured_quad_json(
        r#"{"sampler":0,"extensions":{"EXT_texture_webp":{"source":0}}}"#,
        &[("image/webp", b"RIFF\x10\0\0\0WEBPVP8 broken")],
        r#","EXT_texture_webp""#,
    );
    let model = asset::load(&write(&dir, "no-fallback", &json)).unwrap();
    let notes = render_notes(&model);
    assert!(
        notes.len() == 1 && notes[0].contains("could not be decoded") && notes[0].contains("uses its factors"),
        "{notes:?}"
    );
    assert_eq!(quadrant_colours(&model, "factors"), ["grey"; 4]);
    // `render` passes the note on and draws all the same.
    let path = dir.join("no-fallback.gltf");
    let out = dir.join("no-fallback.png");
    let output = common::rigscope(&["render", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && out.is_file(), "{stderr}");
    assert!(
        stderr.contains("baseColorTexture: image 'Image 0' could not be decoded"),
        "{stderr}"
    );

    // An extension rigscope does not know, beside a core source: the core source, a warning.
    let json = textured_quad_json(
        r#"{"sampler":0,"source":0,"extensions":{"EXT_made_up_format":{"source":0}}}"#,
        &[("image/png", &pattern)],
        r#","EXT_made_up_format""#,
    );
    let model = asset::load(&write(&dir, "unknown-extension", &json)).unwrap();
    assert!(
        model.warnings.iter().any(|w| w.contains("EXT_made_up_format")),
        "{:?}",
        model.warnings
    );
    assert_eq!(model.materials[0].base_color_texture.map(|t| t.image), Some(0));
}

#[test]
fn the_validators_webp_files_load_and_their_webp_images_decode() {
    let dir = common::validator_dir().join("ext/EXT_texture_webp/data/texture");
    let model = asset::load(&dir.join("valid.gltf")).unwrap();
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    assert_eq!(model.images.len(), 2);
    assert_eq!(ImageContainer::detect(&model.images[1].bytes), ImageContainer::Webp);
    let red = image_decode::decode(&model.images[1].bytes, 16).unwrap();
    assert_eq!(red.rgba.get_pixel(0, 0).0, [255, 0, 0, 255]);
    // A source that does not exist is a warning, not a refusal.
    let model = asset::load(&dir.join("unresolved_source.gltf")).unwrap();
    assert!(model.images.is_empty());
}

#[test]
fn a_mipmapped_basis_texture_is_read_at_the_level_a_picture_needs() {
    let pattern = quadrants(64);
    for format in [BasisTextureFormat::UASTC4x4, BasisTextureFormat::ETC1S] {
        let ktx2 = basis::ktx2_of_basis(&basis::encode_basis_mipmapped(&pattern, format), false);
        assert_eq!(ktx2::Reader::new(&ktx2[..]).unwrap().header().level_count, 7);
        for side in [64, 16, 4, 1] {
            let decoded = image_decode::decode_at_most(&ktx2, 4096, side, true).unwrap();
            assert_eq!(decoded.rgba.dimensions(), (side, side), "{format:?}");
        }
        // The file's own 16×16 level: each quadrant two blocks across (an ETC1S block holds
        // one hue), its colour kept.
        let level = image_decode::decode_at_most(&ktx2, 4096, 16, true).unwrap().rgba;
        let [red, green, blue, _] = level.get_pixel(1, 1).0;
        assert!(
            red > 180 && green < 70 && blue < 70,
            "{format:?}: {:?}",
            level.get_pixel(1, 1)
        );
    }
}

#[test]
fn damaged_basis_files_are_errors_not_panics() {
    let pattern = quadrants(32);
    let mut random = common::Lcg(17);
    for format in [BasisTextureFormat::UASTC4x4, BasisTextureFormat::ETC1S] {
        let ktx2 = basis::ktx2_of_basis(&basis::encode_basis(&pattern, format), false);
        for round in 0..2000 {
            let mut damaged = ktx2.clone();
            if round % 4 == 0 {
                damaged.truncate(random.below(ktx2.len()));
            } else {
                for _ in 0..1 + random.below(4) {
                    let at = random.below(damaged.len());
                    damaged[at] = random.below(256) as u8;
                }
            }
            // Either result is fine; a panic or a runaway allocation is not.
            if let Ok(decoded) = image_decode::decode(&damaged, 4096) {
                let pixels = u64::from(decoded.rgba.width() * decoded.rgba.height());
                let allowed = image_decode::MAX_PIXELS_PER_BYTE * damaged.len() as u64;
                assert!(pixels <= allowed.max(image_decode::PIXELS_ALWAYS_ALLOWED));
            }
        }
    }
}

#[test]
fn a_basis_texture_claiming_more_pixels_than_its_size_allows_is_refused_before_decoding() {
    let ktx2 = basis::ktx2_of_basis(&basis::encode_basis(&quadrants(16), BasisTextureFormat::ETC1S), false);
    let claiming = |side: u32| {
        let mut claimed = ktx2.clone();
        claimed[20..24].copy_from_slice(&side.to_le_bytes());
        claimed[24..28].copy_from_slice(&side.to_le_bytes());
        image_decode::decode(&claimed, 32768).unwrap_err().to_string()
    };
    let error = claiming(30000);
    assert!(error.contains("claims 30000×30000 pixels, more than its"), "{error}");
    let error = image_decode::decode(&ktx2, 8).unwrap_err().to_string();
    assert!(error.contains("larger than this GPU's 8-texel limit"), "{error}");
}

#[test]
fn a_zstandard_level_claiming_a_huge_unpacked_size_is_refused_before_decoding() {
    let uastc = basis::encode_basis(&quadrants(16), BasisTextureFormat::UASTC4x4);
    let mut ktx2 = basis::ktx2_of_basis(&uastc, true);
    image_decode::decode(&ktx2, 64).expect("the file as written decodes");
    // Level 0's uncompressedByteLength: bytes 16..24 of its index entry, after the 80-byte header.
    ktx2[96..104].copy_from_slice(&(1u64 << 45).to_le_bytes());
    let error = image_decode::decode(&ktx2, 64).unwrap_err().to_string();
    assert!(error.contains("claims to unpack to 35184372088832 bytes"), "{error}");
    // An array of layers is not a glTF texture.
    let mut layered = basis::ktx2_of_basis(&uastc, false);
    layered[32..36].copy_from_slice(&4u32.to_le_bytes());
    let error = image_decode::decode(&layered, 64).unwrap_err().to_string();
    assert!(error.contains("4 layers"), "{error}");
}

#[test]
fn a_basis_texture_that_declares_linear_values_for_base_colour_gets_a_note() {
    let mut ktx2 = basis::ktx2_of_basis(
        &basis::encode_basis(&quadrants(16), BasisTextureFormat::UASTC4x4),
        false,
    );
    // The data format descriptor starts after the header (80 bytes) and one level (24); its
    // transfer function is byte 14 of it.
    ktx2[80 + 24 + 14] = 1;
    assert_eq!(image_decode::decode(&ktx2, 64).unwrap().declared_srgb, Some(false));
    let json = textured_quad_json(
        r#"{"extensions":{"KHR_texture_basisu":{"source":0}}}"#,
        &[("image/ktx2", &ktx2)],
        r#","KHR_texture_basisu""#,
    );
    let model = asset::load(&write(&common::temp_dir("basis-linear"), "linear", &json)).unwrap();
    let notes = render_notes(&model);
    assert!(
        notes.len() == 1 && notes[0].contains("declares linear values where glTF expects sRGB"),
        "{notes:?}"
    );
}

#[test]
fn inspect_names_each_image_s_container_and_what_it_decoded_to() {
    let ktx2 = basis::ktx2_of_basis(&basis::encode_basis(&quadrants(16), BasisTextureFormat::ETC1S), false);
    let json = textured_quad_json(
        r#"{"source":1,"extensions":{"KHR_texture_basisu":{"source":0}}}"#,
        &[("image/ktx2", &ktx2), ("image/png", &png_bytes(&quadrants(8)))],
        r#","KHR_texture_basisu""#,
    );
    let path = write(&common::temp_dir("inspect-images"), "images", &json);
    let report = common::json(&["inspect", "--json", path.to_str().unwrap()]);
    let images = report["image_formats"].as_array().unwrap();
    assert_eq!(images[0]["container"], "KTX2/Basis ETC1S");
    assert_eq!(images[0]["width"], 16);
    assert_eq!(images[0]["decoded_to"], "RGBA8 16×16, transcoded from ETC1S");
    assert_eq!(images[0]["bytes"], ktx2.len());
    assert_eq!(
        images[0]["bc7_on_gpus"], false,
        "one level: a GPU could not make the rest from BC7 blocks"
    );
    assert_eq!(images[1]["container"], "PNG");
    assert_eq!(images[1]["decoded_to"], "RGBA8 8×8");
    assert_eq!(images[1]["bc7_on_gpus"], false);
    let text = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(text.contains("image 0 'Image 0': KTX2/Basis ETC1S"), "{text}");
    assert!(!text.contains("BC7"), "{text}");
    let webp = common::succeed(&["inspect", common::compressed("CesiumMan-webp.glb").to_str().unwrap()]);
    assert!(webp.contains("WebP, 41968 bytes, RGBA8 1024×1024"), "{webp}");
}

#[test]
fn inspect_says_which_images_a_gpu_receives_as_bc7() {
    let ktx2 = basis::ktx2_of_basis(
        &basis::encode_basis_mipmapped(&quadrants(64), BasisTextureFormat::UASTC4x4),
        false,
    );
    let json = textured_quad_json(
        r#"{"extensions":{"KHR_texture_basisu":{"source":0}}}"#,
        &[("image/ktx2", &ktx2)],
        r#","KHR_texture_basisu""#,
    );
    let path = write(&common::temp_dir("inspect-bc7"), "mipmapped", &json);
    let report = common::json(&["inspect", "--json", path.to_str().unwrap()]);
    assert_eq!(report["image_formats"][0]["bc7_on_gpus"], true, "{report}");
    let text = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(
        text.contains("RGBA8 64×64, transcoded from UASTC (BC7 on a GPU that samples BC formats)"),
        "{text}"
    );
}

#[test]
fn one_image_in_a_colour_slot_and_a_data_slot_is_read_in_both() {
    // The pattern as base colour (sRGB) and as occlusion (linear, its red channel): the blue
    // and green quadrants (little red) are occluded, the red and yellow ones are not.
    let pattern = png_bytes(&quadrants(8));
    let material = |occlusion: &str| {
        let images = format!(r#"{{"uri":"{}"}}"#, common::data_uri(&pattern));
        quad_gltf(
            r#""material":0"#,
            &format!(
                r#""materials":[{{"pbrMetallicRoughness":{{"baseColorTexture":{{"index":0}},"metallicFactor":0}}{occlusion}}}],
                "samplers":[{{"magFilter":9728,"minFilter":9728}}],"textures":[{{"sampler":0,"source":0}}],"images":[{images}]"#
            ),
        )
    };
    let dir = common::temp_dir("srgb-and-linear");
    let plain = asset::load(&write(&dir, "plain", &material(""))).unwrap();
    let occluded = asset::load(&write(
        &dir,
        "occluded",
        &material(r#","occlusionTexture":{"index":0}"#),
    ))
    .unwrap();
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let mut brightness = |model: &Model, fx: f32, fy: f32| {
        let pose = model.skeleton.rest_pose().clone();
        let image = render_image(&gpu, &mut renderer, model, &pose, None, (200, 200), &view()).unwrap();
        let pixel = image.get_pixel((fx * 200.0) as u32, (fy * 200.0) as u32).0;
        pixel[..3].iter().map(|&c| u32::from(c)).sum::<u32>()
    };
    // The quad fills the middle of the picture; (0.6, 0.4) is in its top right (blue)
    // quadrant and (0.4, 0.4) in its top left (red) one.
    let (blue_plain, blue_occluded) = (brightness(&plain, 0.6, 0.4), brightness(&occluded, 0.6, 0.4));
    let (red_plain, red_occluded) = (brightness(&plain, 0.4, 0.4), brightness(&occluded, 0.4, 0.4));
    // Occlusion 0.08 in the blue quadrant takes most of the light; 0.9 in the red one takes
    // a tenth of the environment's.
    assert!(
        blue_occluded * 10 < blue_plain * 6,
        "blue: {blue_plain} → {blue_occluded}"
    );
    assert!(red_occluded * 100 > red_plain * 85, "red: {red_plain} → {red_occluded}");
}

#[test]
fn images_reading_one_buffer_view_share_one_copy_of_its_bytes() {
    let mut gltf: serde_json::Value = serde_json::from_str(&quad_gltf("", "")).unwrap();
    let png = png_bytes(&quadrants(8));
    gltf["buffers"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"byteLength": png.len(), "uri": common::data_uri(&png)}));
    gltf["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"buffer": 1, "byteLength": png.len()}));
    let image = serde_json::json!({"bufferView": 4, "mimeType": "image/png"});
    gltf["images"] = serde_json::json!([image, image, image]);
    let model = asset::load(&write(&common::temp_dir("shared-view"), "shared", &gltf.to_string())).unwrap();
    let images = &model.images;
    assert_eq!(&images[0].bytes[..], &png[..]);
    assert!(
        images
            .iter()
            .all(|i| std::sync::Arc::ptr_eq(&i.bytes, &images[0].bytes))
    );
}
