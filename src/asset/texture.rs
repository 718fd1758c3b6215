//! How a material reads a texture: which image, which texture coordinates, the sampler's
//! wrap and filter modes, and KHR_texture_transform's offset, rotation and scale.

use glam::{Mat3, Vec2};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureRef {
    /// Index into `Model::images`: the image an extension names (EXT_texture_webp,
    /// KHR_texture_basisu) where there is one, else the texture's core `source`.
    pub image: usize,
    /// The core `source` image, when `image` came from an extension: drawn instead when
    /// `image` cannot be decoded.
    pub fallback: Option<usize>,
    /// Which TEXCOORD set the texture reads (0 or 1; others fall back to 0 with a warning).
    pub tex_coord: u32,
    pub sampler: SamplerModes,
    pub transform: UvTransform,
}

impl TextureRef {
    /// Image `image` read through TEXCOORD_0 with the default sampler and no transform.
    pub fn plain(image: usize) -> Self {
        Self {
            image,
            fallback: None,
            tex_coord: 0,
            sampler: SamplerModes::default(),
            transform: UvTransform::default(),
        }
    }
}

/// glTF sampler modes. Filters the file leaves out are linear, with mipmaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerModes {
    pub wrap_u: Wrap,
    pub wrap_v: Wrap,
    /// Magnification and minification filter (true: linear, false: nearest).
    pub mag_linear: bool,
    pub min_linear: bool,
    /// Mipmapping: None (no mipmaps), or between levels linear (true) or nearest (false).
    pub mipmap_linear: Option<bool>,
}

impl Default for SamplerModes {
    fn default() -> Self {
        Self {
            wrap_u: Wrap::Repeat,
            wrap_v: Wrap::Repeat,
            mag_linear: true,
            min_linear: true,
            mipmap_linear: Some(true),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
}

/// KHR_texture_transform: uv' = translation(offset) · rotation(rotation) · scale(scale) · uv,
/// the rotation counter-clockwise in uv space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvTransform {
    pub offset: Vec2,
    /// Radians.
    pub rotation: f32,
    pub scale: Vec2,
}

impl Default for UvTransform {
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            rotation: 0.0,
            scale: Vec2::ONE,
        }
    }
}

impl UvTransform {
    /// The 3×3 matrix the extension's specification gives.
    pub fn matrix(&self) -> Mat3 {
        let translation = Mat3::from_cols_array(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, self.offset.x, self.offset.y, 1.0]);
        let (sin, cos) = self.rotation.sin_cos();
        let rotation = Mat3::from_cols_array(&[cos, -sin, 0.0, sin, cos, 0.0, 0.0, 0.0, 1.0]);
        let scale = Mat3::from_diagonal(self.scale.extend(1.0));
        translation * rotation * scale
    }

    /// Where `uv` lands.
    pub fn apply(&self, uv: Vec2) -> Vec2 {
        self.matrix().transform_point2(uv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_matches_the_extension_example() {
        // The specification's order: scale, then rotate, then offset.
        let transform = UvTransform {
            offset: Vec2::new(0.5, 0.0),
            rotation: std::f32::consts::FRAC_PI_2,
            scale: Vec2::new(2.0, 2.0),
        };
        // (1, 0) scaled to (2, 0); the spec's rotation matrix [cos sin; -sin cos] (row-major)
        // maps (2, 0) to (0, -2); then offset.
        let moved = transform.apply(Vec2::new(1.0, 0.0));
        assert!((moved - Vec2::new(0.5, -2.0)).length() < 1e-5, "{moved}");
        assert_eq!(UvTransform::default().apply(Vec2::new(0.3, 0.7)), Vec2::new(0.3, 0.7));
    }
}
