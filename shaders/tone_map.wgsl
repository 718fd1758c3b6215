// The scene's linear HDR colours → the displayed image: exposure, then a tone curve, then
// sRGB-encoded here (the display image is not an sRGB format, so the window can copy it as it
// is). Once per frame drawn in linear HDR, after its scene passes.
//
// `ToneMap` is the exposure buffer of src/render/tone_map.rs, which picks the entry point for
// the curve; the vertex shader is fullscreen.wgsl's, `displayed` and the curves tone_curve.wgsl's.

struct ToneMap {
    // x: 2^exposure.
    exposure: vec4<f32>,
};

@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var<uniform> tone_map: ToneMap;

// The scene's colour at this pixel, exposed.
fn exposed(position: vec4<f32>) -> vec3<f32> {
    let hdr = textureLoad(scene, vec2<i32>(position.xy), 0);
    return max(hdr.rgb * tone_map.exposure.x, vec3<f32>(0.0));
}

// One entry point per curve (src/render/tone_map.rs picks the pipeline).
@fragment
fn fs_no_curve(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(displayed(exposed(position), CURVE_NONE), 1.0);
}

@fragment
fn fs_pbr_neutral(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(displayed(exposed(position), CURVE_PBR_NEUTRAL), 1.0);
}

@fragment
fn fs_aces_filmic(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(displayed(exposed(position), CURVE_ACES_FILMIC), 1.0);
}
