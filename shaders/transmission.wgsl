// KHR_materials_transmission, _volume and _dispersion, as the glTF Sample Viewer draws them:
// light from the opaque scene behind (src/render/transmission.rs: a half-size copy with a mip
// chain), read where the refracted ray leaves the volume, from a blurrier level the rougher the
// surface; faded through the volume (Beer's law); each colour bent by its own index of
// refraction when the material disperses. Appended to mesh.wgsl for transmissive materials.

const TRANSMISSION: bool = true;

@group(2) @binding(6) var transmission_texture: texture_2d<f32>;
@group(2) @binding(7) var thickness_texture: texture_2d<f32>;
@group(2) @binding(13) var transmission_sampler: sampler;
@group(2) @binding(14) var thickness_sampler: sampler;
@group(3) @binding(0) var scene_behind: texture_2d<f32>;
@group(3) @binding(1) var scene_behind_sampler: sampler;

// The share of light let through (x: factor × the transmission texture's red) and the
// volume's thickness (y: factor × the thickness texture's green).
fn transmission_and_thickness(uv0: vec2<f32>, uv1: vec2<f32>) -> vec2<f32> {
    let one = vec4<f32>(1.0);
    let transmission = material_sample(5u, transmission_texture, transmission_sampler, uv0, uv1, one).r;
    let thickness = material_sample(6u, thickness_texture, thickness_sampler, uv0, uv1, one).g;
    return material.transmission.xy * vec2<f32>(transmission, thickness);
}

// Where the ray through `world` refracted by `ior` leaves a volume `thickness` thick (in the
// mesh's units, scaled as the draw's placement scales them), and the scene behind there.
fn scene_through(s: Surface, roughness: f32, world: vec3<f32>, thickness: f32, ior: f32) -> vec4<f32> {
    let scale = vec3<f32>(length(draw.model[0].xyz), length(draw.model[1].xyz), length(draw.model[2].xyz));
    let ray = normalize(refract(-s.v, s.n, 1.0 / ior)) * thickness * scale;
    let exit = frame.view_proj * vec4<f32>(world + ray, 1.0);
    let ndc = exit.xy / exit.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    // A rough surface blurs what is behind it, less so the closer its ior is to 1.
    let width = f32(textureDimensions(scene_behind).x);
    let level = log2(width) * roughness * clamp(ior * 2.0 - 2.0, 0.0, 1.0);
    let light = textureSampleLevel(scene_behind, scene_behind_sampler, uv, level).rgb;
    return vec4<f32>(light, length(ray));
}

// The light transmitted through the surface towards the viewer: the scene behind, faded by
// the volume, tinted by `tint` (the dielectric's diffuse colour) and less what the surface
// reflects.
fn refracted_light(s: Surface, roughness: f32, tint: vec3<f32>, world: vec3<f32>, thickness: f32) -> vec3<f32> {
    let ior = material.attenuation.w;
    var through = scene_through(s, roughness, world, thickness, ior);
    let dispersion = material.transmission.w;
    if (dispersion > 0.0) {
        // KHR_materials_dispersion: red bends least, blue most.
        let spread = (ior - 1.0) * 0.025 * dispersion;
        through.r = scene_through(s, roughness, world, thickness, ior - spread).r;
        through.b = scene_through(s, roughness, world, thickness, ior + spread).b;
    }
    var light = through.rgb;
    let distance = material.transmission.z;
    if (distance > 0.0) {
        light *= pow(material.attenuation.rgb, vec3<f32>(through.w / distance));
    }
    let n_dot_v = clamp(dot(s.n, s.v), 1e-4, 1.0);
    let brdf = environment_brdf(n_dot_v, roughness);
    let reflected = s.f0 * brdf.x + s.f90 * brdf.y;
    return (1.0 - reflected) * light * tint;
}
