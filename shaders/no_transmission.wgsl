// The mesh shader of materials that let no light through: a stand-in for transmission.wgsl
// that reads nothing, so its pipelines need no group 3 and sample no transmission textures.

const TRANSMISSION: bool = false;

fn transmission_and_thickness(uv0: vec2<f32>, uv1: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(0.0);
}

fn refracted_light(s: Surface, roughness: f32, tint: vec3<f32>, world: vec3<f32>, thickness: f32) -> vec3<f32> {
    return vec3<f32>(0.0);
}
