// The environment behind the scene: each pixel shows the environment's radiance in the
// direction it looks (drawn first, so everything else covers it).
//
// `Frame` and `environment_radiance` come from frame.wgsl, `FullscreenOut` and the vertex
// shader from fullscreen.wgsl.

@fragment
fn fs_main(in: FullscreenOut) -> @location(0) vec4<f32> {
    let ndc = in.uv * vec2<f32>(2.0, -2.0) + vec2<f32>(-1.0, 1.0);
    let far = frame.inverse_view_proj * vec4<f32>(ndc, 1.0, 1.0);
    let direction = normalize(far.xyz / far.w - frame.camera_position.xyz);
    return vec4<f32>(environment_radiance(direction, 0.0), 1.0);
}
