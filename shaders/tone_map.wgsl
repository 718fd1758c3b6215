// The scene's linear HDR colours → the displayed image: exposure, then a tone curve, then
// sRGB-encoded here (the display image is not an sRGB format, so the window can copy it as it
// is). Once per frame, after every scene pass.
//
// `ToneMap` is the exposure buffer of src/render/tone_map.rs, which picks the entry point for
// the curve; the vertex shader is fullscreen.wgsl's, `linear_to_srgb` srgb.wgsl's.

struct ToneMap {
    // x: 2^exposure.
    exposure: vec4<f32>,
};

@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var<uniform> tone_map: ToneMap;

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

// The scene's colour at this pixel, exposed.
fn exposed(position: vec4<f32>) -> vec3<f32> {
    let hdr = textureLoad(scene, vec2<i32>(position.xy), 0);
    return max(hdr.rgb * tone_map.exposure.x, vec3<f32>(0.0));
}

fn display(color: vec3<f32>) -> vec4<f32> {
    return vec4<f32>(linear_to_srgb(clamp(color, vec3<f32>(0.0), vec3<f32>(1.0))), 1.0);
}

// One entry point per curve (src/render/tone_map.rs picks the pipeline).
@fragment
fn fs_no_curve(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return display(exposed(position));
}

@fragment
fn fs_pbr_neutral(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return display(pbr_neutral(exposed(position)));
}

@fragment
fn fs_aces_filmic(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    // Hill's fit expects colours scaled as the sample viewer's exposure does.
    return display(aces_filmic(exposed(position) / 0.6));
}
