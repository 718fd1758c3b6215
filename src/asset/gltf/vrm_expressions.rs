//! A VRM avatar's expressions, from 1.0's `expressions` or 0.x's `blendShapeMaster`, into
//! `anim::avatar::Expression`s as three-vrm reads them: 0.x presets renamed (joy → happy, a → aa,
//! blink_l → blinkLeft, ...), its weights out of 100 scaled to 1, a bind to a mesh bound on every
//! node that draws it, and its `_MainTex_ST` made an offset and scale with the V axis flipped.
//! Material colour and texture-transform binds become animated properties: the loader asks for
//! the pointers they set (`pointers`), and `finish` turns each into changes of those slots.
//! Each expression's weight gets a slot too, through which VRM animations set it.
//! Binds to MToon's own colours (shade, rim, matcap, outline) are noted as not shown.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::pointer::ChannelSlot;
use super::scenes::NodeJoints;
use super::vrm_json::{array, number};
use crate::anim::Skeleton;
use crate::anim::avatar::{Expression, Override, PRESETS};
use crate::asset::avatar::{VRM_0_X_PRESETS, VrmVersion};
use crate::asset::material::Material;
use crate::asset::model::MeshInstance;

/// The expressions with their morph binds, and their property binds waiting for slots.
#[derive(Default)]
pub struct ListedExpressions {
    expressions: Vec<Expression>,
    /// Per expression: (index into `pointers`, component, value at full weight).
    property_targets: Vec<Vec<(usize, usize, f32)>>,
    /// Per expression: the index into `pointers` of its weight.
    weight_pointers: Vec<usize>,
    /// The pointers the binds set, each once, and where each is in that list.
    pub pointers: Vec<String>,
    pointer_index: HashMap<String, usize>,
    /// The expressions' names, to find one listed twice.
    names: HashSet<String>,
    /// How many more morph binds may be read: a 0.x bind to a mesh binds every node drawing
    /// it, so a small file could otherwise ask for binds by the billion.
    morph_bind_budget: usize,
}

/// What the expressions are read against.
pub struct Rig<'a> {
    pub joint_of_node: &'a NodeJoints,
    pub skeleton: &'a Skeleton,
    pub instances: &'a [MeshInstance],
    pub materials: &'a [Material],
}

/// The fewest morph binds a file may have, however few morph weights its model has.
const MIN_MORPH_BIND_BUDGET: usize = 65_536;

/// The textures a texture-transform bind moves, by their place in a material's JSON.
const TRANSFORMED_TEXTURES: [&str; 5] = [
    "pbrMetallicRoughness/baseColorTexture",
    "emissiveTexture",
    "normalTexture",
    "pbrMetallicRoughness/metallicRoughnessTexture",
    "occlusionTexture",
];

/// Reads the expressions of `extension` (the file's `VRMC_vrm` or `VRM`).
pub fn list(version: VrmVersion, extension: &Value, rig: &Rig, warnings: &mut Vec<String>) -> ListedExpressions {
    let mut listed = ListedExpressions {
        morph_bind_budget: (4 * rig.skeleton.rest_pose().morph_weights().len()).max(MIN_MORPH_BIND_BUDGET),
        ..Default::default()
    };
    match version {
        VrmVersion::V1 => {
            for kind in ["preset", "custom"] {
                let entries = extension
                    .pointer(&format!("/expressions/{kind}"))
                    .and_then(Value::as_object);
                let mut entries: Vec<(&String, &Value)> = entries.into_iter().flatten().collect();
                // Presets in the specification's order (happy first), custom ones by name.
                entries.sort_by_key(|(name, _)| PRESETS.iter().position(|p| p == name));
                for (name, json) in entries {
                    if kind == "preset" && !PRESETS.contains(&name.as_str()) {
                        warnings.push(format!("VRM 1.0 expression '{name}' is not a preset (left out)"));
                        continue;
                    }
                    listed.add_1_0(name, kind == "preset", json, rig, warnings);
                }
            }
        }
        VrmVersion::V0 => {
            let mut joints_of_mesh: Vec<Vec<usize>> = Vec::new();
            for instance in rig.instances {
                if joints_of_mesh.len() <= instance.mesh {
                    joints_of_mesh.resize(instance.mesh + 1, Vec::new());
                }
                joints_of_mesh[instance.mesh].push(instance.joint);
            }
            let groups = extension
                .pointer("/blendShapeMaster/blendShapeGroups")
                .and_then(Value::as_array);
            for json in groups.into_iter().flatten() {
                listed.add_0_x(json, rig, &joints_of_mesh, warnings);
            }
        }
    }
    listed
}

impl ListedExpressions {
    fn add_1_0(&mut self, name: &str, is_preset: bool, json: &Value, rig: &Rig, warnings: &mut Vec<String>) {
        let object = format!("VRM 1.0 expression '{name}'");
        let override_of = |key: &str| match json.get(key).and_then(Value::as_str) {
            Some("block") => Override::Block,
            Some("blend") => Override::Blend,
            _ => Override::None,
        };
        let mut expression = Expression {
            name: name.to_owned(),
            is_preset,
            is_binary: json.get("isBinary").and_then(Value::as_bool).unwrap_or(false),
            override_blink: override_of("overrideBlink"),
            override_look_at: override_of("overrideLookAt"),
            override_mouth: override_of("overrideMouth"),
            ..Default::default()
        };
        for bind in array(json, "morphTargetBinds") {
            let node = bind.get("node").and_then(Value::as_u64);
            let joint = node.and_then(|n| rig.joint_of_node.get(usize::try_from(n).ok()?));
            let Some(joint) = joint else {
                warnings.push(format!("{object}: a morph bind names no node of the file (left out)"));
                continue;
            };
            let weight = number(bind, "weight").unwrap_or(1.0);
            self.bind_morph(&mut expression, rig.skeleton, (joint, bind, weight), &object, warnings);
        }
        let mut targets = Vec::new();
        for bind in array(json, "materialColorBinds") {
            let Some(material) = material_index(bind.get("material"), rig, &object, warnings) else {
                continue;
            };
            let value = vector(bind, "targetValue");
            let kind = bind.get("type").and_then(Value::as_str).unwrap_or_default();
            self.bind_colour(&mut targets, material, kind, &value, (&object, warnings));
        }
        for bind in array(json, "textureTransformBinds") {
            let Some(material) = material_index(bind.get("material"), rig, &object, warnings) else {
                continue;
            };
            let (scale, offset) = (vector(bind, "scale"), vector(bind, "offset"));
            let scale = [
                scale.first().copied().unwrap_or(1.0),
                scale.get(1).copied().unwrap_or(1.0),
            ];
            let offset = [
                offset.first().copied().unwrap_or(0.0),
                offset.get(1).copied().unwrap_or(0.0),
            ];
            self.bind_texture_transform(&mut targets, material, scale, offset);
        }
        self.push(expression, targets);
    }

    fn add_0_x(&mut self, json: &Value, rig: &Rig, joints_of_mesh: &[Vec<usize>], warnings: &mut Vec<String>) {
        let group_name = json.get("name").and_then(Value::as_str).unwrap_or_default();
        let preset = json.get("presetName").and_then(Value::as_str).unwrap_or("unknown");
        let renamed = VRM_0_X_PRESETS.iter().find(|(old, _)| old.eq_ignore_ascii_case(preset));
        let (name, is_preset) = match renamed {
            Some(&(_, name)) => (name.to_owned(), true),
            None if group_name.is_empty() => {
                warnings.push("VRM 0.x blend shape group without a preset or a name (left out)".to_owned());
                return;
            }
            None => (group_name.to_owned(), false),
        };
        if !self.names.insert(name.clone()) {
            warnings.push(format!(
                "VRM 0.x blend shape group '{group_name}': expression '{name}' is listed twice (left out)"
            ));
            return;
        }
        let object = format!("VRM 0.x expression '{name}'");
        let mut expression = Expression {
            name,
            is_preset,
            is_binary: json.get("isBinary").and_then(Value::as_bool).unwrap_or(false),
            ..Default::default()
        };
        for bind in array(json, "binds") {
            let mesh = bind
                .get("mesh")
                .and_then(Value::as_u64)
                .and_then(|m| usize::try_from(m).ok());
            let joints = mesh.and_then(|m| joints_of_mesh.get(m)).map_or(&[][..], Vec::as_slice);
            if joints.is_empty() {
                warnings.push(format!(
                    "{object}: a bind names mesh {mesh:?}, which no node draws (left out)"
                ));
            }
            let weight = number(bind, "weight").unwrap_or(100.0) / 100.0;
            for &joint in joints {
                self.bind_morph(&mut expression, rig.skeleton, (joint, bind, weight), &object, warnings);
            }
        }
        let mut targets = Vec::new();
        for bind in array(json, "materialValues") {
            let name = bind.get("materialName").and_then(Value::as_str).unwrap_or_default();
            let Some(material) = rig.materials.iter().position(|m| m.name == name) else {
                warnings.push(format!(
                    "{object}: a material bind names material '{name}', which the file does not have (left out)"
                ));
                continue;
            };
            let value = vector(bind, "targetValue");
            match bind.get("propertyName").and_then(Value::as_str).unwrap_or_default() {
                "_MainTex_ST" => {
                    let at = |i: usize, default: f32| value.get(i).copied().unwrap_or(default);
                    let scale = [at(0, 1.0), at(1, 1.0)];
                    // Unity's V runs up, glTF's down.
                    let offset = [at(2, 0.0), 1.0 - at(3, 0.0) - scale[1]];
                    self.bind_texture_transform(&mut targets, material, scale, offset);
                }
                property => {
                    let kind = match property {
                        "_Color" => "color",
                        "_EmissionColor" => "emissionColor",
                        "_ShadeColor" => "shadeColor",
                        "_RimColor" => "rimColor",
                        "_OutlineColor" => "outlineColor",
                        other => other,
                    };
                    self.bind_colour(&mut targets, material, kind, &value, (&object, warnings));
                }
            }
        }
        self.push(expression, targets);
    }

    /// Binds morph target `bind.index` of `joint` at `weight`, while the budget lasts.
    fn bind_morph(
        &mut self,
        expression: &mut Expression,
        skeleton: &Skeleton,
        (joint, bind, weight): (usize, &Value, f32),
        object: &str,
        warnings: &mut Vec<String>,
    ) {
        if self.morph_bind_budget == 0 {
            return;
        }
        self.morph_bind_budget -= 1;
        if self.morph_bind_budget == 0 {
            warnings.push(format!(
                "{object}: the expressions bind more morph weights than four times the model's {} (the rest are left out)",
                skeleton.rest_pose().morph_weights().len()
            ));
        }
        let weights = skeleton.morph_weight_range(joint);
        let index = bind
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok());
        match index.filter(|&i| i < weights.len()) {
            Some(index) => expression.morph_binds.push((weights.start + index, weight)),
            None => warnings.push(format!(
                "{object}: a morph bind names target {index:?} of '{}', which has {} (left out)",
                skeleton.name(joint),
                weights.len()
            )),
        }
    }

    fn push(&mut self, expression: Expression, targets: Vec<(usize, usize, f32)>) {
        let kind = if expression.is_preset { "preset" } else { "custom" };
        let weight = self.pointer(format!("/extensions/VRMC_vrm/expressions/{kind}/{}", expression.name));
        self.weight_pointers.push(weight);
        self.expressions.push(expression);
        self.property_targets.push(targets);
    }

    fn pointer(&mut self, pointer: String) -> usize {
        let next = self.pointers.len();
        let index = *self.pointer_index.entry(pointer.clone()).or_insert(next);
        if index == next {
            self.pointers.push(pointer);
        }
        index
    }

    /// Binds colour `kind` of `material` (the base, emission or one of MToon's colours) to
    /// `value`; an unknown kind is a warning about `object`.
    fn bind_colour(
        &mut self,
        targets: &mut Vec<(usize, usize, f32)>,
        material: usize,
        kind: &str,
        value: &[f32],
        (object, warnings): (&str, &mut Vec<String>),
    ) {
        let (field, width) = match kind {
            "color" => ("pbrMetallicRoughness/baseColorFactor", 4),
            "emissionColor" => ("emissiveFactor", 3),
            "shadeColor" => ("extensions/VRMC_materials_mtoon/shadeColorFactor", 3),
            "matcapColor" => ("extensions/VRMC_materials_mtoon/matcapFactor", 3),
            "rimColor" => ("extensions/VRMC_materials_mtoon/parametricRimColorFactor", 3),
            "outlineColor" => ("extensions/VRMC_materials_mtoon/outlineColorFactor", 3),
            other => {
                warnings.push(format!(
                    "{object}: a material bind sets '{other}', which no material has (left out)"
                ));
                return;
            }
        };
        let pointer = self.pointer(format!("/materials/{material}/{field}"));
        for (component, &target) in value.iter().enumerate().take(width) {
            targets.push((pointer, component, target));
        }
    }

    fn bind_texture_transform(
        &mut self,
        targets: &mut Vec<(usize, usize, f32)>,
        material: usize,
        scale: [f32; 2],
        offset: [f32; 2],
    ) {
        for texture in TRANSFORMED_TEXTURES {
            let base = format!("/materials/{material}/{texture}/extensions/KHR_texture_transform");
            for (field, value) in [("offset", offset), ("scale", scale)] {
                let pointer = self.pointer(format!("{base}/{field}"));
                targets.extend([(pointer, 0, value[0]), (pointer, 1, value[1])]);
            }
        }
    }

    /// The expressions, each property bind now the change of its slot's entry at full weight.
    /// `slots` (one per pointer) and `rest` come from resolving `pointers`; a texture the
    /// material does not have is no slot and no bind.
    pub fn finish(self, slots: &[Result<ChannelSlot, String>], rest: &[f32]) -> Vec<Expression> {
        let mut expressions = self.expressions;
        for (expression, weight) in expressions.iter_mut().zip(self.weight_pointers) {
            expression.weight_entry = slots
                .get(weight)
                .and_then(|slot| slot.as_ref().ok())
                .map(|slot| slot.offset);
        }
        for (expression, targets) in expressions.iter_mut().zip(self.property_targets) {
            for (pointer, component, target) in targets {
                let Some(Ok(slot)) = slots.get(pointer) else { continue };
                let entry = slot.offset + component;
                if let (true, Some(&initial)) = (component < slot.width, rest.get(entry)) {
                    expression.property_binds.push((entry, target - initial));
                }
            }
        }
        expressions
    }
}

fn material_index(value: Option<&Value>, rig: &Rig, object: &str, warnings: &mut Vec<String>) -> Option<usize> {
    let index = value.and_then(Value::as_u64).and_then(|m| usize::try_from(m).ok());
    let found = index.filter(|&m| m < rig.materials.len());
    if found.is_none() {
        warnings.push(format!(
            "{object}: a material bind names material {index:?}, which the file does not have (left out)"
        ));
    }
    found
}

fn vector(json: &Value, key: &str) -> Vec<f32> {
    (json.get(key).and_then(Value::as_array).into_iter().flatten())
        .take(4)
        .map(|v| v.as_f64().map(|v| v as f32).filter(|v| v.is_finite()).unwrap_or(0.0))
        .collect()
}
