// Skinning in the vertex stage, shared by the mesh pipelines (mesh.wgsl) and the skinning
// capture (skin_capture.wgsl): the draw's uniform, the vertex attributes and the blend of the
// vertex's joints. `skin_matrix(joint)` comes from the skin source prepended before this file:
// skin_uniform_arrays.wgsl (the `pose` and `inv_bind_pose` uniform arrays) or
// skin_storage_palette.wgsl (the palette in a storage buffer).
//
// The structs and constants mirror src/render/uniforms.rs.

// `Draw.skinning`: how the draw's vertices reach world space.
const SKINNING_NONE: u32 = 0u;        // by `Draw.model` (static meshes, CPU-skinned vertices)
const SKINNING_LINEAR: u32 = 1u;      // linear blend skinning on the GPU
const SKINNING_DUAL_QUAT: u32 = 2u;   // dual-quaternion skinning on the GPU

// `Draw.style`: how the draw looks.
const STYLE_LIT: u32 = 0u;            // lit with its material (or the vertex view's colours)
const STYLE_WIRE: u32 = 1u;           // flat in `wire_color` (the wireframe)
const STYLE_GHOST: u32 = 2u;          // translucent in `wire_color` (the bind-pose ghost)
const STYLE_UNLIT: u32 = 3u;          // its material's colours without lighting (points and
                                      // lines without normals)

// `Draw.ramp`: colours from the vertex view's values instead of the material
// (src/inspect/vertex_view.rs, `Ramp`).
const RAMP_NONE: u32 = 0u;
const RAMP_HEAT: u32 = 1u;
const RAMP_COUNT: u32 = 2u;
const RAMP_FLAG: u32 = 3u;

struct Draw {
    // Mesh space → world for static and CPU-skinned vertices (identity for the latter).
    model: mat4x4<f32>,
    skinning: u32,
    style: u32,
    ramp: u32,
    // 1: shaded with each triangle's own normal (mesh.wgsl, `flat_normal`).
    flat_shaded: u32,
    wire_color: vec4<f32>,
    // A crowd's instanced draws (src/render/crowd_buffers.rs): x: where the draw's skin starts
    // in an instance's block of matrices, y: matrices from one instance's block to the next
    // (0 outside a crowd: every instance reads block 0).
    crowd: vec2<u32>,
    // 1: the vertices have colours; 0: they read as white (their buffer holds zeros).
    vertex_colors: u32,
    padding: u32,
};

// Bound with a dynamic offset: every draw's uniform lives in one buffer.
@group(1) @binding(2) var<uniform> draw: Draw;

// The first matrix of this vertex's instance's skin block; `skin_matrix` reads from it.
var<private> skin_block: u32 = 0u;

// Picks the instance's block of skin matrices (its palette and grid place); each vertex
// entry point calls it first.
fn select_instance(instance: u32) {
    skin_block = draw.crowd.x + instance * draw.crowd.y;
}

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    @location(5) joints_extra: vec4<u32>,
    @location(6) weights_extra: vec4<f32>,
    // xyz: the tangent, w: its handedness (±1); zero where the mesh has none.
    @location(14) tangent: vec4<f32>,
    // Its share of dual-quaternion skinning when that is chosen, the rest linear (Maya's
    // blended skinning); 1 where the file does not mix them.
    @location(15) dual_quat_weight: f32,
};

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

// Mesh space → world for this vertex by its joints: linear blend or dual quaternion, the
// latter mixed with linear blend by the vertex's `dual_quat_weight` (src/skin/dual_quat.rs).
fn skinned_matrix(v: VertexIn) -> mat4x4<f32> {
    if (draw.skinning == SKINNING_DUAL_QUAT) {
        let dual_quat = dual_quat_matrix(v);
        if (v.dual_quat_weight >= 1.0 || v.weights.y == 0.0) {
            return dual_quat;
        }
        return linear_matrix(v) * (1.0 - v.dual_quat_weight) + dual_quat * v.dual_quat_weight;
    }
    return linear_matrix(v);
}

// Mesh space → world for this vertex by linear blend skinning.
fn linear_matrix(v: VertexIn) -> mat4x4<f32> {
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

// Mesh space → world for this vertex: skinned, or by the draw's model matrix.
fn vertex_matrix(v: VertexIn) -> mat4x4<f32> {
    if (draw.skinning == SKINNING_NONE) {
        return draw.model;
    }
    return skinned_matrix(v);
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

