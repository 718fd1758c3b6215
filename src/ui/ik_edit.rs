//! Editing IK chains in the view: picking an end joint by clicking near it, dragging a chain's
//! target across the plane that faces the camera. The panel and the window both go through
//! these methods (by way of `ViewerState`), so they are tested without a window.

use glam::{Mat4, Vec2, Vec3};

use super::inspection::rig_joint_at;
use crate::anim::ik::ChainError;
use crate::anim::{IkLayer, Skeleton};
use crate::asset::Model;
use crate::view::{PICK_RADIUS, Viewport};

/// The IK editor's settings and what the pointer is doing.
#[derive(Clone, Debug, PartialEq)]
pub struct IkEditor {
    /// Draw the chains and their targets (which can then be dragged).
    pub show_targets: bool,
    /// Draw each chain joint's cone or hinge arc.
    pub show_constraints: bool,
    /// The next click near a joint in the view adds a chain ending at that joint.
    pub picking: bool,
    /// End joint and bone count of the next chain to add.
    pub new_end: usize,
    /// Shows only the end joints whose names contain it (any case) in the end joint list.
    pub end_filter: String,
    pub new_length: usize,
    /// The chain whose target is being dragged.
    pub dragging: Option<usize>,
    /// Why the last chain could not be added.
    pub error: Option<String>,
    /// Each joint's number of rig joints (`Model::rig_joints`) above it, up to the first node
    /// that is not one: the most bones a chain ending there can have.
    pub depths: Vec<usize>,
    /// Per joint, whether a chain may end there: a rig joint with a rig joint above it.
    pub ends: Vec<bool>,
    /// The target sliders run from -range to range in each axis: twice the distance of the
    /// rest pose's farthest joint from the origin (at least 1).
    pub target_range: f32,
}

impl IkEditor {
    /// The editor for `model`: the next chain ends at its deepest joint (a hand, a toe, a
    /// tail's tip), so Add works at once.
    pub fn new(model: &Model) -> Self {
        let mut rig = Vec::new();
        model.rig_joints(&mut rig);
        let skeleton = &model.skeleton;
        // Parents come before their children, so a parent's count is known first.
        let mut depths = vec![0; skeleton.len()];
        for joint in 0..skeleton.len() {
            if let Some(parent) = skeleton.parent(joint).filter(|&p| rig[p] && rig[joint]) {
                depths[joint] = depths[parent] + 1;
            }
        }
        let ends: Vec<bool> = depths.iter().map(|&depth| depth > 0).collect();
        let deepest = (0..depths.len())
            .filter(|&j| ends[j])
            .max_by_key(|&j| (depths[j], std::cmp::Reverse(j)));
        let farthest = model
            .skeleton
            .rest_pose()
            .to_model_matrices()
            .iter()
            .map(|m| m.w_axis.truncate().length())
            .fold(0.0, f32::max);
        Self {
            show_targets: true,
            show_constraints: false,
            picking: false,
            new_end: deepest.unwrap_or(0),
            end_filter: String::new(),
            new_length: 2,
            dragging: None,
            error: None,
            depths,
            ends,
            target_range: (farthest * 2.0).max(1.0),
        }
    }
}

/// Why a chain ending at the joint `name` cannot be made, said the way the panel's user thinks
/// of it (names and bones, not joint numbers).
fn chain_error_in_words(name: &str, error: &ChainError) -> String {
    match *error {
        ChainError::TooLong { ancestors: 0, .. } => {
            format!("{name} is a root, with no joint above it: a chain must end further down (a hand, a foot)")
        }
        ChainError::TooLong { length, ancestors, .. } => format!(
            "{name} has {ancestors} joint{} above it, too few for a chain of {length} bones: choose at most {ancestors}",
            if ancestors == 1 { "" } else { "s" },
        ),
        _ => format!("{name}: {error}"),
    }
}

impl IkEditor {
    /// Adds to `chains` a chain of `length` bones ending at `end`, its target where the end
    /// joint is now in `joint_matrices` (so nothing moves until the target does).
    pub fn add_chain(
        &mut self,
        chains: &mut Vec<IkLayer>,
        skeleton: &Skeleton,
        joint_matrices: &[Mat4],
        (end, length): (usize, usize),
    ) {
        let target = joint_matrices.get(end).map_or(Vec3::ZERO, |m| m.w_axis.truncate());
        match IkLayer::new(skeleton.hierarchy(), end, length, target) {
            Ok(layer) => {
                chains.push(layer);
                self.error = None;
            }
            Err(error) => self.error = Some(chain_error_in_words(skeleton.name(end), &error)),
        }
    }

    /// A press of the main button at `cursor` in `view`. Returns true when IK editing takes
    /// it (a target of `chains` grabbed, or a joint picked for a new chain), false when the
    /// camera should orbit.
    pub fn press(
        &mut self,
        chains: &mut Vec<IkLayer>,
        skeleton: &Skeleton,
        joint_matrices: &[Mat4],
        (cursor, view): (Vec2, &Viewport),
    ) -> bool {
        if self.show_targets {
            let targets = chains.iter().map(|layer| layer.target).enumerate();
            if let Some(chain) = view.nearest(targets, cursor, PICK_RADIUS) {
                self.dragging = Some(chain);
                return true;
            }
        }
        if self.picking
            && let Some(joint) = rig_joint_at(&self.ends, joint_matrices, (cursor, view))
        {
            self.picking = false;
            self.new_end = joint;
            // As many bones as asked for, where the joint has that many rig joints above.
            let length = self.new_length.min(self.depths[joint]).max(1);
            self.add_chain(chains, skeleton, joint_matrices, (joint, length));
            return true;
        }
        false
    }

    /// The pointer moved to `cursor`: a grabbed target follows it across the plane through the
    /// target that faces the camera.
    pub fn drag(&self, chains: &mut [IkLayer], cursor: Vec2, view: &Viewport) {
        let Some(layer) = self.dragging.and_then(|chain| chains.get_mut(chain)) else {
            return;
        };
        if let Some(point) = view.on_camera_plane(cursor, layer.target) {
            layer.target = point;
        }
    }

    /// The main button was released.
    pub fn release(&mut self) {
        self.dragging = None;
    }
}
