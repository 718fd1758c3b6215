// Shared by every scene shader (prepended to each by src/render/pipelines.rs): the per-frame
// uniform block, the shadow map, the environment's image-based lighting, and the filtered
// shadow lookup.
//
// `Frame` mirrors `FrameUniform` in src/render/uniforms.rs.

const MAX_LIGHTS: u32 = 8u;
const MAX_SHADOW_LAYERS: u32 = 8u;
const LIGHT_DIRECTIONAL: u32 = 0u;
const LIGHT_POINT: u32 = 1u;
const LIGHT_SPOT: u32 = 2u;

// A KHR_lights_punctual light in world space.
struct Light {
    // xyz: position, w: range (0: unlimited).
    position_range: vec4<f32>,
    // xyz: the direction the light shines in, w: LIGHT_* as a float.
    direction_kind: vec4<f32>,
    // rgb: colour × intensity.
    radiance: vec4<f32>,
    // x, y: spot cone scale and offset (KHR_lights_punctual's smooth falloff).
    cone: vec4<f32>,
    // x: 1 + the first shadow map layer that holds its shadow (0: it casts none), y: 1 when
    // that is the first of a point light's six (`cube_face`).
    shadow: vec4<f32>,
};

struct Frame {
    view_proj: mat4x4<f32>,
    inverse_view_proj: mat4x4<f32>,
    // World → light clip space of the layer a shadow pass draws (layer 0's in the scene's).
    light_view_proj: mat4x4<f32>,
    camera_position: vec4<f32>,
    // xyz: direction towards the key light, w: its radiance (0: no key light).
    light_direction: vec4<f32>,
    // x: 1 when the shadow map is used, y: its texel size, z and w: the filter's reach on
    // the model and on the ground (`shadow_factor`).
    shadow: vec4<f32>,
    // x: intensity, y, z: cos and sin of the rotation about +Y, w: the specular map's
    // highest mip level.
    environment: vec4<f32>,
    // x: 2^exposure (colours meant to read the same at any exposure divide by it),
    // y: how many of `lights` are used, z: the material channel shown (`CHANNEL_*` in
    // mesh.wgsl; 0: the lit picture), w: the tone curve (`CURVE_*` in tone_curve.wgsl), for
    // the shaders that draw over the tone-mapped image.
    exposure_lights: vec4<f32>,
    // x: the animation's time in seconds (what MToon's texture scroll follows), y: the
    // view's half height at unit depth (1 / the projection's [1][1], for MToon's outlines of
    // a width on screen).
    time_view: vec4<f32>,
    lights: array<Light, MAX_LIGHTS>,
    // World → light clip space of each shadow map layer.
    shadow_views: array<mat4x4<f32>, MAX_SHADOW_LAYERS>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
// The shadows of the key light (layer 0) or of the file's lights that light the model most
// (`Light.shadow` names their layers).
@group(0) @binding(1) var shadow_map: texture_depth_2d_array;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;
// The environment (src/render/environment.rs): its radiance as a cube map prefiltered for
// roughness 0 to 1 over its mip levels (looked up by direction, with no trigonometry per
// fragment; the roughest is the diffuse irradiance), its irradiance as nine
// spherical-harmonic coefficients (MToon's light probe), and the split-sum BRDF table.
struct Irradiance {
    // rgb: coefficient i, convolved with the cosine lobe and divided by π.
    sh: array<vec4<f32>, 9>,
};

@group(0) @binding(3) var specular_map: texture_cube<f32>;
@group(0) @binding(4) var<uniform> irradiance: Irradiance;
@group(0) @binding(5) var brdf_table: texture_2d<f32>;
@group(0) @binding(6) var environment_sampler: sampler;
@group(0) @binding(7) var table_sampler: sampler;

// Fraction of the key light reaching a surface at `world` whose normal is `n` (turned to the
// side seen; zero for a receiver that casts no shadow, the ground), averaged over a
// (2 × reach + 1)² grid of shadow-map samples `spread` texels apart; `bias` pushes the
// comparison away from the occluder's own surface.
fn shadow_factor(world: vec3<f32>, n: vec3<f32>, reach: i32, spread: f32, bias: f32) -> f32 {
    return layer_shadow_factor(0, world, n, normalize(frame.light_direction.xyz), reach, spread, bias);
}

// `shadow_factor` in the map's `layer`, for light arriving from direction `l`.
fn layer_shadow_factor(layer: i32, world: vec3<f32>, n: vec3<f32>, l: vec3<f32>, reach: i32, spread: f32, bias: f32) -> f32 {
    if (frame.shadow.x == 0.0) {
        return 1.0;
    }
    let view = frame.shadow_views[layer];
    let light_clip = view * vec4<f32>(shadow_receiver(view, world, n, l, f32(reach) * spread), 1.0);
    let ndc = light_clip.xyz / light_clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0) {
        return 1.0;
    }
    var lit = 0.0;
    for (var y = -reach; y <= reach; y++) {
        for (var x = -reach; x <= reach; x++) {
            let offset = vec2<f32>(f32(x), f32(y)) * frame.shadow.y * spread;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + offset, layer, ndc.z - bias);
        }
    }
    let side = f32(2 * reach + 1);
    return lit / (side * side);
}

// Where a surface at `world` with normal `n` looks its shadow up in the map seen through
// `view` (world → light clip space): pushed out along `n` by the filter's reach (`reach_texels`)
// and one texel more (the comparison's bilinear footprint), in world units at that point, times
// the sine of the angle between `n` and the light `l`. Without the push a surface turning away
// from the light shadows itself through the filter's taps on the side towards the light before
// its terminator, in steps that follow the map's texels (a stair-stepped MToon edge); facing
// the light it needs none, so contact shadows stay where they are (normal-offset bias).
fn shadow_receiver(view: mat4x4<f32>, world: vec3<f32>, n: vec3<f32>, l: vec3<f32>, reach_texels: f32) -> vec3<f32> {
    // A texel's width in world units: the map's texel in clip x over how fast clip x moves
    // per world unit, times w (1 for a directional light's orthographic view).
    let across = vec3<f32>(view[0].x, view[1].x, view[2].x);
    let w = abs(dot(vec3<f32>(view[0].w, view[1].w, view[2].w), world) + view[3].w);
    let texel = 2.0 * frame.shadow.y * w / max(length(across), 1e-20);
    let n_dot_l = clamp(dot(n, l), -1.0, 1.0);
    let sine = sqrt(1.0 - n_dot_l * n_dot_l);
    return world + n * (sine * (reach_texels + 1.0) * texel);
}

// How much of the file's light `i` reaches a surface at `world` with normal `n` past the
// model, by `layer_shadow_factor` (1 for a light that casts no shadow).
fn light_shadow_factor(i: u32, world: vec3<f32>, n: vec3<f32>, reach: i32, spread: f32, bias: f32) -> f32 {
    let light = frame.lights[i];
    if (light.shadow.x == 0.0) {
        return 1.0;
    }
    var layer = i32(light.shadow.x) - 1;
    var l = -light.direction_kind.xyz;
    if (u32(light.direction_kind.w) != LIGHT_DIRECTIONAL) {
        l = normalize(light.position_range.xyz - world);
    }
    if (light.shadow.y == 1.0) {
        layer += cube_face(world - light.position_range.xyz);
    }
    return layer_shadow_factor(layer, world, n, l, reach, spread, bias);
}

// Which of a point light's six shadow layers (+X, −X, +Y, −Y, +Z, −Z:
// src/render/shadow_views.rs, `cube_face_view`) sees `direction` from the light: its largest
// component's.
fn cube_face(direction: vec3<f32>) -> i32 {
    let a = abs(direction);
    if (a.x >= a.y && a.x >= a.z) {
        return select(1, 0, direction.x > 0.0);
    }
    if (a.y >= a.z) {
        return select(3, 2, direction.y > 0.0);
    }
    return select(5, 4, direction.z > 0.0);
}

// A world direction in the environment's frame: turned by the environment's rotation about +Y.
fn environment_direction(direction: vec3<f32>) -> vec3<f32> {
    let c = frame.environment.y;
    let s = frame.environment.z;
    return vec3<f32>(c * direction.x - s * direction.z, direction.y, s * direction.x + c * direction.z);
}

// The environment's radiance towards `direction`, blurred as for `roughness`: at the level
// max · r · (2 − r), as three.js's `roughnessToMip` reads its PMREM, whose levels' roughnesses
// the specular map's are (src/render/environment.rs, `level_roughness`).
fn environment_radiance(direction: vec3<f32>, roughness: f32) -> vec3<f32> {
    let r = clamp(roughness, 0.0, 1.0);
    let level = frame.environment.w * r * (2.0 - r);
    return textureSampleLevel(specular_map, environment_sampler, environment_direction(direction), level).rgb
        * frame.environment.x;
}

// Diffuse light arriving at a surface facing `normal`, over π (times the albedo: the
// reflected radiance): the specular map's roughest level, whose GGX lobe at roughness 1 is the
// cosine lobe, as three.js reads its PMREM's roughest level. (The nine harmonics this read
// before spread a room's bright panels over the sphere: under three.js's RoomEnvironment, a
// side facing a wall 11-14% too bright, the underside 10% too dark.)
fn environment_irradiance(normal: vec3<f32>) -> vec3<f32> {
    let level = frame.environment.w;
    return textureSampleLevel(specular_map, environment_sampler, environment_direction(normal), level).rgb
        * frame.environment.x;
}

// The irradiance (over π) as nine spherical-harmonic coefficients give it: what three-vrm's
// MToon reads from its light probe, made from the same environment.
fn light_probe_irradiance(normal: vec3<f32>) -> vec3<f32> {
    let d = environment_direction(normal);
    let sum = irradiance.sh[0].rgb * 0.282095
        + (irradiance.sh[1].rgb * d.y + irradiance.sh[2].rgb * d.z + irradiance.sh[3].rgb * d.x) * 0.488603
        + (irradiance.sh[4].rgb * (d.x * d.y) + irradiance.sh[5].rgb * (d.y * d.z) + irradiance.sh[7].rgb * (d.x * d.z)) * 1.092548
        + irradiance.sh[6].rgb * (0.315392 * (3.0 * d.z * d.z - 1.0))
        + irradiance.sh[8].rgb * (0.546274 * (d.x * d.x - d.y * d.y));
    return max(sum, vec3<f32>(0.0)) * frame.environment.x;
}

// The split-sum table: scale and bias on F0 for this view angle and roughness.
fn environment_brdf(n_dot_v: f32, roughness: f32) -> vec2<f32> {
    return textureSampleLevel(brdf_table, table_sampler, vec2<f32>(n_dot_v, roughness), 0.0).rg;
}
