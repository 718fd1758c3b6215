// The mesh shader of materials without layers: a stand-in for layers.wgsl that reads nothing,
// so that their draws bind and sample no layer textures.

const SHEEN_LAYER: bool = false;
const CLEARCOAT_LAYER: bool = false;
const IRIDESCENCE_LAYER: bool = false;
const DIFFUSE_TRANSMISSION_LAYER: bool = false;
const ANISOTROPY_LAYER: bool = false;

fn layer_uv(layer: u32, uv0: vec2<f32>, uv1: vec2<f32>) -> vec2<f32> {
    return uv0;
}

fn layer_linear(layer: u32) -> vec4<f32> {
    return vec4<f32>(1.0, 0.0, 0.0, 1.0);
}

fn layer_sample(layer: u32, uv0: vec2<f32>, uv1: vec2<f32>, absent: vec4<f32>) -> vec4<f32> {
    return absent;
}
