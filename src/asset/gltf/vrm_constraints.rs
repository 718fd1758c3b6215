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

/// `constraints` reordered so that each comes after the constraint on its source; those in a
/// loop, and those that depend on one, are left out. A joint holds at most one constraint, so
/// each depends on at most one other: every chain is walked once.
fn sources_first(constraints: Vec<NodeConstraint>, warnings: &mut Vec<String>) -> Vec<NodeConstraint> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Walking,
        Placed,
        Looped,
    }
    let joints = (constraints.iter())
        .map(|c| c.destination.max(c.source) + 1)
        .max()
        .unwrap_or(0);
    let mut on_joint = vec![None; joints];
    for (index, constraint) in constraints.iter().enumerate() {
        on_joint[constraint.destination] = Some(index);
    }
    let mut state = vec![State::New; constraints.len()];
    let (mut order, mut chain) = (Vec::with_capacity(constraints.len()), Vec::new());
    for start in 0..constraints.len() {
        // Up the sources to one already placed (or to none), then placed sources first.
        let mut at = Some(start);
        while let Some(index) = at.filter(|&i| state[i] == State::New) {
            state[index] = State::Walking;
            chain.push(index);
            at = on_joint[constraints[index].source];
        }
        let looped = at.is_some_and(|i| matches!(state[i], State::Walking | State::Looped));
        for &index in chain.iter().rev() {
            state[index] = if looped { State::Looped } else { State::Placed };
            if !looped {
                order.push(index);
            }
        }
        chain.clear();
    }
    let left_out = constraints.len() - order.len();
    if left_out > 0 {
        warnings.push(format!(
            "{EXTENSION}: {left_out} constraints depend on each other in a loop (left out)"
        ));
    }
    order.into_iter().map(|index| constraints[index]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(destination: usize, source: usize) -> NodeConstraint {
        NodeConstraint {
            destination,
            source,
            kind: ConstraintKind::Rotation,
            weight: 1.0,
        }
    }

    #[test]
    fn sources_come_first_and_loops_are_left_out() {
        let mut warnings = Vec::new();
        // 3 follows 2, which follows 1; 5 and 6 follow each other, 7 follows that loop.
        let listed = vec![on(3, 2), on(5, 6), on(2, 1), on(7, 5), on(6, 5), on(9, 0)];
        let order: Vec<usize> = sources_first(listed, &mut warnings)
            .iter()
            .map(|c| c.destination)
            .collect();
        assert_eq!(order, [2, 3, 9]);
        assert_eq!(
            warnings,
            ["VRMC_node_constraint: 3 constraints depend on each other in a loop (left out)"]
        );
    }
}
