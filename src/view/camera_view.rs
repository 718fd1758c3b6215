//! What a frame is seen through, whichever camera made it (the orbit camera or one of the
//! file's): the renderer, picking and the joint labels read only this.

use glam::{Mat4, Vec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// World → view (the camera looks down its −Z, +Y up).
    pub view: Mat4,
    /// View → clip, wgpu's depth range 0..1.
    pub projection: Mat4,
    /// The camera's position in world space.
    pub eye: Vec3,
}

impl CameraView {
    /// World → clip.
    pub fn view_projection(&self) -> Mat4 {
        self.projection * self.view
    }

    /// The unit direction the camera looks along, in world space.
    pub fn forward(&self) -> Vec3 {
        (-self.view.row(2).truncate()).normalize_or(Vec3::NEG_Z)
    }
}
