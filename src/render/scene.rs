//! The scene's passes: shadow, background (the environment or a flat colour), ground, meshes
//! (lit, wireframe, bind-pose ghost), the overlays (skeleton, gizmos), and tone mapping where
//! the scene is drawn in linear HDR (`scene_output`). `prepare` writes the
//! frame's uniforms and overlay vertices; `record` records the passes and nothing else. The
//! window and the headless commands both draw through it, so they show the same picture.

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::animated::AnimatedLights;
use super::crowd_buffers::CrowdBuffers;
use super::draw_uniforms::DrawSlot;
use super::environment::{Environment, EnvironmentImage};
use super::frame_input::FrameInput;
use super::gpu::Gpu;
use super::layer_variant::LayerVariant;
use super::layouts::Layouts;
use super::model_buffers::{DrawBuffers, ModelBuffers};
use super::overlay::Overlay;
use super::overlay_buffer::OverlayBuffer;
use super::pipelines::{
    BlendedFaces, DEPTH_FORMAT, DrawShading, MESH_BUFFER_COUNT, MeshPipelines, Pipelines, SCENE_FORMAT, SceneOutput,
};
use super::shadow_casters::{ShadowCasters, casts_shadow, record_casters};
use super::shadow_map::ShadowMap;
use super::shadow_views::{assign_shadow_layers, light_view_projection};
use super::skeleton_overlay::draw_skeleton;
use super::skin_compare::SkinCompare;
use super::skin_source::SkinSource;
use super::target::{HdrScene, SceneTarget};
use super::textures::MaterialBinding;
use super::tone_map::{ToneMap, curve_number};
use super::transmission::{Downsampler, SceneBehind};
use super::uniforms::{FrameUniform, GroundUniform, LightUniform, MAX_LIGHTS, MAX_SHADOW_LAYERS};
use crate::asset::Topology;
use crate::view::ground_shadow::{GroundShadow, key_light_shadow_on_ground};
use crate::view::{Bounds, Lights, MaterialChannel, Quality, QualitySettings, ViewOptions};

/// Direction towards the key light.
const LIGHT_DIRECTION: Vec3 = Vec3::new(0.45, 1.0, 0.35);
/// The key light's radiance (linear; a white Lambert surface facing it reflects 1/π of it).
const KEY_LIGHT: f32 = 1.6;

pub struct SceneRenderer {
    pub layouts: Layouts,
    pub pipelines: Pipelines,
    /// What the frame may spend (samples, shadow map, filtering; the render scale is the
    /// caller's), and the MSAA samples the adapter gives of what it asks.
    pub quality: QualitySettings,
    pub sample_count: u32,
    frame_uniform: wgpu::Buffer,
    /// Group 0 for the main pass (reads the shadow map; the shadow passes write it, so they
    /// bind a stand-in).
    frame_group: wgpu::BindGroup,
    /// Per shadow map layer, its pass's copy of the frame uniform (whose `light_view_proj` is
    /// the layer's view) and group 0 of that pass.
    shadow_passes: Vec<(wgpu::Buffer, wgpu::BindGroup)>,
    shadow_map: ShadowMap,
    /// How many shadow map layers the meshes draw this frame (`prepare` decides).
    shadow_layers_drawn: usize,
    /// Where the ground's pixels look its shadows up this frame.
    ground_shadow: GroundShadow,
    /// What the shadow map was drawn from, and whether this frame draws it again.
    shadow_casters: ShadowCasters,
    redraw_shadow_map: bool,
    /// What the shadow pass binds in the shadow map's place, and the shadow lookup's sampler.
    shadow_stand_in: wgpu::TextureView,
    shadow_sampler: wgpu::Sampler,
    environment: Environment,
    tone_map: ToneMap,
    /// Copies the opaque scene for transmissive surfaces to refract.
    downsampler: Downsampler,
    ground_uniform: wgpu::Buffer,
    ground_group: wgpu::BindGroup,
    overlay_buffer: OverlayBuffer,
    skeleton: Overlay,
    /// Per joint, whether it is a rig joint (`Model::rig_joints`), refilled for each frame's
    /// skeleton into the same memory.
    rig_joints: Vec<bool>,
    /// What the caller wants drawn over the scene this frame (IK targets, constraints), in
    /// model space; kept until the caller clears it.
    pub gizmos: Overlay,
    /// The CPU-vs-GPU difference view's pipeline, made when the view is first shown (or why
    /// it cannot be).
    skin_compare: Option<Result<SkinCompare, String>>,
    /// The file's lights as the pose animates them.
    lights: AnimatedLights,
}

impl SceneRenderer {
    /// A renderer that skins from the best source the adapter offers, lit by the studio.
    pub fn new(gpu: &Gpu) -> Self {
        Self::build(
            gpu,
            SkinSource::for_adapter(&gpu.adapter),
            None,
            Quality::Best.settings(),
        )
    }

    /// A renderer for still pictures of `size` pixels (`render`, `thumbnail`, `sheet`,
    /// `video`), skinning from the best source the adapter offers, lit by the environment
    /// `image` shows (the studio without one: the studio is not prepared only to be replaced),
    /// its shadow map fitted to the picture (`QualitySettings::fit_to_picture`).
    pub fn for_picture(gpu: &Gpu, image: Option<&EnvironmentImage>, size: (u32, u32)) -> Self {
        let quality = Quality::Best.settings().fit_to_picture(size);
        Self::build(gpu, SkinSource::for_adapter(&gpu.adapter), image, quality)
    }

    /// A renderer whose skinning uniform arrays hold `joint_limit` joints (at most what the
    /// device allows): skins with more are skinned on the CPU.
    #[cfg(any(test, feature = "internals"))]
    pub fn with_joint_limit(gpu: &Gpu, joint_limit: usize) -> Self {
        let limit = super::skin_source::max_uniform_joints(&gpu.device.limits());
        let max_joints = joint_limit.clamp(1, limit);
        Self::with_skin_source(gpu, SkinSource::UniformArrays { max_joints })
    }

    /// A renderer that skins from `skin_source` (which the device must support).
    #[cfg(any(test, feature = "internals"))]
    pub fn with_skin_source(gpu: &Gpu, skin_source: SkinSource) -> Self {
        Self::build(gpu, skin_source, None, Quality::Best.settings())
    }

    /// A renderer that skins from `skin_source`, lit by `image`'s environment (the studio
    /// without one), at `quality`. Its pipelines are made as frames first draw with them
    /// (`Pipelines`).
    fn build(gpu: &Gpu, skin_source: SkinSource, image: Option<&EnvironmentImage>, quality: QualitySettings) -> Self {
        let device = &gpu.device;
        let sample_count = supported_samples(gpu, &quality);
        let layouts = Layouts::new(device, skin_source);
        let pipelines = Pipelines::new(device, &layouts, sample_count);
        let frame_uniform_buffer = |label: &str| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: std::mem::size_of::<FrameUniform>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let frame_uniform = frame_uniform_buffer("frame");
        let shadow_uniforms: Vec<wgpu::Buffer> = (0..MAX_SHADOW_LAYERS)
            .map(|_| frame_uniform_buffer("shadow pass"))
            .collect();
        let shadow_map = ShadowMap::new(device, quality.shadow_map_size, ShadowMap::FIRST_LAYERS);
        let stand_in = ShadowMap::stand_in(device);
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let ground_uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ground"),
            contents: bytemuck::bytes_of(&GroundUniform {
                params: [0.0; 4],
                slide: [0.0; 4],
            }),
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
        let environment = match image {
            Some(image) => Environment::from_image(gpu, &layouts, image),
            None => Environment::studio(gpu, &layouts),
        };
        let frame_group = |uniform: &wgpu::Buffer, shadow: &wgpu::TextureView| {
            frame_group(device, &layouts, uniform, shadow, &shadow_sampler, &environment)
        };
        Self {
            frame_group: frame_group(&frame_uniform, &shadow_map.sampled),
            shadow_passes: (shadow_uniforms.into_iter())
                .map(|uniform| {
                    let group = frame_group(&uniform, &stand_in);
                    (uniform, group)
                })
                .collect(),
            tone_map: ToneMap::new(device, &layouts, sample_count),
            downsampler: Downsampler::new(device, &layouts),
            environment,
            shadow_stand_in: stand_in,
            shadow_sampler,
            layouts,
            pipelines,
            quality,
            sample_count,
            frame_uniform,
            shadow_map,
            shadow_layers_drawn: 0,
            ground_shadow: GroundShadow::Nowhere,
            shadow_casters: ShadowCasters::default(),
            redraw_shadow_map: true,
            ground_uniform,
            ground_group,
            overlay_buffer: OverlayBuffer::new(device),
            skeleton: Overlay::default(),
            rig_joints: Vec::new(),
            gizmos: Overlay::default(),
            skin_compare: None,
            lights: AnimatedLights::default(),
        }
    }

    /// A target of `width` x `height` pixels with this renderer's sample count.
    pub fn target(&self, device: &wgpu::Device, width: u32, height: u32) -> SceneTarget {
        SceneTarget::new(device, (width, height), self.sample_count)
    }

    /// Renders at `quality` from now on: the pipelines are remade when the sample count
    /// changes (targets made before then must be remade too) and the shadow map when its size
    /// does.
    pub fn set_quality(&mut self, gpu: &Gpu, quality: Quality) {
        let settings = quality.settings();
        let sample_count = supported_samples(gpu, &settings);
        if sample_count != self.sample_count {
            self.pipelines = Pipelines::new(&gpu.device, &self.layouts, sample_count);
            self.tone_map.set_samples(&gpu.device, &self.layouts, sample_count);
            self.sample_count = sample_count;
        }
        let resized = settings.shadow_map_size != self.quality.shadow_map_size;
        self.quality = settings;
        if resized {
            let layers = self.shadow_map.layers.len() as u32;
            self.shadow_map = ShadowMap::new(&gpu.device, settings.shadow_map_size, layers);
            self.shadow_casters.forget();
            self.rebind_frame(gpu);
        }
    }

    /// Lights the scene with `environment` from now on.
    pub fn set_environment(&mut self, gpu: &Gpu, environment: Environment) {
        self.environment = environment;
        self.rebind_frame(gpu);
    }

    /// Remakes group 0 after the shadow map or the environment changed.
    fn rebind_frame(&mut self, gpu: &Gpu) {
        let group = |uniform: &wgpu::Buffer, shadow: &wgpu::TextureView| {
            frame_group(
                &gpu.device,
                &self.layouts,
                uniform,
                shadow,
                &self.shadow_sampler,
                &self.environment,
            )
        };
        self.frame_group = group(&self.frame_uniform, &self.shadow_map.sampled);
        for (uniform, pass_group) in &mut self.shadow_passes {
            *pass_group = group(uniform, &self.shadow_stand_in);
        }
    }

    /// How many pipelines the scene's passes have made so far (each is made when a frame first
    /// draws with it).
    #[cfg(any(test, feature = "internals"))]
    pub fn pipelines_made(&self) -> usize {
        self.pipelines.made() + self.tone_map.made() + self.downsampler.made()
    }

    /// Which shadow pipelines have been made: for draws not skinned on the GPU, and for those
    /// skinned there.
    #[cfg(any(test, feature = "internals"))]
    pub fn shadow_pipelines_made(&self) -> [bool; 2] {
        self.pipelines.shadow_made()
    }

    /// The environment's name ("studio" or its file's).
    pub fn environment_name(&self) -> &str {
        &self.environment.name
    }

    /// The difference view's pipeline, made on first use (or why it cannot be), and the
    /// layouts it binds.
    pub fn skin_compare(&mut self, gpu: &Gpu) -> Result<(&SkinCompare, &Layouts), String> {
        let layouts = &self.layouts;
        self.skin_compare
            .get_or_insert_with(|| SkinCompare::new(gpu, layouts).map_err(|e| e.to_string()))
            .as_ref()
            .map(|compare| (compare, layouts))
            .map_err(Clone::clone)
    }

    /// Writes the frame's uniforms (camera, light, shadow, ground) and the overlay vertices
    /// (the skeleton when asked, and the gizmos), and decides whether the shadow map is drawn
    /// again from `casters` (and the compare view's second model's, posed as its input says,
    /// when it casts a shadow). `bounds` is the region the models move in (it sizes the ground,
    /// the grid and the shadow); `size` is the target's.
    pub fn prepare(
        &mut self,
        gpu: &Gpu,
        input: &FrameInput,
        (bounds, casters, second_casters): (&Bounds, &ModelBuffers, Option<(&ModelBuffers, &FrameInput)>),
        size: (u32, u32),
    ) {
        let camera = input.camera;
        let lighting = &input.view.shown_lighting();
        let view_proj = camera.view_projection();
        let mut lights = [LightUniform::default(); MAX_LIGHTS];
        let mut light_count = 0;
        if lighting.lights == Lights::File {
            for (slot, light) in lights.iter_mut().zip(self.lights.shown(input.model, input.pose)) {
                *slot = LightUniform::new(light, input.model_matrices[light.joint]);
                light_count += 1;
            }
        }
        let studio = lighting.lights == Lights::Studio;
        // The lights whose shadows the meshes cast: the studio's key light, or the file's
        // lights that light the model most.
        let mut shadow_views = [Mat4::IDENTITY; MAX_SHADOW_LAYERS];
        let layers = match studio {
            true => {
                shadow_views[0] = light_view_projection(bounds, LIGHT_DIRECTION);
                1
            }
            false => assign_shadow_layers(
                &mut lights[..light_count],
                bounds,
                self.quality.shadow_layers as usize,
                &mut shadow_views,
            ),
        };
        self.shadow_layers_drawn = if input.view.mesh { layers } else { 0 };
        if layers > self.shadow_map.layers.len() {
            let size = self.quality.shadow_map_size;
            self.shadow_map = ShadowMap::new(&gpu.device, size, layers as u32);
            self.shadow_casters.forget();
            self.rebind_frame(gpu);
        }
        // A crowd's instances move on their own: its map is always drawn.
        let views = &shadow_views[..self.shadow_layers_drawn];
        self.redraw_shadow_map = match input.crowd {
            Some(_) => {
                self.shadow_casters.forget();
                true
            }
            None => (self.shadow_casters).changed(|record| {
                record_casters(record, views, casters, input);
                if let Some((second, second_input)) = second_casters {
                    record_casters(record, views, second, second_input);
                }
            }),
        };
        let rotation = lighting.environment_rotation.to_radians();
        let frame = FrameUniform {
            view_proj: view_proj.to_cols_array_2d(),
            inverse_view_proj: view_proj.inverse().to_cols_array_2d(),
            light_view_proj: shadow_views[0].to_cols_array_2d(),
            camera_position: camera.eye.extend(1.0).to_array(),
            light_direction: LIGHT_DIRECTION
                .normalize()
                .extend(if studio { KEY_LIGHT } else { 0.0 })
                .to_array(),
            shadow: if self.shadow_layers_drawn > 0 {
                let [model_reach, ground_reach] = self.quality.shadow_filter_reach;
                [
                    1.0,
                    1.0 / self.quality.shadow_map_size as f32,
                    model_reach as f32,
                    ground_reach as f32,
                ]
            } else {
                [0.0; 4]
            },
            environment: [
                lighting.environment_intensity,
                rotation.cos(),
                rotation.sin(),
                Environment::MAX_LEVEL,
            ],
            exposure_lights: [
                lighting.exposure_scale(),
                light_count as f32,
                input.view.channel.map_or(0, MaterialChannel::shader_code) as f32,
                curve_number(lighting.tone_mapping) as f32,
            ],
            time_view: [input.time, 1.0 / camera.projection.y_axis.y, 0.0, 0.0],
            lights,
            shadow_views: shadow_views.map(|view| view.to_cols_array_2d()),
        };
        gpu.queue
            .write_buffer(&self.frame_uniform, 0, bytemuck::bytes_of(&frame));
        // Each shadow pass draws from `light_view_proj`: its copy holds its layer's view.
        for (layer, (uniform, _)) in self.shadow_passes.iter().enumerate().take(self.shadow_layers_drawn) {
            let pass = FrameUniform {
                light_view_proj: frame.shadow_views[layer],
                ..frame
            };
            gpu.queue.write_buffer(uniform, 0, bytemuck::bytes_of(&pass));
        }
        self.tone_map.prepare(&gpu.queue, lighting);
        let (height, radius, center) = if bounds.is_empty() {
            (0.0, 1.0, glam::Vec3::ZERO)
        } else {
            (bounds.ground_height(), bounds.radius().max(1e-3), bounds.center())
        };
        let ground = GroundUniform {
            params: [
                height,
                (radius * 30.0).max(camera.eye.distance(center) * 3.0),
                grid_spacing(radius),
                0.0,
            ],
            slide: [input.ground_slide.x, input.ground_slide.y, 0.0, 0.0],
        };
        gpu.queue
            .write_buffer(&self.ground_uniform, 0, bytemuck::bytes_of(&ground));
        self.ground_shadow = match (self.shadow_layers_drawn, studio) {
            (0, _) => GroundShadow::Nowhere,
            (_, true) => key_light_shadow_on_ground(bounds, LIGHT_DIRECTION.normalize(), height, view_proj, size),
            (_, false) => GroundShadow::Everywhere,
        };
        self.skeleton.clear();
        if input.view.skeleton {
            input.model.rig_joints(&mut self.rig_joints);
            draw_skeleton(&mut self.skeleton, input.model, input.model_matrices, &self.rig_joints);
        }
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        self.overlay_buffer.write(gpu, [&self.skeleton, &self.gizmos], aspect);
    }

    /// Records the passes that draw `models` (as last uploaded: the open model with its crowd,
    /// and the compare view's second model) and the overlays (as last prepared) into `target`.
    /// A second model whose buffers are a ghost (`ModelBuffers::ghost`) is drawn translucent
    /// over the lit scene, under the overlays; otherwise it is drawn as the first is, in every
    /// pass but the bind-pose ghost (which stands where the first model was authored).
    ///
    /// Opaque and masked surfaces first, writing depth; then, when some surfaces let light
    /// through, the scene so far is copied for them to refract and they are drawn over it
    /// (writing depth too); then blended surfaces are drawn over the displayed image from the
    /// farthest to the nearest, testing depth without writing it, so that whatever is behind a
    /// transparent surface shows through it whatever the file's order. They mix displayed
    /// (tone-mapped, sRGB-encoded) colours, as three.js does (mixed in linear light before the
    /// tone curve, an unlit quad of alpha 0.5 over the default background showed (10, 17, 26)
    /// black and (133, 133, 135) mid grey where three.js shows (15, 18, 23) and (106, 109,
    /// 114)). MToon's outlines follow their surfaces; the wireframe, the ghosts and the
    /// overlays come last. Where the scene is drawn before that, `scene_output` says.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &SceneTarget,
        models: DrawnModels,
        view: &ViewOptions,
    ) {
        let frame = FrameDraws {
            renderer: self,
            models,
            view,
            size: (target.width, target.height),
        };
        frame.shadow_passes(encoder);
        if scene_output(frame.refracts()) == SceneOutput::Displayed {
            let begun = displayed_pass(encoder, target, SceneLoad::Clear { keep_depth: false });
            let mut pass = Pass::new(begun, &self.frame_group);
            frame.opaque(&mut pass, SceneOutput::Displayed);
            frame.blended_points_and_lines(&mut pass, SceneOutput::Displayed);
            frame.over(&mut pass);
            return;
        }
        // Surfaces refract the scene behind them: the opaque scene in linear HDR, copied for
        // them, and they are drawn over it.
        let drawn_over = frame.drawn_over();
        let hdr = self.hdr_scene(target);
        let begun = scene_pass(encoder, (hdr, &target.depth), SceneLoad::Clear { keep_depth: true });
        frame.opaque(&mut Pass::new(begun, &self.frame_group), SceneOutput::Hdr);
        let scene_behind = target
            .scene_behind(|device, size| SceneBehind::new(device, &self.layouts, &self.downsampler, &hdr.image, size));
        scene_behind.record(encoder, &self.downsampler);
        let begun = scene_pass(
            encoder,
            (hdr, &target.depth),
            SceneLoad::Keep { keep_depth: drawn_over },
        );
        let mut pass = Pass::new(begun, &self.frame_group);
        pass.render.set_bind_group(3, &scene_behind.group, &[]);
        frame.transmissive(&mut pass);
        frame.blended_points_and_lines(&mut pass, SceneOutput::Hdr);
        drop(pass);
        let curve = view.shown_lighting().tone_mapping;
        let group = &hdr.tone_map_group;
        if !drawn_over {
            self.tone_map
                .record(encoder, group, (&target.resolved_view, false), curve);
            return;
        }
        let displayed = target.display_multisampled();
        let into = displayed.unwrap_or(&target.resolved_view);
        self.tone_map.record(encoder, group, (into, displayed.is_some()), curve);
        let begun = displayed_pass(encoder, target, SceneLoad::Keep { keep_depth: false });
        let mut pass = Pass::new(begun, &self.frame_group);
        // Blended surfaces that let light through refract the scene behind them too.
        pass.render.set_bind_group(3, &scene_behind.group, &[]);
        frame.over(&mut pass);
    }

    /// `target`'s linear HDR scene image, made when a frame is first drawn into it.
    fn hdr_scene<'t>(&self, target: &'t SceneTarget) -> &'t HdrScene {
        target.hdr(|device, image| self.tone_map.bind_group(device, &self.layouts, image))
    }
}

/// Where a frame's scene (background, ground, opaque, transmissive surfaces, points and lines)
/// is drawn. Straight into the displayed image, each sample exposed, tone-mapped and
/// sRGB-encoded by its shader, so that a multisampled image's resolve averages displayed
/// colours as three.js's canvas does: a pixel half over a surface brighter than white and half
/// over the dark reads halfway between them, not white (averaged in linear light before the
/// curve, such an edge was stair-stepped, and every edge read brighter); with one sample it
/// spares the HDR image and the tone map pass. In linear HDR, tone-mapped after, where
/// transmissive surfaces refract a copy of the linear opaque scene (three.js too draws what
/// they refract before its tone curve).
fn scene_output(refracts: bool) -> SceneOutput {
    match refracts {
        false => SceneOutput::Displayed,
        true => SceneOutput::Hdr,
    }
}

/// One frame's draws, which its passes share: `models` as `view` shows them, into a target of
/// `size` pixels, by `renderer`'s pipelines.
struct FrameDraws<'a> {
    renderer: &'a SceneRenderer,
    models: DrawnModels<'a>,
    view: &'a ViewOptions,
    size: (u32, u32),
}

impl<'a> FrameDraws<'a> {
    /// The models drawn lit, in order: the first, and a second that is not a ghost.
    fn lit_models(&self) -> impl Iterator<Item = Drawn<'a>> + use<'a> {
        self.models.lit().into_iter().flatten()
    }

    /// How `model`'s draws look in the lit passes.
    fn looks(&self, model: Drawn<'a>) -> DrawLooks<'a> {
        DrawLooks {
            model,
            mesh: &self.renderer.pipelines.mesh,
            gpu_skinning: self.view.gpu_skinning,
        }
    }

    /// Whether `draw` is drawn this frame: any of its topologies when `all`, else only its
    /// triangles.
    fn drawable(draw: &DrawBuffers, all: bool) -> bool {
        match all {
            true => draw.shown(),
            false => draw.shown_triangles(),
        }
    }

    /// Some shown surface lets light through: the frame copies the opaque scene for it.
    fn refracts(&self) -> bool {
        self.view.mesh
            && self.lit_models().any(|model| {
                let looks = self.looks(model);
                (model.buffers.draws.iter()).any(|d| Self::drawable(d, false) && looks.transmissive(d))
            })
    }

    /// `model`'s blended triangles, back to front.
    fn blended_triangles(model: Drawn<'a>) -> impl Iterator<Item = usize> + use<'a> {
        (model.buffers.blend_order.iter().copied()).filter(move |&index| {
            let draw = &model.buffers.draws[index];
            Self::drawable(draw, true) && draw.topology == Topology::Triangles
        })
    }

    /// Something is drawn over the displayed image: blended surfaces, the wireframe, a ghost,
    /// the overlays.
    fn drawn_over(&self) -> bool {
        let overlay = &self.renderer.overlay_buffer;
        (self.view.mesh
            && self
                .lit_models()
                .any(|model| Self::blended_triangles(model).next().is_some()))
            || self.view.wireframe
            || self.view.bind_ghost
            || (self.models.ghost().is_some() && self.view.mesh)
            || overlay.line_count + overlay.square_count > 0
    }

    /// Draws `index` of `model` with its uniform in `slot`, by `pipeline`; the solid slot
    /// from the level of detail chosen for the shadow pass when `shadow`, else for the lit
    /// pass, binding only what the depth-only shader reads (`shadow_vertex_buffers`).
    fn draw_one(
        &self,
        pass: &mut Pass<'_, 'a>,
        model: Drawn<'a>,
        (slot, shadow): (DrawSlot, bool),
        index: usize,
        pipeline: &'a wgpu::RenderPipeline,
    ) {
        let (view, bound) = (self.view, &mut pass.bound);
        let pass = &mut pass.render;
        let buffers = model.buffers;
        let draw = &buffers.draws[index];
        if bound.pipeline != Some(pipeline) {
            pass.set_pipeline(pipeline);
            bound.pipeline = Some(pipeline);
        }
        let (vertex_buffers, copies) = match shadow {
            true => buffers.shadow_vertex_buffers(index, view.gpu_skinning),
            false => buffers.vertex_buffers(index, slot, view.gpu_skinning),
        };
        for ((slot, buffer), bound_buffer) in vertex_buffers.into_iter().enumerate().zip(&mut bound.vertex) {
            if *bound_buffer != Some(buffer) {
                pass.set_vertex_buffer(slot as u32, buffer.slice(..));
                *bound_buffer = Some(buffer);
            }
        }
        let uniform = buffers.uniforms.offset(index, slot);
        let skin = (buffers.skins.group(draw.skin), uniform);
        if bound.skin != Some(skin) {
            pass.set_bind_group(1, skin.0, &[uniform]);
            bound.skin = Some(skin);
        }
        let material = &buffers.materials[draw.material].group;
        // The shadow pass reads no material: the first keeps the layout's group bound.
        if bound.material.is_none() || (!shadow && bound.material != Some(material)) {
            pass.set_bind_group(2, material, &[]);
            bound.material = Some(material);
        }
        let whole = (&draw.indices, draw.index_count);
        let (indices, count) = match slot {
            DrawSlot::Wire => match &draw.edges {
                Some((edges, count)) => (edges, *count),
                None => return,
            },
            DrawSlot::Solid if shadow => draw.detail.indices(whole, draw.detail.shadow),
            DrawSlot::Solid => draw.detail.indices(whole, draw.detail.lit),
            DrawSlot::Ghost | DrawSlot::Capture => whole,
        };
        // The bind-pose ghost is one, at instance 0's place.
        match model.crowd.filter(|_| slot != DrawSlot::Ghost) {
            Some(crowd) => {
                // The wireframe shows every edge of every copy.
                let detailed = slot == DrawSlot::Solid && view.crowd_detail;
                crowd.record_draw(
                    pass,
                    (index, draw),
                    uniform,
                    (indices, count, detailed),
                    view.gpu_skinning,
                );
                // It binds its copies' skins and some of its vertex buffers itself.
                bound.skin = None;
                bound.vertex = Default::default();
            }
            None => {
                pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..count, 0, 0..copies);
            }
        }
    }

    /// The shadow map's layers that this frame draws again.
    fn shadow_passes(&self, encoder: &mut wgpu::CommandEncoder) {
        let renderer = self.renderer;
        let redrawn = match renderer.redraw_shadow_map {
            true => renderer.shadow_layers_drawn,
            false => 0,
        };
        for (layer, (_, group)) in renderer.shadow_passes.iter().enumerate().take(redrawn) {
            let begun = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow"),
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &renderer.shadow_map.layers[layer],
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            let mut pass = Pass::new(begun, group);
            for model in self.lit_models() {
                for (index, draw) in (model.buffers.draws.iter().enumerate()).filter(|(_, d)| casts_shadow(d)) {
                    let pipeline = renderer.pipelines.for_shadow(draw.on_gpu(self.view.gpu_skinning));
                    self.draw_one(&mut pass, model, (DrawSlot::Solid, true), index, pipeline);
                }
            }
        }
    }

    /// The background, the ground, and the opaque surfaces that let no light through with
    /// their MToon outlines, nearest the camera first (`ModelBuffers::sort_by_distance`),
    /// writing `output`.
    fn opaque(&self, pass: &mut Pass<'_, 'a>, output: SceneOutput) {
        let (renderer, view) = (self.renderer, self.view);
        let pipelines = &renderer.pipelines;
        let render = &mut pass.render;
        let background = match view.lighting.environment_background {
            true => &pipelines.background,
            false => &pipelines.flat_background,
        };
        render.set_pipeline(&background[output]);
        render.draw(0..3, 0..1);
        if view.grid {
            render.set_bind_group(1, &renderer.ground_group, &[]);
            let shadowed = &pipelines.ground[output];
            render.set_pipeline(match renderer.ground_shadow {
                GroundShadow::Everywhere => shadowed,
                _ => &pipelines.unshadowed_ground[output],
            });
            render.draw(0..6, 0..1);
            // Over the unshadowed ground, the same quad again where a shadow can fall.
            if let GroundShadow::Within([x, y, width, height]) = renderer.ground_shadow {
                render.set_pipeline(shadowed);
                render.set_scissor_rect(x, y, width, height);
                render.draw(0..6, 0..1);
                render.set_scissor_rect(0, 0, self.size.0, self.size.1);
            }
        }
        if !view.mesh {
            return;
        }
        for model in self.lit_models() {
            let looks = self.looks(model);
            for (index, draw) in Self::nearest_unblended(model).filter(|(_, d)| !looks.transmissive(d)) {
                let pipeline = looks.lit(draw, output);
                self.draw_one(pass, model, (DrawSlot::Solid, false), index, pipeline);
            }
            let opaque = |d: &DrawBuffers| Self::drawable(d, true) && !d.blended;
            let draws = model.buffers.draws.iter().enumerate();
            for (index, draw) in draws.filter(|(_, d)| opaque(d) && looks.outlined(d)) {
                let outline = looks.mesh.for_outline(looks.shading(draw), output);
                self.draw_one(pass, model, (DrawSlot::Solid, false), index, outline);
            }
        }
    }

    /// The opaque surfaces that let light through, nearest first, over the copy of the scene
    /// behind them (bound by the caller); in linear HDR (`scene_output`).
    fn transmissive(&self, pass: &mut Pass<'_, 'a>) {
        for model in self.lit_models() {
            let looks = self.looks(model);
            for (index, draw) in Self::nearest_unblended(model).filter(|(_, d)| looks.transmissive(d)) {
                let pipeline = looks.lit(draw, SceneOutput::Hdr);
                self.draw_one(pass, model, (DrawSlot::Solid, false), index, pipeline);
            }
        }
    }

    /// `model`'s shown draws that are not blended, with their indices, nearest the camera first
    /// (`ModelBuffers::sort_by_distance`).
    fn nearest_unblended(model: Drawn<'a>) -> impl Iterator<Item = (usize, &'a DrawBuffers)> + use<'a> {
        (model.buffers.opaque_order.iter())
            .map(move |&index| (index, &model.buffers.draws[index]))
            .filter(|(_, d)| Self::drawable(d, true) && !d.blended)
    }

    /// Blended points and lines, back to front, writing `output` with the scene's pipelines.
    fn blended_points_and_lines(&self, pass: &mut Pass<'_, 'a>, output: SceneOutput) {
        if !self.view.mesh {
            return;
        }
        for model in self.lit_models() {
            let looks = self.looks(model);
            for &index in &model.buffers.blend_order {
                let draw = &model.buffers.draws[index];
                if Self::drawable(draw, true) && draw.topology != Topology::Triangles {
                    let pipeline = looks.lit(draw, output);
                    self.draw_one(pass, model, (DrawSlot::Solid, false), index, pipeline);
                }
            }
        }
    }

    /// What is drawn over the displayed image, in displayed colours: blended triangles back to
    /// front with their outlines, the wireframe, the ghosts and the overlays.
    fn over(&self, pass: &mut Pass<'_, 'a>) {
        let (renderer, view) = (self.renderer, self.view);
        let pipelines = &renderer.pipelines;
        if view.mesh {
            for model in self.lit_models() {
                let looks = self.looks(model);
                for index in Self::blended_triangles(model) {
                    let draw = &model.buffers.draws[index];
                    let solid = (DrawSlot::Solid, false);
                    if draw.double_sided {
                        let back = looks.mesh.for_blended(BlendedFaces::Back, looks.shading(draw));
                        self.draw_one(pass, model, solid, index, back);
                    }
                    let front = looks.mesh.for_blended(BlendedFaces::Front, looks.shading(draw));
                    self.draw_one(pass, model, solid, index, front);
                    if looks.outlined(draw) {
                        let outline = looks.mesh.for_blended_outline(looks.shading(draw));
                        self.draw_one(pass, model, solid, index, outline);
                    }
                }
            }
        }
        // The wireframe over every lit model; the bind-pose ghost over the first alone.
        let overlaid = [
            (view.wireframe, DrawSlot::Wire, &pipelines.wire, 2),
            (view.bind_ghost, DrawSlot::Ghost, &pipelines.ghost, 1),
        ];
        for (shown, slot, pipeline, model_count) in overlaid {
            for model in self.lit_models().take(model_count).filter(|_| shown) {
                let draws = model.buffers.draws.iter().enumerate();
                for (index, _) in draws.filter(|(_, d)| Self::drawable(d, false)) {
                    self.draw_one(pass, model, (slot, false), index, pipeline);
                }
            }
        }
        // The compare view's ghost: its solid slot holds its posed look, translucent.
        if let Some(ghost) = self.models.ghost().filter(|_| view.mesh) {
            let triangles = (ghost.buffers.draws.iter().enumerate()).filter(|(_, d)| d.shown_triangles());
            for (index, _) in triangles {
                self.draw_one(pass, ghost, (DrawSlot::Solid, false), index, &pipelines.ghost);
            }
        }
        let overlay = &renderer.overlay_buffer;
        let (lines, squares) = (overlay.line_count, overlay.square_count);
        if lines + squares > 0 {
            let render = &mut pass.render;
            render.set_vertex_buffer(0, overlay.buffer.slice(..));
            render.set_pipeline(&pipelines.overlay_lines);
            render.draw(0..lines, 0..1);
            render.set_pipeline(&pipelines.overlay_points);
            render.draw(lines..lines + squares, 0..1);
        }
    }
}

/// What the passes draw: the open model (with its crowd's buffers while copies of it are
/// drawn), and the compare view's second model.
#[derive(Clone, Copy)]
pub struct DrawnModels<'a> {
    pub first: &'a ModelBuffers,
    pub crowd: Option<&'a CrowdBuffers>,
    /// Drawn translucent over the scene when its buffers are a ghost, else lit like `first`.
    pub second: Option<&'a ModelBuffers>,
}

/// One model the passes draw, and its crowd's buffers.
#[derive(Clone, Copy)]
struct Drawn<'a> {
    buffers: &'a ModelBuffers,
    crowd: Option<&'a CrowdBuffers>,
}

impl<'a> DrawnModels<'a> {
    /// The models drawn lit, in order: the first, then the second unless it is a ghost.
    fn lit(self) -> [Option<Drawn<'a>>; 2] {
        let second = (self.second.filter(|b| b.ghost.is_none())).map(|buffers| Drawn { buffers, crowd: None });
        let first = Drawn {
            buffers: self.first,
            crowd: self.crowd,
        };
        [Some(first), second]
    }

    /// The second model, when it is drawn as a ghost.
    fn ghost(self) -> Option<Drawn<'a>> {
        (self.second.filter(|b| b.ghost.is_some())).map(|buffers| Drawn { buffers, crowd: None })
    }
}

/// A pass being recorded, and what its draws have bound so far (none at its start): a draw
/// binds only what differs, each binding being a dozen driver calls on OpenGL.
struct Pass<'e, 'a> {
    render: wgpu::RenderPass<'e>,
    bound: Bound<'a>,
}

impl<'e> Pass<'e, '_> {
    /// `render`, reading `frame` (group 0 of every scene shader).
    fn new(mut render: wgpu::RenderPass<'e>, frame: &wgpu::BindGroup) -> Self {
        render.set_bind_group(0, frame, &[]);
        Self {
            render,
            bound: Bound::default(),
        }
    }
}

/// What a pass's draws have bound for the mesh draws so far.
#[derive(Default)]
struct Bound<'s> {
    pipeline: Option<&'s wgpu::RenderPipeline>,
    /// Per vertex buffer slot: the buffers the draws of a model
    /// share (zeros for the attributes they lack, the single placement) stay bound.
    vertex: [Option<&'s wgpu::Buffer>; MESH_BUFFER_COUNT],
    /// The skin's bind group and the draw uniform's offset in it.
    skin: Option<(&'s wgpu::BindGroup, u32)>,
    material: Option<&'s wgpu::BindGroup>,
}

/// How one model's draws look in the lit passes: their pipelines by material, and by whether
/// the GPU skins them.
struct DrawLooks<'a> {
    model: Drawn<'a>,
    mesh: &'a MeshPipelines,
    /// Skinning on the GPU is on this frame (`DrawBuffers::on_gpu`).
    gpu_skinning: bool,
}

impl<'a> DrawLooks<'a> {
    fn material(&self, draw: &DrawBuffers) -> Option<&'a MaterialBinding> {
        self.model.buffers.materials.get(draw.material)
    }

    /// Triangles whose material lets light through (points and lines are drawn as opaque
    /// ones: `MeshPipelines::for_draw`).
    fn transmissive(&self, draw: &DrawBuffers) -> bool {
        draw.topology == Topology::Triangles && self.material(draw).is_some_and(|m| m.transmissive)
    }

    fn shading(&self, draw: &DrawBuffers) -> DrawShading {
        let material = self.material(draw);
        DrawShading {
            double_sided: draw.double_sided,
            layers: material
                .map_or(LayerVariant::default(), |m| m.layers)
                .on_gpu(draw.on_gpu(self.gpu_skinning)),
            transmissive: self.transmissive(draw),
            toon: material.and_then(|m| m.toon),
            mirrored: draw.mirrored,
        }
    }

    /// MToon's outline: drawn after its surface, over what is drawn so far.
    fn outlined(&self, draw: &DrawBuffers) -> bool {
        draw.topology == Topology::Triangles && self.material(draw).and_then(|m| m.toon).is_some_and(|t| t.outlined)
    }

    fn lit(&self, draw: &DrawBuffers, output: SceneOutput) -> &'a wgpu::RenderPipeline {
        self.mesh.for_draw(draw.topology, self.shading(draw), output)
    }
}

/// How a pass starts: clearing its target, or going on from the pass before; either keeps the
/// depth it writes for a pass after it when `keep_depth`.
#[derive(Clone, Copy)]
enum SceneLoad {
    Clear { keep_depth: bool },
    Keep { keep_depth: bool },
}

/// Begins a pass that draws into `hdr`, a target's linear HDR scene (multisampled and resolved
/// where it has samples), and its `depth`.
fn scene_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    (hdr, depth): (&HdrScene, &wgpu::TextureView),
    load: SceneLoad,
) -> wgpu::RenderPass<'e> {
    let colour = match &hdr.multisampled {
        Some(multisampled) => (multisampled, Some(&hdr.image)),
        None => (&hdr.image, None),
    };
    begin_pass(encoder, "scene", colour, depth, load)
}

/// Begins a pass that draws into `target`'s displayed image (or its multisampled copy, which
/// the pass resolves into it) and its depth.
fn displayed_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &SceneTarget,
    load: SceneLoad,
) -> wgpu::RenderPass<'e> {
    let colour = match target.display_multisampled() {
        Some(multisampled) => (multisampled, Some(&target.resolved_view)),
        None => (&target.resolved_view, None),
    };
    begin_pass(encoder, "displayed", colour, &target.depth, load)
}

/// Begins a pass labelled `label` that draws into `view` (resolved into `resolve` where it is
/// multisampled) and `depth`, loaded as `load` says.
fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    (view, resolve_target): (&wgpu::TextureView, Option<&wgpu::TextureView>),
    depth: &wgpu::TextureView,
    load: SceneLoad,
) -> wgpu::RenderPass<'e> {
    // A cleared pass draws its background over every pixel first: the clear colour never shows.
    let (colour_load, depth_load, keep_depth) = match load {
        SceneLoad::Clear { keep_depth } => (
            wgpu::LoadOp::Clear(wgpu::Color::BLACK),
            wgpu::LoadOp::Clear(1.0),
            keep_depth,
        ),
        SceneLoad::Keep { keep_depth } => (wgpu::LoadOp::Load, wgpu::LoadOp::Load, keep_depth),
    };
    let depth_store = match keep_depth {
        true => wgpu::StoreOp::Store,
        false => wgpu::StoreOp::Discard,
    };
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target,
            ops: wgpu::Operations {
                load: colour_load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: depth,
            depth_ops: Some(wgpu::Operations {
                load: depth_load,
                store: depth_store,
            }),
            stencil_ops: None,
        }),
        ..Default::default()
    })
}

/// Group 0 of the scene shaders: the frame's uniform, `shadow` (the map, or the shadow pass's
/// stand-in), and the environment.
fn frame_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    frame_uniform: &wgpu::Buffer,
    shadow: &wgpu::TextureView,
    shadow_sampler: &wgpu::Sampler,
    environment: &Environment,
) -> wgpu::BindGroup {
    let view = wgpu::BindingResource::TextureView;
    let sampler = wgpu::BindingResource::Sampler;
    let resources = [
        frame_uniform.as_entire_binding(),
        view(shadow),
        sampler(shadow_sampler),
        view(&environment.specular),
        environment.irradiance.as_entire_binding(),
        view(&environment.brdf_table),
        sampler(&environment.sampler),
        sampler(&environment.table_sampler),
    ];
    let entries: Vec<wgpu::BindGroupEntry> = resources
        .into_iter()
        .enumerate()
        .map(|(binding, resource)| wgpu::BindGroupEntry {
            binding: binding as u32,
            resource,
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("frame"),
        layout: &layouts.frame,
        entries: &entries,
    })
}

/// MSAA samples for `quality`: what it asks, at most what the adapter supports.
fn supported_samples(gpu: &Gpu, quality: &QualitySettings) -> u32 {
    let supported = gpu.sample_count(SCENE_FORMAT).min(gpu.sample_count(DEPTH_FORMAT));
    quality.samples.min(supported)
}

/// Grid spacing suited to a model of `radius`: a power of ten, quartered (0.25 m for a
/// person in metres, 25 units for one in centimetres).
pub fn grid_spacing(radius: f32) -> f32 {
    10f32.powf((radius * 2.0).max(1e-6).log10().floor()) / 4.0
}
