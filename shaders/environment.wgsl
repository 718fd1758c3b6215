// Makes the environment's lighting at start-up (src/render/environment.rs): the built-in studio
// as an equirectangular radiance image, its mip chain, the specular cube map prefiltered for
// roughness 0 to 1 over its mip levels (GGX: importance-sampled, the rough levels integrated
// over a small level), the diffuse irradiance as spherical harmonics, and the split-sum BRDF
// table. Every image (each cube face, each level) is drawn by a full-screen triangle.
//
// Equirectangular images: u = atan2(z, x) / 2π + 0.5 (as three.js), v = acos(y) / π (row 0
// looks up). The vertex shader is fullscreen.wgsl's; the microfacet terms are brdf.wgsl's. Cube faces in the order +X, −X, +Y, −Y, +Z, −Z, laid out as WebGPU samples them.

struct Pass {
    // x: roughness (specular), y: the source's width, z: its height, w: its highest mip level.
    params: vec4<f32>,
    // x: the width of the image being drawn, y: the cube face it is.
    output: vec4<f32>,
};

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var source_sampler: sampler;
@group(0) @binding(2) var<uniform> pass_params: Pass;

fn equirect_direction(uv: vec2<f32>) -> vec3<f32> {
    let phi = (uv.x - 0.5) * 2.0 * PI;
    let theta = uv.y * PI;
    return vec3<f32>(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi));
}

// The direction through `uv` (0 to 1, from the top left) of cube face `face`.
fn cube_direction(face: u32, uv: vec2<f32>) -> vec3<f32> {
    let s = uv.x * 2.0 - 1.0;
    let t = uv.y * 2.0 - 1.0;
    var d: vec3<f32>;
    switch face {
        case 0u: { d = vec3<f32>(1.0, -t, -s); }
        case 1u: { d = vec3<f32>(-1.0, -t, s); }
        case 2u: { d = vec3<f32>(s, 1.0, t); }
        case 3u: { d = vec3<f32>(s, -1.0, -t); }
        case 4u: { d = vec3<f32>(s, -t, 1.0); }
        default: { d = vec3<f32>(-s, -t, -1.0); }
    }
    return normalize(d);
}

fn equirect_uv(d: vec3<f32>) -> vec2<f32> {
    return vec2<f32>(atan2(d.z, d.x) / (2.0 * PI) + 0.5, acos(clamp(d.y, -1.0, 1.0)) / PI);
}

// A soft rectangular light: 1 inside a box of half-size `size` (radians of azimuth and
// elevation) around (azimuth, elevation), fading over `soft`.
fn softbox(azimuth: f32, elevation: f32, center: vec2<f32>, size: vec2<f32>, soft: f32) -> f32 {
    var da = abs(azimuth - center.x);
    da = min(da, 2.0 * PI - da);
    let de = abs(elevation - center.y);
    let edge = max(vec2<f32>(da, de) - size, vec2<f32>(0.0));
    return 1.0 - smoothstep(0.0, soft, length(edge));
}

// The built-in neutral studio: a light grey room, lighter overhead, a darker floor, with a
// large key softbox front-right, a fill front-left, a rim light behind and a soft overhead
// panel. As bright overall as three.js's RoomEnvironment (a mean radiance of about 1), so a
// metal has a room to reflect rather than black, and the softboxes give it highlights.
// Neutral in colour, so materials show their own.
@fragment
fn fs_studio(in: FullscreenOut) -> @location(0) vec4<f32> {
    let d = equirect_direction(in.uv);
    let azimuth = atan2(d.x, d.z);
    let elevation = asin(clamp(d.y, -1.0, 1.0));
    let wall = mix(0.2, 0.45, smoothstep(-0.1, 0.9, d.y));
    let floor = 0.12 + 0.06 * smoothstep(-1.0, -0.2, d.y);
    var radiance = select(floor, wall, d.y > -0.02);
    radiance += 9.0 * softbox(azimuth, elevation, vec2<f32>(0.9, 0.8), vec2<f32>(0.35, 0.25), 0.12);
    radiance += 4.0 * softbox(azimuth, elevation, vec2<f32>(-0.9, 0.25), vec2<f32>(0.3, 0.3), 0.15);
    radiance += 6.0 * softbox(azimuth, elevation, vec2<f32>(3.0, 0.35), vec2<f32>(0.25, 0.15), 0.1);
    radiance += 3.0 * softbox(azimuth, elevation, vec2<f32>(0.0, 1.45), vec2<f32>(3.2, 0.2), 0.2);
    return vec4<f32>(vec3<f32>(radiance), 1.0);
}

// The next mip level: the mean radiance over the solid angle of the four texels under this
// one. An equirectangular texel's solid angle shrinks with sin θ towards the poles, so each row
// of the two is weighted by it: a plain average over-weights the row nearer the pole, and over
// the levels that made a light near the zenith (RoomEnvironment's ceiling panels) 7% too bright
// in the irradiance and brighter still in the rough specular levels.
@fragment
fn fs_downsample(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let size = vec2<i32>(textureDimensions(source));
    let corner = vec2<i32>(position.xy) * 2;
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var row = 0; row < 2; row++) {
        let y = min(corner.y + row, size.y - 1);
        let solid_angle = sin((f32(y) + 0.5) / f32(size.y) * PI);
        for (var column = 0; column < 2; column++) {
            let x = min(corner.x + column, size.x - 1);
            sum += textureLoad(source, vec2<i32>(x, y), 0).rgb * solid_angle;
            weight += solid_angle;
        }
    }
    return vec4<f32>(sum / max(weight, 1e-12), 1.0);
}

// A low-discrepancy point set (Hammersley).
fn hammersley(i: u32, count: u32) -> vec2<f32> {
    var bits = i;
    bits = (bits << 16u) | (bits >> 16u);
    bits = ((bits & 0x55555555u) << 1u) | ((bits & 0xAAAAAAAAu) >> 1u);
    bits = ((bits & 0x33333333u) << 2u) | ((bits & 0xCCCCCCCCu) >> 2u);
    bits = ((bits & 0x0F0F0F0Fu) << 4u) | ((bits & 0xF0F0F0F0u) >> 4u);
    bits = ((bits & 0x00FF00FFu) << 8u) | ((bits & 0xFF00FF00u) >> 8u);
    return vec2<f32>(f32(i) / f32(count), f32(bits) * 2.3283064365386963e-10);
}

// An orthonormal frame around `n`: the columns are tangent, bitangent, n.
fn frame_around(n: vec3<f32>) -> mat3x3<f32> {
    let up = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 0.0, 1.0), abs(n.z) < 0.999);
    let tangent = normalize(cross(up, n));
    return mat3x3<f32>(tangent, cross(n, tangent), n);
}

// A half vector sampled from the GGX distribution for `alpha` (roughness²), around +Z.
fn ggx_half_vector(xi: vec2<f32>, alpha: f32) -> vec3<f32> {
    let phi = 2.0 * PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
    let sin_theta = sqrt(1.0 - cos_theta * cos_theta);
    return vec3<f32>(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

const SPECULAR_SAMPLES: u32 = 96u;

// The environment seen in a mirror direction by a surface of this pass's roughness, with
// N = V = R (the split-sum approximation). Each sample reads the mip level whose texel covers
// the sample's share of the sphere, half a level up as three.js's PMREM reads it (filtered
// importance sampling; a whole level up, as this read before, made roughness 1/3 7% too bright
// under a room's lights, and none left the smooth levels' lobes darker than three.js's).
// Rough levels (roughness 0.5 and more) weigh every texel of a 32 × 16 level instead, as
// three.js's PMREM does its rough levels: importance sampling read such wide lobes from levels
// of 8 × 4 texels and came out 10-14% too dark under a room with bright ceiling panels.
@fragment
fn fs_specular(in: FullscreenOut) -> @location(0) vec4<f32> {
    let n = cube_direction(u32(pass_params.output.y), in.uv);
    let roughness = pass_params.params.x;
    if (roughness == 0.0) {
        // A mirror: the source itself, at the level whose texels match this face's (a face
        // spans a quarter of the source's width).
        let level = max(log2(pass_params.params.y / (4.0 * pass_params.output.x)), 0.0);
        return vec4<f32>(textureSampleLevel(source, source_sampler, equirect_uv(n), level).rgb, 1.0);
    }
    let alpha = roughness * roughness;
    if (roughness >= 0.5) {
        return vec4<f32>(integrated_lobe(n, alpha), 1.0);
    }
    let basis = frame_around(n);
    let texel_solid_angle = 4.0 * PI / (pass_params.params.y * pass_params.params.z);
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var i = 0u; i < SPECULAR_SAMPLES; i++) {
        let h = basis * ggx_half_vector(hammersley(i, SPECULAR_SAMPLES), alpha);
        let l = reflect(-n, h);
        let n_dot_l = dot(n, l);
        if (n_dot_l > 0.0) {
            let n_dot_h = max(dot(n, h), 0.0);
            // With N = V the pdf of l is D / 4.
            let pdf = ggx_distribution(n_dot_h, alpha) * 0.25;
            let sample_solid_angle = 1.0 / (f32(SPECULAR_SAMPLES) * pdf + 1e-6);
            let level = clamp(0.5 * log2(sample_solid_angle / texel_solid_angle) + 0.5, 0.0, pass_params.params.w);
            sum += textureSampleLevel(source, source_sampler, equirect_uv(l), level).rgb * n_dot_l;
            weight += n_dot_l;
        }
    }
    return vec4<f32>(sum / max(weight, 1e-6), 1.0);
}

// The GGX lobe for `alpha` around `n` (N = V) over every texel of the source's level of at
// most 32 × 16 texels, each weighted by D(h) n·l and its solid angle. With N = V, (n·h)² is
// (1 + n·l) / 2, so D's denominator is (1 + α² + (α² − 1) n·l)² up to a constant factor.
fn integrated_lobe(n: vec3<f32>, alpha: f32) -> vec3<f32> {
    let source_size = pass_params.params.yz;
    let level = i32(clamp(ceil(max(log2(source_size.x / 32.0), log2(source_size.y / 16.0))), 0.0, pass_params.params.w));
    let size = textureDimensions(source, level);
    let a2 = alpha * alpha;
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var y = 0u; y < size.y; y++) {
        for (var x = 0u; x < size.x; x++) {
            let uv = (vec2<f32>(f32(x), f32(y)) + 0.5) / vec2<f32>(size);
            let n_dot_l = dot(n, equirect_direction(uv));
            if (n_dot_l > 0.0) {
                let d = 1.0 + a2 + (a2 - 1.0) * n_dot_l;
                let w = n_dot_l * sin(uv.y * PI) / (d * d);
                sum += textureLoad(source, vec2<u32>(x, y), level).rgb * w;
                weight += w;
            }
        }
    }
    return sum / max(weight, 1e-12);
}

// Real spherical harmonics up to order 2 at direction `d`.
fn sh_basis(d: vec3<f32>) -> array<f32, 9> {
    return array<f32, 9>(
        0.282095,
        0.488603 * d.y,
        0.488603 * d.z,
        0.488603 * d.x,
        1.092548 * d.x * d.y,
        1.092548 * d.y * d.z,
        0.315392 * (3.0 * d.z * d.z - 1.0),
        1.092548 * d.x * d.z,
        0.546274 * (d.x * d.x - d.y * d.y),
    );
}

// Diffuse irradiance as nine spherical-harmonic coefficients (Ramamoorthi and Hanrahan): the
// texel at x = i holds coefficient i of the environment's radiance, already convolved with the
// cosine lobe and divided by π, so that Σ cᵢ Yᵢ(n) times the albedo is a Lambert surface's
// radiance. The source is integrated at its first level within 64 × 32 texels, each weighted by
// its solid angle.
@fragment
fn fs_irradiance(@builtin(position) position: vec4<f32>) -> @location(0) vec4<u32> {
    let index = u32(position.x);
    let source_size = pass_params.params.yz;
    let level = i32(clamp(max(log2(source_size.x / 64.0), log2(source_size.y / 32.0)), 0.0, pass_params.params.w));
    let size = textureDimensions(source, level);
    // The cosine lobe's convolution per band (π, 2π/3, π/4), over π.
    var band = array<f32, 9>(1.0, 2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 0.25, 0.25, 0.25, 0.25, 0.25);
    var sum = vec3<f32>(0.0);
    for (var y = 0u; y < size.y; y++) {
        for (var x = 0u; x < size.x; x++) {
            let uv = (vec2<f32>(f32(x), f32(y)) + 0.5) / vec2<f32>(size);
            let d = equirect_direction(uv);
            let solid_angle = (2.0 * PI / f32(size.x)) * (PI / f32(size.y)) * sin(uv.y * PI);
            var basis = sh_basis(d);
            sum += textureLoad(source, vec2<u32>(x, y), level).rgb * basis[index] * solid_angle;
        }
    }
    // As the bits of floats: an integer image is renderable everywhere, and the uniform
    // buffer it is copied into reads them as floats again.
    return bitcast<vec4<u32>>(vec4<f32>(sum * band[index], 1.0));
}

// As many as three.js's table was made with.
const TABLE_SAMPLES: u32 = 4096u;

// The split-sum BRDF table: for n·v (u) and roughness (v), the scale and bias on F0 that
// integrate GGX with height-correlated Smith visibility and Schlick's Fresnel over the
// hemisphere.
@fragment
fn fs_brdf_table(in: FullscreenOut) -> @location(0) vec4<f32> {
    let n_dot_v = max(in.uv.x, 1e-3);
    let roughness = in.uv.y;
    let alpha = roughness * roughness;
    let v = vec3<f32>(sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v);
    var scale = 0.0;
    var bias = 0.0;
    for (var i = 0u; i < TABLE_SAMPLES; i++) {
        let h = ggx_half_vector(hammersley(i, TABLE_SAMPLES), alpha);
        let l = reflect(-v, h);
        let n_dot_l = max(l.z, 0.0);
        let n_dot_h = max(h.z, 0.0);
        let v_dot_h = max(dot(v, h), 0.0);
        if (n_dot_l > 0.0) {
            // pdf = D n·h / (4 v·h); the estimator is f n·l / pdf.
            let visibility = smith_visibility(n_dot_l, n_dot_v, alpha);
            let g = visibility * 4.0 * n_dot_l * v_dot_h / max(n_dot_h, 1e-6);
            let fresnel = pow(1.0 - v_dot_h, 5.0);
            scale += (1.0 - fresnel) * g;
            bias += fresnel * g;
        }
    }
    return vec4<f32>(scale / f32(TABLE_SAMPLES), bias / f32(TABLE_SAMPLES), 0.0, 1.0);
}
