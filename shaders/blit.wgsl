// Copies the scene's displayed image into the window, decoding it for an sRGB window.
//
// `Output` mirrors `BlitUniform` in src/render/blit.rs; `FullscreenOut` comes from
// fullscreen.wgsl, `srgb_to_linear` from srgb.wgsl.

struct Output {
    // x: 0 = copy as sampled, 1 = decode sRGB → linear.
    flags: vec4<u32>,
};

@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var scene_sampler: sampler;
@group(0) @binding(2) var<uniform> output: Output;

@fragment
fn fs_main(in: FullscreenOut) -> @location(0) vec4<f32> {
    let color = textureSample(scene, scene_sampler, in.uv);
    if (output.flags.x == 1u) {
        return vec4<f32>(srgb_to_linear(color.rgb), color.a);
    }
    return color;
}
