// Copies a texture onto another, converting the colour encoding on the way.
//
// `Output` mirrors `BlitUniform` in src/render/blit.rs; `FullscreenOut` comes from
// fullscreen.wgsl.

struct Output {
    // x: 0 = copy as sampled, 1 = encode linear → sRGB, 2 = decode sRGB → linear.
    flags: vec4<u32>,
};

@group(0) @binding(0) var scene: texture_2d<f32>;
@group(0) @binding(1) var scene_sampler: sampler;
@group(0) @binding(2) var<uniform> output: Output;

fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(high, low, c <= vec3<f32>(0.04045));
}

@fragment
fn fs_main(in: FullscreenOut) -> @location(0) vec4<f32> {
    let color = textureSample(scene, scene_sampler, in.uv);
    if (output.flags.x == 1u) {
        return vec4<f32>(linear_to_srgb(color.rgb), color.a);
    }
    if (output.flags.x == 2u) {
        return vec4<f32>(srgb_to_linear(color.rgb), color.a);
    }
    return color;
}
