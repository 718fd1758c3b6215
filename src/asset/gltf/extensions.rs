//! The glTF extensions rigscope reads, in one list, and what a file's other extensions mean:
//! one that holds the geometry refuses the file when required; any other is drawn without.

use gltf_json::Root;

use crate::asset::LoadErrorKind;

/// Extensions rigscope reads (KHR_animation_pointer: the pointers `pointer` lists).
pub const SUPPORTED: &[&str] = &[
    "EXT_mesh_gpu_instancing",
    "EXT_meshopt_compression",
    "EXT_texture_webp",
    "KHR_animation_pointer",
    "KHR_draco_mesh_compression",
    "KHR_lights_punctual",
    "KHR_materials_anisotropy",
    "KHR_materials_clearcoat",
    "KHR_materials_diffuse_transmission",
    "KHR_materials_dispersion",
    "KHR_materials_emissive_strength",
    "KHR_materials_ior",
    "KHR_materials_iridescence",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_sheen",
    "KHR_materials_specular",
    "KHR_materials_transmission",
    "KHR_materials_unlit",
    "KHR_materials_variants",
    "KHR_materials_volume",
    "KHR_mesh_quantization",
    "KHR_meshopt_compression",
    "KHR_node_visibility",
    "KHR_texture_basisu",
    "KHR_texture_transform",
    // VRM: the avatar (`vrm`, its expressions, look-at), MToon materials, spring bones, node
    // constraints and VRM animations.
    "VRM",
    "VRMC_materials_mtoon",
    "VRMC_node_constraint",
    "VRMC_springBone",
    "VRMC_springBone_extended_collider",
    "VRMC_vrm",
    "VRMC_vrm_animation",
];

/// Extensions that hold geometry rigscope cannot decode (Gaussian splats compressed with SPZ):
/// a file that requires one cannot be shown at all. Any other extension only adds to what
/// rigscope draws, so it is a warning. (Draco and meshopt geometry is decoded: `compressed`.)
const GEOMETRY: &[&str] = &[
    "KHR_gaussian_splatting_compression_spz_2",
    "KHR_spz_gaussian_splats_compression",
];

/// An extension a file names that rigscope does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedExtension {
    pub name: String,
    /// In `extensionsRequired` (else only in `extensionsUsed`).
    pub required: bool,
}

impl UnsupportedExtension {
    /// The warning `inspect`, the loader and the panel give.
    pub fn warning(&self) -> String {
        let verb = if self.required { "requires" } else { "uses" };
        format!(
            "the file {verb} extension {}, which rigscope does not show (drawn without it)",
            self.name
        )
    }
}

/// The extensions of `used` and `required` that rigscope does not read, each once, by name.
pub fn unsupported(used: &[String], required: &[String]) -> Vec<UnsupportedExtension> {
    let mut names: Vec<&String> = used
        .iter()
        .chain(required)
        .filter(|e| !SUPPORTED.contains(&e.as_str()))
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| UnsupportedExtension {
            name: name.clone(),
            required: required.contains(name),
        })
        .collect()
}

/// Refuses a file that requires an extension holding its geometry, and warns about every
/// other extension it uses that rigscope does not read.
pub fn check(root: &Root, warnings: &mut Vec<String>) -> Result<(), LoadErrorKind> {
    if let Some(required) = root.extensions_required.iter().find(|e| GEOMETRY.contains(&e.as_str())) {
        return Err(LoadErrorKind::RequiredExtension(required.clone()));
    }
    let unread = unsupported(&root.extensions_used, &root.extensions_required);
    warnings.extend(unread.iter().map(UnsupportedExtension::warning));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_extensions_are_listed_once_and_marked_required() {
        let used = ["EXT_made_up".to_string(), "KHR_texture_transform".to_string()];
        let required = ["EXT_made_up".to_string(), "EXT_other".to_string()];
        let found = unsupported(&used, &required);
        assert_eq!(
            found,
            [
                UnsupportedExtension {
                    name: "EXT_made_up".into(),
                    required: true
                },
                UnsupportedExtension {
                    name: "EXT_other".into(),
                    required: true
                },
            ]
        );
        assert!(found[0].warning().contains("requires extension EXT_made_up"));
    }
}
