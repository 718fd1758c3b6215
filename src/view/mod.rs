//! The view, without any GPU: the orbit camera, the file's cameras, named views, the region a
//! model moves in, pixels and model space (picking), where joint names go, and the view
//! toggles. The panel, the renderer and the headless commands share it.

pub(crate) mod animated_frame;
pub mod avatar_motion;
mod bounds;
mod camera;
mod camera_view;
pub mod compare_layout;
pub mod crowd;
pub(crate) mod crowd_detail;
pub(crate) mod crowd_playback;
pub(crate) mod file_camera;
pub(crate) mod framing;
pub mod ground_shadow;
pub(crate) mod image_detail;
mod labels;
mod lighting;
mod material_channel;
pub mod opening_clip;
mod options;
mod quality;
mod text;
pub mod triangle_budget;
mod view_preset;
mod viewer_options;
mod viewport;

pub use bounds::Bounds;
pub use camera::OrbitCamera;
pub use camera_view::CameraView;
pub use labels::named_joints;
pub use lighting::{Lighting, Lights, ToneMapping};
pub use material_channel::MaterialChannel;
pub use options::ViewOptions;
pub use quality::{Quality, QualitySettings};
pub use text::{capitalised, counted};
pub use view_preset::{ViewAngles, ViewPreset};
pub use viewer_options::ViewerOptions;
pub use viewport::{PICK_RADIUS, Viewport};
