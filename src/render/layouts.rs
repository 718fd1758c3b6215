//! Bind group layouts, one per `@group` of the shaders.

use super::skin_source::SkinSource;
use super::uniforms::{DrawUniform, LAYER_SLOTS};
use crate::asset::material::MaterialTexture;

fn uniform(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn texture(binding: u32, sample_type: wgpu::TextureSampleType) -> wgpu::BindGroupLayoutEntry {
    texture_of(binding, sample_type, wgpu::TextureViewDimension::D2)
}

fn texture_of(
    binding: u32,
    sample_type: wgpu::TextureSampleType,
    view_dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension,
            multisampled: false,
        },
        count: None,
    }
}

/// A cube map (the environment's).
fn cube(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::Cube,
            multisampled: false,
        },
        count: None,
    }
}

fn sampler(binding: u32, kind: wgpu::SamplerBindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(kind),
        count: None,
    }
}

pub struct Layouts {
    /// Where the skinning shaders read skin matrices from; group 1 is laid out for it.
    pub skin_source: SkinSource,
    /// Group 0 everywhere: `Frame` uniform, shadow map (an array of layers), comparison
    /// sampler, the environment.
    pub frame: wgpu::BindGroupLayout,
    /// Group 1 of skinning.wgsl: the skin's matrices (as `SkinSource` lays them out) and
    /// `Draw` at a dynamic offset.
    pub draw: wgpu::BindGroupLayout,
    /// Group 2 of skin_capture.wgsl: `Capture`.
    pub capture: wgpu::BindGroupLayout,
    /// Group 2 of mesh.wgsl: `Material` and its textures.
    pub material: wgpu::BindGroupLayout,
    /// Group 0 of environment.wgsl: the source image, its sampler, the pass's parameters.
    pub environment: wgpu::BindGroupLayout,
    /// Group 0 of tone_map.wgsl: the scene's HDR image and the exposure and curve.
    pub tone_map: wgpu::BindGroupLayout,
    /// Group 1 of ground.wgsl.
    pub ground: wgpu::BindGroupLayout,
    /// Group 0 of blit.wgsl: the scene image and its sampler.
    pub blit: wgpu::BindGroupLayout,
    /// Group 3 of the transmissive mesh shaders (transmission.wgsl): the opaque scene behind
    /// and its sampler.
    pub transmission: wgpu::BindGroupLayout,
}

impl Layouts {
    pub fn new(device: &wgpu::Device, skin_source: SkinSource) -> Self {
        let both = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let float = wgpu::TextureSampleType::Float { filterable: true };
        let layout = |label: &str, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        Self {
            skin_source,
            frame: layout(
                "frame",
                &[
                    uniform(0, both),
                    texture_of(1, wgpu::TextureSampleType::Depth, wgpu::TextureViewDimension::D2Array),
                    sampler(2, wgpu::SamplerBindingType::Comparison),
                    cube(3),
                    uniform(4, wgpu::ShaderStages::FRAGMENT),
                    texture(5, float),
                    sampler(6, wgpu::SamplerBindingType::Filtering),
                    sampler(7, wgpu::SamplerBindingType::Filtering),
                ],
            ),
            draw: layout("draw", &draw_entries(skin_source, both)),
            capture: layout("capture", &[uniform(0, wgpu::ShaderStages::VERTEX)]),
            material: layout("material", &material_entries()),
            environment: layout(
                "environment",
                &[
                    texture(0, float),
                    sampler(1, wgpu::SamplerBindingType::Filtering),
                    uniform(2, wgpu::ShaderStages::FRAGMENT),
                ],
            ),
            tone_map: layout(
                "tone map",
                &[
                    texture(0, wgpu::TextureSampleType::Float { filterable: false }),
                    uniform(1, wgpu::ShaderStages::FRAGMENT),
                ],
            ),
            ground: layout("ground", &[uniform(0, both)]),
            blit: layout(
                "blit",
                &[texture(0, float), sampler(1, wgpu::SamplerBindingType::Filtering)],
            ),
            transmission: layout(
                "transmission",
                &[texture(0, float), sampler(1, wgpu::SamplerBindingType::Filtering)],
            ),
        }
    }
}

/// Group 2 of mesh.wgsl: `Material`, then its bound textures (the first
/// `MaterialTexture::BOUND`), their samplers, then the layer slots' textures and samplers
/// (layers.wgsl).
fn material_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let float = wgpu::TextureSampleType::Float { filterable: true };
    let filtering = wgpu::SamplerBindingType::Filtering;
    let (bound, slots) = (MaterialTexture::BOUND as u32, LAYER_SLOTS as u32);
    // MToon's outline reads its width from the uniform and a layer slot's texture as it
    // places vertices.
    let vertex_too = |mut entry: wgpu::BindGroupLayoutEntry| {
        entry.visibility |= wgpu::ShaderStages::VERTEX;
        entry
    };
    let mut entries = vec![uniform(0, wgpu::ShaderStages::VERTEX_FRAGMENT)];
    entries.extend((1..=bound).map(|binding| texture(binding, float)));
    entries.extend((bound + 1..=2 * bound).map(|binding| sampler(binding, filtering)));
    let first_slot = 2 * bound + 1;
    entries.extend((first_slot..first_slot + slots).map(|binding| vertex_too(texture(binding, float))));
    entries.extend((first_slot + slots..first_slot + 2 * slots).map(|binding| vertex_too(sampler(binding, filtering))));
    entries
}

/// Group 1: the skin's matrices, then `Draw` (binding 2), one slot per draw at a dynamic offset.
fn draw_entries(skin_source: SkinSource, visibility: wgpu::ShaderStages) -> Vec<wgpu::BindGroupLayoutEntry> {
    let mut entries = skin_source.layout_entries();
    entries.push(wgpu::BindGroupLayoutEntry {
        binding: 2,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: true,
            min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<DrawUniform>() as u64),
        },
        count: None,
    });
    entries
}
