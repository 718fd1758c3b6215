//! KHR_materials_variants: the file's named material variants (the root's `variants`) and,
//! per primitive, which material it draws with in each variant (its `mappings`).
//!
//! The extension is read leniently: a variant without a name is called "Variant N", and a
//! mapping that names a material or variant that does not exist, or a variant a primitive
//! already mapped, is a warning and left out. A primitive draws with its own `material` in
//! every variant it has no mapping for.

use std::collections::HashSet;

use gltf_json::Root;
use serde_json::Value;

use crate::asset::model::VariantMaterial;

const NAME: &str = "KHR_materials_variants";

/// The variants' names, in the file's order.
pub fn load_variant_names(root: &Root, warnings: &mut Vec<String>) -> Vec<String> {
    let Some(extension) = root.extensions.as_ref().and_then(|e| e.others.get(NAME)) else {
        return Vec::new();
    };
    let Some(variants) = extension.get("variants").and_then(Value::as_array) else {
        warnings.push(format!("/extensions/{NAME}: it has no list of variants (ignored)"));
        return Vec::new();
    };
    variants
        .iter()
        .enumerate()
        .map(|(index, variant)| match variant.get("name").and_then(Value::as_str) {
            Some(name) => name.to_owned(),
            None => {
                warnings.push(format!(
                    "/extensions/{NAME}/variants/{index}: it has no name (called Variant {index})"
                ));
                format!("Variant {index}")
            }
        })
        .collect()
}

/// The variant mappings of the primitive at `object`, whose extensions are `extensions`.
pub fn load_mappings(
    extensions: Option<&serde_json::Map<String, Value>>,
    object: &str,
    variant_count: usize,
    material_count: usize,
    warnings: &mut Vec<String>,
) -> Vec<VariantMaterial> {
    let Some(extension) = extensions.and_then(|e| e.get(NAME)) else {
        return Vec::new();
    };
    let pointer = format!("{object}/extensions/{NAME}/mappings");
    let Some(mappings) = extension.get("mappings").and_then(Value::as_array) else {
        warnings.push(format!("{pointer}: it is missing or not a list (ignored)"));
        return Vec::new();
    };
    let mut found: Vec<VariantMaterial> = Vec::new();
    // The variants mapped so far: a set, so that a long list costs time in its length only.
    let mut mapped = HashSet::new();
    for (index, mapping) in mappings.iter().enumerate() {
        let pointer = format!("{pointer}/{index}");
        let material = mapping.get("material").and_then(Value::as_u64).map(|m| m as usize);
        let Some(material) = material.filter(|&m| m < material_count) else {
            warnings.push(format!(
                "{pointer}/material: it names no material of the file (ignored)"
            ));
            continue;
        };
        let variants = mapping
            .get("variants")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (slot, variant) in variants.iter().enumerate() {
            let variant = variant.as_u64().map(|v| v as usize).filter(|&v| v < variant_count);
            match variant {
                None => warnings.push(format!(
                    "{pointer}/variants/{slot}: it names no variant of the file (ignored)"
                )),
                Some(variant) if !mapped.insert(variant) => warnings.push(format!(
                    "{pointer}/variants/{slot}: variant {variant} is mapped twice (the first mapping is used)"
                )),
                Some(variant) => found.push(VariantMaterial { variant, material }),
            }
        }
    }
    found
}
