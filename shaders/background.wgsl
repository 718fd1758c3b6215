// What is behind the scene (drawn first, so everything else covers it): the environment, each
// pixel its radiance in the direction it looks, or a flat dark grey.
//
// `Frame` and `environment_radiance` come from frame.wgsl, `scene_output` from
// scene_output.wgsl, `FullscreenOut` and the vertex shader from fullscreen.wgsl.

// The flat background's linear colour (displayed (30, 36, 46) under the default exposure and
// curve).
const FLAT: vec3<f32> = vec3<f32>(0.045, 0.05, 0.06);

@fragment
fn fs_environment(in: FullscreenOut) -> @location(0) vec4<f32> {
    let ndc = in.uv * vec2<f32>(2.0, -2.0) + vec2<f32>(-1.0, 1.0);
    let far = frame.inverse_view_proj * vec4<f32>(ndc, 1.0, 1.0);
    let direction = normalize(far.xyz / far.w - frame.camera_position.xyz);
    return scene_output(vec4<f32>(environment_radiance(direction, 0.0), 1.0));
}

@fragment
fn fs_flat() -> @location(0) vec4<f32> {
    return scene_output(vec4<f32>(FLAT, 1.0));
}
