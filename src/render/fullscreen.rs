//! Passes that draw one triangle over their whole target (shaders/fullscreen.wgsl's
//! `vs_fullscreen`, prepended to their fragment shaders): the window's copies, tone mapping,
//! the environment's images. The scene's background uses the same vertex shader.

use std::borrow::Cow;

use super::layouts::Layouts;

/// The vertex shader every full-screen pass shares.
pub const WGSL: &str = include_str!("../../shaders/fullscreen.wgsl");
/// The sRGB transfer functions, for the passes that write or read gamma-encoded colours.
pub const SRGB: &str = include_str!("../../shaders/srgb.wgsl");
/// tone_curve.wgsl: the tone curves and `displayed`, which the tone map pass and the scene
/// shaders that draw over the displayed image share (after `SRGB`).
pub const TONE_CURVE: &str = include_str!("../../shaders/tone_curve.wgsl");

/// A shader module of fullscreen.wgsl and `body` (the fragment shaders).
pub fn shader(device: &wgpu::Device, label: &str, body: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(Cow::Owned(format!("{WGSL}\n{body}"))),
    })
}

/// A pipeline that draws `fragment` of `module` into a `format` target, reading one bind
/// group laid out as `layout`.
pub fn pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    fragment: &str,
    layout: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    multisampled_pipeline(device, module, fragment, layout, (format, 1))
}

/// `pipeline` into a target with `samples` samples per pixel (each sample gets the pixel's
/// colour).
pub fn multisampled_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    fragment: &str,
    layout: &wgpu::BindGroupLayout,
    (format, samples): (wgpu::TextureFormat, u32),
) -> wgpu::RenderPipeline {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(fragment),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(fragment),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_fullscreen"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A bind group of `source` read through `sampler`, laid out as `layouts.blit` (the group a
/// pass that copies or filters one image reads).
pub fn source_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    label: &str,
    source: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &layouts.blit,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(source),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}

/// Records a pass that clears `target` and draws `pipeline` with `group` over it, or over
/// `viewport` (x, y, width, height in pixels).
pub fn draw(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::RenderPipeline,
    group: &wgpu::BindGroup,
    target: &wgpu::TextureView,
    viewport: Option<[u32; 4]>,
) {
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: None,
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
    if let Some([x, y, width, height]) = viewport {
        pass.set_viewport(x as f32, y as f32, width as f32, height as f32, 0.0, 1.0);
    }
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, group, &[]);
    pass.draw(0..3, 0..1);
}
