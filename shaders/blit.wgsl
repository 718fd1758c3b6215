// Copies the scene's displayed image into the window, decoding it for an sRGB window.
//
// `FullscreenOut` comes from fullscreen.wgsl, `srgb_to_linear` from srgb.wgsl.

@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var scene_sampler: sampler;

// Into a plain 8-bit window.
@fragment
fn fs_copy(in: FullscreenOut) -> @location(0) vec4<f32> {
    return textureSample(scene, scene_sampler, in.uv);
}

// Into an sRGB window, whose hardware encodes again.
@fragment
fn fs_decode(in: FullscreenOut) -> @location(0) vec4<f32> {
    let color = textureSample(scene, scene_sampler, in.uv);
    return vec4<f32>(srgb_to_linear(color.rgb), color.a);
}
