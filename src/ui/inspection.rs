//! The rig inspection's state: the joint browser's selection and filter, the pose mode, what
//! the mesh's colours show, bone names, and the last CPU-vs-GPU measurement. Selecting by
//! clicking in the view goes through here, so it is tested without a window.

use glam::{Mat4, Vec2};

use crate::asset::Model;
use crate::inspect::{JointFacts, PoseMode, VertexView};
use crate::view::{PICK_RADIUS, Viewport};

/// What the mesh's colours show (the panel's choice; `Weights` shows the selected joint's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MeshColors {
    #[default]
    Materials,
    Weights,
    Influences,
    NotNormalised,
    Capped,
    SkinDifference,
}

#[derive(Clone, Debug)]
pub struct Inspection {
    /// Children, skins, vertex counts and animated joints (made once per model).
    pub facts: JointFacts,
    pub selected: Option<usize>,
    /// The rig joint under the pointer in the view (named there, and picked by a click).
    pub hovered: Option<usize>,
    /// The last click in the view found no joint near it (said in the panel until the next).
    pub click_missed: bool,
    /// The tree opens down to the selected joint and scrolls to it, once its row is drawn
    /// (after a pick in the view, or "Select parent").
    pub reveal: bool,
    /// Shows only the joints whose names contain it (any case) instead of the tree.
    pub filter: String,
    pub pose_mode: PoseMode,
    pub colors: MeshColors,
    pub bone_names: bool,
    /// Draws the spring bones' joints and tails and their colliders.
    pub spring_gizmos: bool,
}

impl Inspection {
    pub fn new(model: &Model) -> Self {
        Self {
            facts: JointFacts::new(model),
            selected: None,
            hovered: None,
            click_missed: false,
            reveal: false,
            filter: String::new(),
            pose_mode: PoseMode::Animated,
            colors: MeshColors::Materials,
            bone_names: false,
            spring_gizmos: false,
        }
    }

    /// The same settings for another model: the selection and the facts are the new model's.
    pub fn for_model(&self, model: &Model) -> Self {
        Self {
            pose_mode: self.pose_mode,
            colors: self.colors,
            bone_names: self.bone_names,
            spring_gizmos: self.spring_gizmos,
            ..Self::new(model)
        }
    }

    /// A click (press and release without dragging) at `cursor` in `view`: selects the rig
    /// joint of `joint_matrices` within `PICK_RADIUS` pixels, nearest first, and shows it in
    /// the tree; a miss is noted for the panel to say. Returns whether one was there.
    pub fn click(&mut self, joint_matrices: &[Mat4], cursor: Vec2, view: &Viewport) -> bool {
        let joint = rig_joint_at(&self.facts.rig, joint_matrices, (cursor, view));
        self.click_missed = joint.is_none();
        if joint.is_some() {
            self.selected = joint;
            self.reveal = true;
        }
        joint.is_some()
    }

    /// The pointer moved to `cursor` in `view` (`None`: it left the view, or is busy orbiting
    /// or dragging): the rig joint a click would pick there.
    pub fn hover(&mut self, joint_matrices: &[Mat4], cursor: Option<(Vec2, &Viewport)>) {
        self.hovered = cursor.and_then(|at| rig_joint_at(&self.facts.rig, joint_matrices, at));
    }

    /// The vertex view the colours ask for: `None` for the materials, and for a joint's
    /// weights while no joint is selected.
    pub fn vertex_view(&self) -> Option<VertexView> {
        match self.colors {
            MeshColors::Materials => None,
            MeshColors::Weights => self.selected.map(VertexView::Weights),
            MeshColors::Influences => Some(VertexView::Influences),
            MeshColors::NotNormalised => Some(VertexView::NotNormalised),
            MeshColors::Capped => Some(VertexView::Capped),
            MeshColors::SkinDifference => Some(VertexView::SkinDifference),
        }
    }
}

/// The joint of `joint_matrices` that is a rig joint (`rig`) and lies within `PICK_RADIUS`
/// pixels of `cursor` in `view`, nearest first.
pub fn rig_joint_at(rig: &[bool], joint_matrices: &[Mat4], (cursor, view): (Vec2, &Viewport)) -> Option<usize> {
    let joints = (joint_matrices.iter().enumerate())
        .filter(|&(joint, _)| rig.get(joint).copied().unwrap_or(false))
        .map(|(joint, matrix)| (joint, matrix.w_axis.truncate()));
    view.nearest(joints, cursor, PICK_RADIUS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn weights_need_a_selected_joint() {
        let mut inspection = Inspection::new(&demo_model());
        inspection.colors = MeshColors::Weights;
        assert_eq!(inspection.vertex_view(), None);
        inspection.selected = Some(3);
        assert_eq!(inspection.vertex_view(), Some(VertexView::Weights(3)));
        inspection.colors = MeshColors::Capped;
        assert_eq!(inspection.vertex_view(), Some(VertexView::Capped));
    }
}
