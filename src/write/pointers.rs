//! Animated properties beyond node transforms and morph weights, written back: each property
//! slot a clip animates as KHR_animation_pointer channels whose pointers name the written
//! document's objects, and the nodes the file hides as KHR_node_visibility.
//!
//! Materials and lights keep their indices (one written per model entry); a camera is written
//! once per file camera (`cameras`), so its pointer names the written camera its node holds;
//! joint i is node i. A skinned mesh is written on a root node of its own, outside its joint's
//! subtree, so that node is hidden, at rest and by every channel, with the joint whose subtree
//! placed the mesh. Visibility is a boolean: its keys are unsigned bytes, 0 or 1, that step.

use gltf_json as json;
use serde_json::json as json_value;

use crate::asset::Model;
use crate::asset::animated::{CameraField, LightField, PropertySlot, PropertyTarget};
use crate::asset::camera::Projection;

use super::document::Document;

pub const POINTER_EXTENSION: &str = "KHR_animation_pointer";
pub const VISIBILITY_EXTENSION: &str = "KHR_node_visibility";

/// Each slot's pointers in the written document, or why it has none.
pub struct WrittenPointers {
    /// By slot, in the model's slot order.
    pointers: Vec<Result<Vec<String>, String>>,
    /// By slot, whether it is a boolean (visibility).
    booleans: Vec<bool>,
    /// By slot, where its floats start in `Pose::properties`.
    offsets: Vec<usize>,
}

impl WrittenPointers {
    /// The written pointers of every slot of `model`; `cameras`: per joint, the written camera
    /// its node holds; `mesh_nodes`: the nodes holding meshes, as (joint, node).
    pub fn new(
        document: &Document,
        model: &Model,
        cameras: &[Option<json::Index<json::Camera>>],
        mesh_nodes: &[(usize, usize)],
    ) -> Self {
        let slots = model.properties.slots();
        Self {
            pointers: slots
                .iter()
                .map(|slot| pointers_of(document, model, cameras, mesh_nodes, slot))
                .collect(),
            booleans: slots
                .iter()
                .map(|slot| matches!(slot.target, PropertyTarget::Visible { .. }))
                .collect(),
            offsets: slots.iter().map(|slot| slot.offset).collect(),
        }
    }

    /// The pointers of the slot at `offset` in `Pose::properties` (several where the model
    /// shows the property in several written objects) and whether it is a boolean; the
    /// slot's name and why there are none, where there are none.
    pub fn at(&self, model: &Model, offset: usize) -> Result<(&[String], bool), String> {
        let slot = (self.offsets.iter().position(|&o| o == offset)).ok_or("a property the model has no slot for")?;
        match &self.pointers[slot] {
            Ok(pointers) => Ok((pointers, self.booleans[slot])),
            Err(reason) => Err(format!("{} ({reason})", model.properties.slots()[slot].pointer)),
        }
    }
}

/// The pointers `slot` is written as.
fn pointers_of(
    document: &Document,
    model: &Model,
    cameras: &[Option<json::Index<json::Camera>>],
    mesh_nodes: &[(usize, usize)],
    slot: &PropertySlot,
) -> Result<Vec<String>, String> {
    match &slot.target {
        PropertyTarget::Material { material, .. } => {
            // The path below the material is the file's (glTF's, the one format with them).
            let below = (slot.pointer.strip_prefix("/materials/"))
                .and_then(|rest| rest.split_once('/'))
                .map(|(_, below)| below)
                .ok_or("not a glTF material pointer")?;
            Ok(vec![format!("/materials/{material}/{below}")])
        }
        PropertyTarget::Camera {
            cameras: entries,
            field,
        } => {
            let camera = entries.first().and_then(|&entry| model.cameras.get(entry));
            let camera = camera.ok_or("no node shows the camera")?;
            let written = cameras
                .get(camera.joint)
                .copied()
                .flatten()
                .ok_or("its camera is not written")?;
            let projection = match camera.projection {
                Projection::Perspective { .. } => "perspective",
                Projection::Orthographic { .. } => "orthographic",
            };
            let path = match field {
                CameraField::Yfov => "perspective/yfov".to_owned(),
                CameraField::AspectRatio => "perspective/aspectRatio".to_owned(),
                CameraField::Xmag => "orthographic/xmag".to_owned(),
                CameraField::Ymag => "orthographic/ymag".to_owned(),
                CameraField::Znear => format!("{projection}/znear"),
                CameraField::Zfar => format!("{projection}/zfar"),
            };
            Ok(vec![format!("/cameras/{}/{path}", written.value())])
        }
        PropertyTarget::Light { lights, field } => {
            let path = match field {
                LightField::Color => "color",
                LightField::Intensity => "intensity",
                LightField::Range => "range",
                LightField::InnerConeAngle => "spot/innerConeAngle",
                LightField::OuterConeAngle => "spot/outerConeAngle",
            };
            Ok(lights
                .iter()
                .map(|light| format!("/extensions/KHR_lights_punctual/lights/{light}/{path}"))
                .collect())
        }
        PropertyTarget::Visible { joint } => {
            let holders = skinned_holders(document, model, mesh_nodes)
                .filter(|&(placed_by, _)| is_within(model, placed_by, *joint))
                .map(|(_, node)| node);
            Ok(std::iter::once(*joint)
                .chain(holders)
                .map(|node| format!("/nodes/{node}/extensions/{VISIBILITY_EXTENSION}/visible"))
                .collect())
        }
        // The avatar's own values, named as the avatar's extension names them.
        PropertyTarget::AvatarValue => Ok(vec![slot.pointer.clone()]),
    }
}

/// The root nodes written for skinned meshes, as (joint that places the mesh, node).
fn skinned_holders<'a>(
    document: &'a Document,
    model: &'a Model,
    mesh_nodes: &'a [(usize, usize)],
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let joints = model.skeleton.len();
    mesh_nodes
        .iter()
        .copied()
        .filter(move |&(_, node)| node >= joints && document.root.nodes.get(node).is_some_and(|n| n.skin.is_some()))
}

/// Whether `joint` is `ancestor` or below it.
fn is_within(model: &Model, joint: usize, ancestor: usize) -> bool {
    std::iter::successors(Some(joint), |&j| model.skeleton.parent(j)).any(|j| j == ancestor)
}

/// Writes `"visible": false` on the nodes of the joints the file hides, and on the nodes of
/// skinned meshes that a hidden joint places.
pub fn write_node_visibility(document: &mut Document, model: &Model, mesh_nodes: &[(usize, usize)]) {
    let properties = &model.properties;
    let skeleton = &model.skeleton;
    let mut shown = vec![true; skeleton.len()];
    let rest = skeleton.rest_pose().properties();
    properties.visible_joints(skeleton.hierarchy(), rest, &mut shown);
    let holders: Vec<usize> = skinned_holders(document, model, mesh_nodes)
        .filter(|&(joint, _)| !shown.get(joint).copied().unwrap_or(true))
        .map(|(_, node)| node)
        .collect();
    let hidden: Vec<usize> = (0..skeleton.len())
        .filter(|&joint| properties.hidden_at_rest(joint))
        .chain(holders)
        .collect();
    if hidden.is_empty() {
        return;
    }
    for node in hidden {
        if let Some(node) = document.root.nodes.get_mut(node) {
            let extensions = node.extensions.get_or_insert_with(Default::default);
            (extensions.others).insert(VISIBILITY_EXTENSION.into(), json_value!({ "visible": false }));
        }
    }
    document.use_extension(VISIBILITY_EXTENSION, false);
}

/// A KHR_animation_pointer channel of sampler `sampler` animating `pointer`.
pub fn pointer_channel(sampler: usize, pointer: &str) -> serde_json::Value {
    let mut extensions = serde_json::Map::new();
    extensions.insert(POINTER_EXTENSION.into(), json_value!({ "pointer": pointer }));
    json_value!({
        "sampler": sampler,
        "target": { "path": "pointer", "extensions": extensions },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::animated::{AnimatedProperties, MaterialField};
    use crate::asset::demo::demo_model;
    use crate::asset::{Camera, Projection};

    fn slot(pointer: &str, target: PropertyTarget, offset: usize) -> PropertySlot {
        PropertySlot {
            pointer: pointer.into(),
            target,
            offset,
            width: 1,
        }
    }

    #[test]
    fn pointers_name_the_written_cameras_lights_and_nodes() {
        let mut model = demo_model();
        let camera = |index, joint| Camera {
            name: format!("camera {index}"),
            index,
            joint,
            projection: Projection::Orthographic {
                xmag: 1.0,
                ymag: 1.0,
                znear: 0.1,
                zfar: 10.0,
            },
        };
        // File camera 1 is used first, so it is written first; file camera 0 is on two nodes.
        model.cameras = vec![camera(1, 1), camera(0, 0), camera(0, 2)];
        model.properties = AnimatedProperties::new(
            vec![
                slot(
                    "/cameras/0/orthographic/znear",
                    PropertyTarget::Camera {
                        cameras: vec![1, 2],
                        field: CameraField::Znear,
                    },
                    0,
                ),
                slot(
                    "/extensions/KHR_lights_punctual/lights/0/intensity",
                    PropertyTarget::Light {
                        lights: vec![0, 3],
                        field: LightField::Intensity,
                    },
                    1,
                ),
                slot("Bar.Visibility", PropertyTarget::Visible { joint: 2 }, 2),
                slot(
                    "Bar.DiffuseColor",
                    PropertyTarget::Material {
                        material: 0,
                        field: MaterialField::Metallic,
                    },
                    3,
                ),
                slot(
                    "/materials/4/pbrMetallicRoughness/metallicFactor",
                    PropertyTarget::Material {
                        material: 1,
                        field: MaterialField::Metallic,
                    },
                    4,
                ),
            ],
            Vec::new(),
        );
        let mut document = Document::new("test".into());
        let cameras = super::super::cameras::write_cameras(&mut document, &model);
        let written = WrittenPointers::new(&document, &model, &cameras, &[]);
        let pointers = |offset| written.at(&model, offset).map(|(p, boolean)| (p.to_vec(), boolean));
        assert_eq!(
            pointers(0),
            Ok((vec!["/cameras/1/orthographic/znear".to_owned()], false))
        );
        assert_eq!(
            pointers(1),
            Ok((
                vec![
                    "/extensions/KHR_lights_punctual/lights/0/intensity".to_owned(),
                    "/extensions/KHR_lights_punctual/lights/3/intensity".to_owned(),
                ],
                false
            ))
        );
        assert_eq!(
            pointers(2),
            Ok((vec!["/nodes/2/extensions/KHR_node_visibility/visible".to_owned()], true))
        );
        assert_eq!(
            pointers(3),
            Err("Bar.DiffuseColor (not a glTF material pointer)".to_owned())
        );
        assert_eq!(
            pointers(4),
            Ok((
                vec!["/materials/1/pbrMetallicRoughness/metallicFactor".to_owned()],
                false
            ))
        );
    }
}
