// The ground: a large quad at y = ground height with a procedural grid that fades with
// distance, darkened where the model's shadow map says the key light is blocked.
//
// `Frame`, the shadow map and `shadow_factor` come from frame.wgsl, `scene_output` from
// scene_output.wgsl.

struct Ground {
    // x: height, y: half size of the quad, z: grid spacing, w: unused.
    params: vec4<f32>,
    // x, y: how far the grid has slid back (x, z) under a clip played in place.
    slide: vec4<f32>,
};

@group(1) @binding(0) var<uniform> ground: Ground;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    let corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[index] * ground.params.y;
    let center = vec2<f32>(frame.camera_position.x, frame.camera_position.z);
    let world = vec3<f32>(center.x + c.x, ground.params.x, center.y + c.y);
    var out: VertexOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

// The ground's colour at `world`: the grid's lines over the base, fading with distance.
fn grid(world: vec3<f32>) -> vec3<f32> {
    let spacing = ground.params.z;
    // The character stays while the ground slides back by its travel.
    let coord = (world.xz + ground.slide.xy) / spacing;
    let width = fwidth(coord);
    let line = abs(fract(coord - 0.5) - 0.5) / width;
    let minor = 1.0 - min(min(line.x, line.y), 1.0);
    let major_coord = coord / 10.0;
    let major_line = abs(fract(major_coord - 0.5) - 0.5) / fwidth(major_coord);
    let major = 1.0 - min(min(major_line.x, major_line.y), 1.0);
    let distance = length(world.xz - frame.camera_position.xz);
    let fade = 1.0 - smoothstep(ground.params.y * 0.3, ground.params.y, distance);
    var color = vec3<f32>(0.085, 0.088, 0.095);
    color = mix(color, vec3<f32>(0.16), minor * 0.6 * fade);
    return mix(color, vec3<f32>(0.30), major * 0.8 * fade);
}

// The ground where no shadow falls (scene.rs draws it so outside the rectangle a shadow can
// fall in: a software rasteriser pays for the lookups on every pixel).
@fragment
fn fs_unshadowed(in: VertexOut) -> @location(0) vec4<f32> {
    return scene_output(vec4<f32>(grid(in.world), 1.0));
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var color = grid(in.world);
    // A wide filter: a soft contact shadow; with several lights casting, each shadow is as
    // dark as its share of them.
    let reach = i32(frame.shadow.w);
    var lit = 0.0;
    var casters = 0.0;
    if (frame.light_direction.w > 0.0) {
        // No normal: the ground casts no shadow, so it needs no push off itself.
        lit = shadow_factor(in.world, vec3<f32>(0.0), reach, 2.0, 0.003);
        casters = 1.0;
    }
    for (var i = 0u; i < u32(frame.exposure_lights.y); i++) {
        if (frame.lights[i].shadow.x > 0.0) {
            lit += light_shadow_factor(i, in.world, vec3<f32>(0.0), reach, 2.0, 0.003);
            casters += 1.0;
        }
    }
    lit = select(1.0, lit / casters, casters > 0.0);
    color *= mix(0.45, 1.0, lit);
    return scene_output(vec4<f32>(color, 1.0));
}
