// The GPU's skinning written to a texture, one texel per vertex (the bits of the position's
// floats, so they come back exactly), so that the CPU can
// compare it with its own (the CPU-vs-GPU difference view, src/render/skin_compare.rs). Each
// vertex is drawn as a point on its texel; `skinned_matrix` is the same code the mesh
// pipelines use (skinning.wgsl).

struct Capture {
    // x: texture width, y: texture height, z: the texel of this draw's first vertex.
    params: vec4<u32>,
};

@group(2) @binding(0) var<uniform> capture: Capture;

struct CaptureOut {
    @builtin(position) clip: vec4<f32>,
    // Flat: the vertex's own bits, whatever the rasteriser would do to interpolate.
    @location(0) @interpolate(flat) world: vec3<f32>,
};

@vertex
fn vs_capture(v: VertexIn, @builtin(vertex_index) index: u32) -> CaptureOut {
    let texel = capture.params.z + index;
    let size = vec2<f32>(f32(capture.params.x), f32(capture.params.y));
    let pixel = vec2<f32>(f32(texel % capture.params.x), f32(texel / capture.params.x)) + 0.5;
    var out: CaptureOut;
    out.clip = vec4<f32>(pixel.x / size.x * 2.0 - 1.0, 1.0 - pixel.y / size.y * 2.0, 0.0, 1.0);
    out.world = (skinned_matrix(v) * vec4<f32>(v.position, 1.0)).xyz;
    return out;
}

@fragment
fn fs_capture(in: CaptureOut) -> @location(0) vec4<u32> {
    return vec4<u32>(bitcast<vec3<u32>>(in.world), 1u);
}
