// How a scene shader writes its colour (src/render/pipelines.rs, `SceneOutput`): linear HDR
// into the scene image, which the tone map pass maps afterwards, or, with `DISPLAY_OUTPUT`, as
// the display shows it, so that what is drawn over the displayed image mixes displayed colours
// and the samples of a multisampled one each hold their own, averaged when it is resolved, as
// three.js (which encodes in each fragment shader) draws into its canvas.
//
// After frame.wgsl (the exposure and curve), srgb.wgsl and tone_curve.wgsl (`displayed`).

override DISPLAY_OUTPUT: bool = false;

// `color` as the pipeline's target holds it: linear HDR for the scene image, or displayed (the
// frame's exposure and curve, tone_curve.wgsl's `displayed`).
fn scene_output(color: vec4<f32>) -> vec4<f32> {
    if (!DISPLAY_OUTPUT) {
        return color;
    }
    let exposed = max(color.rgb * frame.exposure_lights.x, vec3<f32>(0.0));
    return vec4<f32>(displayed(exposed, u32(frame.exposure_lights.w)), color.a);
}
