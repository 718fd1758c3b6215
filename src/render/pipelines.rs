//! Render pipelines. Every scene pipeline renders into `SCENE_FORMAT` with the scene target's
//! MSAA sample count and a `DEPTH_FORMAT` depth buffer; the blit pipeline writes the window.

use std::borrow::Cow;

use super::layouts::Layouts;
use super::skin_source::SkinSource;
use super::uniforms::{InfluenceVertex, OverlayVertex};

/// The scene is rendered in sRGB so that shaders output linear colour.
pub const SCENE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const SHADOW_SIZE: u32 = 2048;

pub struct Pipelines {
    pub mesh: wgpu::RenderPipeline,
    pub wire: wgpu::RenderPipeline,
    /// The bind-pose ghost: translucent, over everything, back faces culled.
    pub ghost: wgpu::RenderPipeline,
    pub shadow: wgpu::RenderPipeline,
    pub ground: wgpu::RenderPipeline,
    pub overlay_lines: wgpu::RenderPipeline,
    pub overlay_points: wgpu::RenderPipeline,
}

/// Vertex buffers of the skinning shaders: positions, normals, texture coordinates,
/// influences, and the vertex view's value (mesh.wgsl's location 7).
pub const MESH_BUFFERS: [Option<wgpu::VertexBufferLayout<'static>>; 5] = [
    Some(wgpu::VertexBufferLayout {
        array_stride: 12,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 12,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![1 => Float32x3],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 8,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![2 => Float32x2],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<InfluenceVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![3 => Uint16x4, 5 => Uint16x4, 4 => Float32x4, 6 => Float32x4],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 4,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![7 => Float32],
    }),
];

/// A shader module of frame.wgsl, the skin source's bindings, skinning.wgsl and `body`.
/// WGSL has no includes, so the shared parts are prepended.
pub fn skinning_shader(device: &wgpu::Device, label: &str, skin_source: SkinSource, body: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(Cow::Owned(format!(
            "{}\n{}\n{}\n{body}",
            include_str!("../../shaders/frame.wgsl"),
            skin_source.wgsl(),
            include_str!("../../shaders/skinning.wgsl"),
        ))),
    })
}

const OVERLAY_BUFFERS: [Option<wgpu::VertexBufferLayout<'static>>; 1] = [Some(wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<OverlayVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4, 2 => Float32x2],
})];

fn depth(write: bool, compare: wgpu::CompareFunction) -> Option<wgpu::DepthStencilState> {
    Some(wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    })
}

impl Pipelines {
    /// The skinning shaders read skin matrices as `layouts` lays them out.
    pub fn new(device: &wgpu::Device, layouts: &Layouts, sample_count: u32) -> Self {
        // WGSL has no includes: the shared frame block is prepended to each shader.
        let shader = |label: &str, source: String| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(Cow::Owned(format!(
                    "{}\n{source}",
                    include_str!("../../shaders/frame.wgsl")
                ))),
            })
        };
        let mesh_shader = skinning_shader(
            device,
            "mesh",
            layouts.skin_source,
            include_str!("../../shaders/mesh.wgsl"),
        );
        let ground_shader = shader("ground", include_str!("../../shaders/ground.wgsl").to_string());
        let overlay_shader = shader("overlay", include_str!("../../shaders/overlay.wgsl").to_string());
        let pipeline_layout = |groups: &[&wgpu::BindGroupLayout]| {
            let groups: Vec<Option<&wgpu::BindGroupLayout>> = groups.iter().map(|g| Some(*g)).collect();
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &groups,
                immediate_size: 0,
            })
        };
        let mesh_layout = pipeline_layout(&[&layouts.frame, &layouts.draw, &layouts.material]);
        let multisample = wgpu::MultisampleState {
            count: sample_count,
            mask: !0,
            alpha_to_coverage_enabled: false,
        };
        let target = [Some(wgpu::ColorTargetState {
            format: SCENE_FORMAT,
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            write_mask: wgpu::ColorWrites::ALL,
        })];
        fn fragment<'a>(
            module: &'a wgpu::ShaderModule,
            targets: &'a [Option<wgpu::ColorTargetState>],
        ) -> Option<wgpu::FragmentState<'a>> {
            Some(wgpu::FragmentState {
                module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets,
            })
        }
        let mesh_pipeline = |label: &str, topology: wgpu::PrimitiveTopology, ghost: bool| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&mesh_layout),
                vertex: wgpu::VertexState {
                    module: &mesh_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &MESH_BUFFERS,
                },
                // Both faces are drawn: mirrored nodes flip winding, and the shader lights
                // back faces with the flipped normal.
                primitive: wgpu::PrimitiveState {
                    topology,
                    cull_mode: ghost.then_some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: if ghost {
                    depth(false, wgpu::CompareFunction::Always)
                } else {
                    depth(
                        topology == wgpu::PrimitiveTopology::TriangleList,
                        wgpu::CompareFunction::LessEqual,
                    )
                },
                multisample,
                fragment: fragment(&mesh_shader, &target),
                multiview_mask: None,
                cache: None,
            })
        };
        let overlay_layout = pipeline_layout(&[&layouts.frame]);
        let overlay_pipeline = |label: &str, topology: wgpu::PrimitiveTopology| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&overlay_layout),
                vertex: wgpu::VertexState {
                    module: &overlay_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &OVERLAY_BUFFERS,
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    ..Default::default()
                },
                // On top of the mesh: the depth test always passes.
                depth_stencil: depth(false, wgpu::CompareFunction::Always),
                multisample,
                fragment: fragment(&overlay_shader, &target),
                multiview_mask: None,
                cache: None,
            })
        };
        let ground_layout = pipeline_layout(&[&layouts.frame, &layouts.ground]);
        Self {
            mesh: mesh_pipeline("mesh", wgpu::PrimitiveTopology::TriangleList, false),
            wire: mesh_pipeline("wireframe", wgpu::PrimitiveTopology::LineList, false),
            ghost: mesh_pipeline("bind-pose ghost", wgpu::PrimitiveTopology::TriangleList, true),
            shadow: device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("shadow"),
                layout: Some(&mesh_layout),
                vertex: wgpu::VertexState {
                    module: &mesh_shader,
                    entry_point: Some("vs_shadow"),
                    compilation_options: Default::default(),
                    buffers: &MESH_BUFFERS,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState {
                        constant: 2,
                        slope_scale: 2.0,
                        clamp: 0.0,
                    },
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: None,
                multiview_mask: None,
                cache: None,
            }),
            ground: device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("ground"),
                layout: Some(&ground_layout),
                vertex: wgpu::VertexState {
                    module: &ground_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: depth(true, wgpu::CompareFunction::Less),
                multisample,
                fragment: fragment(&ground_shader, &target),
                multiview_mask: None,
                cache: None,
            }),
            overlay_lines: overlay_pipeline("bones", wgpu::PrimitiveTopology::LineList),
            overlay_points: overlay_pipeline("joints", wgpu::PrimitiveTopology::TriangleList),
        }
    }
}
