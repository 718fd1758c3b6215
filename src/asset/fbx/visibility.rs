//! FBX node visibility, as glTF's KHR_node_visibility: a node whose `Visibility` is below 0.5
//! is hidden with everything under it (FBX's "Visibility Inheritance", on unless a file turns
//! it off), and a stack's Visibility curves step a node between shown and hidden. Each
//! animated node's visibility is one property slot, named `NODE.Visibility`.

use std::collections::HashMap;

use super::nodes::Nodes;
use crate::anim::{Channel, ChannelTrack, Interpolation, WeightsTrack};
use crate::asset::animated::{AnimatedProperties, PropertySlot, PropertyTarget};

/// The property slots the stacks' Visibility curves need, assigned as the stacks are read.
#[derive(Default)]
pub struct VisibilitySlots {
    /// Per slot, the joint it shows or hides.
    joints: Vec<usize>,
    /// Per joint with a slot, its slot (a file may animate many nodes' visibility).
    slot_of_joint: HashMap<usize, usize>,
}

impl VisibilitySlots {
    /// The channel of a baked `Visibility` property of `joint`'s node, stepping between 0 and 1.
    pub fn channel(&mut self, joint: usize, keys: &[ufbx::BakedVec3]) -> Result<Channel, String> {
        let offset = *self.slot_of_joint.entry(joint).or_insert_with(|| {
            self.joints.push(joint);
            self.joints.len() - 1
        });
        let times: Vec<f32> = keys.iter().map(|k| k.time as f32).collect();
        let values = keys.iter().map(|k| if k.value.x >= 0.5 { 1.0 } else { 0.0 }).collect();
        let track = WeightsTrack::new(Interpolation::Step, times, 1, values).map_err(|e| e.to_string())?;
        Ok(Channel {
            joint,
            track: ChannelTrack::Properties { offset, track },
        })
    }

    /// The model's animated properties (one slot per animated node, and the nodes the file
    /// hides) and their rest values. A mesh the file hides is named in `warnings`: exporters
    /// keep hidden work meshes, and a file may hide its only one.
    pub fn finish(
        self,
        scene: &ufbx::Scene,
        nodes: &Nodes,
        warnings: &mut Vec<String>,
    ) -> (AnimatedProperties, Vec<f32>) {
        let shown = |joint: usize| nodes.node(scene, joint).is_none_or(is_shown);
        for node in (0..nodes.len()).filter_map(|joint| nodes.node(scene, joint)) {
            if node.mesh.is_some() && !is_shown(node) {
                warnings.push(format!(
                    "node '{}': the file hides its mesh (Visibility 0), so it is not drawn",
                    node.element.name
                ));
            }
        }
        let slots = (self.joints.iter().enumerate())
            .map(|(offset, &joint)| PropertySlot {
                pointer: format!(
                    "{}.Visibility",
                    nodes.node(scene, joint).map_or("", |n| &n.element.name)
                ),
                target: PropertyTarget::Visible { joint },
                offset,
                width: 1,
            })
            .collect();
        let rest = (self.joints.iter())
            .map(|&joint| if shown(joint) { 1.0 } else { 0.0 })
            .collect();
        let hidden_at_rest = (0..nodes.len()).map(|joint| !shown(joint)).collect();
        (AnimatedProperties::new(slots, hidden_at_rest), rest)
    }
}

/// Whether the file shows `node` at rest: its `Visibility` is at least 0.5. Read as a number,
/// not through ufbx's `visible`, which reads the property's integer value: FBX 7 files write a
/// number from 0 to 1, and 3ds Max's FBX 5 files 100 with an integer value of 0. A property the
/// node animates but does not state is made up by ufbx with the value 0: it is shown, FBX's
/// default.
fn is_shown(node: &ufbx::Node) -> bool {
    use ufbx::PropFlags;
    (node.element.props.find_prop("Visibility"))
        .filter(|p| {
            ![PropFlags::NO_VALUE, PropFlags::NOT_FOUND, PropFlags::SYNTHETIC]
                .iter()
                .any(|&f| p.flags.has_any(f))
        })
        .is_none_or(|p| p.value_vec4.x >= 0.5)
}
