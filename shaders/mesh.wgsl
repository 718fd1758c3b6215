// Lit, textured meshes, skinned on the GPU or drawn from CPU-skinned or static vertices; also
// the depth-only shadow pass, which skins the same way.
//
// The structs mirror the #[repr(C)] Pod structs in src/render/uniforms.rs; `Frame`, the
// shadow map and `shadow_factor` come from frame.wgsl.

const MAX_JOINTS: u32 = __MAX_JOINTS__u;

struct Draw {
    // Mesh space → world for static and CPU-skinned vertices (identity for the latter).
    model: mat4x4<f32>,
    // x: 1 = skin on the GPU from `pose` and `inv_bind_pose`.
    // y: 1 = draw flat in `wire_color` (wireframe) instead of lit.
    // z: 1 = dual-quaternion skinning instead of linear blend skinning.
    flags: vec4<u32>,
    wire_color: vec4<f32>,
};

struct Material {
    base_color: vec4<f32>,
    // x: metallic, y: roughness, z: normal scale, w: alpha cutoff (mask mode).
    factors: vec4<f32>,
    // x: base colour texture, y: metallic-roughness texture, z: normal texture (1 = present);
    // w: alpha mode (0 opaque, 1 mask, 2 blend).
    textures: vec4<u32>,
};


// Joint model matrices (joint → model space) and inverse bind matrices (bind space → joint).
@group(1) @binding(0) var<uniform> pose: array<mat4x4<f32>, MAX_JOINTS>;
@group(1) @binding(1) var<uniform> inv_bind_pose: array<mat4x4<f32>, MAX_JOINTS>;
@group(1) @binding(2) var<uniform> draw: Draw;

@group(2) @binding(0) var<uniform> material: Material;
@group(2) @binding(1) var base_color_texture: texture_2d<f32>;
@group(2) @binding(2) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(3) var normal_texture: texture_2d<f32>;
@group(2) @binding(4) var material_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    @location(5) joints_extra: vec4<u32>,
    @location(6) weights_extra: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

fn skin_matrix(joint: u32) -> mat4x4<f32> {
    let j = min(joint, MAX_JOINTS - 1u);
    return pose[j] * inv_bind_pose[j];
}

// A rotation matrix's quaternion (xyzw), as glam's Quat::from_mat3 computes it.
fn quat_from_rotation(m: mat3x3<f32>) -> vec4<f32> {
    let x = m[0];
    let y = m[1];
    let z = m[2];
    if (z.z <= 0.0) {
        let dif10 = y.y - x.x;
        let omm22 = 1.0 - z.z;
        if (dif10 <= 0.0) {
            let four_xsq = omm22 - dif10;
            let inv4x = 0.5 / sqrt(four_xsq);
            return vec4<f32>(four_xsq * inv4x, (x.y + y.x) * inv4x, (x.z + z.x) * inv4x, (y.z - z.y) * inv4x);
        }
        let four_ysq = omm22 + dif10;
        let inv4y = 0.5 / sqrt(four_ysq);
        return vec4<f32>((x.y + y.x) * inv4y, four_ysq * inv4y, (y.z + z.y) * inv4y, (z.x - x.z) * inv4y);
    }
    let sum10 = y.y + x.x;
    let opm22 = 1.0 + z.z;
    if (sum10 <= 0.0) {
        let four_zsq = opm22 - sum10;
        let inv4z = 0.5 / sqrt(four_zsq);
        return vec4<f32>((x.z + z.x) * inv4z, (y.z + z.y) * inv4z, four_zsq * inv4z, (x.y - y.x) * inv4z);
    }
    let four_wsq = opm22 + sum10;
    let inv4w = 0.5 / sqrt(four_wsq);
    return vec4<f32>((y.z - z.y) * inv4w, (z.x - x.z) * inv4w, (x.y - y.x) * inv4w, four_wsq * inv4w);
}

fn quat_mul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

fn quat_to_matrix(q: vec4<f32>) -> mat3x3<f32> {
    let x = q.x;
    let y = q.y;
    let z = q.z;
    let w = q.w;
    return mat3x3<f32>(
        vec3<f32>(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
        vec3<f32>(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
        vec3<f32>(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)),
    );
}

// One joint's share of a dual-quaternion blend (src/skin/dual_quat.rs): its skin matrix split
// into a rotation and translation (a unit dual quaternion) and the stretch the rotation leaves,
// all weighted, the quaternions on `pivot`'s hemisphere.
struct DualQuatSum {
    real: vec4<f32>,
    dual: vec4<f32>,
    stretch: mat3x3<f32>,
    pivot: vec4<f32>,
};

fn add_dual_quat(sum: DualQuatSum, joint: u32, weight: f32) -> DualQuatSum {
    var out = sum;
    if (weight == 0.0) {
        return out;
    }
    let m = skin_matrix(joint);
    let a = mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz);
    // As glam's to_scale_rotation_translation: column lengths, the first signed by the
    // determinant, divide out to the rotation.
    let sign = select(1.0, -1.0, determinant(a) < 0.0);
    let rotation = mat3x3<f32>(a[0] / (length(a[0]) * sign), a[1] / length(a[1]), a[2] / length(a[2]));
    var real = normalize(quat_from_rotation(rotation));
    let dual = 0.5 * quat_mul(vec4<f32>(m[3].xyz, 0.0), real);
    if (dot(out.pivot, out.pivot) == 0.0) {
        out.pivot = real;
    }
    let signed = select(weight, -weight, dot(real, out.pivot) < 0.0);
    out.real += real * signed;
    out.dual += dual * signed;
    out.stretch += transpose(quat_to_matrix(real)) * a * weight;
    return out;
}

// Mesh space → world for this vertex by dual-quaternion skinning: the blended stretch, then the
// blended rigid motion. One influence uses its skin matrix as it is.
fn dual_quat_matrix(v: VertexIn) -> mat4x4<f32> {
    if (v.weights.y == 0.0) {
        return skin_matrix(v.joints.x);
    }
    var sum = DualQuatSum(vec4<f32>(0.0), vec4<f32>(0.0), mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0)), vec4<f32>(0.0));
    sum = add_dual_quat(sum, v.joints.x, v.weights.x);
    sum = add_dual_quat(sum, v.joints.y, v.weights.y);
    sum = add_dual_quat(sum, v.joints.z, v.weights.z);
    sum = add_dual_quat(sum, v.joints.w, v.weights.w);
    if (v.weights_extra.x > 0.0) {
        sum = add_dual_quat(sum, v.joints_extra.x, v.weights_extra.x);
        sum = add_dual_quat(sum, v.joints_extra.y, v.weights_extra.y);
        sum = add_dual_quat(sum, v.joints_extra.z, v.weights_extra.z);
        sum = add_dual_quat(sum, v.joints_extra.w, v.weights_extra.w);
    }
    let length = max(length(sum.real), 1e-30);
    let real = sum.real / length;
    let dual = sum.dual / length;
    let translation = 2.0 * quat_mul(dual, vec4<f32>(-real.xyz, real.w)).xyz;
    let r = quat_to_matrix(real) * sum.stretch;
    return mat4x4<f32>(vec4<f32>(r[0], 0.0), vec4<f32>(r[1], 0.0), vec4<f32>(r[2], 0.0), vec4<f32>(translation, 1.0));
}

// Mesh space → world for this vertex: the blended skin matrix, or the draw's model matrix.
fn vertex_matrix(v: VertexIn) -> mat4x4<f32> {
    if (draw.flags.x == 0u) {
        return draw.model;
    }
    if (draw.flags.z == 1u) {
        return dual_quat_matrix(v);
    }
    var m = skin_matrix(v.joints.x) * v.weights.x
        + skin_matrix(v.joints.y) * v.weights.y
        + skin_matrix(v.joints.z) * v.weights.z
        + skin_matrix(v.joints.w) * v.weights.w;
    if (v.weights_extra.x > 0.0) {
        m += skin_matrix(v.joints_extra.x) * v.weights_extra.x
            + skin_matrix(v.joints_extra.y) * v.weights_extra.y
            + skin_matrix(v.joints_extra.z) * v.weights_extra.z
            + skin_matrix(v.joints_extra.w) * v.weights_extra.w;
    }
    return m;
}

// The cofactor of the upper 3×3 with the determinant's sign: the inverse transpose up to a
// positive scale, as the CPU path (src/skin/palette.rs) computes it.
fn normal_matrix(m: mat4x4<f32>) -> mat3x3<f32> {
    let c0 = m[0].xyz;
    let c1 = m[1].xyz;
    let c2 = m[2].xyz;
    let x = cross(c1, c2);
    let s = select(1.0, -1.0, dot(c0, x) < 0.0);
    return mat3x3<f32>(x * s, cross(c2, c0) * s, cross(c0, c1) * s);
}

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    let m = vertex_matrix(v);
    let world = m * vec4<f32>(v.position, 1.0);
    var out: VertexOut;
    out.clip = frame.view_proj * world;
    if (draw.flags.y == 1u) {
        // Wireframe edges sit on the surface: pull them a hair towards the camera.
        out.clip.z -= 0.0005 * out.clip.w;
    }
    out.world = world.xyz;
    out.normal = normal_matrix(m) * v.normal;
    out.uv = v.uv;
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

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    if (draw.flags.y == 1u) {
        return draw.wire_color;
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
    let l = normalize(frame.light_direction.xyz);
    let v = normalize(frame.camera_position.xyz - in.world);
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
