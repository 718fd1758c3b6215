//! The shadow map: a depth texture array, a layer per shadow view (the key light's, or the
//! file's lights' that light the model most: render/shadow_views.rs), sampled as one array by
//! frame.wgsl's `layer_shadow_factor`.

/// 16 bits are plenty for a light's depth across one model (a 65,536th of the model's depth,
/// under the pass's bias) and half the memory of the scene's 32-bit float depth: a best-quality
/// layer is 8 MB instead of 16.
pub const SHADOW_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth16Unorm;

pub struct ShadowMap {
    /// Every layer, as the scene shaders sample them.
    pub sampled: wgpu::TextureView,
    /// Each layer, as the shadow pass draws into it.
    pub layers: Vec<wgpu::TextureView>,
}

impl ShadowMap {
    /// The layers a map starts with; it is remade with as many as a file's lights ask for (each
    /// layer of a 2048² map at best quality is 8 MB). Never fewer than two: OpenGL makes a
    /// texture of one layer a plain 2D texture, which the shaders' array lookup misreads.
    pub const FIRST_LAYERS: u32 = 2;

    /// A map of `size` texels square per layer, `layers` of them.
    pub fn new(device: &wgpu::Device, size: u32, layers: u32) -> Self {
        let texture = depth_array(device, "shadow map", size, layers);
        let layer = |index: u32| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_array_layer: index,
                array_layer_count: Some(1),
                ..Default::default()
            })
        };
        Self {
            sampled: array_view(&texture),
            layers: (0..layers).map(layer).collect(),
        }
    }

    /// What the shadow pass binds in the map's place (it writes the map, so cannot read it).
    pub fn stand_in(device: &wgpu::Device) -> wgpu::TextureView {
        array_view(&depth_array(device, "no shadow", 1, 1))
    }
}

fn depth_array(device: &wgpu::Device, label: &str, size: u32, layers: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: layers,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: SHADOW_DEPTH_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    })
}

fn array_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    })
}
