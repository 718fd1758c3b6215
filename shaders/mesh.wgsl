// Lit, textured meshes, skinned on the GPU or drawn from CPU-skinned or static vertices; points
// and lines; the depth-only shadow pass, which skins the same way; the bind-pose ghost; and
// the vertex views (weights, influence counts, repairs, CPU-vs-GPU difference) drawn as
// colours.
//
// Materials follow glTF 2.0's metallic-roughness model (Appendix B of the specification):
// GGX distribution, height-correlated Smith visibility, Schlick Fresnel, Lambert diffuse,
// mixed between dielectric and metal by `metallic`; lit by the key light (or the file's
// lights) and by the environment (image-based, split-sum).
//
// The structs mirror the #[repr(C)] Pod structs in src/render/uniforms.rs; `Frame`, the
// shadow map, the environment and `shadow_factor` come from frame.wgsl; `Draw`, `VertexIn`,
// `vertex_matrix` and `normal_matrix` from skinning.wgsl; `ggx_distribution` and
// `smith_visibility` from brdf.wgsl.

// Material.flags.x: which textures the material has (bit i: texture i, as `material_sample`
// numbers them).
const HAS_BASE_COLOR: u32 = 1u;
const HAS_METALLIC_ROUGHNESS: u32 = 2u;
const HAS_NORMAL: u32 = 4u;
const HAS_OCCLUSION: u32 = 8u;
const HAS_EMISSIVE: u32 = 16u;
const HAS_TRANSMISSION: u32 = 32u;
const HAS_THICKNESS: u32 = 64u;
// The layer textures (src/asset/material.rs, `MaterialTexture` from SheenColor on), as
// layers.wgsl's `layer_sample` reads them.
const LAYER_SHEEN_COLOR: u32 = 0u;
const LAYER_SHEEN_ROUGHNESS: u32 = 1u;
const LAYER_CLEARCOAT: u32 = 2u;
const LAYER_CLEARCOAT_ROUGHNESS: u32 = 3u;
const LAYER_CLEARCOAT_NORMAL: u32 = 4u;
const LAYER_SPECULAR: u32 = 5u;
const LAYER_SPECULAR_COLOR: u32 = 6u;
const LAYER_IRIDESCENCE: u32 = 7u;
const LAYER_IRIDESCENCE_THICKNESS: u32 = 8u;
const LAYER_DIFFUSE_TRANSMISSION: u32 = 9u;
const LAYER_DIFFUSE_TRANSMISSION_COLOR: u32 = 10u;
const LAYER_ANISOTROPY: u32 = 11u;
const LAYER_SHADE_MULTIPLY: u32 = 12u;
const LAYER_SHADING_SHIFT: u32 = 13u;
const LAYER_MATCAP: u32 = 14u;
const LAYER_RIM_MULTIPLY: u32 = 15u;
const LAYER_OUTLINE_WIDTH_MULTIPLY: u32 = 16u;
const LAYER_UV_ANIMATION_MASK: u32 = 17u;
// The HAS_* bits a pipeline's materials may have (set per pipeline: src/render/layer_variant.rs).
// A software rasteriser samples a texture even where the uniform flag skips it, so a texture
// none of the pipeline's materials has is compiled out. The default serves any material.
override MATERIAL_TEXTURES: u32 = 127u;
// Material.flags.y: the alpha mode.
const ALPHA_OPAQUE: u32 = 0u;
const ALPHA_MASK: u32 = 1u;

struct Material {
    base_color: vec4<f32>,
    // rgb: emissive colour × strength, w: occlusion strength.
    emissive: vec4<f32>,
    // x: metallic, y: roughness, z: normal scale, w: alpha cutoff (mask mode).
    factors: vec4<f32>,
    // x: HAS_* bits, y: ALPHA_*, z: 1 when unlit (KHR_materials_unlit), w: bit i set when
    // texture i (base colour, metallic-roughness, normal, occlusion, emissive, transmission,
    // thickness) reads TEXCOORD_1.
    flags: vec4<u32>,
    // Per texture, in that order, two rows of its KHR_texture_transform matrix.
    transforms: array<vec4<f32>, 14>,
    // rgb: the dielectric's F0 (KHR_materials_ior and _specular), or with specular-glossiness
    // its specular factor; w: the dielectric's F90.
    specular: vec4<f32>,
    // rgb: the sheen's colour (black: none), w: its roughness (KHR_materials_sheen).
    sheen: vec4<f32>,
    // x: the clearcoat's strength (0: none), y: its roughness (KHR_materials_clearcoat);
    // z: 1 for KHR_materials_pbrSpecularGlossiness, w: its glossiness factor.
    coat: vec4<f32>,
    // x: the transmission (0: none; KHR_materials_transmission), y: the volume's thickness,
    // z: its attenuation distance (0: infinite; KHR_materials_volume), w: the dispersion
    // (KHR_materials_dispersion).
    transmission: vec4<f32>,
    // rgb: the volume's attenuation colour, w: the index of refraction light bends by.
    attenuation: vec4<f32>,
    // x: the thin film's strength (0: none), y: its index of refraction, z: its thickness in
    // nanometres (KHR_materials_iridescence).
    film: vec4<f32>,
    // rgb: the colour of diffuse transmission, w: its strength (0: none;
    // KHR_materials_diffuse_transmission).
    diffuse_transmission: vec4<f32>,
    // x: the anisotropy's strength (0: none), y and z: the cosine and sine of its direction's
    // angle from the tangent (KHR_materials_anisotropy).
    anisotropy: vec4<f32>,
    // Per layer texture (LAYER_*), the slot it is bound to (1 to 5; 0: none).
    layer_slots: array<vec4<u32>, 5>,
    // Per slot, two rows of its texture's KHR_texture_transform matrix.
    layer_transforms: array<vec4<f32>, 10>,
    // x: bit i set when slot i + 1 reads TEXCOORD_1.
    layer_sets: vec4<u32>,
    // x: the clear coat normal map's scale, y: the thinnest film (nanometres, where the
    // iridescence thickness texture reads 0).
    layer_params: vec4<f32>,
    // MToon (mtoon.wgsl): rgb: the shade colour, w: the toony factor.
    toon_shade: vec4<f32>,
    // x: the shading shift, y: its texture's scale, z: the GI equalisation, w: the rim's
    // lighting mix.
    toon_shading: vec4<f32>,
    // rgb: the matcap colour, w: the parametric rim's fresnel power.
    toon_matcap: vec4<f32>,
    // rgb: the parametric rim's colour, w: its lift.
    toon_rim: vec4<f32>,
    // rgb: the outline's colour, w: its lighting mix.
    toon_outline: vec4<f32>,
    // x: the outline's width, y: its mode (OUTLINE_*).
    toon_outline_width: vec4<f32>,
    // x, y: the UV scroll per second, z: the UV turn per second (radians).
    toon_uv_animation: vec4<f32>,
};

// `SHEEN_LAYER` and the other `*_LAYER` flags, and `TRANSMISSION`, are constants of the
// appended parts (layers.wgsl, where the pipeline sets them, or no_layers.wgsl,
// transmission.wgsl or no_transmission.wgsl; src/render/pipelines.rs): every material runs a
// shader without the code of the layers and transmission it lacks.

@group(2) @binding(0) var<uniform> material: Material;
@group(2) @binding(1) var base_color_texture: texture_2d<f32>;
@group(2) @binding(2) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(3) var normal_texture: texture_2d<f32>;
@group(2) @binding(4) var occlusion_texture: texture_2d<f32>;
@group(2) @binding(5) var emissive_texture: texture_2d<f32>;
// Bindings 6, 7, 13 and 14 (the transmission and thickness textures and their samplers) are
// transmission.wgsl's.
@group(2) @binding(8) var base_color_sampler: sampler;
@group(2) @binding(9) var metallic_roughness_sampler: sampler;
@group(2) @binding(10) var normal_sampler: sampler;
@group(2) @binding(11) var occlusion_sampler: sampler;
@group(2) @binding(12) var emissive_sampler: sampler;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) view_value: f32,
    @location(4) uv1: vec2<f32>,
    @location(5) color: vec4<f32>,
    // World-space tangent and handedness (zero: none; `tangent_frame`).
    @location(6) tangent: vec4<f32>,
};

// A copy's placement (EXT_mesh_gpu_instancing: src/render/model_buffers.rs), world → world
// after skinning; the identity for draws that are not copied.
struct CopyIn {
    @location(10) x: vec4<f32>,
    @location(11) y: vec4<f32>,
    @location(12) z: vec4<f32>,
    @location(13) w: vec4<f32>,
};

fn copy_matrix(c: CopyIn) -> mat4x4<f32> {
    return mat4x4<f32>(c.x, c.y, c.z, c.w);
}

// Whether the pipeline's draws may be skinned on the GPU (set per pipeline:
// src/render/layer_variant.rs). A software rasteriser runs both skinning methods for every
// vertex of a static mesh, where the draw's uniform takes neither, so the pipelines of draws
// placed by `Draw.model` alone leave them out. The default serves any draw.
override GPU_SKINNED: bool = true;

// Mesh space → world for this vertex (skinning.wgsl's `vertex_matrix`, which a pipeline
// without `GPU_SKINNED` leaves out).
fn mesh_vertex_matrix(v: VertexIn) -> mat4x4<f32> {
    if (!GPU_SKINNED) {
        return draw.model;
    }
    return vertex_matrix(v);
}

@vertex
fn vs_main(
    v: VertexIn,
    @location(7) view_value: f32,
    @location(8) uv1: vec2<f32>,
    @location(9) color: vec4<f32>,
    copy: CopyIn,
    @builtin(instance_index) instance: u32,
) -> VertexOut {
    return mesh_vertex(v, view_value, uv1, color, copy, instance);
}

// `vs_main`'s work, for the entry points that add to it (mtoon.wgsl's outline).
fn mesh_vertex(
    v: VertexIn,
    view_value: f32,
    uv1: vec2<f32>,
    color: vec4<f32>,
    copy: CopyIn,
    instance: u32,
) -> VertexOut {
    select_instance(instance);
    let m = copy_matrix(copy) * mesh_vertex_matrix(v);
    let world = m * vec4<f32>(v.position, 1.0);
    var out: VertexOut;
    out.clip = frame.view_proj * world;
    if (draw.style == STYLE_WIRE) {
        // Wireframe edges sit on the surface: pull them a hair towards the camera.
        out.clip.z -= 0.0005 * out.clip.w;
    }
    out.world = world.xyz;
    out.normal = normal_matrix(m) * v.normal;
    // A mirroring placement flips the handedness, so that the bitangent follows the surface
    // (as src/skin/linear.rs does for vertices posed on the CPU).
    let basis = mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz);
    let handedness = select(v.tangent.w, -v.tangent.w, determinant(basis) < 0.0);
    out.tangent = vec4<f32>(basis * v.tangent.xyz, handedness);
    out.uv = v.uv;
    out.view_value = view_value;
    out.uv1 = uv1;
    out.color = select(vec4<f32>(1.0), color, draw.vertex_colors == 1u);
    return out;
}

@vertex
fn vs_shadow(v: VertexIn, copy: CopyIn, @builtin(instance_index) instance: u32) -> @builtin(position) vec4<f32> {
    select_instance(instance);
    let world = copy_matrix(copy) * mesh_vertex_matrix(v) * vec4<f32>(v.position, 1.0);
    return frame.light_view_proj * world;
}

// Texture `index`'s coordinates at this fragment: its TEXCOORD set, transformed.
fn texture_uv(index: u32, uv0: vec2<f32>, uv1: vec2<f32>) -> vec2<f32> {
    let uv = select(uv0, uv1, (material.flags.w & (1u << index)) != 0u);
    let row0 = material.transforms[index * 2u];
    let row1 = material.transforms[index * 2u + 1u];
    return vec2<f32>(dot(row0.xyz, vec3<f32>(uv, 1.0)), dot(row1.xyz, vec3<f32>(uv, 1.0)));
}

// Texture `index` (a HAS_* bit's position) at this fragment, or `absent` when the material
// has none. The flags are uniform, so skipping the sample keeps control flow uniform.
fn material_sample(index: u32, t: texture_2d<f32>, s: sampler, uv0: vec2<f32>, uv1: vec2<f32>, absent: vec4<f32>) -> vec4<f32> {
    if ((material.flags.x & MATERIAL_TEXTURES & (1u << index)) == 0u) {
        return absent;
    }
    return textureSample(t, s, texture_uv(index, uv0, uv1));
}

// Perturbs `normal` by the normal map (read at `uv`) in `tangent_frame`, turned as the map's
// texture transform turns its coordinates.
fn mapped_normal(normal: vec3<f32>, world: vec3<f32>, uv: vec2<f32>, tangent: vec4<f32>) -> vec3<f32> {
    let n = normalize(normal);
    if ((material.flags.x & MATERIAL_TEXTURES & HAS_NORMAL) == 0u) {
        return n;
    }
    let sample = textureSample(normal_texture, normal_sampler, uv).xyz * 2.0 - 1.0;
    let tangent_normal = vec3<f32>(sample.xy * material.factors.z, sample.z);
    let frame = transformed_frame(tangent_frame(n, world, uv, tangent), tangent, texture_linear(2u));
    return normalize(frame * tangent_normal);
}

// The linear part of texture `index`'s KHR_texture_transform: (a, b, c, d) for
// u' = a·u + b·v, v' = c·u + d·v.
fn texture_linear(index: u32) -> vec4<f32> {
    let row0 = material.transforms[index * 2u];
    let row1 = material.transforms[index * 2u + 1u];
    return vec4<f32>(row0.x, row0.y, row1.x, row1.y);
}

// `frame` (from `tangent_frame`) for a texture whose coordinates are transformed by `linear`
// (`texture_linear`): its tangent turned to run along the transformed U and its bitangent up
// the transformed V, as Khronos's TextureTransformMultiTest expects of a rotated normal map.
// A frame from derivatives was taken of the transformed coordinates already, so only a frame
// from the vertex `tangent` is turned.
fn transformed_frame(frame: mat3x3<f32>, tangent: vec4<f32>, linear: vec4<f32>) -> mat3x3<f32> {
    let linear_det = linear.x * linear.w - linear.y * linear.z;
    let along = tangent.xyz - frame[2] * dot(frame[2], tangent.xyz);
    if (dot(along, along) < 1e-12 || abs(linear_det) < 1e-12) {
        return frame;
    }
    // A surface direction x·T + y·B runs along texture direction (x, −y); the transform takes
    // that to A·(x, −y). Solving A·(x, −y) = (1, 0) and (0, −1) gives the new T and B (each up
    // to the determinant's size, which normalising drops; its sign stays).
    let flip = select(1.0, -1.0, linear_det < 0.0);
    let t = (linear.w * frame[0] + linear.z * frame[1]) * flip;
    let b = (linear.y * frame[0] + linear.x * frame[1]) * flip;
    return mat3x3<f32>(normalize(t), normalize(b), frame[2]);
}

// The tangent frame (tangent, bitangent, unit `n`) that normal maps and anisotropy read: the
// vertex's `tangent` (the file's, or MikkTSpace's: src/asset/tangents.rs) made perpendicular
// to `n`, the bitangent `cross(n, tangent) * w` as glTF defines it; where the vertex has none
// (zero), the frame of texture coordinates `uv` from derivatives. Call in uniform control flow.
fn tangent_frame(n: vec3<f32>, world: vec3<f32>, uv: vec2<f32>, tangent: vec4<f32>) -> mat3x3<f32> {
    let derived = cotangent_frame(n, world, uv);
    let along = tangent.xyz - n * dot(n, tangent.xyz);
    if (dot(along, along) < 1e-12) {
        return derived;
    }
    let t = normalize(along);
    return mat3x3<f32>(t, cross(n, t) * select(1.0, -1.0, tangent.w < 0.0), n);
}

// The tangent frame (tangent, bitangent, `n`) in which texture coordinates `uv` run across
// the surface at `world`, as glTF's tangent space has it (the tangent along +U, the bitangent
// along −V): Schüler's cotangent frame, written for y-up window derivatives (WGSL's dpdy runs
// down the screen, so it is negated). Call in uniform control flow.
fn cotangent_frame(n: vec3<f32>, world: vec3<f32>, uv: vec2<f32>) -> mat3x3<f32> {
    let dp1 = dpdx(world);
    let dp2 = -dpdy(world);
    let duv1 = dpdx(uv);
    let duv2 = -dpdy(uv);
    let dp2perp = cross(dp2, n);
    let dp1perp = cross(n, dp1);
    let t = dp2perp * duv1.x + dp1perp * duv2.x;
    let b = dp2perp * duv1.y + dp1perp * duv2.y;
    let scale = inverseSqrt(max(max(dot(t, t), dot(b, b)), 1e-20));
    // b runs along +V, down the texture; glTF's bitangent (a normal map's green, an
    // anisotropy direction's y) points up it.
    return mat3x3<f32>(t * scale, -b * scale, n);
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

// What a surface reflects towards the camera.
struct Surface {
    n: vec3<f32>,
    v: vec3<f32>,
    diffuse: vec3<f32>,
    f0: vec3<f32>,
    // Reflectance at grazing angles: 1, but the specular factor for a KHR_materials_specular
    // dielectric.
    f90: f32,
    // The dielectric's F0 alone (no metal mixed in): what the diffuse light gives way to, as
    // three.js divides it (the metal's share is already out of `diffuse`).
    dielectric_f0: vec3<f32>,
    // The metal's F0 (its base colour) and its share (`metallic`): `f0` mixes the two by it, and
    // the light scattered more than once is each one's, mixed (as three.js's
    // RE_IndirectSpecular_Physical: it is not linear in F0).
    metal_f0: vec3<f32>,
    metallic: f32,
    // The split-sum table at this view angle and roughness (`environment_brdf`): read once,
    // for the environment's reflection and the highlights' compensation.
    brdf: vec2<f32>,
    // What the key light's and the file's lights' highlights are multiplied by for the light
    // the microfacets scatter more than once: 1 + F0 (1 / E − 1), E the split-sum table's
    // white-furnace albedo (Turquin 2019, three.js's `multiScatteringCompensation`).
    specular_compensation: vec3<f32>,
    alpha: f32,
    // KHR_materials_anisotropy: its strength (0: none) and the direction the highlight
    // stretches along (t) with the one across it (b), both perpendicular to n.
    anisotropy: f32,
    t: vec3<f32>,
    b: vec3<f32>,
};

// Radiance reflected from light arriving along `l` with `radiance` (Appendix B: the
// dielectric and the metal mixed, which with F0 = mix(0.04, base, metallic) and a diffuse
// colour of base × (1 − metallic) is this).
fn direct_light(s: Surface, l: vec3<f32>, radiance: vec3<f32>) -> vec3<f32> {
    let n_dot_l = dot(s.n, l);
    if (n_dot_l <= 0.0) {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + s.v);
    let n_dot_v = max(dot(s.n, s.v), 1e-4);
    let v_dot_h = max(dot(s.v, h), 0.0);
    let fresnel = s.f0 + (s.f90 - s.f0) * pow(1.0 - v_dot_h, 5.0);
    var microfacets: f32;
    if (ANISOTROPY_LAYER && s.anisotropy > 0.0) {
        let at = mix(s.alpha, 1.0, s.anisotropy * s.anisotropy);
        let ab = clamp(s.alpha, 0.001, 1.0);
        let frame = transpose(mat3x3<f32>(s.t, s.b, s.n));
        var tbn_v = frame * s.v;
        tbn_v.z = n_dot_v;
        microfacets = anisotropic_specular(at, ab, frame * h, frame * l, tbn_v);
    } else {
        microfacets = ggx_distribution(max(dot(s.n, h), 0.0), s.alpha) * smith_visibility(n_dot_l, n_dot_v, s.alpha);
    }
    let specular = fresnel * microfacets * s.specular_compensation;
    // The diffuse layer lies under the dielectric only: it gives way to the dielectric's
    // reflection (glTF's fresnel_mix), not to the metal's.
    let dielectric_fresnel = s.dielectric_f0 + (s.f90 - s.dielectric_f0) * pow(1.0 - v_dot_h, 5.0);
    let diffuse = (1.0 - dielectric_fresnel) * s.diffuse / PI;
    return (diffuse + specular) * radiance * n_dot_l;
}

// How much of light `i` reaches a surface at `world` with normal `n` past the model, filtered
// as the key light's shadow.
fn light_shadow(i: u32, world: vec3<f32>, n: vec3<f32>, bias: f32) -> f32 {
    return light_shadow_factor(i, world, n, i32(frame.shadow.z), 2.5, bias);
}

// What the file's light `i` sends to `world` (a surface with geometric normal `n`): the
// direction towards it, its radiance there (KHR_lights_punctual's attenuation and cone) and how
// much of it the model lets through.
struct LightAt {
    l: vec3<f32>,
    radiance: vec3<f32>,
    shadow: f32,
};

fn light_at(i: u32, world: vec3<f32>, n: vec3<f32>) -> LightAt {
    let light = frame.lights[i];
    let kind = u32(light.direction_kind.w);
    if (kind == LIGHT_DIRECTIONAL) {
        return LightAt(-light.direction_kind.xyz, light.radiance.rgb, light_shadow(i, world, n, 0.002));
    }
    let to_light = light.position_range.xyz - world;
    let distance2 = max(dot(to_light, to_light), 1e-8);
    let l = to_light * inverseSqrt(distance2);
    var attenuation = 1.0 / distance2;
    let range = light.position_range.w;
    if (range > 0.0) {
        let ratio = sqrt(distance2) / range;
        attenuation *= clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
    }
    if (kind == LIGHT_SPOT) {
        let cd = dot(light.direction_kind.xyz, -l);
        let cone = clamp(cd * light.cone.x + light.cone.y, 0.0, 1.0);
        attenuation *= cone * cone;
    }
    return LightAt(l, light.radiance.rgb * attenuation, light_shadow(i, world, n, 0.0005));
}

// Radiance reflected from the file's lights by a surface whose geometric normal is `n`.
fn punctual_lights(s: Surface, world: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    var sum = vec3<f32>(0.0);
    let count = u32(frame.exposure_lights.y);
    for (var i = 0u; i < count; i++) {
        let light = light_at(i, world, n);
        sum += direct_light(s, light.l, light.radiance * light.shadow);
    }
    return sum;
}

// Radiance reflected from the environment: the prefiltered radiance in the mirror direction
// scaled by the split-sum table, plus the light a rough surface scatters more than once
// between its microfacets (Fdez-Agüera 2019, as three.js and Filament add it: without it rough
// metals are about 30% too dark); the diffuse colour lit by the irradiance takes what the
// dielectric's specular leaves. As three.js r187 writes it: F0 scales the table without the
// Sample Viewer's roughness-aware Fresnel (which lit rough edges brighter than three.js), and
// the mirror direction leans towards the normal as roughness⁴ (a rough surface gathers less
// light from behind its tangent plane); the dielectric's and the metal's multiple scattering
// are mixed by `metallic`, not taken of their mixed F0.
fn environment_light(s: Surface, roughness: f32) -> vec3<f32> {
    let brdf = s.brdf;
    let single = s.f0 * brdf.x + s.f90 * brdf.y;
    let missing = 1.0 - (brdf.x + brdf.y);
    let irradiance = environment_irradiance(s.n);
    let dielectric_single = s.dielectric_f0 * brdf.x + s.f90 * brdf.y;
    let dielectric_multiple = multiple_scattering(dielectric_single, s.dielectric_f0, missing);
    let metal_single = s.metal_f0 * brdf.x + s.f90 * brdf.y;
    let multiple = mix(dielectric_multiple, multiple_scattering(metal_single, s.metal_f0, missing), s.metallic);
    let dielectric_scattered = dielectric_single + dielectric_multiple;
    let diffuse = irradiance * s.diffuse * (1.0 - dielectric_scattered);
    let lean = roughness * roughness * roughness * roughness;
    var mirror = normalize(mix(reflect(-s.v, s.n), s.n, lean));
    if (ANISOTROPY_LAYER && s.anisotropy > 0.0) {
        // An anisotropic surface reflects the environment about a normal bent towards the
        // stretched direction, the more the smoother it is (the Sample Viewer's bent normal).
        let across = cross(s.b, s.v);
        let stretched = cross(across, s.b);
        let bend = 1.0 - s.anisotropy * (1.0 - roughness);
        let bent = normalize(mix(stretched, s.n, bend * bend * bend * bend));
        mirror = normalize(mix(reflect(-s.v, bent), bent, lean));
    }
    return diffuse + environment_radiance(mirror, roughness) * single + irradiance * multiple;
}

// The share of the light that a surface scatters more than once between its microfacets, for
// `single`, its single-scattering share, and `missing`, what a white surface loses to it.
fn multiple_scattering(single: vec3<f32>, f0: vec3<f32>, missing: f32) -> vec3<f32> {
    let f_average = f0 + (1.0 - f0) / 21.0;
    return single * f_average * missing / (1.0 - missing * f_average);
}

// The least roughness a highlight is drawn with: three.js's and Filament's 0.045 (a smoother
// surface's highlight from a point light is narrower than a pixel).
const MIN_ROUGHNESS: f32 = 0.045;

// The material's `roughness` as the highlights use it: at least `MIN_ROUGHNESS`, widened by
// `geometry_roughness` (`normal_change_across_pixel`), at most 1, as three.js's
// lights_physical_fragment makes it. Without the widening a curved surface a few pixels
// across (hair, a ring) showed highlights sharper and brighter than three.js's, and
// sparkling where the normal turns faster than the pixels sample it.
fn specular_roughness(roughness: f32, geometry_roughness: f32) -> f32 {
    return min(max(roughness, MIN_ROUGHNESS) + geometry_roughness, 1.0);
}

// How much the unit normal `n` turns from one pixel to the next: the largest component of its
// change across x or y in view space, as three.js measures it (its `geometryRoughness`). The
// view's axes come from the projection's rows; for the absolute components only their
// directions matter. Call in uniform control flow.
fn normal_change_across_pixel(n: vec3<f32>) -> f32 {
    let vp = frame.view_proj;
    let right = normalize(vec3<f32>(vp[0][0], vp[1][0], vp[2][0]));
    let up = normalize(vec3<f32>(vp[0][1], vp[1][1], vp[2][1]));
    let view = transpose(mat3x3<f32>(right, up, cross(right, up)));
    let change = max(abs(view * dpdx(n)), abs(view * dpdy(n)));
    return max(max(change.x, change.y), change.z);
}

// The triangle's own normal, for flat-shaded draws: from how the position changes across the
// pixel, so it follows morphs and skinning on the CPU and GPU paths alike. Turned towards the
// viewer, then flipped on back faces as `fs_main` flips the vertex normal there; `fallback`
// where the triangle is too small for a direction.
fn flat_normal(world: vec3<f32>, v: vec3<f32>, front: bool, fallback: vec3<f32>) -> vec3<f32> {
    let across = cross(dpdx(world), dpdy(world));
    if (dot(across, across) < 1e-30) {
        return fallback;
    }
    let g = normalize(across);
    return select(-g, g, dot(g, v) >= 0.0) * select(-1.0, 1.0, front);
}

// The alpha mode applied to `base`: opaque is opaque; a masked fragment below the cutoff is
// discarded, the rest opaque; blended keeps its alpha.
fn alpha_mode_applied(base: vec4<f32>) -> vec4<f32> {
    if (material.flags.y == ALPHA_OPAQUE) {
        return vec4<f32>(base.rgb, 1.0);
    }
    if (material.flags.y == ALPHA_MASK) {
        if (base.a < material.factors.w) {
            discard;
        }
        return vec4<f32>(base.rgb, 1.0);
    }
    return base;
}

// A vertex view's colour (`draw.ramp`): plain, shaded just enough to read the shape.
fn vertex_view_color(value: f32, facing: vec3<f32>, l: vec3<f32>) -> vec4<f32> {
    let color = view_color(draw.ramp, value);
    return vec4<f32>(color * (0.45 + 0.55 * max(dot(facing, l), 0.0)) / frame.exposure_lights.x, 1.0);
}

// Each fragment's colour goes out through scene_output.wgsl's `scene_output`: linear HDR, or
// displayed where the pipeline draws into the displayed image.
@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return scene_output(surface_color(in, front));
}

// A lit, wire, ghost or vertex-view fragment's linear colour (before `scene_output`).
fn surface_color(in: VertexOut, front: bool) -> vec4<f32> {
    // Inspection colours read the same at any exposure.
    let unexposed = 1.0 / frame.exposure_lights.x;
    if (draw.style == STYLE_WIRE) {
        return vec4<f32>(draw.wire_color.rgb * unexposed, draw.wire_color.a);
    }
    let l = normalize(frame.light_direction.xyz);
    let v = normalize(frame.camera_position.xyz - in.world);
    // A branch, not a select: a software rasteriser computes both sides of a select.
    var normal = in.normal;
    if (draw.flat_shaded == 1u) {
        normal = flat_normal(in.world, v, front, in.normal);
    }
    let facing = select(-1.0, 1.0, front) * normalize(normal);
    // Derivatives need uniform control flow: taken before anything may discard.
    let geometry_roughness = normal_change_across_pixel(normalize(normal));
    if (draw.style == STYLE_GHOST) {
        // The ghost: faint where it faces the camera, stronger at its outline.
        let rim = 1.0 - abs(dot(facing, v));
        return vec4<f32>(draw.wire_color.rgb * unexposed, draw.wire_color.a * (0.3 + 0.7 * rim * rim));
    }
    if (draw.ramp != RAMP_NONE) {
        return vertex_view_color(in.view_value, facing, l);
    }
    // Every texture is sampled before the alpha test may discard (sampling needs uniform
    // control flow); those the material lacks are not sampled at all.
    let uv0 = in.uv;
    let uv1 = in.uv1;
    let one = vec4<f32>(1.0);
    let base_sample = material_sample(0u, base_color_texture, base_color_sampler, uv0, uv1, one);
    let mr = material_sample(1u, metallic_roughness_texture, metallic_roughness_sampler, uv0, uv1, one);
    let occlusion_sample = material_sample(3u, occlusion_texture, occlusion_sampler, uv0, uv1, one).r;
    let emissive_sample = material_sample(4u, emissive_texture, emissive_sampler, uv0, uv1, one).rgb;
    // x: the transmission, y: the volume's thickness (both 0 without transmission.wgsl).
    let transmission_thickness = transmission_and_thickness(uv0, uv1);
    let transmission = transmission_thickness.x;
    let thickness = transmission_thickness.y;
    // The layers' textures: `absent` where the material has none (always without layers.wgsl).
    let sheen_sample = layer_sample(LAYER_SHEEN_COLOR, uv0, uv1, one).rgb;
    let sheen_roughness_sample = layer_sample(LAYER_SHEEN_ROUGHNESS, uv0, uv1, one).a;
    let coat_sample = layer_sample(LAYER_CLEARCOAT, uv0, uv1, one).r;
    let coat_roughness_sample = layer_sample(LAYER_CLEARCOAT_ROUGHNESS, uv0, uv1, one).g;
    let flat_map = vec4<f32>(0.5, 0.5, 1.0, 1.0);
    let coat_normal_sample = layer_sample(LAYER_CLEARCOAT_NORMAL, uv0, uv1, flat_map).xyz * 2.0 - 1.0;
    let specular_sample = layer_sample(LAYER_SPECULAR, uv0, uv1, one).a;
    let specular_color_sample = layer_sample(LAYER_SPECULAR_COLOR, uv0, uv1, one).rgb;
    let film_sample = layer_sample(LAYER_IRIDESCENCE, uv0, uv1, one).r;
    let film_thickness_sample = layer_sample(LAYER_IRIDESCENCE_THICKNESS, uv0, uv1, one).g;
    let diffuse_through_sample = layer_sample(LAYER_DIFFUSE_TRANSMISSION, uv0, uv1, one).a;
    let diffuse_through_color = material.diffuse_transmission.rgb
        * layer_sample(LAYER_DIFFUSE_TRANSMISSION_COLOR, uv0, uv1, one).rgb;
    // The anisotropy texture's direction (red, green from −1 to 1) and strength (blue).
    let anisotropy_sample = layer_sample(LAYER_ANISOTROPY, uv0, uv1, vec4<f32>(1.0, 0.5, 1.0, 1.0)).rgb;
    let sheen_color = material.sheen.rgb * sheen_sample;
    let coat = material.coat.x * coat_sample;
    let film_strength = material.film.x * film_sample;
    var n = mapped_normal(normal, in.world, texture_uv(2u, uv0, uv1), in.tangent);
    let base = alpha_mode_applied(material.base_color * in.color * base_sample);
    let channel = u32(frame.exposure_lights.z);
    if (channel != CHANNEL_NONE) {
        let alpha = material.base_color.a * in.color.a * base_sample.a;
        let geometric = select(-1.0, 1.0, front) * normalize(normal);
        let shading = select(-n, n, front);
        let emissive = material.emissive.rgb * emissive_sample;
        var thickness_share = 0.0;
        if (material.transmission.y > 0.0) {
            thickness_share = thickness / material.transmission.y;
        }
        // The frame's directions (zero where the texture coordinates do not change).
        let frame = tangent_frame(geometric, in.world, uv0, in.tangent);
        let tangent = select(normalize(frame[0]), vec3<f32>(0.0), dot(frame[0], frame[0]) < 1e-12);
        let bitangent = select(normalize(frame[1]), vec3<f32>(0.0), dot(frame[1], frame[1]) < 1e-12);
        var normal_map = vec3<f32>(0.0);
        if ((material.flags.x & MATERIAL_TEXTURES & HAS_NORMAL) != 0u) {
            normal_map = textureSampleLevel(normal_texture, normal_sampler, texture_uv(2u, uv0, uv1), 0.0).rgb;
        }
        let inputs = ChannelInputs(
            base.rgb, alpha, mr, occlusion_sample, emissive, geometric, shading, uv0, uv1,
            transmission, thickness_share, coat, sheen_color, film_strength, tangent, bitangent, normal_map,
        );
        return vec4<f32>(channel_color(channel, inputs), 1.0);
    }
    if (material.flags.z == 1u || draw.style == STYLE_UNLIT) {
        return vec4<f32>(base.rgb, base.a);
    }
    if (!front) {
        n = -n;
    }
    var surface: Surface;
    surface.n = n;
    surface.v = v;
    var roughness: f32;
    if (material.coat.z == 1.0) {
        // KHR_materials_pbrSpecularGlossiness: the texture holds the specular colour (sRGB)
        // and the glossiness; the diffuse colour gives way to the specular.
        let specular = material.specular.rgb * srgb_to_linear(mr.rgb);
        roughness = specular_roughness(1.0 - material.coat.w * mr.a, geometry_roughness);
        surface.f0 = specular;
        surface.dielectric_f0 = specular;
        surface.metal_f0 = specular;
        surface.metallic = 0.0;
        surface.f90 = 1.0;
        surface.diffuse = base.rgb * (1.0 - max(max(specular.r, specular.g), specular.b));
    } else {
        let metallic = clamp(material.factors.x * mr.b, 0.0, 1.0);
        roughness = specular_roughness(material.factors.y * mr.g, geometry_roughness);
        surface.diffuse = base.rgb * (1.0 - metallic);
        // KHR_materials_specular's textures scale the dielectric's reflection.
        let dielectric_f0 = min(material.specular.rgb * specular_color_sample, vec3<f32>(1.0)) * specular_sample;
        surface.f0 = mix(dielectric_f0, base.rgb, metallic);
        surface.dielectric_f0 = dielectric_f0;
        surface.metal_f0 = base.rgb;
        surface.metallic = metallic;
        surface.f90 = mix(material.specular.w * specular_sample, 1.0, metallic);
    }
    surface.alpha = roughness * roughness;
    surface.brdf = environment_brdf(clamp(dot(n, v), 1e-4, 1.0), roughness);
    surface.specular_compensation = 1.0 + surface.f0 * (1.0 / max(surface.brdf.x + surface.brdf.y, 1e-4) - 1.0);
    surface.anisotropy = 0.0;
    if (ANISOTROPY_LAYER && material.anisotropy.x > 0.0) {
        // The direction is the texture's (or the tangent) turned by the rotation, in the
        // tangent frame (the normal map's). A back face's frame is the front's, turned over
        // whole as three.js and the Sample Viewer turn it: the front normal's frame, not the
        // frame of `n` (whose bitangent alone flips and mirrors the direction).
        let frame = tangent_frame(select(-n, n, front), in.world, uv0, in.tangent);
        let d = anisotropy_sample.rg * 2.0 - 1.0;
        let cosine = material.anisotropy.y;
        let sine = material.anisotropy.z;
        let direction = frame * vec3<f32>(cosine * d.x - sine * d.y, sine * d.x + cosine * d.y, 0.0);
        let along = direction - n * dot(direction, n);
        if (dot(along, along) > 1e-12) {
            surface.t = normalize(along);
            surface.b = cross(n, surface.t);
            surface.anisotropy = material.anisotropy.x * anisotropy_sample.b;
        }
    }
    if (IRIDESCENCE_LAYER && film_strength > 0.0) {
        // KHR_materials_iridescence: the film's reflectance in the base's place, as an F0.
        let n_dot_v = clamp(dot(n, v), 1e-4, 1.0);
        let film_thickness = mix(material.layer_params.y, material.film.z, film_thickness_sample);
        // The dielectric's and the metal's each, as three.js's iridescenceF0Dielectric and
        // iridescenceF0Metallic.
        let film_dielectric = thin_film_fresnel(material.film.y, n_dot_v, film_thickness, surface.dielectric_f0);
        let dielectric_film_f0 = schlick_to_f0(film_dielectric, surface.f90, n_dot_v);
        surface.dielectric_f0 = mix(surface.dielectric_f0, dielectric_film_f0, film_strength);
        if (surface.metallic > 0.0) {
            let film_metal = thin_film_fresnel(material.film.y, n_dot_v, film_thickness, surface.metal_f0);
            surface.metal_f0 = mix(surface.metal_f0, schlick_to_f0(film_metal, surface.f90, n_dot_v), film_strength);
        }
        surface.f0 = mix(surface.dielectric_f0, surface.metal_f0, surface.metallic);
    }
    // What the dielectric does not reflect goes into it: transmission takes that share of the
    // diffuse light's place, and diffuse transmission that share of the rest (as the
    // Sample Viewer mixes them).
    let dielectric_diffuse = surface.diffuse;
    var diffuse_through = 0.0;
    if (DIFFUSE_TRANSMISSION_LAYER) {
        diffuse_through = material.diffuse_transmission.w * diffuse_through_sample * (1.0 - transmission);
    }
    surface.diffuse *= 1.0 - transmission - diffuse_through;

    // 3 × 3 filtered shadow taps: soft enough, and a third of the 5 × 5 taps' cost on a
    // software rasteriser.
    let key = shadowed_key_light(in.world, facing);
    var color = vec3<f32>(0.0);
    if (key > 0.0) {
        color += direct_light(surface, l, vec3<f32>(key));
    }
    color += punctual_lights(surface, in.world, facing);
    let occlusion = 1.0 + material.emissive.w * (occlusion_sample - 1.0);
    color += environment_light(surface, roughness) * occlusion;
    if (TRANSMISSION && transmission > 0.0) {
        color += transmission * refracted_light(surface, roughness, dielectric_diffuse, in.world, thickness);
    }
    if (DIFFUSE_TRANSMISSION_LAYER && diffuse_through > 0.0) {
        color += diffuse_through * light_from_behind(surface, in.world, l, key, diffuse_through_color) * occlusion;
    }
    // The layers over the base, as three.js composes them: sheen, then the clearcoat.
    if (SHEEN_LAYER && max(max(sheen_color.r, sheen_color.g), sheen_color.b) > 0.0) {
        let sheen_roughness = material.sheen.w * sheen_roughness_sample;
        color = sheen_layer(surface, color, sheen_color, sheen_roughness, l, occlusion, key);
    }
    if (CLEARCOAT_LAYER && material.coat.x > 0.0) {
        // The coat lies on the geometry, bent by its own normal map.
        let geometric = select(-1.0, 1.0, front) * normalize(normal);
        let coat_uv = layer_uv(LAYER_CLEARCOAT_NORMAL, uv0, uv1);
        let untransformed = tangent_frame(geometric, in.world, coat_uv, in.tangent);
        let frame = transformed_frame(untransformed, in.tangent, layer_linear(LAYER_CLEARCOAT_NORMAL));
        let bend = vec3<f32>(coat_normal_sample.xy * material.layer_params.x, coat_normal_sample.z);
        let coat_normal = normalize(frame * bend);
        let coat_roughness = specular_roughness(material.coat.y * coat_roughness_sample, geometry_roughness);
        color = clearcoat_layer(surface, color, coat, coat_roughness, coat_normal, l, occlusion, key);
    }
    return vec4<f32>(color + material.emissive.rgb * emissive_sample, base.a);
}

// The material debug views (src/view/material_channel.rs, in its order): one input of the
// lighting as it is. The frame draws them without exposure or tone curve, so a value v shows
// as the sRGB level v (colours as authored).
const CHANNEL_NONE: u32 = 0u;
const CHANNEL_BASE_COLOR: u32 = 1u;
const CHANNEL_ALPHA: u32 = 2u;
const CHANNEL_METALLIC: u32 = 3u;
const CHANNEL_ROUGHNESS: u32 = 4u;
const CHANNEL_OCCLUSION: u32 = 5u;
const CHANNEL_EMISSIVE: u32 = 6u;
const CHANNEL_GEOMETRIC_NORMAL: u32 = 7u;
const CHANNEL_SHADING_NORMAL: u32 = 8u;
const CHANNEL_TEX_COORD_0: u32 = 9u;
const CHANNEL_TEX_COORD_1: u32 = 10u;
const CHANNEL_TRANSMISSION: u32 = 11u;
const CHANNEL_THICKNESS: u32 = 12u;
const CHANNEL_CLEARCOAT: u32 = 13u;
const CHANNEL_SHEEN: u32 = 14u;
const CHANNEL_IRIDESCENCE: u32 = 15u;
const CHANNEL_TANGENT: u32 = 16u;
const CHANNEL_BITANGENT: u32 = 17u;
const CHANNEL_NORMAL_TEXTURE: u32 = 18u;

struct ChannelInputs {
    base: vec3<f32>,
    alpha: f32,
    metallic_roughness: vec4<f32>,
    occlusion: f32,
    emissive: vec3<f32>,
    geometric_normal: vec3<f32>,
    shading_normal: vec3<f32>,
    uv0: vec2<f32>,
    uv1: vec2<f32>,
    transmission: f32,
    // The thickness over its factor.
    thickness: f32,
    clearcoat: f32,
    sheen: vec3<f32>,
    iridescence: f32,
    tangent: vec3<f32>,
    bitangent: vec3<f32>,
    normal_texture: vec3<f32>,
};

fn channel_color(channel: u32, c: ChannelInputs) -> vec3<f32> {
    let mr = c.metallic_roughness;
    let specular_glossiness = material.coat.z == 1.0;
    let metallic = select(clamp(material.factors.x * mr.b, 0.0, 1.0), 0.0, specular_glossiness);
    let roughness = select(
        clamp(material.factors.y * mr.g, 0.0, 1.0),
        clamp(1.0 - material.coat.w * mr.a, 0.0, 1.0),
        specular_glossiness
    );
    // Colours show as authored; the other inputs as sRGB levels, decoded once after the
    // switch: a software rasteriser runs every case, each with its own decoding 14 times over.
    var level = vec3<f32>(0.0);
    var authored = vec3<f32>(0.0);
    switch channel {
        case CHANNEL_BASE_COLOR: { authored = c.base; }
        case CHANNEL_ALPHA: { level = vec3<f32>(c.alpha); }
        case CHANNEL_METALLIC: { level = vec3<f32>(metallic); }
        case CHANNEL_ROUGHNESS: { level = vec3<f32>(roughness); }
        case CHANNEL_OCCLUSION: { level = vec3<f32>(c.occlusion); }
        case CHANNEL_EMISSIVE: { authored = min(c.emissive, vec3<f32>(1.0)); }
        case CHANNEL_GEOMETRIC_NORMAL: { level = c.geometric_normal * 0.5 + 0.5; }
        case CHANNEL_SHADING_NORMAL: { level = c.shading_normal * 0.5 + 0.5; }
        case CHANNEL_TEX_COORD_0: { level = vec3<f32>(fract(c.uv0), 0.0); }
        case CHANNEL_TEX_COORD_1: { level = vec3<f32>(fract(c.uv1), 0.0); }
        case CHANNEL_TRANSMISSION: { level = vec3<f32>(c.transmission); }
        case CHANNEL_THICKNESS: { level = vec3<f32>(c.thickness); }
        case CHANNEL_CLEARCOAT: { level = vec3<f32>(c.clearcoat); }
        case CHANNEL_SHEEN: { authored = c.sheen; }
        case CHANNEL_IRIDESCENCE: { level = vec3<f32>(c.iridescence); }
        case CHANNEL_TANGENT: { level = c.tangent * 0.5 + 0.5; }
        case CHANNEL_BITANGENT: { level = c.bitangent * 0.5 + 0.5; }
        case CHANNEL_NORMAL_TEXTURE: { level = c.normal_texture; }
        default: {}
    }
    // One of the two is zero, and level 0 decodes to 0.
    return authored + srgb_to_linear(level);
}

// The key light's radiance reaching a surface at `world` with geometric normal `n` (0 without
// the key light).
fn shadowed_key_light(world: vec3<f32>, n: vec3<f32>) -> f32 {
    if (frame.light_direction.w <= 0.0) {
        return 0.0;
    }
    return frame.light_direction.w * shadow_factor(world, n, i32(frame.shadow.z), 2.5, 0.002);
}

// KHR_materials_sheen over `base` (the lit base): the base dimmed by the sheen's albedo towards
// the viewer, plus the sheen lit by the key light and the environment, as three.js r187 composes
// it. (The file's lights add no sheen; three.js dims its lights' share by the larger of the
// albedos towards the viewer and the light.)
fn sheen_layer(s: Surface, base: vec3<f32>, color: vec3<f32>, sheen_roughness: f32, l: vec3<f32>, occlusion: f32, key: f32) -> vec3<f32> {
    let n_dot_v = clamp(dot(s.n, s.v), 1e-4, 1.0);
    let albedo = sheen_albedo(n_dot_v, sheen_roughness);
    var sheen = environment_irradiance(s.n) * color * albedo * occlusion;
    let n_dot_l = dot(s.n, l);
    if (key > 0.0 && n_dot_l > 0.0) {
        let n_dot_h = clamp(dot(s.n, normalize(l + s.v)), 0.0, 1.0);
        let brdf = charlie_distribution(n_dot_h, sheen_roughness) * neubelt_visibility(n_dot_l, n_dot_v);
        sheen += color * brdf * key * n_dot_l;
    }
    let albedo_scaling = 1.0 - max(max(color.r, color.g), color.b) * albedo;
    return base * albedo_scaling + sheen;
}

// KHR_materials_diffuse_transmission: a Lambert surface's light from the side behind it (the
// environment, and the key light and the file's lights shining on the back), in the
// transmitted colour. The surface is thin: what shades its front from a light does not
// shade its back (and the Sample Viewer, which has no shadows, lights it so).
fn light_from_behind(s: Surface, world: vec3<f32>, l: vec3<f32>, key: f32, color: vec3<f32>) -> vec3<f32> {
    var light = environment_irradiance(-s.n);
    let n_dot_l = dot(-s.n, l);
    if (key > 0.0 && n_dot_l > 0.0) {
        light += vec3<f32>(key * n_dot_l / PI);
    }
    let count = u32(frame.exposure_lights.y);
    for (var i = 0u; i < count; i++) {
        let behind = light_at(i, world, -s.n);
        light += behind.radiance * max(dot(-s.n, behind.l), 0.0) / PI;
    }
    return light * color;
}

// KHR_materials_clearcoat over `base`: a clear dielectric coat (F0 0.04) on the geometry's
// normal `n`, reflecting the key light and the environment, with the base seen through what
// it does not reflect. `roughness` is the coat's, as `specular_roughness` widens it.
fn clearcoat_layer(
    s: Surface,
    base: vec3<f32>,
    strength: f32,
    roughness: f32,
    n: vec3<f32>,
    l: vec3<f32>,
    occlusion: f32,
    key: f32,
) -> vec3<f32> {
    let alpha = roughness * roughness;
    let n_dot_v = clamp(dot(n, s.v), 1e-4, 1.0);
    let brdf = environment_brdf(n_dot_v, roughness);
    var coat = environment_radiance(reflect(-s.v, n), roughness) * (0.04 * brdf.x + brdf.y) * occlusion;
    let n_dot_l = dot(n, l);
    if (key > 0.0 && n_dot_l > 0.0) {
        let h = normalize(l + s.v);
        let fresnel = 0.04 + 0.96 * pow(1.0 - max(dot(s.v, h), 0.0), 5.0);
        let specular = fresnel * ggx_distribution(max(dot(n, h), 0.0), alpha) * smith_visibility(n_dot_l, n_dot_v, alpha);
        coat += vec3<f32>(specular * key * n_dot_l);
    }
    let fresnel_view = 0.04 + 0.96 * pow(1.0 - n_dot_v, 5.0);
    return base * (1.0 - strength * fresnel_view) + coat * strength;
}
