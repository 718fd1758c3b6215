//! MToon, VRM's toon material, on small files the tests write: the lit/shade split, its
//! toony edge and its antialiasing, the outline in world and screen widths, the UV animation over time, the render
//! queue and depth writes of blended MToon, expression binds and animation pointers to its
//! colours, and what `inspect` says. Each test looks at pixels or values, not golden images.

use crate::common;
use crate::picture::{
    Buffers, Renderer, SIZE, colour_at, file, four_colour_png_uri, load, mean_difference, plain, quad, save,
    sphere_model,
};
use crate::vrm_avatar::{panel_harness, write_face_avatar};

use egui_kittest::kittest::Queryable;
use rigscope::render::still::StillRenderer;
use rigscope::view::{Lighting, ToneMapping, ViewOptions};
use serde_json::{Value, json};

/// The key light alone (no environment), without a tone curve: MToon's colours as they are.
fn key_light_only() -> ViewOptions {
    plain(Lighting {
        environment_intensity: 0.0,
        tone_mapping: ToneMapping::None,
        ..Lighting::default()
    })
}

/// A red sphere shaded blue, MToon with `more` (JSON members) besides.
fn red_toon(more: &str) -> String {
    format!(
        r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[1,0,0,1]}},"extensions":{{"VRMC_materials_mtoon":{{"specVersion":"1.0","shadeColorFactor":[0,0,1]{more}}}}}}}"#
    )
}

/// The share of the sphere's pixels (those not background) whose `channel` lies between a
/// quarter and three quarters of its brightest.
fn share_in_between(image: &image::RgbaImage, channel: usize) -> f32 {
    let background = image.get_pixel(0, 0).0;
    let drawn: Vec<u8> = (image.pixels())
        .filter(|p| p.0 != background)
        .map(|p| p.0[channel])
        .collect();
    let brightest = *drawn.iter().max().unwrap() as f32;
    let between = drawn
        .iter()
        .filter(|&&v| (0.25 * brightest..0.75 * brightest).contains(&(v as f32)))
        .count();
    between as f32 / drawn.len() as f32
}

#[test]
fn the_light_picks_the_lit_or_the_shade_colour_as_hard_as_the_toony_factor_says() {
    let mut renderer = Renderer::new();
    let view = key_light_only();
    let hard = renderer.render(
        &sphere_model("toon-hard", &red_toon(r#","shadingToonyFactor":1.0"#)),
        &view,
    );
    let soft = renderer.render(
        &sphere_model("toon-soft", &red_toon(r#","shadingToonyFactor":0.0"#)),
        &view,
    );
    let plain_red = renderer.render(
        &sphere_model(
            "toon-none",
            r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,1],"metallicFactor":0}}"#,
        ),
        &view,
    );
    save(&hard, "mtoon-hard");
    save(&soft, "mtoon-soft");
    // The shaded side is the shade colour, blue; the lit side red; the toony factor decides
    // how sharp the line between them is.
    let blue = |image: &image::RgbaImage| image.pixels().filter(|p| p[2] > 100 && p[0] < 40).count();
    let red = |image: &image::RgbaImage| image.pixels().filter(|p| p[0] > 100 && p[2] < 40).count();
    // (The key light comes from above, as does the view: most of the sphere seen is lit.)
    assert!(blue(&hard) > 800 && red(&hard) > 5000, "{} {}", blue(&hard), red(&hard));
    let (hard_ramp, soft_ramp) = (share_in_between(&hard, 2), share_in_between(&soft, 2));
    // (What is in between on the hard one is the shadow's filtered edge and antialiasing.)
    assert!(hard_ramp < 0.15 && soft_ramp > 0.4, "{hard_ramp} {soft_ramp}");
    // Without the extension the sphere is plain red.
    assert_eq!(blue(&plain_red), 0);
    let difference = mean_difference(&hard, &plain_red);
    assert!(difference > 2.0, "{difference}");
    // The shading shift moves the line: shifted down, less of the sphere is lit. (Up, the
    // key light's shadow stops the lit side at the terminator, as three-vrm's shadows do.)
    let shifted = renderer.render(
        &sphere_model(
            "toon-shifted",
            &red_toon(r#","shadingToonyFactor":1.0,"shadingShiftFactor":-0.5"#),
        ),
        &view,
    );
    assert!(red(&shifted) + 1000 < red(&hard), "{} {}", red(&shifted), red(&hard));
}

/// Where a pixel of the red sphere shaded blue lies: lit (red), in the shade (blue), or
/// between, with some of both.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Toned {
    Lit,
    Shade,
    Between,
}

/// Along each row of `image`'s pixels inside the sphere (whose 3 × 3 neighbours are all drawn,
/// so that no background is blended in), each place where lit pixels meet shaded ones: whether
/// a pixel between the two colours stands there.
fn edge_crossings(image: &image::RgbaImage) -> Vec<bool> {
    let background = image.get_pixel(0, 0).0;
    let (width, height) = image.dimensions();
    let drawn = |x: u32, y: u32| image.get_pixel(x, y).0 != background;
    let inside = |x: u32, y: u32| (0..9).all(|i| drawn(x + i % 3 - 1, y + i / 3 - 1));
    let brightest = |channel: usize| f32::from(image.pixels().map(|p| p[channel]).max().unwrap_or(1).max(1));
    let (red, blue) = (brightest(0), brightest(2));
    let toned = |x: u32, y: u32| {
        let p = image.get_pixel(x, y);
        let (r, b) = (f32::from(p[0]) / red, f32::from(p[2]) / blue);
        match (r > 0.1 && b > 0.1, r > b) {
            (true, _) => Toned::Between,
            (false, true) => Toned::Lit,
            (false, false) => Toned::Shade,
        }
    };
    let mut crossings = Vec::new();
    for y in 1..height - 1 {
        let mut last = None;
        let mut between = false;
        for x in (1..width - 1).filter(|&x| inside(x, y)) {
            match toned(x, y) {
                Toned::Between => between = true,
                side => {
                    if last.is_some_and(|last| last != side) {
                        crossings.push(between);
                    }
                    last = Some(side);
                    between = false;
                }
            }
        }
    }
    crossings
}

#[test]
fn the_edge_between_lit_and_shade_is_antialiased_at_any_toony_factor() {
    let mut renderer = Renderer::new();
    // A step (toony 1), shifted so that its edge lies where the key light reaches, away from
    // the shadow's edge at the terminator.
    let model = sphere_model(
        "toon-edge",
        &red_toon(r#","shadingToonyFactor":1.0,"shadingShiftFactor":-0.5"#),
    );
    let image = renderer.render(&model, &key_light_only());
    save(&image, "mtoon-edge");
    let crossings = edge_crossings(&image);
    let smoothed = crossings.iter().filter(|&&between| between).count();
    // Each row crossing the edge passes a pixel between the lit and the shade colours (three-vrm
    // draws it so), not a stair-step from one to the other.
    assert!(crossings.len() > 40, "{} crossings", crossings.len());
    assert!(
        smoothed as f32 >= 0.9 * crossings.len() as f32,
        "{smoothed} of {} crossings smoothed",
        crossings.len()
    );
}

/// The number of pure green pixels (an outline of colour green, unlit).
fn green(image: &image::RgbaImage) -> usize {
    image.pixels().filter(|p| p[1] > 200 && p[0] < 60 && p[2] < 60).count()
}

/// The green pixels across the middle row, from the left edge to the sphere.
fn green_run_left(image: &image::RgbaImage) -> usize {
    let y = image.height() / 2;
    let start = (0..image.width())
        .find(|&x| image.get_pixel(x, y)[1] > 200)
        .unwrap_or(0);
    (start..image.width())
        .take_while(|&x| {
            let p = image.get_pixel(x, y);
            p[1] > 200 && p[0] < 60
        })
        .count()
}

#[test]
fn the_outline_stands_out_of_the_silhouette_by_its_width_in_the_world_or_on_screen() {
    let mut renderer = Renderer::new();
    let view = key_light_only();
    let outline = |mode: &str, width: f32| {
        red_toon(&format!(
            r#","outlineWidthMode":"{mode}","outlineWidthFactor":{width},"outlineColorFactor":[0,1,0],"outlineLightingMixFactor":0"#
        ))
    };
    let none = renderer.render(&sphere_model("outline-none", &outline("none", 0.1)), &view);
    assert_eq!(green(&none), 0);
    let world = renderer.render(&sphere_model("outline-world", &outline("worldCoordinates", 0.1)), &view);
    save(&world, "mtoon-outline-world");
    let thin = renderer.render(&sphere_model("outline-thin", &outline("worldCoordinates", 0.03)), &view);
    // A ring around the sphere, wider as the width grows; the sphere's front is not covered.
    assert!(
        green(&world) > 2 * green(&thin) && green(&thin) > 100,
        "{} {}",
        green(&world),
        green(&thin)
    );
    let (cx, cy) = (SIZE.0 / 2, SIZE.1 / 2);
    assert!(world.get_pixel(cx, cy)[0] > 100, "the sphere shows through its outline");
    // On screen: a share of half the view's height, whatever the size of the model.
    let screen = renderer.render(
        &sphere_model("outline-screen", &outline("screenCoordinates", 0.05)),
        &view,
    );
    save(&screen, "mtoon-outline-screen");
    let expected = 0.05 * SIZE.1 as f32 / 2.0;
    let run = green_run_left(&screen) as f32;
    assert!((run - expected).abs() <= 2.0, "{run} pixels, {expected} expected");
}

/// The four-colour texture on a quad, as MToon lit and shaded alike (so it shows as it is),
/// with `more` MToon members.
fn scrolling_quad(name: &str, more: &str) -> rigscope::asset::Model {
    load(name, &scrolling_quad_json(more, ""))
}

/// `scrolling_quad`'s file, with `animations` (JSON members after the scene, given the
/// buffers to add their data to).
fn scrolling_quad_json(more: &str, animations: &str) -> String {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&quad());
    let animations = match animations {
        "" => String::new(),
        _ => {
            // Two seconds in which nothing moves: the sheet's cells are at 0 and 2 s.
            let times = buffers.floats(&[0.0, 2.0], "SCALAR");
            let still = buffers.floats(&[0.0; 6], "VEC3");
            format!(
                r#","animations":[{{"name":"{animations}","samplers":[{{"input":{times},"output":{still}}}],"channels":[{{"sampler":0,"target":{{"node":0,"path":"translation"}}}}]}}]"#
            )
        }
    };
    buffers.gltf(&format!(
        r#""extensionsUsed":["VRMC_materials_mtoon"],
        "images":[{{"uri":"{png}"}}],
        "samplers":[{{"magFilter":9728,"minFilter":9728}}],
        "textures":[{{"source":0,"sampler":0}}],
        "materials":[{{"pbrMetallicRoughness":{{"baseColorTexture":{{"index":0}}}},"extensions":{{"VRMC_materials_mtoon":{{
            "specVersion":"1.0","shadeColorFactor":[1,1,1],"shadeMultiplyTexture":{{"index":0}}{more}}}}}}}],
        "meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
        "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]{animations}"#,
        png = four_colour_png_uri(),
    ))
}

#[test]
fn texture_coordinates_scroll_and_turn_with_time() {
    let mut renderer = Renderer::new();
    // Exposure +1 brings the key light's colour up to the texture's own.
    let view = plain(Lighting {
        environment_intensity: 0.0,
        exposure: 1.0,
        tone_mapping: ToneMapping::None,
        ..Lighting::default()
    });
    let quadrants = |model: &rigscope::asset::Model, time: f32, name: &str, renderer: &mut Renderer| {
        let mut still = StillRenderer::new(&renderer.gpu, &renderer.scene, model);
        still.time = time;
        let pose = model.skeleton.rest_pose().clone();
        let image = still.render(&mut renderer.scene, &pose, SIZE, &view).unwrap();
        save(&image, name);
        [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].map(|(x, y)| colour_at(&image, x, y))
    };
    let still_quad = ["red", "blue", "green", "yellow"];
    let scrolling = scrolling_quad("uv-scroll", r#","uvAnimationScrollXSpeedFactor":0.25"#);
    assert_eq!(quadrants(&scrolling, 0.0, "mtoon-scroll-0", &mut renderer), still_quad);
    // Half a texture in two seconds: the columns change places.
    assert_eq!(
        quadrants(&scrolling, 2.0, "mtoon-scroll-2", &mut renderer),
        ["blue", "red", "yellow", "green"]
    );
    let turning = scrolling_quad("uv-turn", r#","uvAnimationRotationSpeedFactor":1.5707964"#);
    // A quarter turn a second about the middle: (u, v) reads (v, 1 − u), so the picture
    // turns a quarter clockwise.
    assert_eq!(
        quadrants(&turning, 1.0, "mtoon-turn-1", &mut renderer),
        ["green", "red", "yellow", "blue"]
    );
    // A mask of zero holds the texture still (the texture's blue is zero in red, green and
    // yellow quadrants; its blue quadrant moves).
    let masked = scrolling_quad(
        "uv-masked",
        r#","uvAnimationScrollXSpeedFactor":0.25,"uvAnimationMaskTexture":{"index":0}"#,
    );
    assert_eq!(
        quadrants(&masked, 2.0, "mtoon-masked-2", &mut renderer)[2..],
        still_quad[2..]
    );
}

#[test]
fn a_sheets_cells_show_the_texture_scrolled_to_their_time() {
    // Cells at 0 and 2 s of a clip that moves nothing: the scrolling quad's columns change
    // places between them; a quad that does not scroll looks the same in both.
    let cells_differ = |name: &str, more: &str| {
        let path = file(name, &scrolling_quad_json(more, "Hold"));
        let out = path.with_extension("png");
        let file = path.to_str().unwrap();
        common::succeed(&[
            "sheet",
            file,
            "--frames",
            "2",
            "--cell",
            "96",
            "-o",
            out.to_str().unwrap(),
        ]);
        let sheet = image::open(&out).unwrap().to_rgba8();
        // The sheet's margin is 8 pixels: each cell is a column of 96 after it; its middle
        // rows hold the quad (the clip's title is above, the times below).
        let middle = sheet.height() / 2 - 24;
        let column = |x: u32| image::imageops::crop_imm(&sheet, x, middle, 96, 48).to_image();
        mean_difference(&column(8), &column(8 + 96 + 8))
    };
    let scrolling = cells_differ("sheet-scroll", r#","uvAnimationScrollXSpeedFactor":0.25"#);
    let still = cells_differ("sheet-still", "");
    assert!(scrolling > 10.0 * still.max(0.1), "{scrolling} against {still}");
}

#[test]
fn a_videos_frames_show_the_texture_scrolled_to_their_time() {
    // Frames at 0 and 1 s (one a second): the scrolling quad's texture has moved a quarter
    // between them; a quad that does not scroll looks the same in both.
    let ends_differ = |name: &str, more: &str| {
        let path = file(name, &scrolling_quad_json(more, "Hold"));
        let frames = path.with_extension("");
        let file = path.to_str().unwrap();
        let out = frames.to_str().unwrap();
        common::succeed(&["video", file, "--fps", "1", "--size", "96x96", "--no-grid", "-o", out]);
        let frame = |n: u32| {
            image::open(frames.join(format!("frame_{n:04}.png")))
                .unwrap()
                .to_rgba8()
        };
        mean_difference(&frame(1), &frame(2))
    };
    let scrolling = ends_differ("video-scroll", r#","uvAnimationScrollXSpeedFactor":0.25"#);
    let still = ends_differ("video-still", "");
    assert!(scrolling > 10.0 * still.max(0.1), "{scrolling} against {still}");
}

/// Two blended MToon quads, the far one (green) behind the near one (red, half transparent),
/// with the near one's `near` MToon members; the colour in the middle.
fn blended_pair(name: &str, near: &str, renderer: &mut Renderer) -> [u8; 4] {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&quad());
    let material = |colour: &str, more: &str| {
        format!(
            r#"{{"alphaMode":"BLEND","pbrMetallicRoughness":{{"baseColorFactor":{colour}}},"extensions":{{"VRMC_materials_mtoon":{{"specVersion":"1.0","shadeColorFactor":[1,1,1]{more}}}}}}}"#
        )
    };
    let json = buffers.gltf(&format!(
        r#""extensionsUsed":["VRMC_materials_mtoon"],
        "materials":[{},{}],
        "meshes":[{{"primitives":[{{{primitive},"material":0}}]}},{{"primitives":[{{{primitive},"material":1}}]}}],
        "nodes":[{{"mesh":0,"translation":[0,0,0.5]}},{{"mesh":1,"translation":[0,0,-0.5]}}],"scenes":[{{"nodes":[0,1]}}]"#,
        material("[1,0,0,0.5]", near),
        material("[0,1,0,1]", ""),
    ));
    let image = renderer.render(&load(name, &json), &key_light_only());
    save(&image, name);
    image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0
}

#[test]
fn blended_mtoon_follows_its_render_queue_and_may_write_depth() {
    let mut renderer = Renderer::new();
    // Far to near: the green shows through the red.
    let [r, g, _, _] = blended_pair("queue-default", "", &mut renderer);
    assert!(r > 60 && g > 60, "{r} {g}");
    // The near quad first (a lower queue), without depth writes: the green is drawn over it.
    let [r, g, _, _] = blended_pair("queue-first", r#","renderQueueOffsetNumber":-1"#, &mut renderer);
    assert!(g > 150 && r < 40, "{r} {g}");
    // First and writing depth: the green behind it is hidden.
    let [r, g, _, _] = blended_pair(
        "queue-first-depth",
        r#","renderQueueOffsetNumber":-1,"transparentWithZWrite":true"#,
        &mut renderer,
    );
    // (Half the background's green shows through the red.)
    assert!(r > 100 && g < 50, "{r} {g}");
}

/// `write_face_avatar`'s face drawn with MToon, and the happy expression also setting its
/// shade colour blue.
fn write_toon_face(path: &std::path::Path) {
    write_face_avatar(path);
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["materials"][0]["extensions"] = json!({ "VRMC_materials_mtoon": {
        "specVersion": "1.0", "outlineWidthMode": "worldCoordinates", "outlineWidthFactor": 0.01
    } });
    let happy = &mut file["extensions"]["VRMC_vrm"]["expressions"]["preset"]["happy"];
    happy["materialColorBinds"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "material": 0, "type": "shadeColor", "targetValue": [0.0, 0.0, 1.0] }));
    std::fs::write(path, serde_json::to_string(&file).unwrap()).unwrap();
}

#[test]
fn expressions_and_animation_pointers_set_mtoon_colours_and_inspect_lists_the_materials() {
    let dir = common::temp_dir("mtoon-face");
    let path = dir.join("toon-face.gltf");
    write_toon_face(&path);
    let file = path.to_str().unwrap();
    let shade = |expression: &str| {
        let posed: Value = serde_json::from_str(&common::succeed(&["pose", file, "--expression", expression])).unwrap();
        let property = (posed["properties"].as_array().unwrap().iter())
            .find(|p| p["pointer"] == "/materials/0/extensions/VRMC_materials_mtoon/shadeColorFactor")
            .cloned();
        property.map(|p| p["value"].clone())
    };
    assert_eq!(shade("happy=0"), Some(json!([0.0, 0.0, 0.0])));
    assert_eq!(shade("happy=0.5"), Some(json!([0.0, 0.0, 0.5])));
    let report: Value = serde_json::from_str(&common::succeed(&["inspect", "--json", file])).unwrap();
    assert_eq!(report["avatar"]["mtoon_materials"], json!(["Skin (outlined)"]));
    let text = common::succeed(&["inspect", file]);
    assert!(text.contains("MToon materials: Skin (outlined)"), "{text}");
    let mut harness = panel_harness(rigscope::asset::load(&path).unwrap());
    harness.run();
    assert!(harness.query_by_label("MToon materials: Skin (outlined)").is_some());
    assert!(!text.contains("VRMC_materials_mtoon: used, not"), "{text}");

    // KHR_animation_pointer reaches MToon's factors; on a material without MToon it is a
    // warning.
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let times = common::f32_bytes(&[0.0, 1.0, 0.02, 0.04]);
    json["buffers"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "byteLength": 16, "uri": common::data_uri(&times) }));
    let buffer = json["buffers"].as_array().unwrap().len() - 1;
    json["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "buffer": buffer, "byteLength": 16 }));
    let view = json["bufferViews"].as_array().unwrap().len() - 1;
    let accessors = json["accessors"].as_array_mut().unwrap();
    accessors.push(
        json!({ "bufferView": view, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0] }),
    );
    accessors.push(json!({ "bufferView": view, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "SCALAR" }));
    let (input, output) = (accessors.len() - 2, accessors.len() - 1);
    json["extensionsUsed"]
        .as_array_mut()
        .unwrap()
        .push(json!("KHR_animation_pointer"));
    let pointer = |target: &str| json!({ "sampler": 0, "target": { "path": "pointer", "extensions": { "KHR_animation_pointer": { "pointer": target } } } });
    json["animations"] = json!([{ "name": "Widen", "samplers": [{ "input": input, "output": output }], "channels": [
        pointer("/materials/0/extensions/VRMC_materials_mtoon/outlineWidthFactor"),
    ] }, { "name": "Wrong", "samplers": [{ "input": input, "output": output }], "channels": [
        pointer("/materials/0/extensions/VRMC_materials_mtoon/noSuchFactor"),
    ] }]);
    let animated = dir.join("animated.gltf");
    std::fs::write(&animated, serde_json::to_string(&json).unwrap()).unwrap();
    let width_at = |time: &str| {
        let out = common::succeed(&["pose", animated.to_str().unwrap(), "--clip", "Widen", "--time", time]);
        let posed: Value = serde_json::from_str(&out).unwrap();
        (posed["properties"].as_array().unwrap().iter())
            .find(|p| p["pointer"] == "/materials/0/extensions/VRMC_materials_mtoon/outlineWidthFactor")
            .map(|p| p["value"][0].as_f64().unwrap())
    };
    let half = width_at("0.5").unwrap();
    assert!((half - 0.03).abs() < 1e-6, "{half}");
    let inspected = common::succeed(&["inspect", animated.to_str().unwrap()]);
    assert!(inspected.contains("noSuchFactor"), "{inspected}");
    std::fs::remove_dir_all(&dir).unwrap();
}
