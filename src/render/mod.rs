//! wgpu rendering: the scene (ground with grid and soft shadow, glTF PBR meshes skinned on the
//! GPU or on the CPU and lit by a key light or the file's lights and an environment,
//! wireframe, skeleton overlay) into an offscreen MSAA HDR target, tone-mapped into the image
//! the window shows and the headless commands read back. `frame.rs` lists a frame's stages;
//! `ModelView` is one drawn model; `SceneRenderer` owns the pipelines and records the passes.

pub mod animated;
pub mod avatar_gizmo;
pub mod benchmark;
pub mod blit;
pub mod capture;
mod crowd_buffers;
mod crowd_levels;
mod draw_uniforms;
pub mod environment;
pub mod frame;
mod frame_input;
mod fullscreen;
pub mod gpu;
mod gpu_skins;
pub mod gpu_timer;
pub mod ik_gizmo;
pub mod joint_gizmo;
pub mod layouts;
mod mesh_levels;
pub mod model_buffers;
pub mod model_view;
pub mod motion_gizmo;
pub mod overlay;
mod overlay_buffer;
pub mod pipelines;
pub mod scene;
mod shadow_casters;
mod shadow_map;
mod shadow_views;
mod simplified;
mod skeleton_overlay;
pub mod skin_compare;
pub mod skin_source;
pub mod still;
mod target;
mod textures;
mod tone_map;
pub mod trail_gizmo;
mod transmission;
pub mod uniforms;

pub use environment::{Environment, EnvironmentImage};
pub use frame::{SecondModel, draw, pose_and_upload};
pub use frame_input::FrameInput;
pub use gpu::Gpu;
pub use model_view::ModelView;
pub use overlay::Overlay;
pub use scene::SceneRenderer;
pub use skin_source::SkinSource;
pub use target::SceneTarget;
