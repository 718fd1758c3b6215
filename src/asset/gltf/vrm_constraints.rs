//! `VRMC_node_constraint` on the file's nodes: roll, aim and rotation constraints, each on the
//! node that carries it, ordered sources first (a constraint whose source another constraint
//! turns comes after it). A constraint naming a node the file does not have, an unknown axis,
//! or a loop of constraints is left out with a warning.

use glam::Vec3;
use gltf_json::Root;
use serde_json::Value;

use super::scenes::NodeJoints;
use crate::anim::avatar::{ConstraintKind, NodeConstraint};

pub const EXTENSION: &str = "VRMC_node_constraint";

/// The file's node constraints, sources first.
pub fn load_constraints(root: &Root, joint_of_node: &NodeJoints, warnings: &mut Vec<String>) -> Vec<NodeConstraint> {
    let mut constraints = Vec::new();
    for (node, json) in root.nodes.iter().enumerate() {
        let Some(extension) = json.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)) else {
            continue;
        };
        let Some(destination) = joint_of_node.get(node) else {
            continue;
        };
        let constraint = extension.get("constraint");
        let parsed = (constraint.and_then(|c| c.as_object()).into_iter().flatten())
            .next()
            .and_then(|(kind, json)| parse(kind, json, destination, joint_of_node));
        match parsed {
            Some(constraint) => constraints.push(constraint),
            None => warnings.push(format!(
                "/nodes/{node}: its {EXTENSION} is not a roll, aim or rotation constraint with a source node of the file and a known axis (left out)"
            )),
        }
    }
    sources_first(constraints, warnings)
}

fn parse(kind: &str, json: &Value, destination: usize, joint_of_node: &NodeJoints) -> Option<NodeConstraint> {
    let source = joint_of_node.get(usize::try_from(json.get("source")?.as_u64()?).ok()?)?;
    let weight = json.get("weight").and_then(Value::as_f64).map_or(1.0, |w| w as f32);
    let axis = |key: &str| json.get(key).and_then(Value::as_str);
    let kind = match kind {
        "rotation" => ConstraintKind::Rotation,
        "roll" => ConstraintKind::Roll(match axis("rollAxis")? {
            "X" => Vec3::X,
            "Y" => Vec3::Y,
            "Z" => Vec3::Z,
            _ => return None,
        }),
        "aim" => ConstraintKind::Aim(match axis("aimAxis")? {
            "PositiveX" => Vec3::X,
            "NegativeX" => Vec3::NEG_X,
            "PositiveY" => Vec3::Y,
            "NegativeY" => Vec3::NEG_Y,
            "PositiveZ" => Vec3::Z,
            "NegativeZ" => Vec3::NEG_Z,
            _ => return None,
        }),
        _ => return None,
    };
    Some(NodeConstraint {
        destination,
        source,
        kind,
        weight: if weight.is_finite() { weight } else { 1.0 },
    })
}

/// `constraints` reordered so that each comes after any constraint on its source; those in a
/// loop are left out.
fn sources_first(mut left: Vec<NodeConstraint>, warnings: &mut Vec<String>) -> Vec<NodeConstraint> {
    let mut ordered = Vec::with_capacity(left.len());
    loop {
        let ready = |c: &NodeConstraint, others: &[NodeConstraint]| !others.iter().any(|o| o.destination == c.source);
        let Some(next) = (0..left.len()).find(|&i| ready(&left[i], &left)) else {
            break;
        };
        ordered.push(left.remove(next));
    }
    if !left.is_empty() {
        warnings.push(format!(
            "{EXTENSION}: {} constraints depend on each other in a loop (left out)",
            left.len()
        ));
    }
    ordered
}
