//! Animated properties beyond node transforms and morph weights: material factors, texture
//! transforms, camera and light fields (glTF's KHR_animation_pointer), and node visibility
//! (KHR_node_visibility).
//!
//! Each animated property owns a *slot*: `width` floats at `offset` in `Pose::properties`.
//! The rest pose holds the file's values there, and clips write their samples there through
//! the same sampling, blending and cross-fading as every other channel (`anim` knows only
//! "floats at an offset"). Whoever shows a material, a camera or a light asks this table to
//! apply the pose's values over the file's (`apply_to_material`, ...); properties no clip
//! animates have no slot and keep the file's value.
//!
//! Absent optional values (a light without `range`, a camera without `zfar` or
//! `aspectRatio`) rest at 0, and a value of 0 or less means absent again. Visibility is 1
//! (visible) or 0 (hidden) and counts as visible from 0.5 up (blends switch half-way); a
//! hidden node hides its whole subtree.

use glam::{Vec2, Vec3, Vec4};

use super::camera::Projection;
use super::light::{LightKind, PunctualLight};
use super::material::MaterialTexture;
use super::material::{AlphaMode, Material, MaterialLayers};
use crate::anim::{ChannelTrack, Clip, Hierarchy};

/// Every animated property of a model, and which nodes the file hides.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimatedProperties {
    slots: Vec<PropertySlot>,
    /// Per joint, whether the file hides it (KHR_node_visibility); empty when none is hidden.
    hidden_at_rest: Vec<bool>,
    /// The materials some slot animates, each once.
    materials: Vec<usize>,
}

/// One animated property: its pointer, what it drives, and its floats in `Pose::properties`.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertySlot {
    /// The JSON pointer the file animates, e.g. `/materials/0/emissiveFactor`.
    pub pointer: String,
    pub target: PropertyTarget,
    pub offset: usize,
    pub width: usize,
}

/// What a slot drives. Indices are the model's (`Model::materials`, `cameras`, `lights`,
/// skeleton joints); a file camera or light that several nodes hold has an entry per node.
#[derive(Clone, Debug, PartialEq)]
pub enum PropertyTarget {
    Material {
        material: usize,
        field: MaterialField,
    },
    Camera {
        cameras: Vec<usize>,
        field: CameraField,
    },
    Light {
        lights: Vec<usize>,
        field: LightField,
    },
    Visible {
        joint: usize,
    },
    /// A value a VRM avatar reads (an expression's weight, `Expression::weight_entry`; where
    /// its eyes look, `LookAt::rotation_entry`), animated by a VRM animation's tracks.
    AvatarValue,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialField {
    BaseColor,
    Metallic,
    Roughness,
    Emissive,
    EmissiveStrength,
    AlphaCutoff,
    NormalScale,
    OcclusionStrength,
    TextureOffset(MaterialTexture),
    TextureScale(MaterialTexture),
    TextureRotation(MaterialTexture),
    /// A KHR_materials_* extension's factor.
    Layer(LayerField),
}

/// The animatable factors of the KHR_materials_* extensions (`MaterialLayers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerField {
    Ior,
    Specular,
    SpecularColor,
    SheenColor,
    SheenRoughness,
    Clearcoat,
    ClearcoatRoughness,
    Transmission,
    Thickness,
    AttenuationDistance,
    AttenuationColor,
    Dispersion,
    Iridescence,
    IridescenceIor,
    IridescenceThickness,
    DiffuseTransmission,
    DiffuseTransmissionColor,
    Anisotropy,
    AnisotropyRotation,
    /// VRMC_materials_mtoon's factors (only on MToon materials).
    ShadeColor,
    ShadingShift,
    ShadingToony,
    GiEqualization,
    MatcapColor,
    RimColor,
    RimLightingMix,
    RimFresnelPower,
    RimLift,
    OutlineWidth,
    OutlineColor,
    OutlineLightingMix,
    UvScrollX,
    UvScrollY,
    UvRotation,
}

impl LayerField {
    /// The field a pointer's path below a material names (`["extensions", extension,
    /// property]`), if it is one of these.
    pub fn from_path(extension: &str, property: &str) -> Option<Self> {
        Some(match (extension, property) {
            ("KHR_materials_ior", "ior") => Self::Ior,
            ("KHR_materials_specular", "specularFactor") => Self::Specular,
            ("KHR_materials_specular", "specularColorFactor") => Self::SpecularColor,
            ("KHR_materials_sheen", "sheenColorFactor") => Self::SheenColor,
            ("KHR_materials_sheen", "sheenRoughnessFactor") => Self::SheenRoughness,
            ("KHR_materials_clearcoat", "clearcoatFactor") => Self::Clearcoat,
            ("KHR_materials_clearcoat", "clearcoatRoughnessFactor") => Self::ClearcoatRoughness,
            ("KHR_materials_transmission", "transmissionFactor") => Self::Transmission,
            ("KHR_materials_volume", "thicknessFactor") => Self::Thickness,
            ("KHR_materials_volume", "attenuationDistance") => Self::AttenuationDistance,
            ("KHR_materials_volume", "attenuationColor") => Self::AttenuationColor,
            ("KHR_materials_dispersion", "dispersion") => Self::Dispersion,
            ("KHR_materials_iridescence", "iridescenceFactor") => Self::Iridescence,
            ("KHR_materials_iridescence", "iridescenceIor") => Self::IridescenceIor,
            ("KHR_materials_iridescence", "iridescenceThicknessMaximum") => Self::IridescenceThickness,
            ("KHR_materials_diffuse_transmission", "diffuseTransmissionFactor") => Self::DiffuseTransmission,
            ("KHR_materials_diffuse_transmission", "diffuseTransmissionColorFactor") => Self::DiffuseTransmissionColor,
            ("KHR_materials_anisotropy", "anisotropyStrength") => Self::Anisotropy,
            ("KHR_materials_anisotropy", "anisotropyRotation") => Self::AnisotropyRotation,
            ("VRMC_materials_mtoon", property) => match property {
                "shadeColorFactor" => Self::ShadeColor,
                "shadingShiftFactor" => Self::ShadingShift,
                "shadingToonyFactor" => Self::ShadingToony,
                "giEqualizationFactor" => Self::GiEqualization,
                "matcapFactor" => Self::MatcapColor,
                "parametricRimColorFactor" => Self::RimColor,
                "rimLightingMixFactor" => Self::RimLightingMix,
                "parametricRimFresnelPowerFactor" => Self::RimFresnelPower,
                "parametricRimLiftFactor" => Self::RimLift,
                "outlineWidthFactor" => Self::OutlineWidth,
                "outlineColorFactor" => Self::OutlineColor,
                "outlineLightingMixFactor" => Self::OutlineLightingMix,
                "uvAnimationScrollXSpeedFactor" => Self::UvScrollX,
                "uvAnimationScrollYSpeedFactor" => Self::UvScrollY,
                "uvAnimationRotationSpeedFactor" => Self::UvRotation,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// The field's value in `layers` (a colour's three floats, else one); None for an MToon
    /// field of a material that is not MToon.
    pub fn read(self, layers: &MaterialLayers) -> Option<Vec<f32>> {
        Some(match self.slot(&mut layers.clone())? {
            LayerSlot::Colour(colour) => colour.to_array().to_vec(),
            LayerSlot::Scalar(value) => vec![*value],
        })
    }

    /// Writes `value` (as `read` gives it) into `layers`.
    fn write(self, value: &[f32], layers: &mut MaterialLayers) {
        match self.slot(layers) {
            Some(LayerSlot::Colour(colour)) => *colour = Vec3::from_slice(value),
            Some(LayerSlot::Scalar(scalar)) => *scalar = value[0],
            None => {}
        }
    }

    fn slot(self, layers: &mut MaterialLayers) -> Option<LayerSlot<'_>> {
        use LayerSlot::{Colour, Scalar};
        Some(match self {
            Self::Ior => Scalar(&mut layers.ior),
            Self::Specular => Scalar(&mut layers.specular),
            Self::SpecularColor => Colour(&mut layers.specular_color),
            Self::SheenColor => Colour(&mut layers.sheen_color),
            Self::SheenRoughness => Scalar(&mut layers.sheen_roughness),
            Self::Clearcoat => Scalar(&mut layers.clearcoat),
            Self::ClearcoatRoughness => Scalar(&mut layers.clearcoat_roughness),
            Self::Transmission => Scalar(&mut layers.transmission),
            Self::Thickness => Scalar(&mut layers.thickness),
            Self::AttenuationDistance => Scalar(&mut layers.attenuation_distance),
            Self::AttenuationColor => Colour(&mut layers.attenuation_color),
            Self::Dispersion => Scalar(&mut layers.dispersion),
            Self::Iridescence => Scalar(&mut layers.iridescence),
            Self::IridescenceIor => Scalar(&mut layers.iridescence_ior),
            Self::IridescenceThickness => Scalar(&mut layers.iridescence_thickness),
            Self::DiffuseTransmission => Scalar(&mut layers.diffuse_transmission),
            Self::DiffuseTransmissionColor => Colour(&mut layers.diffuse_transmission_color),
            Self::Anisotropy => Scalar(&mut layers.anisotropy),
            Self::AnisotropyRotation => Scalar(&mut layers.anisotropy_rotation),
            // MToon's, where the material is MToon.
            mtoon_field => {
                let m = layers.mtoon.as_mut()?;
                match mtoon_field {
                    Self::ShadeColor => Colour(&mut m.shade_color),
                    Self::ShadingShift => Scalar(&mut m.shading_shift),
                    Self::ShadingToony => Scalar(&mut m.shading_toony),
                    Self::GiEqualization => Scalar(&mut m.gi_equalization),
                    Self::MatcapColor => Colour(&mut m.matcap),
                    Self::RimColor => Colour(&mut m.parametric_rim_color),
                    Self::RimLightingMix => Scalar(&mut m.rim_lighting_mix),
                    Self::RimFresnelPower => Scalar(&mut m.parametric_rim_fresnel_power),
                    Self::RimLift => Scalar(&mut m.parametric_rim_lift),
                    Self::OutlineWidth => Scalar(&mut m.outline_width),
                    Self::OutlineColor => Colour(&mut m.outline_color),
                    Self::OutlineLightingMix => Scalar(&mut m.outline_lighting_mix),
                    Self::UvScrollX => Scalar(&mut m.uv_scroll_x),
                    Self::UvScrollY => Scalar(&mut m.uv_scroll_y),
                    // UvRotation, the last.
                    _ => Scalar(&mut m.uv_rotation),
                }
            }
        })
    }
}

/// Where a `LayerField` lives in `MaterialLayers`.
enum LayerSlot<'a> {
    Scalar(&'a mut f32),
    Colour(&'a mut Vec3),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraField {
    Yfov,
    AspectRatio,
    Xmag,
    Ymag,
    Znear,
    Zfar,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LightField {
    Color,
    Intensity,
    Range,
    InnerConeAngle,
    OuterConeAngle,
}

impl AnimatedProperties {
    /// A table of `slots` (laid out by the loader, offsets ascending) and the joints the file
    /// hides.
    pub fn new(slots: Vec<PropertySlot>, hidden_at_rest: Vec<bool>) -> Self {
        let mut materials: Vec<usize> = slots
            .iter()
            .filter_map(|slot| match slot.target {
                PropertyTarget::Material { material, .. } => Some(material),
                _ => None,
            })
            .collect();
        materials.sort_unstable();
        materials.dedup();
        let hidden_at_rest = if hidden_at_rest.contains(&true) {
            hidden_at_rest
        } else {
            Vec::new()
        };
        Self {
            slots,
            hidden_at_rest,
            materials,
        }
    }

    pub fn slots(&self) -> &[PropertySlot] {
        &self.slots
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty() && self.hidden_at_rest.is_empty()
    }

    /// The name of entry `entry` of `Pose::properties`: its property's pointer, with `[k]` for
    /// component `k` of a property of several numbers (`.../baseColorFactor[2]`: blue).
    pub fn entry_name(&self, entry: usize) -> Option<String> {
        let slot = self
            .slots
            .iter()
            .find(|s| (s.offset..s.offset + s.width).contains(&entry))?;
        Some(if slot.width == 1 {
            slot.pointer.clone()
        } else {
            format!("{}[{}]", slot.pointer, entry - slot.offset)
        })
    }

    /// The pointers of the properties `clip` animates, in slot order, each once.
    pub fn pointers_of(&self, clip: &Clip) -> Vec<String> {
        let animated = |slot: &&PropertySlot| {
            (clip.channels().iter())
                .any(|c| matches!(c.track, ChannelTrack::Properties { offset, .. } if offset == slot.offset))
        };
        self.slots
            .iter()
            .filter(animated)
            .map(|slot| slot.pointer.clone())
            .collect()
    }

    /// The materials some clip animates, each once.
    pub fn animated_materials(&self) -> &[usize] {
        &self.materials
    }

    /// Whether the file hides `joint` itself, its ancestors aside (what a writer writes back).
    pub fn hidden_at_rest(&self, joint: usize) -> bool {
        self.hidden_at_rest.get(joint).copied().unwrap_or(false)
    }

    /// Whether anything can hide a node (the file hides one, or a clip animates visibility).
    pub fn has_visibility(&self) -> bool {
        !self.hidden_at_rest.is_empty()
            || self
                .slots
                .iter()
                .any(|s| matches!(s.target, PropertyTarget::Visible { .. }))
    }

    /// Writes the pose's values (`values`: `Pose::properties`) of material `index` over `material`.
    pub fn apply_to_material(&self, index: usize, values: &[f32], material: &mut Material) {
        for (slot, value) in self.values(values) {
            if let PropertyTarget::Material { material: m, field } = slot.target
                && m == index
            {
                write_material(field, value, material);
            }
        }
    }

    /// Writes the pose's values over `materials` (the model's, by index): one walk of the
    /// slots, however many materials are animated.
    pub fn apply_to_materials(&self, values: &[f32], materials: &mut [Material]) {
        for (slot, value) in self.values(values) {
            if let PropertyTarget::Material { material, field } = slot.target
                && let Some(material) = materials.get_mut(material)
            {
                write_material(field, value, material);
            }
        }
    }

    /// Camera `index`'s projection with the pose's values written over `projection`.
    pub fn apply_to_projection(&self, index: usize, values: &[f32], projection: &mut Projection) {
        let optional = |value: f32| (value > 0.0).then_some(value);
        for (slot, value) in self.values(values) {
            let PropertyTarget::Camera { cameras, field } = &slot.target else {
                continue;
            };
            if !cameras.contains(&index) {
                continue;
            }
            let value = value[0];
            match (&mut *projection, field) {
                (Projection::Perspective { yfov, .. }, CameraField::Yfov) => *yfov = value,
                (Projection::Perspective { aspect_ratio, .. }, CameraField::AspectRatio) => {
                    *aspect_ratio = optional(value)
                }
                (Projection::Perspective { zfar, .. }, CameraField::Zfar) => *zfar = optional(value),
                (Projection::Orthographic { xmag, .. }, CameraField::Xmag) => *xmag = value,
                (Projection::Orthographic { ymag, .. }, CameraField::Ymag) => *ymag = value,
                (Projection::Orthographic { zfar, .. }, CameraField::Zfar) => *zfar = value,
                (
                    Projection::Perspective { znear, .. } | Projection::Orthographic { znear, .. },
                    CameraField::Znear,
                ) => *znear = value,
                _ => {}
            }
        }
    }

    /// Writes the pose's values of light `index` over `light`.
    pub fn apply_to_light(&self, index: usize, values: &[f32], light: &mut PunctualLight) {
        for (slot, value) in self.values(values) {
            if let PropertyTarget::Light { lights, field } = &slot.target
                && lights.contains(&index)
            {
                write_light(*field, value, light);
            }
        }
    }

    /// Writes the pose's values over `lights` (the model's, by index): one walk of the slots
    /// and of the lights each names.
    pub fn apply_to_lights(&self, values: &[f32], lights: &mut [PunctualLight]) {
        for (slot, value) in self.values(values) {
            let PropertyTarget::Light { lights: held, field } = &slot.target else {
                continue;
            };
            for &index in held {
                if let Some(light) = lights.get_mut(index) {
                    write_light(*field, value, light);
                }
            }
        }
    }

    /// Writes, per joint, whether it is shown: neither it nor an ancestor is hidden, by the
    /// file or by the pose's visibility values. `out` has one entry per joint.
    pub fn visible_joints(&self, hierarchy: &Hierarchy, values: &[f32], out: &mut [bool]) {
        for (joint, visible) in out.iter_mut().enumerate() {
            *visible = !self.hidden_at_rest.get(joint).copied().unwrap_or(false);
        }
        for (slot, value) in self.values(values) {
            if let PropertyTarget::Visible { joint } = slot.target
                && let Some(visible) = out.get_mut(joint)
            {
                *visible = value[0] >= 0.5;
            }
        }
        // Parents first: a parent's entry is final when its children read it.
        for joint in 0..out.len().min(hierarchy.len()) {
            if let Some(parent) = hierarchy.parent(joint) {
                out[joint] &= out[parent];
            }
        }
    }

    /// Each slot with its floats in `values` (slots beyond `values` are left out).
    fn values<'a>(&'a self, values: &'a [f32]) -> impl Iterator<Item = (&'a PropertySlot, &'a [f32])> {
        self.slots
            .iter()
            .filter_map(move |slot| Some((slot, values.get(slot.offset..slot.offset + slot.width)?)))
    }
}

/// One animated material property's value (`value`: its floats) written over `material`.
fn write_material(field: MaterialField, value: &[f32], material: &mut Material) {
    let scalar = value[0];
    match field {
        MaterialField::BaseColor => material.base_color = Vec4::from_slice(value),
        MaterialField::Metallic => material.metallic = scalar,
        MaterialField::Roughness => material.roughness = scalar,
        MaterialField::Emissive => material.emissive = Vec3::from_slice(value),
        MaterialField::EmissiveStrength => material.emissive_strength = scalar,
        MaterialField::NormalScale => material.normal_scale = scalar,
        MaterialField::OcclusionStrength => material.occlusion_strength = scalar.clamp(0.0, 1.0),
        MaterialField::AlphaCutoff => {
            if let AlphaMode::Mask { cutoff } = &mut material.alpha {
                *cutoff = scalar;
            }
        }
        MaterialField::TextureOffset(texture) => {
            if let Some(reference) = texture.of_mut(material) {
                reference.transform.offset = Vec2::from_slice(value);
            }
        }
        MaterialField::TextureScale(texture) => {
            if let Some(reference) = texture.of_mut(material) {
                reference.transform.scale = Vec2::from_slice(value);
            }
        }
        MaterialField::TextureRotation(texture) => {
            if let Some(reference) = texture.of_mut(material) {
                reference.transform.rotation = scalar;
            }
        }
        MaterialField::Layer(field) => field.write(value, &mut material.layers),
    }
}

/// One animated light property's value written over `light`.
fn write_light(field: LightField, value: &[f32], light: &mut PunctualLight) {
    let scalar = value[0];
    match (field, &mut light.kind) {
        (LightField::Color, _) => light.color = Vec3::from_slice(value),
        (LightField::Intensity, _) => light.intensity = scalar,
        (LightField::Range, _) => light.range = (scalar > 0.0).then_some(scalar),
        (LightField::InnerConeAngle, LightKind::Spot { inner, .. }) => *inner = scalar,
        (LightField::OuterConeAngle, LightKind::Spot { outer, .. }) => *outer = scalar,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(pointer: &str, target: PropertyTarget, offset: usize, width: usize) -> PropertySlot {
        PropertySlot {
            pointer: pointer.into(),
            target,
            offset,
            width,
        }
    }

    #[test]
    fn material_values_replace_the_files() {
        let table = AnimatedProperties::new(
            vec![
                slot(
                    "/materials/1/pbrMetallicRoughness/baseColorFactor",
                    PropertyTarget::Material {
                        material: 1,
                        field: MaterialField::BaseColor,
                    },
                    0,
                    4,
                ),
                slot(
                    "/materials/1/alphaCutoff",
                    PropertyTarget::Material {
                        material: 1,
                        field: MaterialField::AlphaCutoff,
                    },
                    4,
                    1,
                ),
            ],
            Vec::new(),
        );
        let values = [0.1, 0.2, 0.3, 0.4, 0.9];
        let mut material = Material {
            alpha: AlphaMode::Mask { cutoff: 0.5 },
            ..Material::default()
        };
        table.apply_to_material(0, &values, &mut material);
        assert_eq!(material.base_color, Vec4::ONE, "another material's values");
        table.apply_to_material(1, &values, &mut material);
        assert_eq!(material.base_color, Vec4::new(0.1, 0.2, 0.3, 0.4));
        assert_eq!(material.alpha, AlphaMode::Mask { cutoff: 0.9 });
        assert_eq!(table.animated_materials(), &[1]);
    }

    #[test]
    fn a_hidden_node_hides_its_subtree() {
        let hierarchy = Hierarchy::new(vec![None, Some(0), Some(1), None]).unwrap();
        let table = AnimatedProperties::new(
            vec![slot(
                "/nodes/1/extensions/KHR_node_visibility/visible",
                PropertyTarget::Visible { joint: 1 },
                0,
                1,
            )],
            vec![false, false, false, true],
        );
        let mut visible = [true; 4];
        table.visible_joints(&hierarchy, &[0.0], &mut visible);
        assert_eq!(visible, [true, false, false, false]);
        table.visible_joints(&hierarchy, &[1.0], &mut visible);
        assert_eq!(visible, [true, true, true, false]);
    }

    #[test]
    fn absent_optional_values_rest_at_zero() {
        let table = AnimatedProperties::new(
            vec![slot(
                "/cameras/0/perspective/zfar",
                PropertyTarget::Camera {
                    cameras: vec![0],
                    field: CameraField::Zfar,
                },
                0,
                1,
            )],
            Vec::new(),
        );
        let mut projection = Projection::Perspective {
            yfov: 1.0,
            aspect_ratio: None,
            znear: 0.1,
            zfar: None,
        };
        table.apply_to_projection(0, &[50.0], &mut projection);
        assert!(matches!(projection, Projection::Perspective { zfar: Some(50.0), .. }));
        table.apply_to_projection(0, &[0.0], &mut projection);
        assert!(matches!(projection, Projection::Perspective { zfar: None, .. }));
    }
}
