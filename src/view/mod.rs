//! The view, without any GPU: the orbit camera, the region a model moves in, pixels and model
//! space (picking), where joint names go, and the view toggles. The panel, the renderer and the
//! headless commands share it.

mod bounds;
mod camera;
pub mod framing;
mod labels;
mod lighting;
mod options;
mod text;
mod viewport;

pub use bounds::Bounds;
pub use camera::OrbitCamera;
pub use labels::named_joints;
pub use lighting::{Lighting, Lights, ToneMapping};
pub use options::ViewOptions;
pub use text::counted;
pub use viewport::{PICK_RADIUS, Viewport};
