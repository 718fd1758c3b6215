//! Draws a posed model into a `SceneTarget`: shadow pass, ground, meshes, wireframe and the
//! skeleton overlay. The window and the headless `render` command both use it, so they show
//! the same picture.

use glam::camera::rh::{proj::directx, view::look_at_mat4};
use glam::{Mat4, Vec3, Vec4};
use wgpu::util::DeviceExt;

use super::camera::{Bounds, OrbitCamera};
use super::gpu::Gpu;
use super::layouts::Layouts;
use super::model_gpu::ModelGpu;
use super::overlay::Overlay;
use super::pipelines::{DEPTH_FORMAT, Pipelines, SCENE_FORMAT, SHADOW_SIZE, max_joints};
use super::skin_compare::{SkinCompare, SkinDifference};
use super::uniforms::{FrameUniform, GroundUniform, OverlayVertex};
use crate::anim::Pose;
use crate::asset::Model;
use crate::inspect::VertexView;
use crate::skin::{Deformer, SkinningMethod};

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    pub mesh: bool,
    pub skeleton: bool,
    pub wireframe: bool,
    /// The ground with its grid, and the model's shadow on it.
    pub grid: bool,
    /// Skin on the GPU (true) or on the CPU (false).
    pub gpu_skinning: bool,
    /// Linear blend or dual-quaternion skinning (both paths do both).
    pub skinning_method: SkinningMethod,
    /// Colours from a vertex view (weights, influence counts, repairs, the CPU-vs-GPU
    /// difference) instead of the materials.
    pub vertex_view: Option<VertexView>,
    /// The mesh in its bind pose, translucent, over the posed one.
    pub bind_ghost: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            mesh: true,
            skeleton: false,
            wireframe: false,
            grid: true,
            gpu_skinning: true,
            skinning_method: SkinningMethod::Linear,
            vertex_view: None,
            bind_ghost: false,
        }
    }
}

/// Direction towards the key light.
const LIGHT_DIRECTION: Vec3 = Vec3::new(0.45, 1.0, 0.35);
const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.045,
    g: 0.05,
    b: 0.06,
    a: 1.0,
};
const BONE_COLOR: Vec4 = Vec4::new(1.0, 0.75, 0.1, 1.0);
const JOINT_COLOR: Vec4 = Vec4::new(0.2, 0.9, 1.0, 1.0);
/// Half the side of a joint's square, in clip units per w (about 4 pixels at 800 px).
const JOINT_SIZE: f32 = 0.01;

/// Where a scene is rendered: MSAA colour and depth, resolved into a single-sample image
/// that can be shown (blit) or read back.
pub struct SceneTarget {
    pub width: u32,
    pub height: u32,
    multisampled: Option<wgpu::TextureView>,
    pub resolved: wgpu::Texture,
    pub resolved_view: wgpu::TextureView,
    depth: wgpu::TextureView,
}

pub struct SceneRenderer {
    pub layouts: Layouts,
    pub pipelines: Pipelines,
    pub sample_count: u32,
    frame_uniform: wgpu::Buffer,
    /// Group 0 for the main pass (reads the shadow map) and for the shadow pass (which writes
    /// it, so it binds a stand-in).
    frame_group: wgpu::BindGroup,
    shadow_pass_frame_group: wgpu::BindGroup,
    shadow_view: wgpu::TextureView,
    ground_uniform: wgpu::Buffer,
    ground_group: wgpu::BindGroup,
    overlay_buffer: wgpu::Buffer,
    overlay_capacity: usize,
    overlay_lines: Vec<OverlayVertex>,
    overlay_points: Vec<OverlayVertex>,
    skeleton: Overlay,
    /// What the caller wants drawn over the scene this frame (IK targets, constraints), in
    /// model space; kept until the caller clears it.
    pub gizmos: Overlay,
    /// The CPU-vs-GPU difference view's pipeline, made when the view is first shown (or why
    /// it cannot be).
    skin_compare: Option<Result<SkinCompare, String>>,
    /// What the last frame with the difference view measured, or why it could not.
    pub skin_difference: Option<Result<SkinDifference, String>>,
}

/// Which of a draw's bind groups (and so which look) a pass uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DrawGroup {
    Solid,
    Wire,
    Ghost,
}

fn depth_texture(
    device: &wgpu::Device,
    label: &str,
    width: u32,
    height: u32,
    samples: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

impl SceneRenderer {
    /// A renderer whose skinning arrays hold as many joints as the device's uniform buffers do.
    pub fn new(gpu: &Gpu) -> Self {
        Self::with_joint_limit(gpu, max_joints(&gpu.device.limits()))
    }

    /// A renderer whose skinning arrays hold `joint_limit` joints (at most what the device
    /// allows): skins with more are skinned on the CPU.
    pub fn with_joint_limit(gpu: &Gpu, joint_limit: usize) -> Self {
        let device = &gpu.device;
        let joint_limit = joint_limit.clamp(1, max_joints(&device.limits()));
        let sample_count = gpu.sample_count(SCENE_FORMAT).min(gpu.sample_count(DEPTH_FORMAT));
        let layouts = Layouts::new(device);
        let pipelines = Pipelines::new(device, &layouts, sample_count, joint_limit);
        let frame_uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampled_depth = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let shadow_view = depth_texture(device, "shadow map", SHADOW_SIZE, SHADOW_SIZE, 1, sampled_depth);
        let stand_in = depth_texture(device, "no shadow", 1, 1, 1, sampled_depth);
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let frame_group = |shadow: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("frame"),
                layout: &layouts.frame,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: frame_uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(shadow),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Sampler(&shadow_sampler),
                    },
                ],
            })
        };
        let ground_uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ground"),
            contents: bytemuck::bytes_of(&GroundUniform { params: [0.0; 4] }),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let ground_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ground"),
            layout: &layouts.ground,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: ground_uniform.as_entire_binding(),
            }],
        });
        let (overlay_buffer, overlay_capacity) = overlay_buffer(device, 1024);
        Self {
            frame_group: frame_group(&shadow_view),
            shadow_pass_frame_group: frame_group(&stand_in),
            layouts,
            pipelines,
            sample_count,
            frame_uniform,
            shadow_view,
            ground_uniform,
            ground_group,
            overlay_buffer,
            overlay_capacity,
            overlay_lines: Vec::new(),
            overlay_points: Vec::new(),
            skeleton: Overlay::default(),
            gizmos: Overlay::default(),
            skin_compare: None,
            skin_difference: None,
        }
    }

    /// Uploads a model for drawing.
    pub fn upload_model(&self, gpu: &Gpu, model: &Model) -> ModelGpu {
        ModelGpu::new(&gpu.device, &gpu.queue, &self.layouts, model, self.pipelines.max_joints)
    }

    pub fn target(&self, device: &wgpu::Device, width: u32, height: u32) -> SceneTarget {
        let (width, height) = (width.max(1), height.max(1));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let color = |label: &str, samples: u32, usage: wgpu::TextureUsages| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format: SCENE_FORMAT,
                usage,
                view_formats: &[],
            })
        };
        let resolved = color(
            "scene",
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        let multisampled = (self.sample_count > 1).then(|| {
            color("scene msaa", self.sample_count, wgpu::TextureUsages::RENDER_ATTACHMENT)
                .create_view(&Default::default())
        });
        SceneTarget {
            width,
            height,
            multisampled,
            resolved_view: resolved.create_view(&Default::default()),
            resolved,
            depth: depth_texture(
                device,
                "scene depth",
                width,
                height,
                self.sample_count,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            ),
        }
    }

    /// Poses `model` with `pose` (on the CPU for the draws the GPU does not skin), uploads the
    /// frame and records the passes that draw it. `bounds` is the region the model moves in
    /// (it sizes the ground, the grid and the shadow).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SceneTarget,
        model: &Model,
        pose: &Pose,
        model_gpu: &mut ModelGpu,
        deformer: &mut Deformer,
        camera: &OrbitCamera,
        view: &ViewOptions,
        bounds: &Bounds,
    ) {
        deformer.method = view.skinning_method;
        let compare = view.vertex_view == Some(VertexView::SkinDifference);
        // The difference view needs the CPU's skinning of every skinned draw.
        deformer.update_where(model, pose, |i| {
            let draw = &model_gpu.draws[i];
            draw.uses_cpu_vertices(view.gpu_skinning) || (compare && draw.skin.is_some())
        });
        model_gpu.upload(&gpu.queue, model, deformer, view);
        self.skin_difference = compare.then(|| {
            let size = if bounds.is_empty() { 1.0 } else { bounds.radius() * 2.0 };
            let max_joints = self.pipelines.max_joints;
            let pipeline = self
                .skin_compare
                .get_or_insert_with(|| SkinCompare::new(gpu, &self.layouts, max_joints).map_err(|e| e.to_string()));
            let measured = match pipeline {
                Ok(pipeline) => pipeline
                    .measure(gpu, &self.layouts, model_gpu, deformer, size)
                    .map_err(|e| e.to_string()),
                Err(error) => Err(error.clone()),
            };
            if measured.is_err() {
                // Grey, not the colours of whatever the values were before.
                model_gpu.mark_unmeasured(&gpu.queue);
            }
            measured
        });
        let (model_gpu, deformer) = (&*model_gpu, &*deformer);
        let aspect = target.width as f32 / target.height as f32;
        let light_view_proj = light_view_projection(bounds);
        let shadows = view.mesh;
        let frame = FrameUniform::new(
            camera.projection(aspect) * camera.view(),
            light_view_proj,
            camera.eye(),
            LIGHT_DIRECTION,
            shadows.then_some(1.0 / SHADOW_SIZE as f32),
        );
        gpu.queue
            .write_buffer(&self.frame_uniform, 0, bytemuck::bytes_of(&frame));
        let (height, radius) = if bounds.is_empty() {
            (0.0, 1.0)
        } else {
            (bounds.min.y, bounds.radius().max(1e-3))
        };
        let ground = GroundUniform {
            params: [
                height,
                (radius * 30.0).max(camera.distance * 3.0),
                grid_spacing(radius),
                0.0,
            ],
        };
        gpu.queue
            .write_buffer(&self.ground_uniform, 0, bytemuck::bytes_of(&ground));
        let overlay_count = self.build_overlay(gpu, deformer, model, aspect, view.skeleton);

        // Every drawable primitive, with the bind group of `look`; the pipeline is set by the
        // caller.
        let draw_meshes = |pass: &mut wgpu::RenderPass, look: DrawGroup| {
            for draw in model_gpu.draws.iter().filter(|d| d.drawable) {
                let cpu = look != DrawGroup::Ghost && draw.uses_cpu_vertices(view.gpu_skinning);
                let (positions, normals) = if cpu {
                    (&draw.posed_positions, &draw.posed_normals)
                } else {
                    (&draw.positions, &draw.normals)
                };
                pass.set_vertex_buffer(0, positions.slice(..));
                pass.set_vertex_buffer(1, normals.slice(..));
                pass.set_vertex_buffer(2, draw.uvs.slice(..));
                pass.set_vertex_buffer(3, draw.influences.slice(..));
                pass.set_vertex_buffer(4, draw.view_values.slice(..));
                pass.set_bind_group(2, &model_gpu.materials[draw.material], &[]);
                let (group, indices, count) = match look {
                    DrawGroup::Solid => (&draw.solid_group, &draw.indices, draw.index_count),
                    DrawGroup::Wire => (&draw.wire_group, &draw.edges, draw.edge_count),
                    DrawGroup::Ghost => (&draw.ghost_group, &draw.indices, draw.index_count),
                };
                pass.set_bind_group(1, group, &[]);
                pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..count, 0, 0..1);
            }
        };

        if shadows {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow"),
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.shadow_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            pass.set_pipeline(&self.pipelines.shadow);
            pass.set_bind_group(0, &self.shadow_pass_frame_group, &[]);
            draw_meshes(&mut pass, DrawGroup::Solid);
        }

        let (view_target, resolve) = match &target.multisampled {
            Some(multisampled) => (multisampled, Some(&target.resolved_view)),
            None => (&target.resolved_view, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: view_target,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(BACKGROUND),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            ..Default::default()
        });
        pass.set_bind_group(0, &self.frame_group, &[]);
        if view.grid {
            pass.set_pipeline(&self.pipelines.ground);
            pass.set_bind_group(1, &self.ground_group, &[]);
            pass.draw(0..6, 0..1);
        }
        if view.mesh {
            pass.set_pipeline(&self.pipelines.mesh);
            draw_meshes(&mut pass, DrawGroup::Solid);
        }
        if view.wireframe {
            pass.set_pipeline(&self.pipelines.wire);
            draw_meshes(&mut pass, DrawGroup::Wire);
        }
        if view.bind_ghost {
            pass.set_pipeline(&self.pipelines.ghost);
            draw_meshes(&mut pass, DrawGroup::Ghost);
        }
        let (lines, points) = overlay_count;
        if lines + points > 0 {
            pass.set_vertex_buffer(0, self.overlay_buffer.slice(..));
            pass.set_pipeline(&self.pipelines.overlay_lines);
            pass.draw(0..lines, 0..1);
            pass.set_pipeline(&self.pipelines.overlay_points);
            pass.draw(lines..lines + points, 0..1);
        }
    }

    /// Writes the skeleton (when asked: bones as parent → child lines, joints as small squares)
    /// and the gizmos into the overlay buffer; returns the line and triangle vertex counts.
    fn build_overlay(
        &mut self,
        gpu: &Gpu,
        deformer: &Deformer,
        model: &Model,
        aspect: f32,
        skeleton: bool,
    ) -> (u32, u32) {
        let matrices = deformer.model_matrices();
        self.skeleton.clear();
        if skeleton {
            for (joint, matrix) in matrices.iter().enumerate() {
                let position = matrix.w_axis.truncate();
                if let Some(parent) = model.skeleton.parent(joint) {
                    self.skeleton
                        .line(matrices[parent].w_axis.truncate(), position, BONE_COLOR);
                }
                self.skeleton.square(position, JOINT_COLOR, JOINT_SIZE);
            }
        }
        self.overlay_lines.clear();
        self.overlay_points.clear();
        for overlay in [&self.skeleton, &self.gizmos] {
            self.overlay_lines.extend_from_slice(overlay.lines());
            overlay.square_vertices(aspect, &mut self.overlay_points);
        }
        let total = self.overlay_lines.len() + self.overlay_points.len();
        if total == 0 {
            return (0, 0);
        }
        if total > self.overlay_capacity {
            (self.overlay_buffer, self.overlay_capacity) = overlay_buffer(&gpu.device, total.next_power_of_two());
        }
        let line_bytes = (self.overlay_lines.len() * std::mem::size_of::<OverlayVertex>()) as u64;
        gpu.queue
            .write_buffer(&self.overlay_buffer, 0, bytemuck::cast_slice(&self.overlay_lines));
        gpu.queue.write_buffer(
            &self.overlay_buffer,
            line_bytes,
            bytemuck::cast_slice(&self.overlay_points),
        );
        (self.overlay_lines.len() as u32, self.overlay_points.len() as u32)
    }
}

fn overlay_buffer(device: &wgpu::Device, vertices: usize) -> (wgpu::Buffer, usize) {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skeleton overlay"),
        size: (vertices * std::mem::size_of::<OverlayVertex>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    (buffer, vertices)
}

/// World → light clip space: an orthographic view along the key light that covers `bounds`
/// and the ground around it.
pub fn light_view_projection(bounds: &Bounds) -> Mat4 {
    let center = if bounds.is_empty() { Vec3::ZERO } else { bounds.center() };
    let radius = if bounds.is_empty() {
        1.0
    } else {
        bounds.radius().max(1e-3) * 1.5
    };
    let direction = LIGHT_DIRECTION.normalize();
    let view = look_at_mat4(center + direction * radius * 3.0, center, Vec3::Y);
    directx::orthographic(-radius, radius, -radius, radius, radius * 0.5, radius * 6.0) * view
}

/// Grid spacing suited to a model of `radius`: a power of ten, quartered (0.25 m for a
/// person in metres, 25 units for one in centimetres).
pub fn grid_spacing(radius: f32) -> f32 {
    10f32.powf((radius * 2.0).max(1e-6).log10().floor()) / 4.0
}
