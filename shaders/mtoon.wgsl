// MToon, VRM's toon material (VRMC_materials_mtoon; src/asset/mtoon.rs), appended after
// mesh.wgsl and layers.wgsl for the toon pipelines: its textures sit in the layer slots.
// It follows the specification and three-vrm (its reference, tools/peer-vrm/MTOON.md):
//
// - Each light's N·L, moved by the shading shift, picks between the shade colour and the lit
//   colour through a ramp as hard as the toony factor, but never narrower than a pixel (an
//   antialiased edge, not stair-steps); a shadow moves towards the shade colour, not to
//   black. The light's colour is not multiplied by N·L.
// - The ambient light (the environment's irradiance, evened out over the directions by the
//   GI equalisation as the specification says) lights the lit colour.
// - Rim light (a parametric fresnel rim and a matcap, times the rim texture) is added,
//   lit by the light around as much as the rim's lighting mix says; then the emission.
// - Texture coordinates turn about (0.5, 0.5) and scroll with time, where the mask allows.
// - The outline is the mesh pushed out along its normals with its front faces culled
//   (`vs_outline`), coloured by the outline colour times as much of the lit colour as its
//   lighting mix says.

const OUTLINE_WORLD: u32 = 1u;
const OUTLINE_SCREEN: u32 = 2u;

// Texture coordinates `uv` turned and scrolled by the animation's time, scaled by `mask`.
fn animated_uv(uv: vec2<f32>, mask: f32) -> vec2<f32> {
    let time = frame.time_view.x;
    let turn = material.toon_uv_animation.z * time * mask;
    let c = cos(turn);
    let s = sin(turn);
    let p = uv - 0.5;
    let turned = vec2<f32>(c * p.x + s * p.y, -s * p.x + c * p.y) + 0.5;
    return turned + material.toon_uv_animation.xy * time * mask;
}

// How far towards the lit colour a light at `n_dot_l` shades: a ramp from −1 + toony to
// 1 − toony (a step at toony 1), about 0. `pixel`: how much n·l + shift changes across the
// pixel; a ramp narrower than that is widened to it, so that the edge between the lit and the
// shade colours is antialiased rather than stair-stepped, as wide as a pixel at any toony.
fn toon_share(n_dot_l: f32, shift: f32, pixel: f32) -> f32 {
    let toony = material.toon_shade.w;
    let width = max(max(2.0 - 2.0 * toony, pixel), 1e-5);
    return clamp((n_dot_l + shift) / width + 0.5, 0.0, 1.0);
}

// How much n·l + shift changes across the pixel for light from `l`: |d/dx| + |d/dy| (its
// `fwidth`) from the derivatives of the normal and of the shift.
fn toon_pixel(l: vec3<f32>, n_dx: vec3<f32>, n_dy: vec3<f32>, shift_d: vec2<f32>) -> f32 {
    return abs(dot(n_dx, l) + shift_d.x) + abs(dot(n_dy, l) + shift_d.y);
}

// The ambient light on normal `n`: mixed with the average of straight up and straight down as
// much as the GI equalisation says.
fn toon_ambient(n: vec3<f32>) -> vec3<f32> {
    let even = 0.5 * (light_probe_irradiance(vec3<f32>(0.0, 1.0, 0.0)) + light_probe_irradiance(vec3<f32>(0.0, -1.0, 0.0)));
    return mix(light_probe_irradiance(n), even, material.toon_shading.z);
}

// The lit colour of this fragment (rgb) and its alpha: what `fs_mtoon` draws, and what the
// outline mixes with its colour. `outline`: the outline's back faces, lit as the surface
// they stand out from.
fn toon_color(in: VertexOut, front: bool, outline: bool) -> vec4<f32> {
    let l = normalize(frame.light_direction.xyz);
    let v = normalize(frame.camera_position.xyz - in.world);
    let facing_front = front || outline;
    var normal = in.normal;
    if (draw.flat_shaded == 1u) {
        normal = flat_normal(in.world, v, facing_front, in.normal);
    }
    let geometric = select(-1.0, 1.0, facing_front) * normalize(normal);
    if (draw.ramp != RAMP_NONE) {
        return vertex_view_color(in.view_value, geometric, l);
    }
    let one = vec4<f32>(1.0);
    // The mask is read where the coordinates have not moved; every texture that follows them
    // but the matcap (which looks up by normal) and the outline's width reads them moved.
    let mask = layer_sample(LAYER_UV_ANIMATION_MASK, in.uv, in.uv1, one).b;
    let uv0 = animated_uv(in.uv, mask);
    let uv1 = animated_uv(in.uv1, mask);
    // Every texture is sampled before the alpha test may discard.
    let base_sample = material_sample(0u, base_color_texture, base_color_sampler, uv0, uv1, one);
    let emissive_sample = material_sample(4u, emissive_texture, emissive_sampler, uv0, uv1, one).rgb;
    let shade_sample = layer_sample(LAYER_SHADE_MULTIPLY, uv0, uv1, one).rgb;
    let shift_sample = layer_sample(LAYER_SHADING_SHIFT, uv0, uv1, vec4<f32>(0.0)).r;
    let rim_sample = layer_sample(LAYER_RIM_MULTIPLY, uv0, uv1, one).rgb;
    var n = mapped_normal(normal, in.world, texture_uv(2u, uv0, uv1), in.tangent);
    if (!facing_front) {
        n = -n;
    }
    // The matcap's coordinates: the normal seen from the eye, in a frame upright on screen.
    let across = normalize(vec3<f32>(v.z, 0.0, -v.x));
    let up = cross(v, across);
    let matcap_uv = vec2<f32>(0.5 + 0.5 * dot(across, n), 0.5 - 0.5 * dot(up, n));
    let matcap_sample = layer_sample(LAYER_MATCAP, matcap_uv, matcap_uv, vec4<f32>(0.0)).rgb;
    // The shading's change across the pixel, for the ramp's width: derivatives are taken
    // here, where control flow is still uniform.
    let shift = material.toon_shading.x + shift_sample * material.toon_shading.y;
    let n_dx = dpdx(n);
    let n_dy = dpdy(n);
    let shift_d = vec2<f32>(dpdx(shift), dpdy(shift));
    // MToon leaves vertex colours out.
    let base = alpha_mode_applied(material.base_color * base_sample);
    let channel = u32(frame.exposure_lights.z);
    if (channel != CHANNEL_NONE) {
        let alpha = material.base_color.a * base_sample.a;
        let frame = tangent_frame(geometric, in.world, uv0, in.tangent);
        let inputs = ChannelInputs(
            base.rgb, alpha, one, 1.0, material.emissive.rgb * emissive_sample, geometric, n, uv0, uv1,
            0.0, 0.0, 0.0, vec3<f32>(0.0), 0.0, frame[0], frame[1], vec3<f32>(0.0),
        );
        return vec4<f32>(channel_color(channel, inputs), 1.0);
    }
    // KHR_materials_unlit beside MToon is the fallback of viewers without MToon: not used.
    if (draw.style == STYLE_UNLIT) {
        return base;
    }
    let shade = material.toon_shade.rgb * shade_sample;
    var direct = vec3<f32>(0.0);
    // All the light arriving, for the rim.
    var around = vec3<f32>(0.0);
    let key = frame.light_direction.w;
    if (key > 0.0) {
        let shadow = shadowed_key_light(in.world, geometric) / key;
        let share = toon_share(dot(n, l), shift, toon_pixel(l, n_dx, n_dy, shift_d)) * shadow;
        direct += key * mix(shade, base.rgb, share) / PI;
        around += vec3<f32>(key);
    }
    let count = u32(frame.exposure_lights.y);
    for (var i = 0u; i < count; i++) {
        let light = light_at(i, in.world, geometric);
        let share = toon_share(dot(n, light.l), shift, toon_pixel(light.l, n_dx, n_dy, shift_d)) * light.shadow;
        direct += light.radiance * mix(shade, base.rgb, share) / PI;
        around += light.radiance;
    }
    // The environment's irradiance is already divided by π.
    let ambient = toon_ambient(n);
    let indirect = ambient * base.rgb;
    around = around / PI + ambient;
    let fresnel = clamp(1.0 - dot(v, n) + material.toon_rim.w, 0.0, 1.0);
    var rim = material.toon_rim.rgb * pow(fresnel, max(material.toon_matcap.w, 1e-5));
    rim += material.toon_matcap.rgb * matcap_sample;
    rim *= rim_sample;
    let rim_light = mix(vec3<f32>(1.0), around, material.toon_shading.w);
    let emission = material.emissive.rgb * emissive_sample;
    return vec4<f32>(direct + indirect + rim * rim_light + emission, base.a);
}

@fragment
fn fs_mtoon(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return scene_output(toon_color(in, front, false));
}

// The outline: the mesh pushed out along its normals by the outline's width (in the model's
// units, or a share of half the view's height at the vertex's depth), times the width
// texture's green; a hair behind, so that it never covers the surface it outlines.
@vertex
fn vs_outline(
    v: VertexIn,
    @location(7) view_value: f32,
    @location(8) uv1: vec2<f32>,
    @location(9) color: vec4<f32>,
    copy: CopyIn,
    @builtin(instance_index) instance: u32,
) -> VertexOut {
    var out = mesh_vertex(v, view_value, uv1, color, copy, instance);
    let width_sample = layer_sample_level(LAYER_OUTLINE_WIDTH_MULTIPLY, out.uv, out.uv1, vec4<f32>(1.0)).g;
    var width = material.toon_outline_width.x * width_sample;
    if (u32(material.toon_outline_width.y) == OUTLINE_SCREEN) {
        width *= out.clip.w * frame.time_view.y;
    }
    let length2 = dot(out.normal, out.normal);
    if (length2 > 0.0) {
        out.world += out.normal * inverseSqrt(length2) * width;
    }
    out.clip = frame.view_proj * vec4<f32>(out.world, 1.0);
    out.clip.z += 1e-6 * out.clip.w;
    return out;
}

@fragment
fn fs_outline(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return scene_output(outline_color(in, front));
}

// An outline fragment's linear colour (before `scene_output`).
fn outline_color(in: VertexOut, front: bool) -> vec4<f32> {
    let lit = toon_color(in, front, true);
    if (draw.ramp != RAMP_NONE || u32(frame.exposure_lights.z) != CHANNEL_NONE) {
        return lit;
    }
    let color = material.toon_outline.rgb * mix(vec3<f32>(1.0), lit.rgb, material.toon_outline.w);
    return vec4<f32>(color, lit.a);
}
