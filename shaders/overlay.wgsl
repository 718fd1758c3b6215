// Skeleton overlay: bones as lines and joints as small screen-facing squares, in
// per-vertex colours, drawn over the mesh (the pipeline ignores depth) after tone mapping
// (`displayed` is tone_curve.wgsl's).
//
// `Frame` comes from frame.wgsl.


struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
    // Offset in clip-space units per w (for joint squares; zero for bones).
    @location(2) offset: vec2<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var clip = frame.view_proj * vec4<f32>(v.position, 1.0);
    clip = vec4<f32>(clip.xy + v.offset * clip.w, clip.zw);
    var out: VertexOut;
    out.clip = clip;
    out.color = v.color;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    // Drawn over the tone-mapped image: the colour as the display shows it.
    let exposed = max(in.color.rgb * frame.exposure_lights.x, vec3<f32>(0.0));
    return vec4<f32>(displayed(exposed, u32(frame.exposure_lights.w)), in.color.a);
}
