// egui's meshes: positions in points, texture coordinates, and premultiplied sRGB-encoded
// vertex colours, drawn over the window with premultiplied alpha blending.
//
// Kept free of branches on purpose: a software rasteriser (Mesa's llvmpipe) runs both sides
// of every branch for each pixel, so egui's own shader, whose options sit behind uniform
// branches, cost more than the whole 3D view there. The two outputs are two entry points.

struct Screen {
    // Width and height in points.
    size: vec2<f32>,
};

@group(0) @binding(0) var<uniform> screen: Screen;
@group(1) @binding(0) var image: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
};

@vertex
fn vs_main(@location(0) position: vec2<f32>, @location(1) uv: vec2<f32>, @location(2) color: vec4<f32>) -> VertexOut {
    var out: VertexOut;
    out.position = vec4<f32>(2.0 * position.x / screen.size.x - 1.0, 1.0 - 2.0 * position.y / screen.size.y, 0.0, 1.0);
    out.uv = uv;
    out.color = color;
    return out;
}

// Into a plain 8-bit target: the colours stay sRGB-encoded, as egui blends them.
@fragment
fn fs_encoded(in: VertexOut) -> @location(0) vec4<f32> {
    return in.color * textureSample(image, image_sampler, in.uv);
}

// Into an sRGB target, whose hardware encodes what the shader writes.
@fragment
fn fs_linear(in: VertexOut) -> @location(0) vec4<f32> {
    let color = in.color * textureSample(image, image_sampler, in.uv);
    return vec4<f32>(srgb_to_linear(color.rgb), color.a);
}
