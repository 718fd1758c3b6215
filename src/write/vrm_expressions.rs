//! A VRM avatar's expressions written back, the inverse of `asset::gltf::vrm_expressions`: each
//! morph bind (an entry of `Pose::morph_weights`) becomes the mesh node (1.0) or the mesh (0.x)
//! that carries the entry and the target's index; each property bind (a change of an entry of
//! `Pose::properties` at full weight) becomes the material value it sets: a colour (its
//! slot's rest value plus the change) or a texture transform (the loader binds one to each
//! texture a material has; the first found stands for all of them). VRM 0.x's names, weights
//! out of 100 and `_MainTex_ST` (V flipped) are the loader's, inverted.

use serde_json::{Map, Value, json};

use super::document::Document;
use crate::anim::avatar::{Expression, Override};
use crate::asset::Model;
use crate::asset::animated::{LayerField, MaterialField, PropertyTarget};
use crate::asset::avatar::VRM_0_X_PRESETS;

/// Where the written file holds each morph weight: per entry of `Pose::morph_weights`, its
/// joint and the target's index; per joint, the node and the glTF mesh that draw its weights.
pub struct MorphPlaces {
    targets: Vec<(usize, usize)>,
    node_of_joint: Vec<Option<usize>>,
    mesh_of_joint: Vec<Option<usize>>,
}

impl MorphPlaces {
    /// The places of `model`'s morph weights; `meshes` are the glTF meshes per model mesh and
    /// `mesh_nodes` the (joint, node) of every node that holds one, as the writers placed them.
    pub fn new(
        model: &Model,
        meshes: &[Option<gltf_json::Index<gltf_json::Mesh>>],
        mesh_nodes: &[(usize, usize)],
    ) -> Self {
        let skeleton = &model.skeleton;
        let mut targets = Vec::with_capacity(skeleton.rest_pose().morph_weights().len());
        for joint in 0..skeleton.len() {
            let count = skeleton.morph_weight_range(joint).len();
            targets.extend((0..count).map(|target| (joint, target)));
        }
        let mut node_of_joint = vec![None; skeleton.len()];
        for &(joint, node) in mesh_nodes {
            node_of_joint[joint].get_or_insert(node);
        }
        let mut mesh_of_joint = vec![None; skeleton.len()];
        for instance in &model.instances {
            let mesh = meshes.get(instance.mesh).copied().flatten();
            if let (Some(slot), Some(mesh)) = (mesh_of_joint.get_mut(instance.joint), mesh) {
                slot.get_or_insert(mesh.value());
            }
        }
        Self {
            targets,
            node_of_joint,
            mesh_of_joint,
        }
    }
}

/// A colour an expression sets: which of a material's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Base,
    Emission,
    Shade,
    Matcap,
    Rim,
    Outline,
}

impl Colour {
    /// The colour `field` is, if an expression may set it.
    fn of(field: MaterialField) -> Option<Self> {
        Some(match field {
            MaterialField::BaseColor => Self::Base,
            MaterialField::Emissive => Self::Emission,
            MaterialField::Layer(LayerField::ShadeColor) => Self::Shade,
            MaterialField::Layer(LayerField::MatcapColor) => Self::Matcap,
            MaterialField::Layer(LayerField::RimColor) => Self::Rim,
            MaterialField::Layer(LayerField::OutlineColor) => Self::Outline,
            _ => return None,
        })
    }

    /// VRM 1.0's `type` of a colour bind.
    fn name_1_0(self) -> &'static str {
        match self {
            Self::Base => "color",
            Self::Emission => "emissionColor",
            Self::Shade => "shadeColor",
            Self::Matcap => "matcapColor",
            Self::Rim => "rimColor",
            Self::Outline => "outlineColor",
        }
    }

    /// VRM 0.x's `propertyName` (the matcap has none in 0.x; the loader passes 1.0's name
    /// through, so that is what reads back).
    fn name_0_x(self) -> &'static str {
        match self {
            Self::Base => "_Color",
            Self::Emission => "_EmissionColor",
            Self::Shade => "_ShadeColor",
            Self::Matcap => "matcapColor",
            Self::Rim => "_RimColor",
            Self::Outline => "_OutlineColor",
        }
    }
}

/// One expression's binds as a file names them.
#[derive(Default)]
struct Binds {
    /// (joint, target, weight).
    morphs: Vec<(usize, usize, f32)>,
    /// (material, colour, value at full weight, as many components as are bound).
    colours: Vec<(usize, Colour, Vec<f32>)>,
    /// (material, scale, offset).
    transforms: Vec<(usize, [f32; 2], [f32; 2])>,
}

impl Binds {
    /// The binds of `expression`; property binds a VRM file cannot hold are warnings.
    fn of(model: &Model, places: &MorphPlaces, expression: &Expression, document: &mut Document) -> Self {
        let mut binds = Self::default();
        for &(entry, weight) in &expression.morph_binds {
            if let Some(&(joint, target)) = places.targets.get(entry) {
                binds.morphs.push((joint, target, weight));
            }
        }
        let rest = model.skeleton.rest_pose().properties();
        for &(entry, change) in &expression.property_binds {
            let slot = (model.properties.slots().iter()).find(|s| (s.offset..s.offset + s.width).contains(&entry));
            let (Some(slot), Some(&initial)) = (slot, rest.get(entry)) else {
                continue;
            };
            let PropertyTarget::Material { material, field } = slot.target else {
                continue;
            };
            let (component, value) = (entry - slot.offset, initial + change);
            match (Colour::of(field), field) {
                (Some(colour), _) => binds.set_colour(material, colour, component, value, &rest[slot.offset..]),
                (None, MaterialField::TextureOffset(_)) => binds.transform(material).2[component.min(1)] = value,
                (None, MaterialField::TextureScale(_)) => binds.transform(material).1[component.min(1)] = value,
                _ => document.warn(format!(
                    "expression '{}': its bind of {} cannot be written in VRM (left out)",
                    expression.name, slot.pointer
                )),
            }
        }
        binds
    }

    /// Sets `component` of `colour` of `material` to `value`; components before it that are
    /// not bound keep their rest values (`rest`, from the slot's first).
    fn set_colour(&mut self, material: usize, colour: Colour, component: usize, value: f32, rest: &[f32]) {
        let at = self.colours.iter().position(|&(m, c, _)| (m, c) == (material, colour));
        let at = at.unwrap_or_else(|| {
            self.colours.push((material, colour, Vec::new()));
            self.colours.len() - 1
        });
        let values = &mut self.colours[at].2;
        while values.len() <= component {
            values.push(rest.get(values.len()).copied().unwrap_or(0.0));
        }
        values[component] = value;
    }

    /// The texture transform bind of `material`, added as the identity if it has none yet.
    fn transform(&mut self, material: usize) -> &mut (usize, [f32; 2], [f32; 2]) {
        let at = self.transforms.iter().position(|&(m, _, _)| m == material);
        let at = at.unwrap_or_else(|| {
            self.transforms.push((material, [1.0, 1.0], [0.0, 0.0]));
            self.transforms.len() - 1
        });
        &mut self.transforms[at]
    }
}

/// VRM 1.0's `expressions`: presets and custom ones by name, binds naming nodes.
pub fn expressions_1_0(
    model: &Model,
    expressions: &[Expression],
    places: &MorphPlaces,
    document: &mut Document,
) -> Value {
    let (mut preset, mut custom) = (Map::new(), Map::new());
    for expression in expressions {
        let binds = Binds::of(model, places, expression, document);
        let mut morphs = Vec::new();
        for (joint, target, weight) in binds.morphs {
            match places.node_of_joint.get(joint).copied().flatten() {
                Some(node) => morphs.push(json!({ "node": node, "index": target, "weight": weight })),
                None => document.warn(format!(
                    "expression '{}': joint '{}' draws no mesh to bind (left out)",
                    expression.name,
                    model.skeleton.name(joint)
                )),
            }
        }
        let colours: Vec<Value> = (binds.colours.iter())
            .map(|(material, colour, value)| json!({ "material": material, "type": colour.name_1_0(), "targetValue": value }))
            .collect();
        let transforms: Vec<Value> = (binds.transforms.iter())
            .map(|(material, scale, offset)| json!({ "material": material, "scale": scale, "offset": offset }))
            .collect();
        let json = json!({
            "isBinary": expression.is_binary,
            "overrideBlink": override_name(expression.override_blink),
            "overrideLookAt": override_name(expression.override_look_at),
            "overrideMouth": override_name(expression.override_mouth),
            "morphTargetBinds": morphs,
            "materialColorBinds": colours,
            "textureTransformBinds": transforms,
        });
        let kind = if expression.is_preset { &mut preset } else { &mut custom };
        kind.insert(expression.name.clone(), json);
    }
    json!({ "preset": preset, "custom": custom })
}

/// VRM 1.0's name of an override.
fn override_name(value: Override) -> &'static str {
    match value {
        Override::None => "none",
        Override::Block => "block",
        Override::Blend => "blend",
    }
}

/// VRM 0.x's `blendShapeMaster.blendShapeGroups`, in the expressions' order: presets by their
/// 0.x names, binds naming meshes (the loader binds every node drawing one), weights out of 100.
pub fn blend_shape_groups(
    model: &Model,
    expressions: &[Expression],
    places: &MorphPlaces,
    document: &mut Document,
) -> Value {
    let mut groups = Vec::with_capacity(expressions.len());
    for expression in expressions {
        let overrides = [
            expression.override_blink,
            expression.override_look_at,
            expression.override_mouth,
        ];
        if overrides.iter().any(|&o| o != Override::None) {
            document.warn(format!(
                "expression '{}': VRM 0.x has no overrides (left out)",
                expression.name
            ));
        }
        let preset = (VRM_0_X_PRESETS.iter()).find(|&&(_, name)| expression.is_preset && name == expression.name);
        let (name, preset) = match preset {
            Some(&(old, _)) => (old, old),
            None => (expression.name.as_str(), "unknown"),
        };
        let binds = Binds::of(model, places, expression, document);
        let mut morphs: Vec<(usize, usize, f32)> = Vec::new();
        for (joint, target, weight) in binds.morphs {
            let Some(mesh) = places.mesh_of_joint.get(joint).copied().flatten() else {
                document.warn(format!(
                    "expression '{}': joint '{}' draws no mesh to bind (left out)",
                    expression.name,
                    model.skeleton.name(joint)
                ));
                continue;
            };
            // A mesh drawn by several nodes is bound once: the loader binds each of them.
            if !morphs.iter().any(|&(m, t, _)| (m, t) == (mesh, target)) {
                morphs.push((mesh, target, weight));
            }
        }
        let morphs: Vec<Value> = (morphs.iter())
            .map(|&(mesh, index, weight)| json!({ "mesh": mesh, "index": index, "weight": weight * 100.0 }))
            .collect();
        let material_name = |material: usize| model.materials.get(material).map_or("", |m| m.name.as_str());
        let mut values: Vec<Value> = (binds.colours.iter())
            .map(|(material, colour, value)| {
                json!({ "materialName": material_name(*material), "propertyName": colour.name_0_x(), "targetValue": value })
            })
            .collect();
        // Unity's V runs up, glTF's down: the loader's offset is 1 - v - scale.
        values.extend(binds.transforms.iter().map(|&(material, scale, offset)| {
            let st = [scale[0], scale[1], offset[0], 1.0 - offset[1] - scale[1]];
            json!({ "materialName": material_name(material), "propertyName": "_MainTex_ST", "targetValue": st })
        }));
        groups.push(json!({
            "name": name,
            "presetName": preset,
            "isBinary": expression.is_binary,
            "binds": morphs,
            "materialValues": values,
        }));
    }
    json!({ "blendShapeGroups": groups })
}
