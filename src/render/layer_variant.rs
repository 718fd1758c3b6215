//! Which parts of the layered shader (layers.wgsl) a material's draws run: the layers it has
//! and the slot each of its layer textures is bound to, set as the shader's pipeline
//! constants. A software rasteriser (llvmpipe) runs the body of every branch and every case
//! of a switch even where no pixel takes it, so a material with one `KHR_materials_specular`
//! texture ran the sheen, clear coat, thin film, anisotropy and diffuse transmission and read
//! five slots for each of twelve layer textures: half a character's frame. With its variant
//! it runs its one texture read. The same holds for the material's own textures (base colour,
//! metallic-roughness, normal, occlusion, emissive, transmission, thickness): a variant reads
//! those its materials have, so a material without textures samples none and builds no tangent
//! frame for a normal map; and to the vertex stage: a draw's variant says whether the GPU skins
//! it, so a static mesh's vertices run neither skinning method.

use crate::asset::Material;
use crate::asset::material::{MaterialLayers, MaterialTexture};

use super::uniforms::layer_slots;

/// The layers of the metallic-roughness model (mesh.wgsl's `LAYER_SHEEN_COLOR` to
/// `LAYER_ANISOTROPY`); MToon's textures, after them, are read through the slots the material
/// uniform names.
const PBR_LAYER_TEXTURES: usize = 12;

/// Bits of a layer slot in `LayerVariant::slots`: slots 0 (none) to `LAYER_SLOTS`.
const SLOT_BITS: usize = 3;

/// The layer textures `LAYER_SLOTS_LOW` holds (layers.wgsl); the rest are in `_HIGH`.
const LOW_LAYERS: usize = 10;

/// A material's layers, layer texture slots and own textures, as the shader's pipeline
/// constants say them. Two materials of one variant share pipelines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LayerVariant {
    /// `Layer` bits: the layers whose code runs.
    layers: u8,
    /// Per layer texture (by `MaterialTexture` from `SheenColor`), `SLOT_BITS` bits from the
    /// lowest: the slot it is read from, 0 where the material has none or the layer it belongs
    /// to is off (a texture a zero factor makes irrelevant is not read).
    slots: u64,
    /// The material's own textures that loaded, as mesh.wgsl's HAS_* bits (bit i: texture i
    /// of `MaterialTexture`, from `BaseColor` to `Thickness`).
    textures: u8,
    /// The draw is skinned on the GPU (a draw's, not its material's: `on_gpu`); without it
    /// the vertex stage leaves the skinning out.
    gpu_skinned: bool,
}

/// The layers over the base that a material may have, as bits of `LayerVariant::layers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Sheen = 1,
    Clearcoat = 2,
    Iridescence = 4,
    DiffuseTransmission = 8,
    Anisotropy = 16,
}

impl Layer {
    /// The shader's flag for this layer.
    fn constant(self) -> &'static str {
        match self {
            Layer::Sheen => "SHEEN_LAYER",
            Layer::Clearcoat => "CLEARCOAT_LAYER",
            Layer::Iridescence => "IRIDESCENCE_LAYER",
            Layer::DiffuseTransmission => "DIFFUSE_TRANSMISSION_LAYER",
            Layer::Anisotropy => "ANISOTROPY_LAYER",
        }
    }

    /// Whether `layers` has this layer: its factor is not zero (the shader's own test, which
    /// its textures can only make smaller).
    fn is_in(self, layers: &MaterialLayers) -> bool {
        match self {
            Layer::Sheen => layers.sheen_color.max_element() > 0.0,
            Layer::Clearcoat => layers.clearcoat > 0.0,
            Layer::Iridescence => layers.iridescence > 0.0,
            Layer::DiffuseTransmission => layers.diffuse_transmission > 0.0,
            Layer::Anisotropy => layers.anisotropy > 0.0,
        }
    }

    /// The layer a layer texture belongs to; `None` for the specular textures, which scale
    /// the base's reflection and are read whenever the material has them.
    fn of_texture(texture: MaterialTexture) -> Option<Layer> {
        match texture {
            MaterialTexture::SheenColor | MaterialTexture::SheenRoughness => Some(Layer::Sheen),
            MaterialTexture::Clearcoat | MaterialTexture::ClearcoatRoughness | MaterialTexture::ClearcoatNormal => {
                Some(Layer::Clearcoat)
            }
            MaterialTexture::Iridescence | MaterialTexture::IridescenceThickness => Some(Layer::Iridescence),
            MaterialTexture::DiffuseTransmission | MaterialTexture::DiffuseTransmissionColor => {
                Some(Layer::DiffuseTransmission)
            }
            MaterialTexture::Anisotropy => Some(Layer::Anisotropy),
            _ => None,
        }
    }
}

/// Every layer, in `LayerVariant::constants`' order.
const ALL_LAYERS: [Layer; 5] = [
    Layer::Sheen,
    Layer::Clearcoat,
    Layer::Iridescence,
    Layer::DiffuseTransmission,
    Layer::Anisotropy,
];

impl LayerVariant {
    /// The variant of `material`'s draws, `present` saying which of its textures loaded (the
    /// slots follow `uniforms::layer_slots`, as the material's bind group does).
    pub fn of(material: &Material, present: &[bool; MaterialTexture::COUNT]) -> Self {
        let layers = (ALL_LAYERS.iter())
            .filter(|layer| layer.is_in(&material.layers))
            .fold(0, |bits, &layer| bits | layer as u8);
        let mut slots = 0;
        for (slot, texture) in layer_slots(present).enumerate() {
            let index = texture as usize - MaterialTexture::BOUND;
            let wanted = Layer::of_texture(texture).is_none_or(|layer| layers & layer as u8 != 0);
            if index < PBR_LAYER_TEXTURES && wanted {
                slots |= (slot as u64 + 1) << (SLOT_BITS * index);
            }
        }
        let textures = (present[..MaterialTexture::BOUND].iter().enumerate())
            .filter(|(_, present)| **present)
            .fold(0, |bits, (texture, _)| bits | 1 << texture);
        Self {
            layers,
            slots,
            textures,
            gpu_skinned: false,
        }
    }

    /// This variant for a draw that the GPU skins (`gpu_skinned`) or does not: the draw's
    /// uniform must then name a skinning method, or none (`Skinning::on_gpu`).
    pub fn on_gpu(self, gpu_skinned: bool) -> Self {
        Self { gpu_skinned, ..self }
    }

    /// The pipeline constants of the plain pipelines (mesh.wgsl without layers), which draw
    /// the plain variant: none of the material's textures is read, and nothing is skinned.
    pub const PLAIN_CONSTANTS: [(&'static str, f64); 2] = [("MATERIAL_TEXTURES", 0.0), ("GPU_SKINNED", 0.0)];

    /// Nothing over the base, no texture to read and no skinning on the GPU: the plain
    /// pipelines (`PLAIN_CONSTANTS`) draw it.
    pub fn is_plain(&self) -> bool {
        *self == Self::default()
    }

    /// The pipeline constants of mesh.wgsl with layers.wgsl for this variant.
    pub fn constants(&self) -> [(&'static str, f64); 10] {
        let [sheen, clearcoat, iridescence, diffuse_transmission, anisotropy] =
            ALL_LAYERS.map(|layer| (layer.constant(), f64::from(u8::from(self.layers & layer as u8 != 0))));
        let low_mask = (1u64 << (SLOT_BITS * LOW_LAYERS)) - 1;
        [
            sheen,
            clearcoat,
            iridescence,
            diffuse_transmission,
            anisotropy,
            ("LAYER_SLOTS_FIXED", 1.0),
            ("LAYER_SLOTS_LOW", (self.slots & low_mask) as f64),
            ("LAYER_SLOTS_HIGH", (self.slots >> (SLOT_BITS * LOW_LAYERS)) as f64),
            ("MATERIAL_TEXTURES", f64::from(self.textures)),
            ("GPU_SKINNED", f64::from(u8::from(self.gpu_skinned))),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn present(textures: &[MaterialTexture]) -> [bool; MaterialTexture::COUNT] {
        let mut present = [false; MaterialTexture::COUNT];
        for &texture in textures {
            present[texture as usize] = true;
        }
        present
    }

    fn constant(variant: LayerVariant, name: &str) -> f64 {
        variant
            .constants()
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, value)| *value)
    }

    /// The slot layer texture `texture` is read from, decoded as layers.wgsl's `layer_slot` does.
    fn slot_in_shader(variant: LayerVariant, texture: MaterialTexture) -> u32 {
        let layer = texture as usize - MaterialTexture::BOUND;
        let (packed, shift) = match layer >= LOW_LAYERS {
            true => (constant(variant, "LAYER_SLOTS_HIGH") as u32, 3 * (layer - LOW_LAYERS)),
            false => (constant(variant, "LAYER_SLOTS_LOW") as u32, 3 * layer),
        };
        (packed >> shift) & 7
    }

    #[test]
    fn a_material_without_layers_or_textures_is_plain() {
        let variant = LayerVariant::of(&Material::default(), &present(&[]));
        assert!(variant.is_plain());
        assert_eq!(variant, LayerVariant::default());
    }

    #[test]
    fn a_material_reads_its_own_textures_that_loaded_and_no_others() {
        let material = Material::default();
        let variant = LayerVariant::of(
            &material,
            &present(&[MaterialTexture::BaseColor, MaterialTexture::Normal]),
        );
        assert!(!variant.is_plain());
        // mesh.wgsl's HAS_BASE_COLOR | HAS_NORMAL, and no layer.
        assert_eq!(constant(variant, "MATERIAL_TEXTURES"), 5.0);
        for layer in ALL_LAYERS {
            assert_eq!(constant(variant, layer.constant()), 0.0, "{layer:?}");
        }
        let every_own = &MaterialTexture::ALL[..MaterialTexture::BOUND];
        let variant = LayerVariant::of(&material, &present(every_own));
        assert_eq!(constant(variant, "MATERIAL_TEXTURES"), 127.0);
        // A layer texture alone reads none of the material's own.
        let variant = LayerVariant::of(&material, &present(&[MaterialTexture::SpecularColor]));
        assert_eq!(constant(variant, "MATERIAL_TEXTURES"), 0.0);
    }

    #[test]
    fn the_plain_pipelines_read_no_texture_and_skin_nothing() {
        let plain = LayerVariant::default();
        assert!(plain.is_plain());
        let in_plain = |name: &str| {
            (LayerVariant::PLAIN_CONSTANTS.iter())
                .find(|(n, _)| *n == name)
                .map(|(_, v)| *v)
        };
        // What the plain pipelines are made with is what the plain variant's constants say.
        for name in ["MATERIAL_TEXTURES", "GPU_SKINNED"] {
            assert_eq!(in_plain(name), Some(constant(plain, name)), "{name}");
        }
        assert_eq!(in_plain("MATERIAL_TEXTURES"), Some(0.0));
        assert_eq!(in_plain("GPU_SKINNED"), Some(0.0));
    }

    #[test]
    fn a_draw_skinned_on_the_gpu_takes_pipelines_that_skin() {
        let plain = LayerVariant::of(&Material::default(), &present(&[]));
        let skinned = plain.on_gpu(true);
        assert!(!skinned.is_plain());
        assert_ne!(skinned, plain);
        assert_eq!(constant(skinned, "GPU_SKINNED"), 1.0);
        assert_eq!(constant(plain, "GPU_SKINNED"), 0.0);
        assert_eq!(skinned.on_gpu(false), plain);
    }

    #[test]
    fn a_specular_colour_texture_alone_turns_every_layer_off_and_reads_its_one_slot() {
        // Blender's exports: KHR_materials_specular with a colour texture, and an ior.
        let (mut material, present) = (Material::default(), present(&[MaterialTexture::SpecularColor]));
        material.layers.ior = 1.45;
        let variant = LayerVariant::of(&material, &present);
        assert!(!variant.is_plain());
        for layer in ALL_LAYERS {
            assert_eq!(constant(variant, layer.constant()), 0.0, "{layer:?}");
        }
        assert_eq!(constant(variant, "LAYER_SLOTS_FIXED"), 1.0);
        assert_eq!(slot_in_shader(variant, MaterialTexture::SpecularColor), 1);
        for texture in MaterialTexture::ALL[MaterialTexture::BOUND..].iter().copied() {
            if texture != MaterialTexture::SpecularColor {
                assert_eq!(slot_in_shader(variant, texture), 0, "{texture:?}");
            }
        }
    }

    #[test]
    fn each_layer_is_on_where_its_factor_is_and_its_textures_keep_their_slots() {
        let textures = [
            MaterialTexture::SheenColor,
            MaterialTexture::ClearcoatNormal,
            MaterialTexture::Specular,
            MaterialTexture::DiffuseTransmissionColor,
            MaterialTexture::Anisotropy,
        ];
        let (mut material, present) = (Material::default(), present(&textures));
        material.layers.sheen_color = glam::Vec3::new(0.0, 0.2, 0.0);
        material.layers.clearcoat = 0.5;
        material.layers.diffuse_transmission = 0.3;
        material.layers.anisotropy = 0.4;
        let variant = LayerVariant::of(&material, &present);
        for layer in [
            Layer::Sheen,
            Layer::Clearcoat,
            Layer::DiffuseTransmission,
            Layer::Anisotropy,
        ] {
            assert_eq!(constant(variant, layer.constant()), 1.0, "{layer:?}");
        }
        assert_eq!(constant(variant, Layer::Iridescence.constant()), 0.0);
        // Slots in MaterialTexture order, as the bind group binds them (uniforms::layer_slots).
        for (slot, texture) in textures.into_iter().enumerate() {
            assert_eq!(slot_in_shader(variant, texture), slot as u32 + 1, "{texture:?}");
        }
    }

    #[test]
    fn a_texture_whose_layer_a_zero_factor_turns_off_is_not_read() {
        let textures = [
            MaterialTexture::SheenColor,
            MaterialTexture::IridescenceThickness,
            MaterialTexture::Specular,
        ];
        let (material, present) = (Material::default(), present(&textures));
        let variant = LayerVariant::of(&material, &present);
        assert_eq!(slot_in_shader(variant, MaterialTexture::SheenColor), 0);
        assert_eq!(slot_in_shader(variant, MaterialTexture::IridescenceThickness), 0);
        // The specular texture is bound second (after the sheen's, in `MaterialTexture` order),
        // whatever is read of the others.
        assert_eq!(slot_in_shader(variant, MaterialTexture::Specular), 2);
    }

    #[test]
    fn variants_of_materials_alike_are_equal() {
        let (first, present) = (Material::default(), present(&[MaterialTexture::SpecularColor]));
        let mut second = first.clone();
        second.base_color = glam::Vec4::new(0.2, 0.3, 0.4, 1.0);
        second.layers.specular = 0.5;
        assert_eq!(LayerVariant::of(&first, &present), LayerVariant::of(&second, &present));
        second.layers.clearcoat = 1.0;
        assert_ne!(LayerVariant::of(&first, &present), LayerVariant::of(&second, &present));
    }
}
