//! A camera the file defines (glTF `cameras`), placed by the joint whose node refers to it: it
//! looks down that joint's −Z with +Y up, and follows the joint when the pose moves it.

#[derive(Clone, Debug, PartialEq)]
pub struct Camera {
    /// The camera's name in the file, or "camera N" (N: its index in the file's cameras).
    pub name: String,
    /// Its index among the file's cameras (glTF `cameras[index]`: what `--camera N` names).
    /// A camera that several nodes use is listed once per node, with the same index.
    pub index: usize,
    /// The joint whose model matrix places the camera.
    pub joint: usize,
    pub projection: Projection,
}

/// The file's projection, as the glTF specification defines its numbers (checked on load:
/// finite, positive where they must be, far beyond near).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    Perspective {
        /// Vertical field of view, radians, in (0, π).
        yfov: f32,
        /// Width / height of the field of view; none: the picture's.
        aspect_ratio: Option<f32>,
        znear: f32,
        /// None: an infinite projection.
        zfar: Option<f32>,
    },
    Orthographic {
        /// Half the width and half the height of the view, in world units.
        xmag: f32,
        ymag: f32,
        znear: f32,
        zfar: f32,
    },
}

impl Camera {
    /// "perspective" or "orthographic", as the file says.
    pub fn kind(&self) -> &'static str {
        match self.projection {
            Projection::Perspective { .. } => "perspective",
            Projection::Orthographic { .. } => "orthographic",
        }
    }
}
