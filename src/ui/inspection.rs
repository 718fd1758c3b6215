//! The rig inspection's state: the joint browser's selection and filter, the pose mode, what
//! the mesh's colours show, bone names, and the last CPU-vs-GPU measurement. Selecting by
//! clicking in the view goes through here, so it is tested without a window.

use glam::{Mat4, Vec2};

use crate::asset::Model;
use crate::inspect::{JointFacts, PoseMode, SkinDifference, VertexView};
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
    /// The tree opens down to the selected joint and scrolls to it, once its row is drawn
    /// (after a pick in the view, or "Select parent").
    pub reveal: bool,
    /// Shows only the joints whose names contain it (any case) instead of the tree.
    pub filter: String,
    pub pose_mode: PoseMode,
    pub colors: MeshColors,
    pub bone_names: bool,
    /// What the difference view measured in the last frame, or why it could not.
    pub skin_difference: Option<Result<SkinDifference, String>>,
}

impl Inspection {
    pub fn new(model: &Model) -> Self {
        Self {
            facts: JointFacts::new(model),
            selected: None,
            reveal: false,
            filter: String::new(),
            pose_mode: PoseMode::Animated,
            colors: MeshColors::Materials,
            bone_names: false,
            skin_difference: None,
        }
    }

    /// The same settings for another model: the selection and the facts are the new model's.
    pub fn for_model(&self, model: &Model) -> Self {
        Self {
            pose_mode: self.pose_mode,
            colors: self.colors,
            bone_names: self.bone_names,
            ..Self::new(model)
        }
    }

    /// A click (press and release without dragging) at `cursor` in `view`: selects the joint
    /// of `joint_matrices` within `PICK_RADIUS` pixels, nearest first, and shows it in the
    /// tree. Returns whether one was there.
    pub fn click(&mut self, joint_matrices: &[Mat4], cursor: Vec2, view: &Viewport) -> bool {
        let joints = joint_matrices.iter().map(|m| m.w_axis.truncate());
        let Some(joint) = view.nearest(joints, cursor, PICK_RADIUS) else {
            return false;
        };
        self.selected = Some(joint);
        self.reveal = true;
        true
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
