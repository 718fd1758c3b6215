// Lit, textured meshes, skinned on the GPU or drawn from CPU-skinned or static vertices; the
// depth-only shadow pass, which skins the same way; the bind-pose ghost; and the vertex views
// (weights, influence counts, repairs, CPU-vs-GPU difference) drawn as colours.
//
// The structs mirror the #[repr(C)] Pod structs in src/render/uniforms.rs; `Frame`, the
// shadow map and `shadow_factor` come from frame.wgsl; `Draw`, `VertexIn`, `vertex_matrix`
// and `normal_matrix` from skinning.wgsl.

struct Material {
    base_color: vec4<f32>,
    // x: metallic, y: roughness, z: normal scale, w: alpha cutoff (mask mode).
    factors: vec4<f32>,
    // x: base colour texture, y: metallic-roughness texture, z: normal texture (1 = present);
    // w: alpha mode (0 opaque, 1 mask, 2 blend).
    textures: vec4<u32>,
};


@group(2) @binding(0) var<uniform> material: Material;
@group(2) @binding(1) var base_color_texture: texture_2d<f32>;
@group(2) @binding(2) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(3) var normal_texture: texture_2d<f32>;
@group(2) @binding(4) var material_sampler: sampler;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) view_value: f32,
};

@vertex
fn vs_main(v: VertexIn, @location(7) view_value: f32) -> VertexOut {
    let m = vertex_matrix(v);
    let world = m * vec4<f32>(v.position, 1.0);
    var out: VertexOut;
    out.clip = frame.view_proj * world;
    if (draw.style == STYLE_WIRE) {
        // Wireframe edges sit on the surface: pull them a hair towards the camera.
        out.clip.z -= 0.0005 * out.clip.w;
    }
    out.world = world.xyz;
    out.normal = normal_matrix(m) * v.normal;
    out.uv = v.uv;
    out.view_value = view_value;
    return out;
}

@vertex
fn vs_shadow(v: VertexIn) -> @builtin(position) vec4<f32> {
    let world = vertex_matrix(v) * vec4<f32>(v.position, 1.0);
    return frame.light_view_proj * world;
}

// Perturbs `normal` by the normal map, with a tangent frame from screen-space derivatives
// (no tangents needed, so every model with a normal map gets it).
fn mapped_normal(normal: vec3<f32>, world: vec3<f32>, uv: vec2<f32>) -> vec3<f32> {
    let n = normalize(normal);
    let sample = textureSample(normal_texture, material_sampler, uv).xyz * 2.0 - 1.0;
    if (material.textures.z == 0u) {
        return n;
    }
    // Schüler's cotangent frame, written for y-up window derivatives; WGSL's dpdy runs down
    // the screen, so it is negated.
    let dp1 = dpdx(world);
    let dp2 = -dpdy(world);
    let duv1 = dpdx(uv);
    let duv2 = -dpdy(uv);
    let dp2perp = cross(dp2, n);
    let dp1perp = cross(n, dp1);
    let t = dp2perp * duv1.x + dp1perp * duv2.x;
    let b = dp2perp * duv1.y + dp1perp * duv2.y;
    let scale = inverseSqrt(max(max(dot(t, t), dot(b, b)), 1e-20));
    let tangent_normal = vec3<f32>(sample.xy * material.factors.z, sample.z);
    return normalize(mat3x3<f32>(t * scale, b * scale, n) * tangent_normal);
}

// 0 to 1 as blue, cyan, green, yellow, red (weight painting's colours); below 0 (nothing
// measured there) grey.
fn heat(t: f32) -> vec3<f32> {
    if (t < 0.0) {
        return vec3<f32>(0.3, 0.3, 0.3);
    }
    var stops = array<vec3<f32>, 5>(
        vec3<f32>(0.02, 0.03, 0.45),
        vec3<f32>(0.0, 0.8, 1.0),
        vec3<f32>(0.1, 0.9, 0.1),
        vec3<f32>(1.0, 0.9, 0.0),
        vec3<f32>(1.0, 0.05, 0.02),
    );
    let x = clamp(t, 0.0, 1.0) * 4.0;
    let i = min(u32(x), 3u);
    return mix(stops[i], stops[i + 1u], x - f32(i));
}

// A vertex view's value as a colour, by `ramp` (Draw.ramp). Counts and flags are rounded
// after interpolation, so their regions have sharp borders halfway between vertices.
fn view_color(ramp: u32, value: f32) -> vec3<f32> {
    if (ramp == RAMP_HEAT) {
        return heat(value);
    }
    if (ramp == RAMP_COUNT) {
        var counts = array<vec3<f32>, 8>(
            vec3<f32>(0.3, 0.3, 0.3),
            vec3<f32>(0.05, 0.2, 0.9),
            vec3<f32>(0.1, 0.8, 0.2),
            vec3<f32>(1.0, 0.85, 0.0),
            vec3<f32>(1.0, 0.4, 0.0),
            vec3<f32>(0.9, 0.05, 0.05),
            vec3<f32>(0.85, 0.1, 0.7),
            vec3<f32>(0.6, 0.2, 1.0),
        );
        return counts[min(u32(round(max(value, 0.0))), 7u)];
    }
    return select(vec3<f32>(0.35, 0.35, 0.37), vec3<f32>(1.0, 0.05, 0.85), value >= 0.5);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    if (draw.style == STYLE_WIRE) {
        return draw.wire_color;
    }
    let l = normalize(frame.light_direction.xyz);
    let v = normalize(frame.camera_position.xyz - in.world);
    let facing = select(-1.0, 1.0, front) * normalize(in.normal);
    if (draw.style == STYLE_GHOST) {
        // The ghost: faint where it faces the camera, stronger at its outline.
        let rim = 1.0 - abs(dot(facing, v));
        return vec4<f32>(draw.wire_color.rgb, draw.wire_color.a * (0.3 + 0.7 * rim * rim));
    }
    if (draw.ramp != RAMP_NONE) {
        // Plain colours, shaded just enough to read the shape.
        let color = view_color(draw.ramp, in.view_value);
        return vec4<f32>(color * (0.45 + 0.55 * max(dot(facing, l), 0.0)), 1.0);
    }
    // Every texture is sampled before the alpha test may discard: sampling needs uniform
    // control flow.
    var base = material.base_color;
    let base_sample = textureSample(base_color_texture, material_sampler, in.uv);
    let mr = textureSample(metallic_roughness_texture, material_sampler, in.uv);
    var n = mapped_normal(in.normal, in.world, in.uv);
    if (material.textures.x == 1u) {
        base *= base_sample;
    }
    var metallic = material.factors.x;
    var roughness = material.factors.y;
    if (material.textures.y == 1u) {
        roughness *= mr.g;
        metallic *= mr.b;
    }
    if (material.textures.w == 0u) {
        base.a = 1.0;
    } else if (material.textures.w == 1u) {
        if (base.a < material.factors.w) {
            discard;
        }
        base.a = 1.0;
    }
    if (!front) {
        n = -n;
    }
    let h = normalize(l + v);
    let diffuse_color = base.rgb * (1.0 - metallic);
    let specular_color = mix(vec3<f32>(0.04), base.rgb, metallic);
    let n_dot_l = max(dot(n, l), 0.0);
    // Blinn-Phong lobe whose sharpness follows roughness, normalised to keep energy sensible.
    let shininess = 2.0 / max(roughness * roughness * roughness * roughness, 1e-3) - 2.0;
    let specular = specular_color * pow(max(dot(n, h), 1e-4), shininess) * (shininess + 8.0) / 25.0;
    let key = (diffuse_color + specular) * n_dot_l * shadow_factor(in.world, 2, 1.5, 0.002) * 2.6;
    // Hemisphere ambient: sky above, warm ground bounce below.
    let sky = mix(vec3<f32>(0.20, 0.18, 0.16), vec3<f32>(0.35, 0.40, 0.50), n.y * 0.5 + 0.5);
    let ambient = diffuse_color * sky + specular_color * sky * 0.3;
    return vec4<f32>(key + ambient, base.a);
}
