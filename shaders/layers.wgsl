// The textures of the KHR_materials_* layers (sheen, clear coat, specular, iridescence, diffuse
// transmission, anisotropy), appended to mesh.wgsl for the layered and transmissive pipelines.
// A material binds at most `LAYER_SLOTS` of them, each to a slot of its own
// (src/render/uniforms.rs, `layer_slots`), so that every pipeline stays within 16 textures.

// What the pipeline's materials have (set per pipeline: src/render/pipelines/layer_variant.rs).
// A software rasteriser runs every branch's body and every case of a switch even where no
// pixel takes it, so each layer a material lacks, and each slot it does not read, is compiled
// out.
// The defaults (every layer, the slots read from the material) serve any material.
override SHEEN_LAYER: bool = true;
override CLEARCOAT_LAYER: bool = true;
override IRIDESCENCE_LAYER: bool = true;
override DIFFUSE_TRANSMISSION_LAYER: bool = true;
override ANISOTROPY_LAYER: bool = true;
// Whether the slots below are the material's: then the slot of each layer is known as the
// pipeline is made, and `layer_sample` reads one texture, not a switch of five.
override LAYER_SLOTS_FIXED: bool = false;
// The slot of layers 0 to 9 (LAYER_*), three bits each from the lowest; then of layers 10 on.
override LAYER_SLOTS_LOW: u32 = 0u;
override LAYER_SLOTS_HIGH: u32 = 0u;

@group(2) @binding(15) var layer_texture_0: texture_2d<f32>;
@group(2) @binding(16) var layer_texture_1: texture_2d<f32>;
@group(2) @binding(17) var layer_texture_2: texture_2d<f32>;
@group(2) @binding(18) var layer_texture_3: texture_2d<f32>;
@group(2) @binding(19) var layer_texture_4: texture_2d<f32>;
@group(2) @binding(20) var layer_sampler_0: sampler;
@group(2) @binding(21) var layer_sampler_1: sampler;
@group(2) @binding(22) var layer_sampler_2: sampler;
@group(2) @binding(23) var layer_sampler_3: sampler;
@group(2) @binding(24) var layer_sampler_4: sampler;

// The slot (1 to LAYER_SLOTS) the material binds layer texture `layer` to, 0 for none.
fn layer_slot(layer: u32) -> u32 {
    if (LAYER_SLOTS_FIXED) {
        if (layer >= 10u) {
            return (LAYER_SLOTS_HIGH >> (3u * (layer - 10u))) & 7u;
        }
        return (LAYER_SLOTS_LOW >> (3u * layer)) & 7u;
    }
    return material.layer_slots[layer / 4u][layer % 4u];
}

// Layer texture `layer`'s coordinates at this fragment: its TEXCOORD set, transformed.
fn layer_uv(layer: u32, uv0: vec2<f32>, uv1: vec2<f32>) -> vec2<f32> {
    let slot = max(layer_slot(layer), 1u) - 1u;
    let uv = select(uv0, uv1, (material.layer_sets.x & (1u << slot)) != 0u);
    let row0 = material.layer_transforms[slot * 2u];
    let row1 = material.layer_transforms[slot * 2u + 1u];
    return vec2<f32>(dot(row0.xyz, vec3<f32>(uv, 1.0)), dot(row1.xyz, vec3<f32>(uv, 1.0)));
}

// The linear part of layer texture `layer`'s transform, as `texture_linear` gives it.
fn layer_linear(layer: u32) -> vec4<f32> {
    let slot = max(layer_slot(layer), 1u) - 1u;
    let row0 = material.layer_transforms[slot * 2u];
    let row1 = material.layer_transforms[slot * 2u + 1u];
    return vec4<f32>(row0.x, row0.y, row1.x, row1.y);
}

// Layer texture `layer` at this fragment, or `absent` when the material has none. The slot
// is uniform, so the choice keeps control flow uniform.
fn layer_sample(layer: u32, uv0: vec2<f32>, uv1: vec2<f32>, absent: vec4<f32>) -> vec4<f32> {
    let slot = layer_slot(layer);
    if (slot == 0u) {
        return absent;
    }
    let uv = layer_uv(layer, uv0, uv1);
    switch slot {
        case 1u: { return textureSample(layer_texture_0, layer_sampler_0, uv); }
        case 2u: { return textureSample(layer_texture_1, layer_sampler_1, uv); }
        case 3u: { return textureSample(layer_texture_2, layer_sampler_2, uv); }
        case 4u: { return textureSample(layer_texture_3, layer_sampler_3, uv); }
        default: { return textureSample(layer_texture_4, layer_sampler_4, uv); }
    }
}

// `layer_sample` for the vertex stage, which has no derivatives: the first mip level.
fn layer_sample_level(layer: u32, uv0: vec2<f32>, uv1: vec2<f32>, absent: vec4<f32>) -> vec4<f32> {
    let slot = layer_slot(layer);
    if (slot == 0u) {
        return absent;
    }
    let uv = layer_uv(layer, uv0, uv1);
    switch slot {
        case 1u: { return textureSampleLevel(layer_texture_0, layer_sampler_0, uv, 0.0); }
        case 2u: { return textureSampleLevel(layer_texture_1, layer_sampler_1, uv, 0.0); }
        case 3u: { return textureSampleLevel(layer_texture_2, layer_sampler_2, uv, 0.0); }
        case 4u: { return textureSampleLevel(layer_texture_3, layer_sampler_3, uv, 0.0); }
        default: { return textureSampleLevel(layer_texture_4, layer_sampler_4, uv, 0.0); }
    }
}
