//! Which joints are the feet: the humanoid map's, else the joints named as feet or ankles
//! with a side, else the lowest joint without children on each side of the rest pose.

use crate::anim::normalise_joint_name;
use crate::asset::Model;

/// Which side a foot is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn words(self) -> &'static str {
        match self {
            Self::Left => "left",
            Self::Right => "right",
        }
    }
}

/// A foot joint and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Foot {
    pub joint: usize,
    pub side: Side,
}

/// `model`'s feet, left first (none, one or two).
pub fn find_feet(model: &Model) -> Vec<Foot> {
    let by_side = |find: &dyn Fn(Side) -> Option<usize>| -> Vec<Foot> {
        [Side::Left, Side::Right]
            .into_iter()
            .filter_map(|side| find(side).map(|joint| Foot { joint, side }))
            .collect()
    };
    if let Some(avatar) = &model.avatar {
        let feet = by_side(&|side| avatar.joint(if side == Side::Left { "leftFoot" } else { "rightFoot" }));
        if !feet.is_empty() {
            return feet;
        }
    }
    let feet = by_side(&|side| named_foot(model, side));
    if !feet.is_empty() {
        return feet;
    }
    by_side(&|side| lowest_end_joint(model, side))
}

/// The shallowest joint named as `side`'s foot or ankle (`LeftFoot`, `foot.L`, `Bip01 L Foot`,
/// `ankle_r`); toes, balls and end markers are not feet.
fn named_foot(model: &Model, side: Side) -> Option<usize> {
    let skeleton = &model.skeleton;
    let hierarchy = skeleton.hierarchy();
    let named = skeleton.names().iter().enumerate().filter(|(_, name)| {
        let key = normalise_joint_name(name);
        let part = ["foot", "ankle"].into_iter().find(|part| key.contains(part));
        let Some(part) = part else { return false };
        if ["toe", "ball", "end", "tip", "ik", "target", "pole"]
            .iter()
            .any(|w| key.contains(w))
        {
            return false;
        }
        let (word, letter) = match side {
            Side::Left => ("left", 'l'),
            Side::Right => ("right", 'r'),
        };
        key.contains(word) || key == format!("{letter}{part}") || key == format!("{part}{letter}")
    });
    named
        .min_by_key(|&(joint, _)| hierarchy.ancestors(joint).count())
        .map(|(joint, _)| joint)
}

/// The lowest joint without children in the rest pose on `side` (+X is the left of a
/// character facing +Z), if it is in the lowest quarter of the rig's height.
fn lowest_end_joint(model: &Model, side: Side) -> Option<usize> {
    let skeleton = &model.skeleton;
    let matrices = skeleton.rest_pose().to_model_matrices();
    let mut has_child = vec![false; skeleton.len()];
    for joint in 0..skeleton.len() {
        if let Some(parent) = skeleton.parent(joint) {
            has_child[parent] = true;
        }
    }
    let heights = matrices.iter().map(|m| m.w_axis.y);
    let (low, high) = heights.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let on_side = |x: f32| if side == Side::Left { x > 0.0 } else { x < 0.0 };
    let ends = (0..skeleton.len()).filter(|&j| !has_child[j] && on_side(matrices[j].w_axis.x));
    let lowest = ends.min_by(|&a, &b| matrices[a].w_axis.y.total_cmp(&matrices[b].w_axis.y))?;
    (matrices[lowest].w_axis.y <= low + 0.25 * (high - low)).then_some(lowest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::inspect::motion::test_walker::rig;
    use glam::Vec3;

    fn names(model: &Model) -> Vec<(&str, Side)> {
        find_feet(model)
            .iter()
            .map(|f| (model.skeleton.name(f.joint), f.side))
            .collect()
    }

    #[test]
    fn feet_are_found_by_their_names_in_the_usual_spellings() {
        let down = Vec3::new(0.0, -0.5, 0.0);
        for (left, right) in [
            ("mixamorig:LeftFoot", "mixamorig:RightFoot"),
            ("foot.L", "foot.R"),
            ("Bip01 L Foot", "Bip01 R Foot"),
            ("ankle_l", "ankle_r"),
        ] {
            let model = rig(&[
                ("hips", None, Vec3::Y),
                (left, Some(0), down),
                ("LeftToeBase", Some(1), down),
                (right, Some(0), down),
            ]);
            assert_eq!(names(&model), [(left, Side::Left), (right, Side::Right)]);
        }
        assert_eq!(
            names(&demo_model()),
            [("ankle.L", Side::Left), ("ankle.R", Side::Right)]
        );
    }

    #[test]
    fn without_names_the_lowest_end_joints_are_the_feet() {
        let model = rig(&[
            ("a", None, Vec3::Y),
            ("b", Some(0), Vec3::new(0.2, -0.9, 0.0)),
            ("c", Some(0), Vec3::new(-0.2, -0.9, 0.0)),
            ("d", Some(0), Vec3::new(0.5, 0.5, 0.0)),
        ]);
        assert_eq!(names(&model), [("b", Side::Left), ("c", Side::Right)]);
        let arms_only = rig(&[("a", None, Vec3::Y), ("d", Some(0), Vec3::new(0.5, 0.5, 0.0))]);
        assert_eq!(names(&arms_only), []);
    }
}
