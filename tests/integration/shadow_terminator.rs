//! The key light's shadow at the terminator (issue 63): a sphere lit by the key light alone is not
//! shadowed by itself on its lit side, at every quality, on MToon (whose lit colour is exact up to
//! its edge) and on PBR (whose light follows N·L). Each pixel's N·L comes from the same view's
//! geometric-normal channel.

use crate::picture::{Renderer, SIZE, plain, save, sphere_model};

use rigscope::asset::Model;
use rigscope::view::{Lighting, MaterialChannel, Quality, ToneMapping, ViewOptions};

/// Towards the studio key light (`LIGHT_DIRECTION` in src/render/scene.rs).
const TOWARDS_KEY: [f32; 3] = [0.45, 1.0, 0.35];

/// N·L from which the lit side is checked: past the hard MToon edge's one-pixel ramp, and where
/// the normal channel's 8-bit levels still give N·L to a tenth of itself.
const LIT_SIDE: f32 = 0.1;

/// The key light alone (no environment), without a tone curve: colours as they are lit.
fn key_light_only() -> ViewOptions {
    plain(Lighting {
        environment_intensity: 0.0,
        tone_mapping: ToneMapping::None,
        ..Lighting::default()
    })
}

/// Per pixel, N·L from the geometric-normal channel, or None for the background and the pixels
/// beside it (whose normals the antialiasing mixes with the background).
fn n_dot_l(renderer: &mut Renderer, model: &Model) -> Vec<Option<f32>> {
    let view = ViewOptions {
        channel: Some(MaterialChannel::GeometricNormal),
        ..key_light_only()
    };
    let normals = renderer.render(model, &view);
    let background = normals.get_pixel(0, 0).0;
    let is_background = |x: u32, y: u32| {
        let p = normals.get_pixel(x, y).0;
        (0..3).all(|c| p[c].abs_diff(background[c]) <= 2)
    };
    let l = glam::Vec3::from(TOWARDS_KEY).normalize();
    let (width, height) = SIZE;
    let mut out = Vec::with_capacity((width * height) as usize);
    for y in 0..height {
        for x in 0..width {
            let inside = (x.saturating_sub(1)..=(x + 1).min(width - 1))
                .all(|nx| (y.saturating_sub(1)..=(y + 1).min(height - 1)).all(|ny| !is_background(nx, ny)));
            let p = normals.get_pixel(x, y).0;
            let n = glam::Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32) / 255.0 * 2.0 - 1.0;
            out.push(inside.then(|| n.normalize().dot(l)));
        }
    }
    out
}

/// An sRGB level as linear light.
fn linear(level: u8) -> f32 {
    let v = level as f32 / 255.0;
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

#[test]
fn an_mtoon_spheres_lit_side_keeps_its_lit_colour_up_to_the_terminator_under_the_shadow() {
    let mut renderer = Renderer::new();
    // Lit red, shaded blue, a hard edge at N·L = 0.
    let model = sphere_model(
        "toon-terminator",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,1]},"extensions":{"VRMC_materials_mtoon":{"specVersion":"1.0","shadeColorFactor":[0,0,1],"shadingToonyFactor":1.0}}}"#,
    );
    for quality in Quality::ALL {
        renderer.scene.set_quality(&renderer.gpu, quality);
        let n_dot_l = n_dot_l(&mut renderer, &model);
        let image = renderer.render(&model, &key_light_only());
        save(&image, &format!("toon-terminator-{quality:?}"));
        let pixels: Vec<(f32, [u8; 4])> = (n_dot_l.iter().zip(image.pixels()))
            .filter_map(|(n_dot_l, p)| n_dot_l.map(|d| (d, p.0)))
            .collect();
        let lit = pixels.iter().max_by(|a, b| a.0.total_cmp(&b.0)).unwrap().1;
        assert!(lit[0] > 150 && lit[2] == 0, "{quality:?}: the lit colour {lit:?}");
        let lit_side: Vec<&(f32, [u8; 4])> = pixels.iter().filter(|(d, _)| *d >= LIT_SIDE).collect();
        let near_terminator = lit_side.iter().filter(|(d, _)| *d < 0.3).count();
        assert!(
            near_terminator > 300,
            "{quality:?}: {near_terminator} pixels near the terminator"
        );
        let darkened: Vec<&&(f32, [u8; 4])> = (lit_side.iter())
            .filter(|(_, p)| (0..3).any(|c| p[c].abs_diff(lit[c]) > 1))
            .collect();
        assert!(
            darkened.is_empty(),
            "{quality:?}: {} of {} lit-side pixels differ from the lit colour {lit:?} by more than a level, \
             the first few (N·L, colour): {:?}",
            darkened.len(),
            lit_side.len(),
            &darkened[..darkened.len().min(5)]
        );
    }
}

#[test]
fn a_pbr_spheres_light_follows_n_dot_l_up_to_the_terminator_under_the_shadow() {
    let mut renderer = Renderer::new();
    let model = sphere_model(
        "pbr-terminator",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":1}}"#,
    );
    for quality in Quality::ALL {
        renderer.scene.set_quality(&renderer.gpu, quality);
        let n_dot_l = n_dot_l(&mut renderer, &model);
        let image = renderer.render(&model, &key_light_only());
        save(&image, &format!("pbr-terminator-{quality:?}"));
        // A rough dielectric lit by one light: its light over N·L is nearly the same everywhere
        // (the Fresnel term and the normals' 8-bit levels move it by a few percent here); the
        // shadow's filter taps on the surface towards the light took a tenth to a fifth off it
        // before the terminator.
        let per_n_dot_l: Vec<(f32, f32)> = (n_dot_l.iter().zip(image.pixels()))
            .filter_map(|(n_dot_l, p)| n_dot_l.filter(|d| *d >= LIT_SIDE).map(|d| (d, linear(p.0[1]) / d)))
            .collect();
        let mut facing: Vec<f32> = (per_n_dot_l.iter())
            .filter(|(d, _)| (0.5..0.9).contains(d))
            .map(|(_, ratio)| *ratio)
            .collect();
        facing.sort_by(f32::total_cmp);
        let typical = facing[facing.len() / 2];
        let near_terminator: Vec<&(f32, f32)> = per_n_dot_l.iter().filter(|(d, _)| *d < 0.3).collect();
        assert!(
            near_terminator.len() > 300,
            "{quality:?}: {} pixels near the terminator",
            near_terminator.len()
        );
        let darkened: Vec<&&(f32, f32)> = (near_terminator.iter())
            .filter(|(_, ratio)| *ratio < 0.9 * typical)
            .collect();
        assert!(
            darkened.is_empty(),
            "{quality:?}: {} of {} pixels near the terminator are darker than 0.9 of the light N·L gives ({typical}), \
             the first few (N·L, light over N·L): {:?}",
            darkened.len(),
            near_terminator.len(),
            &darkened[..darkened.len().min(5)]
        );
    }
}
