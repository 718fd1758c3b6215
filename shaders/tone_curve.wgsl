// The tone curves, shared by the tone map pass (tone_map.wgsl) and the scene shaders that write
// the displayed image themselves (scene_output.wgsl: every frame without surfaces that refract,
// each sample mapped before a resolve averages them, and what is drawn over the displayed image:
// see src/render/scene.rs, `scene_output`). `CURVE_*` are `ToneMapping`'s numbers in
// src/render/tone_map.rs (`curve_number`); `linear_to_srgb` is srgb.wgsl's.

const CURVE_NONE: u32 = 0u;
const CURVE_PBR_NEUTRAL: u32 = 1u;
const CURVE_ACES_FILMIC: u32 = 2u;

// Khronos PBR Neutral (https://github.com/KhronosGroup/ToneMapping): colours below 0.76 keep
// their hue and almost their value; brighter ones roll off towards white.
fn pbr_neutral(input: vec3<f32>) -> vec3<f32> {
    let start_compression = 0.8 - 0.04;
    let desaturation = 0.15;
    let x = min(input.r, min(input.g, input.b));
    let offset = select(0.04, x - 6.25 * x * x, x < 0.08);
    var color = input - offset;
    let peak = max(color.r, max(color.g, color.b));
    if (peak < start_compression) {
        return color;
    }
    let d = 1.0 - start_compression;
    let new_peak = 1.0 - d * d / (peak + d - start_compression);
    color *= new_peak / peak;
    let g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    return mix(color, vec3<f32>(new_peak), g);
}

// ACES filmic, Stephen Hill's fit of the RRT and ODT (as the glTF Sample Viewer uses it).
fn aces_filmic(color: vec3<f32>) -> vec3<f32> {
    let input_matrix = mat3x3<f32>(
        vec3<f32>(0.59719, 0.07600, 0.02840),
        vec3<f32>(0.35458, 0.90834, 0.13383),
        vec3<f32>(0.04823, 0.01566, 0.83777),
    );
    let output_matrix = mat3x3<f32>(
        vec3<f32>(1.60475, -0.10208, -0.00327),
        vec3<f32>(-0.53108, 1.10813, -0.07276),
        vec3<f32>(-0.07367, -0.00605, 1.07602),
    );
    let v = input_matrix * color;
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return clamp(output_matrix * (a / b), vec3<f32>(0.0), vec3<f32>(1.0));
}

// An exposed linear colour as the display shows it: mapped by `curve`, clamped and
// sRGB-encoded.
fn displayed(exposed: vec3<f32>, curve: u32) -> vec3<f32> {
    var mapped = exposed;
    if (curve == CURVE_PBR_NEUTRAL) {
        mapped = pbr_neutral(exposed);
    } else if (curve == CURVE_ACES_FILMIC) {
        // Hill's fit expects colours scaled as the sample viewer's exposure does.
        mapped = aces_filmic(exposed / 0.6);
    }
    return linear_to_srgb(clamp(mapped, vec3<f32>(0.0), vec3<f32>(1.0)));
}
