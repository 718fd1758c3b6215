//! `VRMC_node_constraint` written back on the constrained nodes, the inverse of
//! `asset::gltf::vrm_constraints`: the kind, its source node, its axis by name and its weight.

use glam::Vec3;
use serde_json::json;

use super::document::Document;
use crate::anim::avatar::{ConstraintKind, NodeConstraint};

pub const EXTENSION: &str = "VRMC_node_constraint";

/// `VRMC_node_constraint` on the constraint's destination node.
pub fn write_constraint(document: &mut Document, constraint: &NodeConstraint) {
    let (source, weight) = (constraint.source, constraint.weight);
    let json = match constraint.kind {
        ConstraintKind::Rotation => Some(json!({ "rotation": { "source": source, "weight": weight } })),
        ConstraintKind::Roll(axis) => (ROLL_AXES.iter().find(|(a, _)| *a == axis))
            .map(|(_, name)| json!({ "roll": { "source": source, "rollAxis": name, "weight": weight } })),
        ConstraintKind::Aim(axis) => (AIM_AXES.iter().find(|(a, _)| *a == axis))
            .map(|(_, name)| json!({ "aim": { "source": source, "aimAxis": name, "weight": weight } })),
    };
    let (Some(json), Some(node)) = (json, document.root.nodes.get_mut(constraint.destination)) else {
        let name = document
            .root
            .nodes
            .get(constraint.destination)
            .and_then(|n| n.name.clone());
        document.warn(format!(
            "node constraint on '{}': its axis is not one VRM names (left out)",
            name.unwrap_or_default()
        ));
        return;
    };
    let extensions = node.extensions.get_or_insert_with(Default::default);
    extensions
        .others
        .insert(EXTENSION.into(), json!({ "specVersion": "1.0", "constraint": json }));
    document.use_extension(EXTENSION, false);
}

/// A roll constraint's axes by name.
const ROLL_AXES: [(Vec3, &str); 3] = [(Vec3::X, "X"), (Vec3::Y, "Y"), (Vec3::Z, "Z")];

/// An aim constraint's axes by name.
const AIM_AXES: [(Vec3, &str); 6] = [
    (Vec3::X, "PositiveX"),
    (Vec3::NEG_X, "NegativeX"),
    (Vec3::Y, "PositiveY"),
    (Vec3::NEG_Y, "NegativeY"),
    (Vec3::Z, "PositiveZ"),
    (Vec3::NEG_Z, "NegativeZ"),
];
