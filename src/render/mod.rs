//! wgpu rendering: the scene (ground with grid and soft shadow, lit textured meshes skinned on
//! the GPU from the `pose` and `inv_bind_pose` uniform arrays or on the CPU, wireframe,
//! skeleton overlay) into an offscreen MSAA target, which the window shows and the headless
//! `render` command reads back.

pub mod blit;
pub mod camera;
pub mod capture;
pub mod framing;
pub mod gpu;
pub mod ik_gizmo;
pub mod joint_gizmo;
pub mod layouts;
pub mod model_gpu;
pub mod overlay;
pub mod pipelines;
pub mod scene;
pub mod skin_compare;
pub mod still;
mod textures;
pub mod uniforms;
pub mod viewport;

pub use camera::{Bounds, OrbitCamera};
pub use gpu::Gpu;
pub use model_gpu::ModelGpu;
pub use overlay::Overlay;
pub use scene::{SceneRenderer, SceneTarget, ViewOptions};
pub use viewport::Viewport;
