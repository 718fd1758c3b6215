//! Materials: glTF's metallic-roughness model with the layers its KHR_materials_* extensions
//! add, the alpha modes, and the texture slots a material names.

use glam::{Vec3, Vec4};

use super::mtoon::MToon;
use super::texture::TextureRef;

#[derive(Clone, Debug)]
pub struct Material {
    pub name: String,
    /// Linear RGBA.
    pub base_color: Vec4,
    pub base_color_texture: Option<TextureRef>,
    pub metallic: f32,
    pub roughness: f32,
    pub metallic_roughness_texture: Option<TextureRef>,
    pub normal_texture: Option<TextureRef>,
    pub normal_scale: f32,
    pub occlusion_texture: Option<TextureRef>,
    /// How much of the occlusion texture applies (0: none, 1: all).
    pub occlusion_strength: f32,
    /// Linear RGB, times `emissive_strength` (KHR_materials_emissive_strength).
    pub emissive: Vec3,
    pub emissive_texture: Option<TextureRef>,
    pub emissive_strength: f32,
    pub alpha: AlphaMode,
    pub double_sided: bool,
    /// KHR_materials_unlit: the base colour as it is, without lighting.
    pub unlit: bool,
    /// What the KHR_materials_* extensions add.
    pub layers: MaterialLayers,
}

/// What the KHR_materials_* extensions add to the metallic-roughness model, or MToon in its
/// place; the defaults add nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialLayers {
    /// KHR_materials_ior: the dielectric's index of refraction (1.5).
    pub ior: f32,
    /// KHR_materials_specular: the strength (1) and colour (white) of the dielectric's
    /// specular reflection.
    pub specular: f32,
    pub specular_color: Vec3,
    /// KHR_materials_sheen: the sheen's colour (black: none) and roughness.
    pub sheen_color: Vec3,
    pub sheen_roughness: f32,
    /// KHR_materials_clearcoat: the coat's strength (0: none) and roughness, and how much its
    /// normal map bends (`MaterialTexture::ClearcoatNormal`'s scale).
    pub clearcoat: f32,
    pub clearcoat_roughness: f32,
    pub clearcoat_normal_scale: f32,
    /// KHR_materials_transmission: how much of the light the dielectric lets through (0:
    /// none), times `MaterialTexture::Transmission`'s red channel.
    pub transmission: f32,
    /// KHR_materials_volume: the thickness under the surface in the mesh's units (0: a thin
    /// wall; times `MaterialTexture::Thickness`'s green channel), and how light fades through
    /// it: to `attenuation_color` after `attenuation_distance` (infinite: no fading).
    pub thickness: f32,
    pub attenuation_distance: f32,
    pub attenuation_color: Vec3,
    /// KHR_materials_dispersion: the spread of the index of refraction over the colours, as
    /// 20 / Abbe number (0: none).
    pub dispersion: f32,
    /// KHR_materials_iridescence: the thin film's strength (0: none), index of refraction and
    /// thickness in nanometres.
    pub iridescence: f32,
    pub iridescence_ior: f32,
    pub iridescence_thickness: f32,
    /// The film's thickness where `MaterialTexture::IridescenceThickness` reads 0 (where it
    /// reads 1 it is `iridescence_thickness`).
    pub iridescence_thickness_minimum: f32,
    /// KHR_materials_diffuse_transmission: how much of the diffuse light passes through to the
    /// other side (0: none), and its colour.
    pub diffuse_transmission: f32,
    pub diffuse_transmission_color: Vec3,
    /// KHR_materials_anisotropy: how much the highlight stretches along the direction
    /// (0: not at all), and that direction's angle from the tangent towards the bitangent,
    /// in radians.
    pub anisotropy: f32,
    pub anisotropy_rotation: f32,
    /// The extensions' textures, from `MaterialTexture::Transmission` on.
    pub textures: [Option<TextureRef>; MaterialTexture::COUNT - MaterialTexture::FIRST_OF_EXTENSIONS],
    /// VRMC_materials_mtoon (or VRM 0.x's MToon), which shades the material as a toon in
    /// place of the metallic-roughness model.
    pub mtoon: Option<MToon>,
    /// KHR_materials_pbrSpecularGlossiness, which replaces metallic and roughness: the
    /// diffuse colour is `Material::base_color` (and its texture `base_color_texture`), the
    /// specular-glossiness texture sits in `metallic_roughness_texture`'s place.
    pub specular_glossiness: Option<SpecularGlossiness>,
}

impl MaterialLayers {
    /// A sheen, a clear coat, a thin film, diffuse transmission or anisotropy changes the
    /// base.
    pub fn has_layers(&self) -> bool {
        self.sheen_color.max_element() > 0.0
            || self.clearcoat > 0.0
            || self.iridescence > 0.0
            || self.diffuse_transmission > 0.0
            || self.anisotropy > 0.0
            || self.has_layer_textures()
    }

    /// Some extension texture other than transmission's and volume's is present: the
    /// layered pipelines read it.
    pub fn has_layer_textures(&self) -> bool {
        let first_layer = MaterialTexture::BOUND - MaterialTexture::FIRST_OF_EXTENSIONS;
        self.textures[first_layer..].iter().any(Option::is_some)
    }

    /// The surface lets light through to refract what is behind it.
    pub fn transmits(&self) -> bool {
        self.transmission > 0.0
    }
}

impl Default for MaterialLayers {
    fn default() -> Self {
        Self {
            ior: 1.5,
            specular: 1.0,
            specular_color: Vec3::ONE,
            sheen_color: Vec3::ZERO,
            sheen_roughness: 0.0,
            clearcoat: 0.0,
            clearcoat_roughness: 0.0,
            clearcoat_normal_scale: 1.0,
            transmission: 0.0,
            thickness: 0.0,
            attenuation_distance: f32::INFINITY,
            attenuation_color: Vec3::ONE,
            dispersion: 0.0,
            iridescence: 0.0,
            iridescence_ior: 1.3,
            iridescence_thickness: 400.0,
            iridescence_thickness_minimum: 100.0,
            diffuse_transmission: 0.0,
            diffuse_transmission_color: Vec3::ONE,
            anisotropy: 0.0,
            anisotropy_rotation: 0.0,
            textures: [None; MaterialTexture::COUNT - MaterialTexture::FIRST_OF_EXTENSIONS],
            mtoon: None,
            specular_glossiness: None,
        }
    }
}

/// KHR_materials_pbrSpecularGlossiness's factors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpecularGlossiness {
    /// Linear RGB F0.
    pub specular: Vec3,
    /// 1 − roughness.
    pub glossiness: f32,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: "default".into(),
            base_color: Vec4::ONE,
            base_color_texture: None,
            metallic: 1.0,
            roughness: 1.0,
            metallic_roughness_texture: None,
            normal_texture: None,
            normal_scale: 1.0,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive: Vec3::ZERO,
            emissive_texture: None,
            emissive_strength: 1.0,
            alpha: AlphaMode::Opaque,
            double_sided: false,
            unlit: false,
            layers: MaterialLayers::default(),
        }
    }
}

impl Material {
    /// For an MToon material, its name, with "(outlined)" after it where it has an outline
    /// (what `inspect` and the panel list).
    pub fn mtoon_description(&self) -> Option<String> {
        let mtoon = self.layers.mtoon.as_ref()?;
        Some(match mtoon.has_outline() {
            true => format!("{} (outlined)", self.name),
            false => self.name.clone(),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaMode {
    Opaque,
    Mask { cutoff: f32 },
    Blend,
}

/// A material's textures: the first `MaterialTexture::BOUND` in the order mesh.wgsl binds them
/// (and numbers its HAS_* bits), then the KHR_materials_* layers' in the order layers.wgsl
/// numbers them (LAYER_*), which a material binds to its few layer slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialTexture {
    BaseColor = 0,
    MetallicRoughness = 1,
    Normal = 2,
    Occlusion = 3,
    Emissive = 4,
    /// KHR_materials_transmission's texture (red: the transmission).
    Transmission = 5,
    /// KHR_materials_volume's thickness texture (green: the thickness).
    Thickness = 6,
    /// KHR_materials_sheen's colour (RGB, sRGB) and roughness (alpha).
    SheenColor = 7,
    SheenRoughness = 8,
    /// KHR_materials_clearcoat's strength (red), roughness (green) and normal map.
    Clearcoat = 9,
    ClearcoatRoughness = 10,
    ClearcoatNormal = 11,
    /// KHR_materials_specular's strength (alpha) and colour (RGB, sRGB).
    Specular = 12,
    SpecularColor = 13,
    /// KHR_materials_iridescence's strength (red) and film thickness (green).
    Iridescence = 14,
    IridescenceThickness = 15,
    /// KHR_materials_diffuse_transmission's strength (alpha) and colour (RGB, sRGB).
    DiffuseTransmission = 16,
    DiffuseTransmissionColor = 17,
    /// KHR_materials_anisotropy's direction (red, green) and strength (blue).
    Anisotropy = 18,
    /// VRMC_materials_mtoon's shade colour (RGB, sRGB), shading shift (red), matcap (RGB,
    /// sRGB), rim colour (RGB, sRGB), outline width (green) and animation mask (blue).
    ShadeMultiply = 19,
    ShadingShift = 20,
    Matcap = 21,
    RimMultiply = 22,
    OutlineWidthMultiply = 23,
    UvAnimationMask = 24,
}

impl MaterialTexture {
    pub const COUNT: usize = Self::ALL.len();
    /// The textures bound each in a binding of its own; the rest go through layer slots.
    pub const BOUND: usize = 7;
    pub const ALL: [MaterialTexture; 25] = [
        Self::BaseColor,
        Self::MetallicRoughness,
        Self::Normal,
        Self::Occlusion,
        Self::Emissive,
        Self::Transmission,
        Self::Thickness,
        Self::SheenColor,
        Self::SheenRoughness,
        Self::Clearcoat,
        Self::ClearcoatRoughness,
        Self::ClearcoatNormal,
        Self::Specular,
        Self::SpecularColor,
        Self::Iridescence,
        Self::IridescenceThickness,
        Self::DiffuseTransmission,
        Self::DiffuseTransmissionColor,
        Self::Anisotropy,
        Self::ShadeMultiply,
        Self::ShadingShift,
        Self::Matcap,
        Self::RimMultiply,
        Self::OutlineWidthMultiply,
        Self::UvAnimationMask,
    ];
    /// The first texture an extension holds.
    const FIRST_OF_EXTENSIONS: usize = Self::Transmission as usize;

    /// The material's reference to this texture.
    pub fn of(self, material: &Material) -> Option<TextureRef> {
        match self {
            Self::BaseColor => material.base_color_texture,
            Self::MetallicRoughness => material.metallic_roughness_texture,
            Self::Normal => material.normal_texture,
            Self::Occlusion => material.occlusion_texture,
            Self::Emissive => material.emissive_texture,
            _ => material.layers.textures[self as usize - Self::FIRST_OF_EXTENSIONS],
        }
    }

    /// The material's reference to this texture, to change it.
    pub fn of_mut(self, material: &mut Material) -> &mut Option<TextureRef> {
        match self {
            Self::BaseColor => &mut material.base_color_texture,
            Self::MetallicRoughness => &mut material.metallic_roughness_texture,
            Self::Normal => &mut material.normal_texture,
            Self::Occlusion => &mut material.occlusion_texture,
            Self::Emissive => &mut material.emissive_texture,
            _ => &mut material.layers.textures[self as usize - Self::FIRST_OF_EXTENSIONS],
        }
    }

    /// Colour textures are sRGB-encoded; the others hold data.
    pub fn srgb(self) -> bool {
        matches!(
            self,
            Self::BaseColor
                | Self::Emissive
                | Self::SheenColor
                | Self::SpecularColor
                | Self::DiffuseTransmissionColor
                | Self::ShadeMultiply
                | Self::Matcap
                | Self::RimMultiply
        )
    }

    /// The extension that holds it (None: the core material).
    pub fn extension(self) -> Option<&'static str> {
        Some(match self {
            Self::BaseColor | Self::MetallicRoughness | Self::Normal | Self::Occlusion | Self::Emissive => return None,
            Self::Transmission => "KHR_materials_transmission",
            Self::Thickness => "KHR_materials_volume",
            Self::SheenColor | Self::SheenRoughness => "KHR_materials_sheen",
            Self::Clearcoat | Self::ClearcoatRoughness | Self::ClearcoatNormal => "KHR_materials_clearcoat",
            Self::Specular | Self::SpecularColor => "KHR_materials_specular",
            Self::Iridescence | Self::IridescenceThickness => "KHR_materials_iridescence",
            Self::DiffuseTransmission | Self::DiffuseTransmissionColor => "KHR_materials_diffuse_transmission",
            Self::Anisotropy => "KHR_materials_anisotropy",
            Self::ShadeMultiply
            | Self::ShadingShift
            | Self::Matcap
            | Self::RimMultiply
            | Self::OutlineWidthMultiply
            | Self::UvAnimationMask => "VRMC_materials_mtoon",
        })
    }

    /// The glTF property that holds it, for notes.
    pub fn name(self) -> &'static str {
        match self {
            Self::BaseColor => "baseColorTexture",
            Self::MetallicRoughness => "metallicRoughnessTexture",
            Self::Normal => "normalTexture",
            Self::Occlusion => "occlusionTexture",
            Self::Emissive => "emissiveTexture",
            Self::Transmission => "transmissionTexture",
            Self::Thickness => "thicknessTexture",
            Self::SheenColor => "sheenColorTexture",
            Self::SheenRoughness => "sheenRoughnessTexture",
            Self::Clearcoat => "clearcoatTexture",
            Self::ClearcoatRoughness => "clearcoatRoughnessTexture",
            Self::ClearcoatNormal => "clearcoatNormalTexture",
            Self::Specular => "specularTexture",
            Self::SpecularColor => "specularColorTexture",
            Self::Iridescence => "iridescenceTexture",
            Self::IridescenceThickness => "iridescenceThicknessTexture",
            Self::DiffuseTransmission => "diffuseTransmissionTexture",
            Self::DiffuseTransmissionColor => "diffuseTransmissionColorTexture",
            Self::Anisotropy => "anisotropyTexture",
            Self::ShadeMultiply => "shadeMultiplyTexture",
            Self::ShadingShift => "shadingShiftTexture",
            Self::Matcap => "matcapTexture",
            Self::RimMultiply => "rimMultiplyTexture",
            Self::OutlineWidthMultiply => "outlineWidthMultiplyTexture",
            Self::UvAnimationMask => "uvAnimationMaskTexture",
        }
    }

    /// The texture the extension's property `name` names, if it is one of these.
    pub fn of_extension(extension: &str, name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|texture| texture.extension() == Some(extension) && texture.name() == name)
    }
}
