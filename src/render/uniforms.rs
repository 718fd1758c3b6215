//! The GPU side of the uniform blocks: `#[repr(C)]` Pod structs that mirror the WGSL structs in
//! `shaders/*.wgsl` field for field. Domain types (glam, `Material`) become these through
//! `from`/`new` functions here, so layout rules stay in one place.

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Vec3, Vec4};

use crate::asset::material::MaterialTexture;
use crate::asset::material::{AlphaMode, MaterialLayers};
use crate::asset::mtoon::MToon;
use crate::asset::{LightKind, Material, PunctualLight};
use crate::inspect::Ramp;
use crate::skin::SkinningMethod;

/// `MAX_LIGHTS` in frame.wgsl: the file's lights beyond these are left out.
pub const MAX_LIGHTS: usize = 8;
/// `MAX_SHADOW_LAYERS` in frame.wgsl: the most layers the shadow map has (four lights, or a
/// point light inside the model, whose shadow takes six, and two).
pub const MAX_SHADOW_LAYERS: usize = 8;

/// `Frame` in frame.wgsl (shared by every scene shader).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct FrameUniform {
    pub view_proj: [[f32; 4]; 4],
    pub inverse_view_proj: [[f32; 4]; 4],
    /// World → light clip space of the shadow map layer a shadow pass draws (layer 0's in the
    /// scene's uniform).
    pub light_view_proj: [[f32; 4]; 4],
    pub camera_position: [f32; 4],
    /// xyz: direction towards the key light, w: its radiance (0: no key light).
    pub light_direction: [f32; 4],
    /// x: 1 when the shadow map is used, y: its texel size.
    pub shadow: [f32; 4],
    /// x: intensity, y, z: cos and sin of the rotation about +Y, w: the specular map's
    /// highest mip level.
    pub environment: [f32; 4],
    /// x: 2^exposure, y: how many of `lights` are used, z: the material channel shown
    /// (`MaterialChannel::shader_code`, 0: the lit picture), w: the tone curve
    /// (`tone_map::curve_number`), for the shaders that draw over the tone-mapped image.
    pub exposure_lights: [f32; 4],
    /// x: the animation's time in seconds (what MToon's texture scroll follows), y: the
    /// view's half height at unit depth (1 / the projection's [1][1], for MToon's outlines
    /// of a width on screen).
    pub time_view: [f32; 4],
    pub lights: [LightUniform; MAX_LIGHTS],
    /// World → light clip space of each shadow map layer.
    pub shadow_views: [[[f32; 4]; 4]; MAX_SHADOW_LAYERS],
}

/// `Light` in frame.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct LightUniform {
    /// xyz: position, w: range (0: unlimited).
    pub position_range: [f32; 4],
    /// xyz: the direction it shines in, w: `LIGHT_*` as a float.
    pub direction_kind: [f32; 4],
    /// rgb: colour × intensity.
    pub radiance: [f32; 4],
    /// x, y: the spot cone's scale and offset.
    pub cone: [f32; 4],
    /// x: 1 + the first shadow map layer that holds its shadow (0: it casts none), y: 1 when
    /// it is a point light's six (`SceneRenderer::prepare`).
    pub shadow: [f32; 4],
}

impl LightUniform {
    pub fn is_directional(&self) -> bool {
        self.direction_kind[3] == LIGHT_DIRECTIONAL
    }

    pub fn is_spot(&self) -> bool {
        self.direction_kind[3] == LIGHT_SPOT
    }

    /// The direction it shines in (directional and spot lights).
    pub fn direction(&self) -> Vec3 {
        Vec3::from_slice(&self.direction_kind[..3])
    }

    pub fn position(&self) -> Vec3 {
        Vec3::from_slice(&self.position_range[..3])
    }

    /// A spot light's cone half angle, in radians.
    pub fn outer_cone(&self) -> f32 {
        self.cone[2]
    }
}

/// `LIGHT_*` in frame.wgsl.
const LIGHT_DIRECTIONAL: f32 = 0.0;
const LIGHT_POINT: f32 = 1.0;
const LIGHT_SPOT: f32 = 2.0;

impl LightUniform {
    /// `light` placed by its node's world matrix `world`: at its origin, shining down −Z.
    pub fn new(light: &PunctualLight, world: Mat4) -> Self {
        let direction = world
            .transform_vector3(Vec3::NEG_Z)
            .try_normalize()
            .unwrap_or(Vec3::NEG_Z);
        let (kind, cone) = match light.kind {
            LightKind::Directional => (LIGHT_DIRECTIONAL, [0.0; 4]),
            LightKind::Point => (LIGHT_POINT, [0.0; 4]),
            LightKind::Spot { inner, outer } => {
                // KHR_lights_punctual's smooth cone falloff, as a scale and offset on cos; and
                // the cone's half angle, which its shadow's view covers.
                let scale = 1.0 / (inner.cos() - outer.cos()).max(1e-3);
                (LIGHT_SPOT, [scale, -outer.cos() * scale, outer, 0.0])
            }
        };
        Self {
            position_range: world.w_axis.truncate().extend(light.range.unwrap_or(0.0)).to_array(),
            direction_kind: direction.extend(kind).to_array(),
            radiance: (light.color * light.intensity).extend(0.0).to_array(),
            cone,
            // None until `assign_shadow_layers` gives it layers.
            shadow: [0.0; 4],
        }
    }
}

/// `Draw` in skinning.wgsl; its `skinning`, `style` and `ramp` take the values of
/// [`Skinning`], [`Look`] and [`Ramp`], which name the shader's constants.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct DrawUniform {
    pub model: [[f32; 4]; 4],
    pub skinning: u32,
    pub style: u32,
    pub ramp: u32,
    /// 1: shade with the triangle's own normal (`Primitive::flat_shaded`).
    pub flat_shaded: u32,
    pub wire_color: [f32; 4],
    /// A crowd's instanced draws: the skin's first matrix in an instance's block, and
    /// matrices per instance block (0: not a crowd); see `select_instance` in skinning.wgsl.
    pub crowd: [u32; 2],
    /// 1: the vertices have colours (COLOR_0); 0: they read as white.
    pub vertex_colors: u32,
    pub padding: u32,
}

/// How a draw's vertices reach world space (`SKINNING_*` in skinning.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skinning {
    /// By the draw's model matrix: static meshes, and vertices the CPU skinned.
    None = 0,
    /// Linear blend skinning on the GPU.
    Linear = 1,
    /// Dual-quaternion skinning on the GPU.
    DualQuaternion = 2,
}

impl Skinning {
    /// The GPU skins the draw (`on_gpu`) by `method`, or does not.
    pub fn on_gpu(on_gpu: bool, method: SkinningMethod) -> Self {
        match (on_gpu, method) {
            (false, _) => Self::None,
            (true, SkinningMethod::Linear) => Self::Linear,
            (true, SkinningMethod::DualQuaternion) => Self::DualQuaternion,
        }
    }
}

/// How a draw looks (`STYLE_*` and `RAMP_*` in skinning.wgsl).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Look {
    /// Lit with its material.
    Lit,
    /// Flat, in this colour (the wireframe).
    Wire(Vec4),
    /// Translucent in this colour, stronger at the outline (the bind-pose ghost).
    Ghost(Vec4),
    /// Colours from the vertex view's values.
    View(Ramp),
    /// Its material's colours without lighting (points and lines without normals).
    Unlit,
}

/// `STYLE_*` in skinning.wgsl.
const STYLE_LIT: u32 = 0;
const STYLE_WIRE: u32 = 1;
const STYLE_GHOST: u32 = 2;
const STYLE_UNLIT: u32 = 3;
/// `RAMP_NONE` in skinning.wgsl (the others are `Ramp`'s values).
const RAMP_NONE: u32 = 0;

impl DrawUniform {
    pub fn new(model: Mat4, skinning: Skinning, look: Look) -> Self {
        let (style, color, ramp) = match look {
            Look::Lit => (STYLE_LIT, Vec4::ZERO, RAMP_NONE),
            Look::Wire(color) => (STYLE_WIRE, color, RAMP_NONE),
            Look::Ghost(color) => (STYLE_GHOST, color, RAMP_NONE),
            Look::View(ramp) => (STYLE_LIT, Vec4::ZERO, ramp as u32),
            Look::Unlit => (STYLE_UNLIT, Vec4::ZERO, RAMP_NONE),
        };
        Self {
            model: model.to_cols_array_2d(),
            skinning: skinning as u32,
            style,
            ramp,
            flat_shaded: 0,
            wire_color: color.to_array(),
            crowd: [0; 2],
            vertex_colors: 0,
            padding: 0,
        }
    }

    /// The draw's vertex colours read from its buffer, or as white (the buffer then holds
    /// zeros: a mesh without colours shares one buffer with the others).
    pub fn vertex_colors(mut self, present: bool) -> Self {
        self.vertex_colors = present as u32;
        self
    }

    /// The draw shaded flat, with each triangle's own normal, or not.
    pub fn flat_shaded(mut self, flat: bool) -> Self {
        self.flat_shaded = flat as u32;
        self
    }

    /// The draw instanced over a crowd: its skin starts at matrix `start` of an instance's
    /// block, and blocks are `stride` matrices apart.
    pub fn in_crowd(mut self, [start, stride]: [u32; 2]) -> Self {
        self.crowd = [start, stride];
        self
    }
}

/// `Capture` in skin_capture.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CaptureUniform {
    /// x: texture width, y: texture height, z: the texel of the draw's first vertex.
    pub params: [u32; 4],
}

/// `Material` in mesh.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct MaterialUniform {
    pub base_color: [f32; 4],
    /// rgb: emissive × strength, w: occlusion strength.
    pub emissive: [f32; 4],
    /// x: metallic, y: roughness, z: normal scale, w: alpha cutoff (MASK).
    pub factors: [f32; 4],
    /// x: which textures are present (bit per `MaterialTexture`), y: alpha mode (0 opaque,
    /// 1 mask, 2 blend), z: unlit (1), w: bit per texture that reads TEXCOORD_1.
    pub flags: [u32; 4],
    /// Two rows of each bound texture's KHR_texture_transform matrix.
    pub transforms: [[f32; 4]; 2 * MaterialTexture::BOUND],
    /// rgb: the dielectric's F0 (from KHR_materials_ior and _specular), or with
    /// specular-glossiness its specular factor; w: the dielectric's F90 (the specular factor).
    pub specular: [f32; 4],
    /// rgb: the sheen's colour (black: none), w: its roughness.
    pub sheen: [f32; 4],
    /// x: the clearcoat's strength (0: none), y: its roughness, z: 1 for specular-glossiness,
    /// w: the glossiness factor.
    pub coat: [f32; 4],
    /// x: the transmission (0: none), y: the volume's thickness, z: its attenuation distance
    /// (0: infinite), w: the dispersion.
    pub transmission: [f32; 4],
    /// rgb: the volume's attenuation colour, w: the index of refraction light bends by.
    pub attenuation: [f32; 4],
    /// x: the thin film's strength (0: none), y: its index of refraction, z: its thickness in
    /// nanometres.
    pub film: [f32; 4],
    /// rgb: the colour of diffuse transmission, w: its strength (0: none).
    pub diffuse_transmission: [f32; 4],
    /// x: the anisotropy's strength (0: none), y and z: the cosine and sine of its direction's
    /// angle from the tangent.
    pub anisotropy: [f32; 4],
    /// Per layer texture (`MaterialTexture` from SheenColor on), its slot + 1 (0: none).
    pub layer_slots: [[u32; 4]; LAYER_SLOT_ROWS],
    /// Per slot, two rows of its texture's KHR_texture_transform matrix.
    pub layer_transforms: [[f32; 4]; 2 * LAYER_SLOTS],
    /// x: bit i set when slot i's texture reads TEXCOORD_1.
    pub layer_sets: [u32; 4],
    /// x: the clear coat normal map's scale, y: the thinnest iridescent film.
    pub layer_params: [f32; 4],
    /// MToon (mtoon.wgsl; zero for other materials): rgb: the shade colour, w: the toony
    /// factor.
    pub toon_shade: [f32; 4],
    /// x: the shading shift, y: its texture's scale, z: the GI equalisation, w: the rim's
    /// lighting mix.
    pub toon_shading: [f32; 4],
    /// rgb: the matcap colour, w: the parametric rim's fresnel power.
    pub toon_matcap: [f32; 4],
    /// rgb: the parametric rim's colour, w: its lift.
    pub toon_rim: [f32; 4],
    /// rgb: the outline's colour, w: its lighting mix.
    pub toon_outline: [f32; 4],
    /// x: the outline's width, y: its mode (`OutlineWidthMode::shader_code`), z, w: unused.
    pub toon_outline_width: [f32; 4],
    /// x, y: the UV scroll per second, z: the UV turn per second (radians), w: unused.
    pub toon_uv_animation: [f32; 4],
}

/// How many layer textures a material binds (layers.wgsl): with the frame's three, the
/// material's seven others and the scene behind transmissive surfaces, a pipeline reads 16
/// textures, as many as any adapter allows.
pub const LAYER_SLOTS: usize = 5;

/// `Material::layer_slots`' rows: four layer textures a row.
const LAYER_SLOT_ROWS: usize = (MaterialTexture::COUNT - MaterialTexture::BOUND).div_ceil(4);

/// The layer texture each slot holds, slot by slot: the first `LAYER_SLOTS` of the material's
/// layer textures that are `present`, in `MaterialTexture` order. (An iterator: an animated
/// material's uniform is rewritten every frame, and the frame allocates nothing.)
pub fn layer_slots(present: &[bool; MaterialTexture::COUNT]) -> impl Iterator<Item = MaterialTexture> + '_ {
    MaterialTexture::ALL[MaterialTexture::BOUND..]
        .iter()
        .copied()
        .filter(|&texture| present[texture as usize])
        .take(LAYER_SLOTS)
}

impl MaterialUniform {
    /// `present` says which of the material's textures (by `MaterialTexture`) could be
    /// loaded.
    pub fn new(material: &Material, present: [bool; MaterialTexture::COUNT]) -> Self {
        let (mode, cutoff) = match material.alpha {
            AlphaMode::Opaque => (0, 0.0),
            AlphaMode::Mask { cutoff } => (1, cutoff),
            AlphaMode::Blend => (2, 0.0),
        };
        let layers = &material.layers;
        let mut has = 0;
        let mut second_set = 0;
        let mut transforms = [[0.0; 4]; 2 * MaterialTexture::BOUND];
        for &texture in &MaterialTexture::ALL[..MaterialTexture::BOUND] {
            let bit = 1 << texture as u32;
            let reference = texture.of(material);
            if present[texture as usize] {
                has |= bit;
            }
            if reference.is_some_and(|r| r.tex_coord == 1) {
                second_set |= bit;
            }
            let matrix = reference.map_or(Mat3::IDENTITY, |r| r.transform.matrix());
            let row = |i: usize| [matrix.x_axis[i], matrix.y_axis[i], matrix.z_axis[i], 0.0];
            transforms[texture as usize * 2] = row(0);
            transforms[texture as usize * 2 + 1] = row(1);
        }
        let mut slots = [[0; 4]; LAYER_SLOT_ROWS];
        let mut layer_transforms = [[0.0; 4]; 2 * LAYER_SLOTS];
        let mut layer_sets = 0;
        for (slot, texture) in layer_slots(&present).enumerate() {
            let layer = texture as usize - MaterialTexture::BOUND;
            slots[layer / 4][layer % 4] = slot as u32 + 1;
            let reference = texture.of(material);
            if reference.is_some_and(|r| r.tex_coord == 1) {
                layer_sets |= 1 << slot;
            }
            let matrix = reference.map_or(Mat3::IDENTITY, |r| r.transform.matrix());
            layer_transforms[slot * 2] = [matrix.x_axis[0], matrix.y_axis[0], matrix.z_axis[0], 0.0];
            layer_transforms[slot * 2 + 1] = [matrix.x_axis[1], matrix.y_axis[1], matrix.z_axis[1], 0.0];
        }
        Self {
            base_color: material.base_color.to_array(),
            emissive: (material.emissive * material.emissive_strength)
                .extend(material.occlusion_strength)
                .to_array(),
            factors: [material.metallic, material.roughness, material.normal_scale, cutoff],
            flags: [has, mode, material.unlit as u32, second_set],
            transforms,
            specular: specular_uniform(&material.layers),
            sheen: layers.sheen_color.extend(layers.sheen_roughness).to_array(),
            coat: [
                layers.clearcoat,
                layers.clearcoat_roughness,
                layers.specular_glossiness.is_some() as u32 as f32,
                layers.specular_glossiness.map_or(1.0, |sg| sg.glossiness),
            ],
            transmission: [
                layers.transmission,
                layers.thickness,
                if layers.attenuation_distance.is_finite() {
                    layers.attenuation_distance
                } else {
                    0.0
                },
                layers.dispersion,
            ],
            // An ior of 0 (no reflection) bends no light.
            attenuation: layers.attenuation_color.extend(layers.ior.max(1.0)).to_array(),
            film: [
                layers.iridescence,
                layers.iridescence_ior,
                layers.iridescence_thickness,
                0.0,
            ],
            diffuse_transmission: layers
                .diffuse_transmission_color
                .extend(layers.diffuse_transmission)
                .to_array(),
            anisotropy: [
                layers.anisotropy,
                layers.anisotropy_rotation.cos(),
                layers.anisotropy_rotation.sin(),
                0.0,
            ],
            layer_slots: slots,
            layer_transforms,
            layer_sets: [layer_sets, 0, 0, 0],
            layer_params: [
                layers.clearcoat_normal_scale,
                layers.iridescence_thickness_minimum,
                0.0,
                0.0,
            ],
            ..toon_uniform(layers.mtoon.as_ref())
        }
    }
}

/// The toon fields of `MaterialUniform` (the rest zero): all zero without MToon.
fn toon_uniform(mtoon: Option<&MToon>) -> MaterialUniform {
    let mut uniform = MaterialUniform::zeroed();
    if let Some(m) = mtoon {
        uniform.toon_shade = m.shade_color.extend(m.shading_toony).to_array();
        uniform.toon_shading = [
            m.shading_shift,
            m.shading_shift_texture_scale,
            m.gi_equalization,
            m.rim_lighting_mix,
        ];
        uniform.toon_matcap = m.matcap.extend(m.parametric_rim_fresnel_power).to_array();
        uniform.toon_rim = m.parametric_rim_color.extend(m.parametric_rim_lift).to_array();
        uniform.toon_outline = m.outline_color.extend(m.outline_lighting_mix).to_array();
        uniform.toon_outline_width = [m.outline_width, m.outline_width_mode.shader_code() as f32, 0.0, 0.0];
        uniform.toon_uv_animation = [m.uv_scroll_x, m.uv_scroll_y, m.uv_rotation, 0.0];
    }
    uniform
}

/// `Material::specular` in mesh.wgsl: the dielectric's F0 and F90, or the specular-glossiness
/// specular factor (F90 1).
fn specular_uniform(layers: &MaterialLayers) -> [f32; 4] {
    if let Some(sg) = layers.specular_glossiness {
        return sg.specular.extend(1.0).to_array();
    }
    let reflectance = ((layers.ior - 1.0) / (layers.ior + 1.0)).powi(2);
    let f0 = (reflectance * layers.specular_color).min(Vec3::ONE) * layers.specular;
    f0.extend(layers.specular).to_array()
}

/// `Ground` in ground.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct GroundUniform {
    /// x: height, y: half size, z: grid spacing, w: unused.
    pub params: [f32; 4],
    /// x, y: how far the grid has slid back on the ground (x, z), for a clip played in
    /// place; z, w: unused.
    pub slide: [f32; 4],
}

/// A vertex of the skeleton overlay (`VertexIn` in overlay.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct OverlayVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
    pub offset: [f32; 2],
}

/// Skin influences of one vertex (locations 3 to 6 and 15 in skinning.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct InfluenceVertex {
    pub joints: [u16; 4],
    pub joints_extra: [u16; 4],
    pub weights: [f32; 4],
    pub weights_extra: [f32; 4],
    /// Its share of dual-quaternion skinning when that is chosen (`SkinWeights::dual_quat_weights`).
    pub dual_quat_weight: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_wgsl_layouts() {
        // WGSL: mat4x4 = 64 bytes, vec4 = 16; structs round up to 16.
        assert_eq!(
            std::mem::size_of::<FrameUniform>(),
            64 * 3 + 16 * 6 + 80 * MAX_LIGHTS + 64 * MAX_SHADOW_LAYERS
        );
        assert_eq!(std::mem::size_of::<DrawUniform>(), 64 + 16 + 16 + 16);
        assert_eq!(
            std::mem::size_of::<MaterialUniform>(),
            16 * 4 + 16 * 14 + 16 * 8 + 16 * 5 + 16 * 10 + 16 * 2 + 16 * 7
        );
        assert_eq!(std::mem::size_of::<GroundUniform>(), 16 * 2);
        assert_eq!(std::mem::size_of::<InfluenceVertex>(), 52);
        assert_eq!(std::mem::size_of::<CaptureUniform>(), 16);
    }

    #[test]
    fn draw_constants_match_the_shader() {
        let shader = include_str!("../../shaders/skinning.wgsl");
        for (name, value) in [
            ("SKINNING_NONE", Skinning::None as u32),
            ("SKINNING_LINEAR", Skinning::Linear as u32),
            ("SKINNING_DUAL_QUAT", Skinning::DualQuaternion as u32),
            ("STYLE_LIT", STYLE_LIT),
            ("STYLE_WIRE", STYLE_WIRE),
            ("STYLE_GHOST", STYLE_GHOST),
            ("STYLE_UNLIT", STYLE_UNLIT),
            ("RAMP_NONE", RAMP_NONE),
            ("RAMP_HEAT", Ramp::Heat as u32),
            ("RAMP_COUNT", Ramp::Count as u32),
            ("RAMP_FLAG", Ramp::Flag as u32),
        ] {
            let declaration = format!("const {name}: u32 = {value}u;");
            assert!(shader.contains(&declaration), "skinning.wgsl lacks `{declaration}`");
        }
    }

    #[test]
    fn light_and_material_constants_match_the_shaders() {
        let frame = include_str!("../../shaders/frame.wgsl");
        assert!(frame.contains(&format!("const MAX_LIGHTS: u32 = {MAX_LIGHTS}u;")));
        assert!(frame.contains(&format!("const MAX_SHADOW_LAYERS: u32 = {MAX_SHADOW_LAYERS}u;")));
        for (name, value) in [
            ("LIGHT_DIRECTIONAL", LIGHT_DIRECTIONAL),
            ("LIGHT_POINT", LIGHT_POINT),
            ("LIGHT_SPOT", LIGHT_SPOT),
        ] {
            let declaration = format!("const {name}: u32 = {}u;", value as u32);
            assert!(frame.contains(&declaration), "frame.wgsl lacks `{declaration}`");
        }
        let mesh = include_str!("../../shaders/mesh.wgsl");
        for (name, texture) in [
            ("HAS_BASE_COLOR", MaterialTexture::BaseColor),
            ("HAS_METALLIC_ROUGHNESS", MaterialTexture::MetallicRoughness),
            ("HAS_NORMAL", MaterialTexture::Normal),
            ("HAS_OCCLUSION", MaterialTexture::Occlusion),
            ("HAS_EMISSIVE", MaterialTexture::Emissive),
            ("HAS_TRANSMISSION", MaterialTexture::Transmission),
            ("HAS_THICKNESS", MaterialTexture::Thickness),
        ] {
            let declaration = format!("const {name}: u32 = {}u;", 1 << texture as u32);
            assert!(mesh.contains(&declaration), "mesh.wgsl lacks `{declaration}`");
        }
    }

    #[test]
    fn spot_cone_is_full_inside_and_zero_outside() {
        let light = PunctualLight {
            name: "spot".into(),
            kind: LightKind::Spot { inner: 0.2, outer: 0.5 },
            color: Vec3::ONE,
            intensity: 2.0,
            range: None,
            joint: 0,
        };
        let uniform = LightUniform::new(&light, Mat4::IDENTITY);
        let cone = |angle: f32| (angle.cos() * uniform.cone[0] + uniform.cone[1]).clamp(0.0, 1.0);
        assert_eq!(cone(0.1), 1.0);
        assert_eq!(cone(0.6), 0.0);
        assert!(cone(0.35) > 0.0 && cone(0.35) < 1.0);
        assert_eq!(&uniform.direction_kind[..3], &[0.0, 0.0, -1.0]);
    }
}
