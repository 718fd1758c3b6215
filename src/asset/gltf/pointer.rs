//! KHR_animation_pointer targets other than node transforms (those become ordinary channels in
//! `json`), and KHR_node_visibility: each JSON pointer a clip animates becomes one slot of the
//! model's `AnimatedProperties`, holding the file's value at rest.
//!
//! Pointers rigscope reads: material factors (base colour, metallic, roughness, emissive,
//! alpha cutoff, KHR_materials_emissive_strength), KHR_texture_transform offset, scale and
//! rotation of a material's five textures, camera projection fields, KHR_lights_punctual
//! light fields, and `/nodes/N/extensions/KHR_node_visibility/visible`. Any other pointer, an
//! index out of range, or a texture the material does not have is a warning naming the
//! channel, and the channel is not played.

use std::collections::HashMap;

use gltf_json::Root;

use super::scenes::NodeJoints;
use crate::asset::animated::{
    AnimatedProperties, CameraField, LayerField, LightField, MaterialField, PropertySlot, PropertyTarget,
};
use crate::asset::camera::{Camera, Projection};
use crate::asset::light::{LightKind, PunctualLight};
use crate::asset::material::MaterialTexture;
use crate::asset::material::{AlphaMode, Material};
use crate::asset::model::{Mesh, MeshInstance};

/// A channel whose target is a pointer `json` did not turn into a node channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerChannel {
    /// The channel's index in the file's animation.
    pub number: usize,
    pub sampler: usize,
    pub pointer: String,
}

/// What the pointers are resolved against.
pub struct Scene<'a> {
    pub root: &'a Root,
    pub joint_of_node: &'a NodeJoints,
    /// The skeleton's joints.
    pub joint_count: usize,
    pub materials: &'a [Material],
    pub meshes: &'a [Mesh],
    pub instances: &'a [MeshInstance],
    pub cameras: &'a [Camera],
    pub lights: &'a [PunctualLight],
    /// Per file node, its KHR_node_visibility `visible`.
    pub node_visible: &'a [Option<bool>],
}

/// The model's table of animated properties, the rest values of its slots, and per animation
/// and pointer channel, the slot it drives and the joint it is listed under (none: not played,
/// a warning says why); per pointer that some other part of the file sets (a VRM expression's
/// material binds), its slot or why it has none.
pub struct Resolved {
    pub properties: AnimatedProperties,
    pub rest: Vec<f32>,
    pub channel_slots: Vec<Vec<Option<ChannelSlot>>>,
    pub set_slots: Vec<Result<ChannelSlot, String>>,
}

/// Where a pointer channel writes, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelSlot {
    pub offset: usize,
    pub width: usize,
    /// The joint whose node the property belongs to (the curve view lists it there).
    pub joint: usize,
    /// A boolean (visibility): keys are 0 or 1 and always step.
    pub boolean: bool,
}

/// Gives every distinct pointer of `channels` (per animation) and of `set` a slot.
pub fn resolve(
    scene: &Scene,
    channels: &[Vec<PointerChannel>],
    set: &[String],
    warnings: &mut Vec<String>,
) -> Resolved {
    let holders = Holders::new(scene);
    let mut table = SlotTable::default();
    let mut channel_slots = Vec::with_capacity(channels.len());
    for (animation, list) in channels.iter().enumerate() {
        let mut resolved = Vec::with_capacity(list.len());
        for channel in list {
            let slot = table.slot(scene, &holders, &channel.pointer);
            if let Err(problem) = &slot {
                warnings.push(format!(
                    "/animations/{animation}/channels/{}: it animates {} (KHR_animation_pointer), {problem} (not played)",
                    channel.number, channel.pointer
                ));
            }
            resolved.push(slot.ok());
        }
        channel_slots.push(resolved);
    }
    let set_slots = set.iter().map(|pointer| table.slot(scene, &holders, pointer)).collect();
    let mut hidden = vec![false; scene.joint_count];
    for (node, visible) in scene.node_visible.iter().enumerate() {
        if let (Some(false), Some(joint)) = (visible, scene.joint_of_node.get(node)) {
            hidden[joint] = true;
        }
    }
    Resolved {
        properties: AnimatedProperties::new(table.slots, hidden),
        rest: table.rest,
        channel_slots,
        set_slots,
    }
}

/// The slots laid out so far, one per distinct pointer (files may repeat a pointer in many
/// animations).
#[derive(Default)]
struct SlotTable {
    slot_of: HashMap<String, usize>,
    slots: Vec<PropertySlot>,
    rest: Vec<f32>,
    joints: Vec<usize>,
}

impl SlotTable {
    fn slot(&mut self, scene: &Scene, holders: &Holders, pointer: &str) -> Result<ChannelSlot, String> {
        let index = match self.slot_of.get(pointer) {
            Some(&index) => index,
            None => {
                let property = target_of(scene, holders, pointer)?;
                self.slot_of.insert(pointer.to_owned(), self.slots.len());
                self.slots.push(PropertySlot {
                    pointer: pointer.to_owned(),
                    target: property.target,
                    offset: self.rest.len(),
                    width: property.rest.len(),
                });
                self.rest.extend_from_slice(&property.rest);
                self.joints.push(property.joint);
                self.slots.len() - 1
            }
        };
        let slot = &self.slots[index];
        Ok(ChannelSlot {
            offset: slot.offset,
            width: slot.width,
            joint: self.joints[index],
            boolean: matches!(slot.target, PropertyTarget::Visible { .. }),
        })
    }
}

/// Who shows each file material, camera and light, found once for all pointers.
struct Holders {
    /// Per material, the joint of the first node whose mesh draws it.
    material_joint: Vec<Option<usize>>,
    /// Per file camera and light, the model's entries (`Model::cameras`, `lights`) for it.
    cameras: Vec<Vec<usize>>,
    lights: Vec<Vec<usize>>,
}

impl Holders {
    fn new(scene: &Scene) -> Self {
        let mut material_joint = vec![None; scene.materials.len()];
        for instance in scene.instances {
            let primitives = scene.meshes.get(instance.mesh).map_or(&[][..], |mesh| &mesh.primitives);
            for material in primitives.iter().filter_map(|p| p.material) {
                if let Some(joint @ None) = material_joint.get_mut(material) {
                    *joint = Some(instance.joint);
                }
            }
        }
        let declared_lights = scene
            .root
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref());
        let mut cameras = vec![Vec::new(); scene.root.cameras.len()];
        let mut lights = vec![Vec::new(); declared_lights.map_or(0, |l| l.lights.len())];
        // A node holds at most one camera and one light: its entries, by joint.
        let mut camera_of_joint = vec![None; scene.joint_count];
        for (entry, camera) in scene.cameras.iter().enumerate() {
            if let Some(slot) = camera_of_joint.get_mut(camera.joint) {
                *slot = Some(entry);
            }
        }
        let mut light_of_joint = vec![None; scene.joint_count];
        for (entry, light) in scene.lights.iter().enumerate() {
            if let Some(slot) = light_of_joint.get_mut(light.joint) {
                *slot = Some(entry);
            }
        }
        for (node, json) in scene.root.nodes.iter().enumerate() {
            let Some(joint) = scene.joint_of_node.get(node) else {
                continue;
            };
            let camera = json.camera.map(|c| c.value());
            let entry = camera_of_joint.get(joint).copied().flatten();
            if let (Some(list), Some(entry)) = (camera.and_then(|c| cameras.get_mut(c)), entry) {
                list.push(entry);
            }
            let light = json.extensions.as_ref().and_then(|e| e.khr_lights_punctual.as_ref());
            let entry = light_of_joint.get(joint).copied().flatten();
            if let (Some(list), Some(entry)) = (light.and_then(|l| lights.get_mut(l.light.value())), entry) {
                list.push(entry);
            }
        }
        Self {
            material_joint,
            cameras,
            lights,
        }
    }
}

/// A pointer's target, its value in the file, and the joint it is listed under.
struct Property {
    target: PropertyTarget,
    rest: Vec<f32>,
    joint: usize,
}

fn target_of(scene: &Scene, holders: &Holders, pointer: &str) -> Result<Property, String> {
    let segments: Vec<&str> = pointer.strip_prefix('/').unwrap_or("").split('/').collect();
    match segments.as_slice() {
        ["materials", index, rest @ ..] => material_property(scene, holders, index, rest),
        ["cameras", index, rest @ ..] => camera_property(scene, holders, index, rest),
        ["extensions", "KHR_lights_punctual", "lights", index, rest @ ..] => {
            light_property(scene, holders, index, rest)
        }
        ["nodes", index, "extensions", "KHR_node_visibility", "visible"] => {
            let node = parse_index(index, scene.joint_of_node.node_count(), "node")?;
            let joint = (scene.joint_of_node.get(node)).ok_or("its node is not in the scene shown")?;
            let visible = scene.node_visible.get(node).copied().flatten().unwrap_or(true);
            Ok(Property {
                target: PropertyTarget::Visible { joint },
                rest: vec![if visible { 1.0 } else { 0.0 }],
                joint,
            })
        }
        // Not pointers of the glTF JSON: where a VRM avatar keeps an expression's weight and
        // the rotation its eyes look by.
        ["extensions", "VRMC_vrm", "expressions", "preset" | "custom", _] if scene.joint_count > 0 => Ok(Property {
            target: PropertyTarget::AvatarValue,
            rest: vec![0.0],
            joint: 0,
        }),
        ["extensions", "VRMC_vrm", "lookAt", "rotation"] if scene.joint_count > 0 => Ok(Property {
            target: PropertyTarget::AvatarValue,
            rest: vec![0.0, 0.0, 0.0, 1.0],
            joint: 0,
        }),
        _ => Err("which rigscope does not play".into()),
    }
}

/// An array index as the pointer writes it (digits only, without leading zeros, as JSON
/// pointers write indices), below `count`. One spelling per index keeps one slot per property:
/// `/cameras/00/...` would otherwise be a second copy of `/cameras/0/...`.
fn parse_index(text: &str, count: usize, what: &str) -> Result<usize, String> {
    let canonical = text == "0" || !text.starts_with('0');
    let index = (canonical && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse::<usize>().ok())
        .flatten()
        .ok_or_else(|| format!("but \"{text}\" is not a {what} index"))?;
    if index >= count {
        return Err(format!("but {what} {index} does not exist"));
    }
    Ok(index)
}

fn material_property(scene: &Scene, holders: &Holders, index: &str, path: &[&str]) -> Result<Property, String> {
    let material = parse_index(index, scene.materials.len(), "material")?;
    let m = &scene.materials[material];
    let cutoff = match m.alpha {
        AlphaMode::Mask { cutoff } => cutoff,
        _ => 0.5,
    };
    let texture_field = |texture: MaterialTexture, field: &str| -> Result<(MaterialField, Vec<f32>), String> {
        let Some(reference) = texture.of(m) else {
            return Err(format!("but material {material} has no such texture"));
        };
        let transform = reference.transform;
        match field {
            "offset" => Ok((
                MaterialField::TextureOffset(texture),
                transform.offset.to_array().to_vec(),
            )),
            "scale" => Ok((
                MaterialField::TextureScale(texture),
                transform.scale.to_array().to_vec(),
            )),
            "rotation" => Ok((MaterialField::TextureRotation(texture), vec![transform.rotation])),
            _ => Err("which rigscope does not play".into()),
        }
    };
    let (field, rest) = match path {
        ["pbrMetallicRoughness", "baseColorFactor"] => (MaterialField::BaseColor, m.base_color.to_array().to_vec()),
        ["pbrMetallicRoughness", "metallicFactor"] => (MaterialField::Metallic, vec![m.metallic]),
        ["pbrMetallicRoughness", "roughnessFactor"] => (MaterialField::Roughness, vec![m.roughness]),
        ["emissiveFactor"] => (MaterialField::Emissive, m.emissive.to_array().to_vec()),
        ["alphaCutoff"] => (MaterialField::AlphaCutoff, vec![cutoff]),
        ["normalTexture", "scale"] => (MaterialField::NormalScale, vec![m.normal_scale]),
        ["occlusionTexture", "strength"] => (MaterialField::OcclusionStrength, vec![m.occlusion_strength]),
        ["extensions", "KHR_materials_emissive_strength", "emissiveStrength"] => {
            (MaterialField::EmissiveStrength, vec![m.emissive_strength])
        }
        ["extensions", extension, property] if LayerField::from_path(extension, property).is_some() => {
            let field = LayerField::from_path(extension, property).expect("matched above");
            let rest = field.read(&m.layers).ok_or("but the material is not MToon")?;
            (MaterialField::Layer(field), rest)
        }
        [texture @ .., "extensions", "KHR_texture_transform", field] => {
            let slot = match texture {
                ["pbrMetallicRoughness", "baseColorTexture"] => MaterialTexture::BaseColor,
                ["pbrMetallicRoughness", "metallicRoughnessTexture"] => MaterialTexture::MetallicRoughness,
                ["normalTexture"] => MaterialTexture::Normal,
                ["occlusionTexture"] => MaterialTexture::Occlusion,
                ["emissiveTexture"] => MaterialTexture::Emissive,
                ["extensions", extension, name] => match MaterialTexture::of_extension(extension, name) {
                    Some(texture) => texture,
                    None => return Err("which rigscope does not play".into()),
                },
                _ => return Err("which rigscope does not play".into()),
            };
            texture_field(slot, field)?
        }
        _ => return Err("which rigscope does not play".into()),
    };
    // Listed under the first node that draws the material (joint 0 without one, which a file
    // without nodes does not have: only lists read a channel's joint).
    let joint = holders.material_joint[material].unwrap_or(0);
    Ok(Property {
        target: PropertyTarget::Material { material, field },
        rest,
        joint,
    })
}

fn camera_property(scene: &Scene, holders: &Holders, index: &str, path: &[&str]) -> Result<Property, String> {
    let camera = parse_index(index, holders.cameras.len(), "camera")?;
    let entries = holders.cameras[camera].clone();
    let Some(&first) = entries.first() else {
        return Err(format!("but no node shows camera {camera}"));
    };
    let field = match path {
        ["perspective", "yfov"] => CameraField::Yfov,
        ["perspective", "aspectRatio"] => CameraField::AspectRatio,
        ["orthographic", "xmag"] => CameraField::Xmag,
        ["orthographic", "ymag"] => CameraField::Ymag,
        [_, "znear"] => CameraField::Znear,
        [_, "zfar"] => CameraField::Zfar,
        _ => return Err("which rigscope does not play".into()),
    };
    let value = match (scene.cameras[first].projection, field, path[0]) {
        (Projection::Perspective { yfov, .. }, CameraField::Yfov, _) => yfov,
        (Projection::Perspective { aspect_ratio, .. }, CameraField::AspectRatio, _) => aspect_ratio.unwrap_or(0.0),
        (Projection::Perspective { znear, .. }, CameraField::Znear, "perspective") => znear,
        (Projection::Perspective { zfar, .. }, CameraField::Zfar, "perspective") => zfar.unwrap_or(0.0),
        (Projection::Orthographic { xmag, .. }, CameraField::Xmag, _) => xmag,
        (Projection::Orthographic { ymag, .. }, CameraField::Ymag, _) => ymag,
        (Projection::Orthographic { znear, .. }, CameraField::Znear, "orthographic") => znear,
        (Projection::Orthographic { zfar, .. }, CameraField::Zfar, "orthographic") => zfar,
        _ => return Err(format!("but camera {camera} is not {}", path[0])),
    };
    Ok(Property {
        target: PropertyTarget::Camera {
            cameras: entries,
            field,
        },
        rest: vec![value],
        joint: scene.cameras[first].joint,
    })
}

fn light_property(scene: &Scene, holders: &Holders, index: &str, path: &[&str]) -> Result<Property, String> {
    let light = parse_index(index, holders.lights.len(), "light")?;
    let entries = holders.lights[light].clone();
    let Some(&first) = entries.first() else {
        return Err(format!("but no node holds light {light}"));
    };
    let held = &scene.lights[first];
    let (field, rest) = match (path, held.kind) {
        (["color"], _) => (LightField::Color, held.color.to_array().to_vec()),
        (["intensity"], _) => (LightField::Intensity, vec![held.intensity]),
        (["range"], _) => (LightField::Range, vec![held.range.unwrap_or(0.0)]),
        (["spot", "innerConeAngle"], LightKind::Spot { inner, .. }) => (LightField::InnerConeAngle, vec![inner]),
        (["spot", "outerConeAngle"], LightKind::Spot { outer, .. }) => (LightField::OuterConeAngle, vec![outer]),
        (["spot", _], _) => return Err(format!("but light {light} is not a spot light")),
        _ => return Err("which rigscope does not play".into()),
    };
    Ok(Property {
        target: PropertyTarget::Light { lights: entries, field },
        rest,
        joint: held.joint,
    })
}

#[cfg(test)]
mod tests {
    use super::parse_index;

    #[test]
    fn indices_have_one_spelling() {
        assert_eq!(parse_index("0", 3, "camera"), Ok(0));
        assert_eq!(parse_index("2", 3, "camera"), Ok(2));
        assert_eq!(parse_index("3", 3, "camera"), Err("but camera 3 does not exist".into()));
        for alias in ["00", "02", "+1", "1.0", ""] {
            assert_eq!(
                parse_index(alias, 3, "camera"),
                Err(format!("but \"{alias}\" is not a camera index"))
            );
        }
    }
}
