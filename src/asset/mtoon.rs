//! MToon, VRM's toon material (VRMC_materials_mtoon 1.0, and VRM 0.x's `materialProperties`
//! converted to it): a lit colour and a shade colour split by a soft-edged ramp, rim light,
//! a matcap, an outline drawn as an inverted hull, and scrolling texture coordinates. Its
//! textures live with the other extensions' (`MaterialTexture::ShadeMultiply` on); the
//! material's base colour, normal map and emission are glTF's own.

use glam::Vec3;

/// The factors of VRMC_materials_mtoon; `Default` is the defaults of the specification's
/// text, which three-vrm uses (its JSON schema differs for four of them).
#[derive(Clone, Debug, PartialEq)]
pub struct MToon {
    /// A blended (`BLEND`) surface still writes depth.
    pub transparent_with_z_write: bool,
    /// Moves the material within its queue: blended surfaces of a lower offset are drawn
    /// first, whatever their distance (-9 to 9).
    pub render_queue_offset: i32,
    /// Linear RGB of the shaded side, times `ShadeMultiply`.
    pub shade_color: Vec3,
    /// Moves the line between lit and shaded (−1: all lit ... 1: all shaded), plus
    /// `ShadingShift`'s red times `shading_shift_texture_scale`.
    pub shading_shift: f32,
    pub shading_shift_texture_scale: f32,
    /// How hard the line is (1: a step, 0: as soft as Lambert).
    pub shading_toony: f32,
    /// How much the ambient light is evened out over the directions (1: all alike).
    pub gi_equalization: f32,
    /// Linear RGB of the matcap, times `Matcap`.
    pub matcap: Vec3,
    /// Linear RGB of the rim light at grazing angles, its fresnel power and lift.
    pub parametric_rim_color: Vec3,
    pub parametric_rim_fresnel_power: f32,
    pub parametric_rim_lift: f32,
    /// How much the rim follows the light (0: not at all, 1: fully).
    pub rim_lighting_mix: f32,
    pub outline_width_mode: OutlineWidthMode,
    /// In metres (world) or as a share of half the view's height (screen, as three-vrm
    /// measures it), times `OutlineWidthMultiply`'s green.
    pub outline_width: f32,
    /// Linear RGB of the outline, and how much the light shades it (0: not at all).
    pub outline_color: Vec3,
    pub outline_lighting_mix: f32,
    /// Texture coordinates scroll by these per second (in UV units) and turn by this many
    /// radians per second, where `UvAnimationMask`'s blue allows.
    pub uv_scroll_x: f32,
    pub uv_scroll_y: f32,
    pub uv_rotation: f32,
}

impl Default for MToon {
    fn default() -> Self {
        Self {
            transparent_with_z_write: false,
            render_queue_offset: 0,
            shade_color: Vec3::ZERO,
            shading_shift: 0.0,
            shading_shift_texture_scale: 1.0,
            shading_toony: 0.9,
            gi_equalization: 0.9,
            matcap: Vec3::ONE,
            parametric_rim_color: Vec3::ZERO,
            parametric_rim_fresnel_power: 5.0,
            parametric_rim_lift: 0.0,
            rim_lighting_mix: 1.0,
            outline_width_mode: OutlineWidthMode::None,
            outline_width: 0.0,
            outline_color: Vec3::ZERO,
            outline_lighting_mix: 1.0,
            uv_scroll_x: 0.0,
            uv_scroll_y: 0.0,
            uv_rotation: 0.0,
        }
    }
}

impl MToon {
    /// Where its blended draws come among the others (lower first; other materials' are 0):
    /// three-vrm's render order, those that write depth (0 + offset) before those that do not
    /// (19 + offset).
    pub fn blend_queue(&self) -> i32 {
        let band = if self.transparent_with_z_write { 0 } else { 19 };
        band + self.render_queue_offset
    }

    /// The material draws an outline.
    pub fn has_outline(&self) -> bool {
        self.outline_width_mode != OutlineWidthMode::None && self.outline_width > 0.0
    }
}

/// How an outline's width is measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutlineWidthMode {
    #[default]
    None,
    /// In the model's units (metres), so it thins with distance.
    World,
    /// As a share of half the view's height, whatever the distance.
    Screen,
}

impl OutlineWidthMode {
    /// The value the shader reads (mtoon.wgsl's OUTLINE_*).
    pub fn shader_code(self) -> u32 {
        self as u32
    }
}
