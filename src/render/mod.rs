//! wgpu rendering: the scene (ground with grid and soft shadow, glTF PBR meshes skinned on the
//! GPU or on the CPU and lit by a key light or the file's lights and an environment,
//! wireframe, skeleton overlay) into an offscreen MSAA HDR target, tone-mapped into the image
//! the window shows and the headless commands read back. `frame.rs` lists a frame's stages;
//! `ModelView` is one drawn model; `SceneRenderer` owns the pipelines and records the passes.

pub mod animated;
pub(crate) mod avatar_gizmo;
pub(crate) mod benchmark;
pub(crate) mod blit;
pub mod capture;
mod compressed_texture;
mod crowd_buffers;
mod crowd_levels;
mod draw_uniforms;
mod environment;
mod environment_cache;
mod error;
mod frame;
mod frame_input;
mod fullscreen;
mod gpu;
mod gpu_skins;
pub mod gpu_timer;
pub(crate) mod ik_gizmo;
pub(crate) mod joint_gizmo;
mod layer_variant;
mod layouts;
mod material_texture;
mod mesh_levels;
mod model_buffers;
mod model_view;
pub(crate) mod motion_gizmo;
pub(crate) mod overlay;
mod overlay_buffer;
mod pipelines;
mod scene;
mod shadow_casters;
mod shadow_map;
mod shadow_views;
mod simplified;
mod skeleton_overlay;
pub(crate) mod skin_compare;
pub mod skin_source;
pub mod still;
mod target;
mod textures;
mod tone_map;
pub(crate) mod trail_gizmo;
mod transmission;
pub mod uniforms;

pub use environment::{Environment, EnvironmentImage};
pub use error::RenderError;
pub use frame::{SecondModel, draw, pose_and_upload};
pub use frame_input::FrameInput;
pub use gpu::Gpu;
pub use model_buffers::COMPARE_GHOST_COLOR;
pub use model_view::ModelView;
#[cfg(any(test, feature = "internals"))]
pub use overlay::Overlay;
pub use scene::SceneRenderer;
#[cfg(any(test, feature = "internals"))]
pub use skin_source::SkinSource;
pub use target::SceneTarget;
