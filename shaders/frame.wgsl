// Shared by every scene shader (prepended to each by src/render/pipelines.rs): the per-frame
// uniform block, the shadow map, and the filtered shadow lookup.
//
// `Frame` mirrors `FrameUniform` in src/render/uniforms.rs.

struct Frame {
    view_proj: mat4x4<f32>,
    light_view_proj: mat4x4<f32>,
    camera_position: vec4<f32>,
    // xyz: direction towards the key light.
    light_direction: vec4<f32>,
    // x: 1 when the shadow map is used, y: its texel size.
    shadow: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

// Fraction of the key light reaching world position `world`, averaged over a
// (2 × reach + 1)² grid of shadow-map samples `spread` texels apart; `bias` pushes the
// comparison away from the occluder's own surface.
fn shadow_factor(world: vec3<f32>, reach: i32, spread: f32, bias: f32) -> f32 {
    if (frame.shadow.x == 0.0) {
        return 1.0;
    }
    let light_clip = frame.light_view_proj * vec4<f32>(world, 1.0);
    let ndc = light_clip.xyz / light_clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0) {
        return 1.0;
    }
    var lit = 0.0;
    for (var y = -reach; y <= reach; y++) {
        for (var x = -reach; x <= reach; x++) {
            let offset = vec2<f32>(f32(x), f32(y)) * frame.shadow.y * spread;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + offset, ndc.z - bias);
        }
    }
    let side = f32(2 * reach + 1);
    return lit / (side * side);
}
