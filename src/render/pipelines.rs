//! Render pipelines. Every scene pipeline renders with the scene target's MSAA sample count
//! and a `DEPTH_FORMAT` depth buffer: the scene's (background, ground, opaque surfaces, points
//! and lines) into `SCENE_FORMAT` or `DISPLAY_FORMAT`, one pipeline for each (`SceneOutput`),
//! and what is drawn over the tone-mapped image (blended surfaces, the wireframe, ghosts,
//! overlays) into `DISPLAY_FORMAT`; the blit pipeline writes the window.

use std::borrow::Cow;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use super::fullscreen::{self, TONE_CURVE};
use super::layer_variant::LayerVariant;
use super::layouts::Layouts;
use super::shadow_map::SHADOW_DEPTH_FORMAT;
use super::skin_source::SkinSource;
use super::textures::Toon;
use super::uniforms::{InfluenceVertex, OverlayVertex};
use crate::asset::Topology;

/// The scene is rendered in linear HDR, then tone-mapped into `DISPLAY_FORMAT`.
pub const SCENE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// The displayed image: sRGB-encoded colours (tone mapping encodes them) in a plain 8-bit
/// format, so the window copies it without converting, and read back it is an sRGB PNG.
pub const DISPLAY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// scene_output.wgsl: `DISPLAY_OUTPUT` and `scene_output`, which the scene shaders write their
/// colours through (after frame.wgsl, `fullscreen::SRGB` and `TONE_CURVE`).
const SCENE_OUTPUT: &str = include_str!("../../shaders/scene_output.wgsl");

/// What a scene pipeline writes: linear HDR into the scene image (`SCENE_FORMAT`), which the
/// tone map pass maps afterwards, or displayed colours (`DISPLAY_FORMAT`), each fragment
/// exposed, tone-mapped and sRGB-encoded by its shader (`DISPLAY_OUTPUT`). The frame decides
/// (scene.rs, `scene_output`); a pipeline of each is made when a frame first draws with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SceneOutput {
    Hdr = 0,
    Displayed = 1,
}

impl SceneOutput {
    /// Both, in the order `PerOutput` holds them.
    const BOTH: [SceneOutput; 2] = [SceneOutput::Hdr, SceneOutput::Displayed];

    /// The pipeline's colour target.
    fn target(self) -> &'static [Option<wgpu::ColorTargetState>; 1] {
        match self {
            SceneOutput::Hdr => &SCENE_TARGET,
            SceneOutput::Displayed => &DISPLAY_TARGET,
        }
    }

    /// The shader's pipeline constants (scene_output.wgsl's `DISPLAY_OUTPUT`).
    fn constants(self) -> &'static [(&'static str, f64)] {
        match self {
            SceneOutput::Hdr => &[],
            SceneOutput::Displayed => &[("DISPLAY_OUTPUT", 1.0)],
        }
    }
}

/// One of a thing (a pipeline, a pair of them) for each `SceneOutput`, indexed by it, so that an
/// output cannot be taken for another index (a winding, a side).
pub struct PerOutput<T>([T; 2]);

impl<T> PerOutput<T> {
    /// What `make` makes for each output.
    fn new(make: impl FnMut(SceneOutput) -> T) -> Self {
        Self(SceneOutput::BOTH.map(make))
    }

    /// Each output's, `Hdr`'s first.
    fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<T> std::ops::Index<SceneOutput> for PerOutput<T> {
    type Output = T;

    fn index(&self, output: SceneOutput) -> &T {
        &self.0[output as usize]
    }
}

impl<'a, T> IntoIterator for &'a PerOutput<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A pipeline for each `SceneOutput`.
type PipelinePerOutput = PerOutput<Lazy<wgpu::RenderPipeline>>;

/// A pipeline or shader module made when it is first used (the first draw that needs it), so
/// that start-up compiles only what the picture draws: a still of a character uses about five of
/// the pipelines below (no wireframe, ghost, overlays, points, lines, blended or mirrored
/// triangles, nor those of the other `SceneOutput`), and on a software rasteriser each one made
/// costs a shader translation and a compile.
pub struct Lazy<T> {
    value: OnceLock<T>,
    make: Box<dyn Fn() -> T + Send + Sync>,
}

impl<T> Lazy<T> {
    /// What `make` makes, when it is first used.
    pub fn new(make: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self {
            value: OnceLock::new(),
            make: Box::new(make),
        }
    }

    /// Whether it has been made.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_made(&self) -> bool {
        self.value.get().is_some()
    }
}

impl<T> Deref for Lazy<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.value.get_or_init(&self.make)
    }
}

/// A shader module made when a pipeline of it is first made, shared by those pipelines.
pub type LazyModule = Arc<Lazy<wgpu::ShaderModule>>;

/// Each pipeline is made when a frame first draws with it (`Lazy`).
pub struct Pipelines {
    pub mesh: MeshPipelines,
    pub wire: Lazy<wgpu::RenderPipeline>,
    /// The bind-pose ghost: translucent, over everything, back faces culled.
    pub ghost: Lazy<wgpu::RenderPipeline>,
    /// The shadow pass's, indexed by whether the draw is skinned on the GPU (`for_shadow`).
    shadow: [Lazy<wgpu::RenderPipeline>; 2],
    /// The ground with its shadows, and without them (where none can fall): the same quad,
    /// which may be drawn twice over, so each passes where depth is equal.
    pub ground: PipelinePerOutput,
    pub unshadowed_ground: PipelinePerOutput,
    /// The environment behind everything, or a flat colour (background.wgsl's `FLAT`).
    pub background: PipelinePerOutput,
    pub flat_background: PipelinePerOutput,
    pub overlay_lines: Lazy<wgpu::RenderPipeline>,
    pub overlay_points: Lazy<wgpu::RenderPipeline>,
}

/// The lit mesh pipelines: triangles culled or double-sided, each for draws whose winding is
/// as authored or mirrored (a node with a negative determinant: front faces wind clockwise),
/// and points and lines.
pub struct MeshPipelines {
    plain: LitTriangles,
    /// The same of the shader with the material layers (layers.wgsl), for materials with a
    /// sheen, a clear coat, a thin film, diffuse transmission, anisotropy or a layer texture,
    /// one set per `LayerVariant` (each compiled without the layers its materials lack): made
    /// when a draw first needs them. Every other material's shader leaves the layers' code and
    /// textures out (a software rasteriser runs a branch's body even where no pixel takes it:
    /// 10% of a frame), and start-up does not wait for a second compile.
    layered: VariantTriangles,
    /// The layered pipelines of the shader that also refracts the scene behind
    /// (transmission.wgsl, which binds group 3), for transmissive materials.
    transmissive: VariantTriangles,
    /// The pipelines of MToon materials (mtoon.wgsl, with the layer slots for its textures)
    /// and their outlines: made when a draw first needs them.
    toon: OnceLock<ToonTriangles>,
    toon_maker: Arc<MeshPipelineMaker>,
    points: PipelinePerOutput,
    lines: PipelinePerOutput,
}

/// Lit triangles of one variant of mesh.wgsl, each pipeline made when first drawn with.
struct LitTriangles {
    /// Per output, indexed by `mirrored as usize`.
    culled: PerOutput<[Lazy<wgpu::RenderPipeline>; 2]>,
    double_sided: PerOutput<[Lazy<wgpu::RenderPipeline>; 2]>,
    /// Blended triangles, which test depth but do not write it: indexed by `BlendedFaces`,
    /// then by `mirrored as usize`.
    blended: [[Lazy<wgpu::RenderPipeline>; 2]; 2],
}

impl LitTriangles {
    /// The pipelines of `maker`'s shader with pipeline `constants`.
    fn new(maker: &Arc<MeshPipelineMaker>, constants: &[(&'static str, f64)]) -> Self {
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let lit = |label: &'static str, kind: MeshKind| maker.lazy(label, triangles, kind, constants);
        let opaque = |label: &'static str, cull: bool| {
            PerOutput::new(|output| [false, true].map(|mirrored| lit(label, MeshKind::Lit { cull, mirrored, output })))
        };
        Self {
            culled: opaque("mesh", true),
            double_sided: opaque("double-sided mesh", false),
            blended: [BlendedFaces::Front, BlendedFaces::Back]
                .map(|faces| [false, true].map(|mirrored| lit("blended mesh", MeshKind::Blended { faces, mirrored }))),
        }
    }

    /// How many of its pipelines have been made.
    #[cfg(any(test, feature = "internals"))]
    fn made(&self) -> usize {
        let all = self.culled.iter().chain(&self.double_sided).chain(&self.blended);
        (all.flatten()).filter(|pipeline| pipeline.is_made()).count()
    }
}

/// MToon's triangles: lit as the other variants are, blended surfaces that write depth too
/// (transparentWithZWrite), and the outlines.
struct ToonTriangles {
    lit: LitTriangles,
    /// Indexed by `BlendedFaces`, then by `mirrored as usize`.
    blended_writing_depth: [[Lazy<wgpu::RenderPipeline>; 2]; 2],
    /// The outline (an inverted hull: the mesh pushed out along its normals, front faces
    /// culled) of opaque surfaces, per output, indexed by `mirrored as usize`.
    outline: PerOutput<[Lazy<wgpu::RenderPipeline>; 2]>,
    /// The outline of blended surfaces, indexed by `mirrored as usize`.
    blended_outline: [Lazy<wgpu::RenderPipeline>; 2],
}

impl ToonTriangles {
    fn new(maker: &Arc<MeshPipelineMaker>) -> Self {
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let both = [false, true];
        Self {
            lit: LitTriangles::new(maker, &[]),
            blended_writing_depth: [BlendedFaces::Front, BlendedFaces::Back].map(|faces| {
                both.map(|mirrored| {
                    let kind = MeshKind::BlendedWritingDepth { faces, mirrored };
                    maker.lazy("blended toon mesh writing depth", triangles, kind, &[])
                })
            }),
            outline: PerOutput::new(|output| {
                both.map(|mirrored| maker.lazy("toon outline", triangles, MeshKind::Outline { mirrored, output }, &[]))
            }),
            blended_outline: both.map(|mirrored| {
                maker.lazy(
                    "blended toon outline",
                    triangles,
                    MeshKind::BlendedOutline { mirrored },
                    &[],
                )
            }),
        }
    }

    /// How many of its pipelines have been made.
    #[cfg(any(test, feature = "internals"))]
    fn made(&self) -> usize {
        let others = (self.blended_writing_depth.iter().chain(&self.outline).flatten()).chain(&self.blended_outline);
        self.lit.made() + others.filter(|pipeline| pipeline.is_made()).count()
    }
}

/// Which faces of a blended (transparent) surface a draw shows. A double-sided one is drawn
/// twice, its back faces first, so that its far side shows through its near side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlendedFaces {
    Front = 0,
    Back = 1,
}

/// How a draw is lit: its material's faces and layers, and its placement's winding.
#[derive(Clone, Copy, Debug)]
pub struct DrawShading {
    /// Single-sided triangles are back-face culled.
    pub double_sided: bool,
    /// The material's layers over its base and layer textures (`MaterialBinding::layers`).
    pub layers: LayerVariant,
    /// The material lets light through (`MaterialBinding::transmissive`).
    pub transmissive: bool,
    /// The material is MToon (`MaterialBinding::toon`).
    pub toon: Option<Toon>,
    /// Placed by a node with a negative determinant.
    pub mirrored: bool,
}

impl MeshPipelines {
    /// The pipeline for a draw of `topology` shaded as `shading` says, writing `output`.
    pub fn for_draw(&self, topology: Topology, shading: DrawShading, output: SceneOutput) -> &wgpu::RenderPipeline {
        let lit = self.lit(shading);
        match topology {
            Topology::Points => &self.points[output],
            Topology::Lines => &self.lines[output],
            Topology::Triangles if shading.double_sided => &lit.double_sided[output][shading.mirrored as usize],
            Topology::Triangles => &lit.culled[output][shading.mirrored as usize],
        }
    }

    /// The pipeline for `faces` of blended triangles shaded as `shading` says.
    pub fn for_blended(&self, faces: BlendedFaces, shading: DrawShading) -> &wgpu::RenderPipeline {
        let (faces, mirrored) = (faces as usize, shading.mirrored as usize);
        match shading.toon {
            Some(toon) if toon.blend_writes_depth => &self.toon().blended_writing_depth[faces][mirrored],
            _ => &self.lit(shading).blended[faces][mirrored],
        }
    }

    /// The pipeline for the outline of an opaque MToon draw shaded as `shading` says, writing
    /// `output`.
    pub fn for_outline(&self, shading: DrawShading, output: SceneOutput) -> &wgpu::RenderPipeline {
        &self.toon().outline[output][shading.mirrored as usize]
    }

    /// The pipeline for the outline of a blended MToon draw shaded as `shading` says.
    pub fn for_blended_outline(&self, shading: DrawShading) -> &wgpu::RenderPipeline {
        &self.toon().blended_outline[shading.mirrored as usize]
    }

    fn toon(&self) -> &ToonTriangles {
        self.toon.get_or_init(|| ToonTriangles::new(&self.toon_maker))
    }

    /// How many of its pipelines have been made.
    #[cfg(any(test, feature = "internals"))]
    fn made(&self) -> usize {
        let toon = self.toon.get().map_or(0, ToonTriangles::made);
        let points_and_lines = (self.points.iter().chain(&self.lines)).filter(|p| p.is_made()).count();
        self.plain.made() + self.layered.made() + self.transmissive.made() + toon + points_and_lines
    }

    fn lit(&self, shading: DrawShading) -> &LitTriangles {
        if shading.toon.is_some() {
            return &self.toon().lit;
        }
        if shading.transmissive {
            return self.transmissive.of(shading.layers);
        }
        match shading.layers.is_plain() {
            true => &self.plain,
            false => self.layered.of(shading.layers),
        }
    }
}

/// The lit pipelines of one shader with the material layers, made per `LayerVariant` when a
/// draw first needs them.
struct VariantTriangles {
    maker: Arc<MeshPipelineMaker>,
    /// The first `VARIANTS` variants drawn, each with its pipelines.
    variants: [OnceLock<(LayerVariant, LitTriangles)>; VARIANTS],
    /// Every layer, each slot read from the material: for the variants after those.
    any: OnceLock<LitTriangles>,
}

/// How many variants of a shader get pipelines of their own: each costs a compile, and a
/// model has few (a character's materials share one or two; a scene's, one per set of
/// textures, skinned or not).
const VARIANTS: usize = 16;

impl VariantTriangles {
    fn new(maker: Arc<MeshPipelineMaker>) -> Self {
        Self {
            maker,
            variants: std::array::from_fn(|_| OnceLock::new()),
            any: OnceLock::new(),
        }
    }

    /// The pipelines for `variant`: its own, made in the first free place, else those that
    /// serve any variant.
    fn of(&self, variant: LayerVariant) -> &LitTriangles {
        for place in &self.variants {
            let (made_for, triangles) =
                place.get_or_init(|| (variant, LitTriangles::new(&self.maker, &variant.constants())));
            if *made_for == variant {
                return triangles;
            }
        }
        self.any.get_or_init(|| LitTriangles::new(&self.maker, &[]))
    }

    /// How many of its pipelines have been made.
    #[cfg(any(test, feature = "internals"))]
    fn made(&self) -> usize {
        let variants = (self.variants.iter()).filter_map(|place| place.get().map(|(_, triangles)| triangles));
        variants.chain(self.any.get()).map(LitTriangles::made).sum()
    }
}

/// Makes pipelines of mesh.wgsl, whenever they are first needed.
struct MeshPipelineMaker {
    device: wgpu::Device,
    module: LazyModule,
    layout: wgpu::PipelineLayout,
    multisample: wgpu::MultisampleState,
    /// The fragment entry point of lit surfaces ("fs_main"; MToon's "fs_mtoon").
    lit_fragment: &'static str,
}

impl MeshPipelineMaker {
    /// `pipeline`, made when it is first drawn with.
    fn lazy(
        self: &Arc<Self>,
        label: &'static str,
        topology: wgpu::PrimitiveTopology,
        kind: MeshKind,
        constants: &[(&'static str, f64)],
    ) -> Lazy<wgpu::RenderPipeline> {
        let (maker, constants) = (self.clone(), constants.to_vec());
        Lazy::new(move || maker.pipeline(label, topology, kind, &constants))
    }

    /// A pipeline of `topology` for `kind` of draw, with the shader's pipeline `constants`.
    fn pipeline(
        &self,
        label: &str,
        topology: wgpu::PrimitiveTopology,
        kind: MeshKind,
        constants: &[(&str, f64)],
    ) -> wgpu::RenderPipeline {
        // Mirrored draws' front faces wind clockwise; the shader's `front_facing` follows,
        // so double-sided back faces are lit with the flipped normal.
        let (cull_mode, mirrored, depth_stencil) = match kind {
            MeshKind::Lit { cull, mirrored, .. } => (
                cull.then_some(wgpu::Face::Back),
                mirrored,
                depth(true, wgpu::CompareFunction::LessEqual),
            ),
            MeshKind::Blended { faces, mirrored } | MeshKind::BlendedWritingDepth { faces, mirrored } => {
                let culled = match faces {
                    BlendedFaces::Front => wgpu::Face::Back,
                    BlendedFaces::Back => wgpu::Face::Front,
                };
                let writes = matches!(kind, MeshKind::BlendedWritingDepth { .. });
                (Some(culled), mirrored, depth(writes, wgpu::CompareFunction::LessEqual))
            }
            MeshKind::Outline { mirrored, .. } => (
                Some(wgpu::Face::Front),
                mirrored,
                depth(true, wgpu::CompareFunction::LessEqual),
            ),
            MeshKind::BlendedOutline { mirrored } => (
                Some(wgpu::Face::Front),
                mirrored,
                depth(false, wgpu::CompareFunction::LessEqual),
            ),
            // Edges lie on the surface: they test depth but do not write it.
            MeshKind::Wire => (None, false, depth(false, wgpu::CompareFunction::LessEqual)),
            MeshKind::Ghost => (
                Some(wgpu::Face::Back),
                false,
                depth(false, wgpu::CompareFunction::Always),
            ),
        };
        let output = kind.output();
        let (targets, constants) = (output.target(), [constants, output.constants()].concat());
        let constants = constants.as_slice();
        let module: &wgpu::ShaderModule = &self.module;
        let (vertex_entry, fragment_entry) = match kind {
            MeshKind::Outline { .. } | MeshKind::BlendedOutline { .. } => ("vs_outline", "fs_outline"),
            MeshKind::Lit { .. } | MeshKind::Blended { .. } | MeshKind::BlendedWritingDepth { .. } => {
                ("vs_main", self.lit_fragment)
            }
            MeshKind::Wire | MeshKind::Ghost => ("vs_main", "fs_main"),
        };
        self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&self.layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(vertex_entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    ..Default::default()
                },
                buffers: &MESH_BUFFERS,
            },
            primitive: wgpu::PrimitiveState {
                topology,
                front_face: if mirrored {
                    wgpu::FrontFace::Cw
                } else {
                    wgpu::FrontFace::Ccw
                },
                cull_mode,
                ..Default::default()
            },
            depth_stencil,
            multisample: self.multisample,
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(fragment_entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    ..Default::default()
                },
                targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// The scene's colour target in linear HDR, alpha-blended.
const SCENE_TARGET: [Option<wgpu::ColorTargetState>; 1] = [Some(wgpu::ColorTargetState {
    format: SCENE_FORMAT,
    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
    write_mask: wgpu::ColorWrites::ALL,
})];

/// The displayed image, for the scene drawn into it and what is drawn over it after tone
/// mapping: sRGB-encoded colours (the shaders encode them), alpha-blended as they are, as
/// three.js blends.
const DISPLAY_TARGET: [Option<wgpu::ColorTargetState>; 1] = [Some(wgpu::ColorTargetState {
    format: DISPLAY_FORMAT,
    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
    write_mask: wgpu::ColorWrites::ALL,
})];

/// How many vertex buffers a mesh draw binds (`MESH_BUFFERS`).
pub const MESH_BUFFER_COUNT: usize = 9;

/// Vertex buffers of the skinning shaders: positions, normals, texture coordinates,
/// influences, (mesh.wgsl's locations 7 to 9) the vertex view's value, the second texture
/// coordinates and the vertex colours, per instance (locations 10 to 13) the copy's
/// placement matrix (EXT_mesh_gpu_instancing; one identity for draws that are not copied),
/// and (location 14) the tangents (zeros where there are none).
pub const MESH_BUFFERS: [Option<wgpu::VertexBufferLayout<'static>>; MESH_BUFFER_COUNT] = [
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
        attributes: &wgpu::vertex_attr_array![3 => Uint16x4, 5 => Uint16x4, 4 => Float32x4, 6 => Float32x4, 15 => Float32],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 4,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![7 => Float32],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 8,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![8 => Float32x2],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 16,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![9 => Float32x4],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![10 => Float32x4, 11 => Float32x4, 12 => Float32x4, 13 => Float32x4],
    }),
    Some(wgpu::VertexBufferLayout {
        array_stride: 16,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![14 => Float32x4],
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

/// What a mesh pipeline draws.
#[derive(Clone, Copy)]
enum MeshKind {
    /// Lit surfaces (or points, lines), back faces culled when `cull`, winding flipped when
    /// `mirrored`, into the scene's `output`.
    Lit {
        cull: bool,
        mirrored: bool,
        output: SceneOutput,
    },
    /// Lit blended surfaces: `faces` drawn (the others culled), depth tested, not written.
    Blended { faces: BlendedFaces, mirrored: bool },
    /// Blended surfaces that write depth too (MToon's transparentWithZWrite).
    BlendedWritingDepth { faces: BlendedFaces, mirrored: bool },
    /// MToon's outline of an opaque surface: back faces of the mesh pushed out along its
    /// normals, writing depth, into the scene's `output`.
    Outline { mirrored: bool, output: SceneOutput },
    /// MToon's outline of a blended surface, which does not write depth.
    BlendedOutline { mirrored: bool },
    /// The wireframe.
    Wire,
    /// The bind-pose ghost: translucent, over everything, back faces culled.
    Ghost,
}

impl MeshKind {
    /// What its pipeline writes: the scene's surfaces as the frame draws its scene, the rest
    /// is drawn over the displayed image.
    fn output(self) -> SceneOutput {
        match self {
            MeshKind::Lit { output, .. } | MeshKind::Outline { output, .. } => output,
            MeshKind::Blended { .. }
            | MeshKind::BlendedWritingDepth { .. }
            | MeshKind::BlendedOutline { .. }
            | MeshKind::Wire
            | MeshKind::Ghost => SceneOutput::Displayed,
        }
    }
}

/// What `lazy_pipeline` makes: a pipeline of `module`'s `vertex` entry (reading its vertex
/// buffers) and `fragment` entry with pipeline `constants`, reading groups laid out as
/// `layout`, drawing `topology` into `targets`.
struct PipelineShape {
    label: &'static str,
    module: LazyModule,
    vertex: (&'static str, &'static [Option<wgpu::VertexBufferLayout<'static>>]),
    fragment: &'static str,
    constants: &'static [(&'static str, f64)],
    layout: wgpu::PipelineLayout,
    topology: wgpu::PrimitiveTopology,
    depth_stencil: Option<wgpu::DepthStencilState>,
    multisample: wgpu::MultisampleState,
    targets: &'static [Option<wgpu::ColorTargetState>],
}

/// The pipeline `shape` describes, made when it is first drawn with.
fn lazy_pipeline(device: &wgpu::Device, shape: PipelineShape) -> Lazy<wgpu::RenderPipeline> {
    let device = device.clone();
    Lazy::new(move || {
        let module: &wgpu::ShaderModule = &shape.module;
        let (vertex_entry, buffers) = shape.vertex;
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(shape.label),
            layout: Some(&shape.layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(vertex_entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: shape.constants,
                    ..Default::default()
                },
                buffers,
            },
            primitive: wgpu::PrimitiveState {
                topology: shape.topology,
                ..Default::default()
            },
            depth_stencil: shape.depth_stencil.clone(),
            multisample: shape.multisample,
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(shape.fragment),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: shape.constants,
                    ..Default::default()
                },
                targets: shape.targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    })
}

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
    /// The skinning shaders read skin matrices as `layouts` lays them out. Nothing is compiled
    /// yet: each pipeline, and its shader module, is made when a frame first draws with it.
    pub fn new(device: &wgpu::Device, layouts: &Layouts, sample_count: u32) -> Self {
        // WGSL has no includes: the shared frame block is prepended to each shader.
        let shader = |label: &'static str, body: String| -> LazyModule {
            let device = device.clone();
            Arc::new(Lazy::new(move || {
                device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(label),
                    source: wgpu::ShaderSource::Wgsl(Cow::Owned(format!(
                        "{}\n{body}",
                        include_str!("../../shaders/frame.wgsl")
                    ))),
                })
            }))
        };
        // The mesh shader with the material layers or their stand-in, and the transmission
        // (which reads the scene behind from group 3) or its stand-in: a material's draws run
        // only the code it needs.
        let skin_source = layouts.skin_source;
        let mesh_shader_of = |label: &'static str, layers: String, transmission: &'static str| -> LazyModule {
            let device = device.clone();
            Arc::new(Lazy::new(move || {
                let body = format!(
                    "{}\n{TONE_CURVE}\n{SCENE_OUTPUT}\n{}\n{}\n{}\n{layers}\n{transmission}",
                    fullscreen::SRGB,
                    include_str!("../../shaders/brdf.wgsl"),
                    include_str!("../../shaders/thin_film.wgsl"),
                    include_str!("../../shaders/mesh.wgsl"),
                );
                skinning_shader(&device, label, skin_source, &body)
            }))
        };
        let (layers, no_layers) = (
            include_str!("../../shaders/layers.wgsl"),
            include_str!("../../shaders/no_layers.wgsl"),
        );
        let (transmission, no_transmission) = (
            include_str!("../../shaders/transmission.wgsl"),
            include_str!("../../shaders/no_transmission.wgsl"),
        );
        let mesh_shader = mesh_shader_of("mesh", no_layers.to_string(), no_transmission);
        // The ground and the background write through scene_output.wgsl as the meshes do.
        let output = format!("{}\n{TONE_CURVE}\n{SCENE_OUTPUT}", fullscreen::SRGB);
        let ground_shader = shader(
            "ground",
            format!("{output}\n{}", include_str!("../../shaders/ground.wgsl")),
        );
        let background_shader = shader(
            "background",
            format!(
                "{output}\n{}\n{}",
                fullscreen::WGSL,
                include_str!("../../shaders/background.wgsl")
            ),
        );
        let overlay_shader = shader(
            "overlay",
            format!(
                "{}\n{TONE_CURVE}\n{}",
                fullscreen::SRGB,
                include_str!("../../shaders/overlay.wgsl")
            ),
        );
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
        let overlay_layout = pipeline_layout(&[&layouts.frame]);
        // On top of the mesh: the depth test always passes.
        let overlay_pipeline = |label: &'static str, topology: wgpu::PrimitiveTopology| {
            lazy_pipeline(
                device,
                PipelineShape {
                    label,
                    module: overlay_shader.clone(),
                    vertex: ("vs_main", &OVERLAY_BUFFERS),
                    fragment: "fs_main",
                    constants: &[],
                    layout: overlay_layout.clone(),
                    topology,
                    depth_stencil: depth(false, wgpu::CompareFunction::Always),
                    multisample,
                    targets: &DISPLAY_TARGET,
                },
            )
        };
        // A full-surface pass of `module` (the ground, the background), a pipeline per scene output.
        let output_pipelines = |label: &'static str,
                                module: &LazyModule,
                                (vertex, fragment): (&'static str, &'static str),
                                layout: &wgpu::PipelineLayout,
                                depth_stencil: Option<wgpu::DepthStencilState>|
         -> PipelinePerOutput {
            PerOutput::new(|output| {
                lazy_pipeline(
                    device,
                    PipelineShape {
                        label,
                        module: module.clone(),
                        vertex: (vertex, &[]),
                        fragment,
                        constants: output.constants(),
                        layout: layout.clone(),
                        topology: wgpu::PrimitiveTopology::TriangleList,
                        depth_stencil: depth_stencil.clone(),
                        multisample,
                        targets: output.target(),
                    },
                )
            })
        };
        let ground_layout = pipeline_layout(&[&layouts.frame, &layouts.ground]);
        let ground_pipelines = |fragment| {
            let depth_test = depth(true, wgpu::CompareFunction::LessEqual);
            output_pipelines(
                "ground",
                &ground_shader,
                ("vs_main", fragment),
                &ground_layout,
                depth_test,
            )
        };
        // Behind everything: drawn first, leaving the depth buffer as cleared.
        let background_pipelines = |fragment| {
            let no_test = depth(false, wgpu::CompareFunction::Always);
            let entries = ("vs_fullscreen", fragment);
            output_pipelines("background", &background_shader, entries, &overlay_layout, no_test)
        };
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let uncull = |output| MeshKind::Lit {
            cull: false,
            mirrored: false,
            output,
        };
        let maker_of = |module: LazyModule, layout: &wgpu::PipelineLayout, lit_fragment| {
            Arc::new(MeshPipelineMaker {
                device: device.clone(),
                module,
                layout: layout.clone(),
                multisample,
                lit_fragment,
            })
        };
        let maker = maker_of(mesh_shader.clone(), &mesh_layout, "fs_main");
        let layered_maker = maker_of(
            mesh_shader_of("layered mesh", layers.to_string(), no_transmission),
            &mesh_layout,
            "fs_main",
        );
        let transmissive_maker = maker_of(
            mesh_shader_of("transmissive mesh", layers.to_string(), transmission),
            &pipeline_layout(&[&layouts.frame, &layouts.draw, &layouts.material, &layouts.transmission]),
            "fs_main",
        );
        let toon_layers = format!("{layers}\n{}", include_str!("../../shaders/mtoon.wgsl"));
        let toon_maker = maker_of(
            mesh_shader_of("toon mesh", toon_layers, no_transmission),
            &mesh_layout,
            "fs_mtoon",
        );
        let plain = |label: &'static str, topology: wgpu::PrimitiveTopology, kind: MeshKind| {
            maker.lazy(label, topology, kind, &[])
        };
        // Without `GPU_SKINNED`, the shadow of a static mesh (or one posed on the CPU) runs
        // neither skinning method: in an animated scene the map is drawn every frame.
        let shadow_pipeline = |gpu_skinned: bool| {
            let (device, module, layout) = (device.clone(), mesh_shader.clone(), mesh_layout.clone());
            Lazy::new(move || {
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("shadow"),
                    layout: Some(&layout),
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: Some("vs_shadow"),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants: &shadow_constants(gpu_skinned),
                            ..Default::default()
                        },
                        buffers: &MESH_BUFFERS,
                    },
                    primitive: wgpu::PrimitiveState::default(),
                    depth_stencil: Some(wgpu::DepthStencilState {
                        format: SHADOW_DEPTH_FORMAT,
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
                })
            })
        };
        Self {
            wire: plain("wireframe", wgpu::PrimitiveTopology::LineList, MeshKind::Wire),
            ghost: plain("bind-pose ghost", triangles, MeshKind::Ghost),
            shadow: [false, true].map(shadow_pipeline),
            ground: ground_pipelines("fs_main"),
            unshadowed_ground: ground_pipelines("fs_unshadowed"),
            background: background_pipelines("fs_environment"),
            flat_background: background_pipelines("fs_flat"),
            overlay_lines: overlay_pipeline("bones", wgpu::PrimitiveTopology::LineList),
            overlay_points: overlay_pipeline("joints", triangles),
            mesh: MeshPipelines {
                plain: LitTriangles::new(&maker, &LayerVariant::PLAIN_CONSTANTS),
                layered: VariantTriangles::new(layered_maker),
                transmissive: VariantTriangles::new(transmissive_maker),
                toon: OnceLock::new(),
                toon_maker,
                points: PerOutput::new(|output| plain("points", wgpu::PrimitiveTopology::PointList, uncull(output))),
                lines: PerOutput::new(|output| plain("lines", wgpu::PrimitiveTopology::LineList, uncull(output))),
            },
        }
    }

    /// The shadow pass's pipeline for a draw that the GPU skins (`gpu_skinned`: the draw's
    /// `on_gpu`) or does not.
    pub fn for_shadow(&self, gpu_skinned: bool) -> &wgpu::RenderPipeline {
        &self.shadow[usize::from(gpu_skinned)]
    }

    /// Which shadow pipelines have been made: for draws not skinned on the GPU, and for those
    /// skinned there.
    #[cfg(any(test, feature = "internals"))]
    pub fn shadow_made(&self) -> [bool; 2] {
        self.shadow.each_ref().map(Lazy::is_made)
    }

    /// How many pipelines have been made so far (each is made when first drawn with).
    #[cfg(any(test, feature = "internals"))]
    pub fn made(&self) -> usize {
        let per_output = [
            &self.ground,
            &self.unshadowed_ground,
            &self.background,
            &self.flat_background,
        ];
        let others = [
            &self.wire,
            &self.ghost,
            &self.shadow[0],
            &self.shadow[1],
            &self.overlay_lines,
            &self.overlay_points,
        ];
        let all = others.into_iter().chain(per_output.into_iter().flatten());
        self.mesh.made() + all.filter(|pipeline| pipeline.is_made()).count()
    }
}

/// The shadow pipeline's constants of mesh.wgsl: whether its draws are skinned on the GPU.
fn shadow_constants(gpu_skinned: bool) -> [(&'static str, f64); 1] {
    [("GPU_SKINNED", f64::from(u8::from(gpu_skinned)))]
}
