//! `rigscope render [FILE] -o out.png` with the animation, IK and view options: the viewer's
//! renderer without a window (the README lists every option).

use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, ValueEnum};

use super::camera_args::CameraArgs;
use super::crowd_args::CrowdArgs;
use super::expression_args::ExpressionArgs;
use super::lighting_args::LightingArgs;
use super::morph_args::MorphArgs;
use super::picture_size::parse_size;
use super::trail_args::TrailArgs;
use super::variant_args::VariantArgs;
use super::view_args::{PoseModeArg, ViewArgs, draw_bone_names};
use super::{ClipArgs, ClipsFromArgs, SkinMethodArg};
use crate::anim::Pose;
use crate::asset::demo::demo_model;
use crate::asset::{self, Model, SceneChoice};
use crate::export::{image_file, output};
use crate::inspect::{PoseMode, TrailTime};
use crate::render::avatar_gizmo::draw_spring_bones;
use crate::render::benchmark::{FrameTimings, WARM_UP_FRAMES};
use crate::render::ik_gizmo::draw_ik_chains;
use crate::render::joint_gizmo::draw_selected_joint;
use crate::render::still::{StillRenderer, Viewpoint};
use crate::render::{EnvironmentImage, Gpu, SceneRenderer};
use crate::view::image_detail::simplify_for_still;
use crate::view::{MaterialChannel, ViewOptions, Viewport};

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The model (.glb, .gltf, .vrm, .vrma, .fbx, .obj or .md5mesh); without one, the built-in demo rig.
    pub file: Option<PathBuf>,
    /// Where to write the picture: a .png, .jpg or .tga file, or - for a PNG on standard
    /// output.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Show this scene of the file, by name or index (as `inspect` lists them); by default
    /// the file's own default scene.
    #[arg(long, value_name = "SCENE", requires = "file")]
    pub scene: Option<String>,
    #[command(flatten)]
    pub clip: ClipArgs,
    #[command(flatten)]
    pub clips_from: ClipsFromArgs,
    #[command(flatten)]
    pub morph: MorphArgs,
    #[command(flatten)]
    pub expression: ExpressionArgs,
    /// Image size in pixels, WIDTHxHEIGHT (1 to 8192 a side).
    #[arg(long, default_value = "800x600", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Where skinning runs; auto: on the CPU where the adapter is a CPU rasteriser (its vertex
    /// shaders run on the same cores), but for a crowd, and on the GPU otherwise.
    #[arg(long, value_enum, default_value_t = SkinningArg::Auto)]
    pub skinning: SkinningArg,
    /// How skinned vertices blend their joints.
    #[arg(long, value_enum, default_value_t = SkinMethodArg::Linear)]
    pub skin_method: SkinMethodArg,
    /// Draw the skeleton over the mesh (and IK chains' targets and limits); a file without
    /// meshes always shows its skeleton.
    #[arg(long)]
    pub skeleton: bool,
    /// Draw the triangle edges.
    #[arg(long)]
    pub wireframe: bool,
    /// Leave out the ground, its grid and the shadow.
    #[arg(long)]
    pub no_grid: bool,
    /// Draw every triangle of meshes denser than the image, and of a crowd's far copies (by
    /// default they are drawn from copies simplified within half a pixel).
    #[arg(long)]
    pub full_detail: bool,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub inspect: ViewArgs,
    #[command(flatten)]
    pub lighting: LightingArgs,
    #[command(flatten)]
    pub trails: TrailArgs,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub crowd: CrowdArgs,
    /// Time N frames (after a warm-up) without a window, the crowd playing at 60 frames a
    /// second, and print their median and 95th-percentile times as JSON (the viewer's
    /// `--benchmark-frames` figures, plus the crowd size); the image is the last frame.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub benchmark_frames: Option<u32>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SkinningArg {
    Auto,
    Cpu,
    Gpu,
}

impl SkinningArg {
    /// Whether the GPU skins, on an adapter that is (`software_adapter`) a CPU rasteriser or
    /// not, for a picture of a `crowd` or of one model.
    fn on_gpu(self, software_adapter: bool, crowd: bool) -> bool {
        match self {
            SkinningArg::Auto => ViewOptions::gpu_skinning_for(software_adapter, crowd),
            SkinningArg::Cpu => false,
            SkinningArg::Gpu => true,
        }
    }
}

pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    let image = picture(args)?;
    image_file::save(&image, &args.output)?;
    Ok(())
}

/// The picture `run` saves (the Python module's `render` returns it as pixels).
pub fn picture(args: &RenderArgs) -> anyhow::Result<image::RgbaImage> {
    let environment = args.lighting.environment_image()?;
    std::thread::scope(|scope| {
        let renderer = scope.spawn(|| headless_renderer(args.size, environment.as_ref()));
        picture_with(args, || joined(renderer))
    })
}

/// A device without a window for pictures of `size`, and a renderer lit by `environment` (the
/// studio without one). `render` and `thumbnail` make them on a thread of their own while the
/// model loads: on a software rasteriser finding the adapter and setting up its driver takes
/// about as long as loading a character.
pub(super) fn headless_renderer(
    size: (u32, u32),
    environment: Option<&EnvironmentImage>,
) -> anyhow::Result<(Gpu, SceneRenderer)> {
    let mut gpu = Gpu::headless()?;
    gpu.fit_textures_to(size);
    let renderer = SceneRenderer::for_picture(&gpu, environment, size);
    Ok((gpu, renderer))
}

/// What the thread `handle` returned (its panic, passed on, if it panicked).
pub(super) fn joined<T>(handle: std::thread::ScopedJoinHandle<T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `picture`, drawn with the device and renderer `renderer` gives once the model is ready.
fn picture_with(
    args: &RenderArgs,
    renderer: impl FnOnce() -> anyhow::Result<(Gpu, SceneRenderer)>,
) -> anyhow::Result<image::RgbaImage> {
    let mut model = match &args.file {
        Some(file) => {
            let scene = args.scene.clone().map_or(SceneChoice::FileDefault, SceneChoice::Named);
            asset::load_scene(file, &scene)?
        }
        None => demo_model(),
    };
    args.clips_from.apply(&mut model)?;
    if model.instances.is_empty() && model.skeleton.is_empty() {
        eprintln!(
            "{}: the model has no meshes and no joints: the picture shows only the ground",
            model.path.display()
        );
    }
    let mut posed = args.clip.pose(&model, (!model.clips.is_empty()).then_some(0))?;
    PoseMode::from(args.inspect.pose_mode).apply(&model.skeleton, &mut posed.pose);
    args.expression.apply(&model, &mut posed.pose)?;
    args.morph.apply(&model, &mut posed.pose)?;
    let (selected, vertex_view) = args.inspect.selection(&model)?;
    let viewpoint = args.camera.viewpoint(&model)?;
    let mut view = ViewOptions {
        skinning_method: args.skin_method.into(),
        skeleton: args.skeleton || model.instances.is_empty(),
        wireframe: args.wireframe,
        grid: !args.no_grid,
        vertex_view,
        bind_ghost: args.inspect.bind_ghost,
        lighting: args.lighting.lighting(&model),
        material_variant: args.variant.resolve(&model)?,
        crowd_detail: !args.full_detail,
        channel: args.inspect.channel.map(MaterialChannel::from),
        ..ViewOptions::default()
    };
    if !args.full_detail {
        simplify_dense_meshes(&mut model, args.size, &view, viewpoint);
    }
    if args.benchmark_frames.is_some() && output::is_standard_output(&args.output) {
        bail!("--benchmark-frames prints its JSON on standard output: give -o a file for the picture");
    }
    let (gpu, mut renderer) = renderer()?;
    view.gpu_skinning = args.skinning.on_gpu(gpu.is_software(), args.crowd.crowd > 1);
    let matrices = posed.pose.to_model_matrices();
    if args.skeleton {
        // With the skeleton, IK chains show their targets and limits too, and spring bones
        // their colliders.
        let poses = (&posed.pose, model.skeleton.rest_pose(), matrices.as_slice());
        draw_ik_chains(&mut renderer.gizmos, &posed.ik, poses, true, None);
        draw_spring_bones(&mut renderer.gizmos, &model.spring_bones, &matrices);
    }
    let mut still = StillRenderer::new(&gpu, &renderer, &model);
    for note in still.notes() {
        eprintln!("{}: {note}", model.path.display());
    }
    still.viewpoint = viewpoint;
    // The rest and bind poses are framed on themselves (a T-pose is wider than a walk).
    let animated = matches!(args.inspect.pose_mode, PoseModeArg::Animated);
    if animated {
        (still.in_place, still.ground_slide) = (posed.in_place, posed.travel);
    }
    let bounds = still.frame_clip(posed.clip.filter(|_| animated));
    if let Some(joint) = selected {
        let parent = model.skeleton.parent(joint);
        draw_selected_joint(&mut renderer.gizmos, &matrices, parent, joint, &bounds);
    }
    let at = TrailTime {
        clip: posed.clip.filter(|_| animated),
        time: args.clip.time,
        mode: args.clip.playback.into(),
    };
    args.trails
        .draw(&mut renderer.gizmos, &model, at, bounds.ground_height())?;
    still.show_crowd(args.crowd.options(), posed.clip);
    still.time = args.clip.time;
    if let Some(frames) = args.benchmark_frames {
        let json = benchmark(&gpu, &mut renderer, &mut still, (&posed.pose, &view), args.size, frames)?;
        println!("{json}");
    }
    let mut image = still.render(&mut renderer, &posed.pose, args.size, &view)?;
    if let Some(difference) = still.skin_difference.take() {
        eprintln!("{}", difference.map_err(anyhow::Error::msg)?);
    }
    if args.inspect.bone_names || selected.is_some() {
        let camera = still.camera_view(args.size);
        let viewport = Viewport::new(&camera, args.size.0 as f32, args.size.1 as f32);
        draw_bone_names(
            &mut image,
            &model,
            &matrices,
            &viewport,
            (args.inspect.bone_names, selected),
        );
    }
    Ok(image)
}

/// Simplifies `model`'s meshes that are denser than a `size` picture seen through `view` from
/// `viewpoint` (see `view::image_detail`), saying so on standard error.
pub(super) fn simplify_dense_meshes(model: &mut Model, size: (u32, u32), view: &ViewOptions, viewpoint: Viewpoint) {
    let framed_on_model = matches!(viewpoint, Viewpoint::Orbit(_));
    for simplified in simplify_for_still(model, size, view, framed_on_model) {
        eprintln!("{}: {}", model.path.display(), simplified.describe(model, size));
    }
}

/// Draws `frames` frames (after the viewer's warm-up) and returns the viewer's benchmark
/// JSON for them; the crowd's clock ends where the last frame left it.
fn benchmark(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    still: &mut StillRenderer,
    (pose, view): (&Pose, &ViewOptions),
    size: (u32, u32),
    frames: u32,
) -> anyhow::Result<String> {
    let warm_up = WARM_UP_FRAMES + 1;
    let times = still.time_frames(renderer, pose, size, view, (warm_up + frames) as usize)?;
    still.time += times.len() as f32 / 60.0;
    let mut timings = FrameTimings::new(frames as usize);
    for (frame, time) in times.into_iter().enumerate() {
        timings.record(frame as u32, time.wall_s);
        if let Some(gpu_s) = time.gpu_s {
            timings.record_gpu(gpu_s);
        }
    }
    let triangles = still.triangles_drawn(view);
    Ok(timings.to_json(gpu, "offscreen", still.crowd_len(), triangles, view.gpu_skinning))
}

/// Renders `model` in `pose` to an image, framed over the whole of `clip` (the clip the pose
/// comes from, so that every frame of it is framed alike).
#[cfg(any(test, feature = "internals"))]
pub fn render_image(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    model: &Model,
    pose: &Pose,
    clip: Option<usize>,
    size: (u32, u32),
    view: &ViewOptions,
) -> Result<image::RgbaImage, crate::render::RenderError> {
    let mut still = StillRenderer::new(gpu, renderer, model);
    still.frame_clip(clip);
    still.render(renderer, pose, size, view)
}
