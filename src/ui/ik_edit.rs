//! Editing IK chains in the view: picking an end joint by clicking near it, dragging a chain's
//! target across the plane that faces the camera. The panel and the window both go through
//! these methods, so they are tested without a window.

use glam::Vec2;

use super::state::ViewerState;
use crate::anim::IkLayer;
use crate::asset::Model;
use crate::render::Viewport;

/// How close (pixels) a click must be to a joint or a target to pick it.
pub const PICK_RADIUS: f32 = 14.0;

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
    pub new_length: usize,
    /// The chain whose target is being dragged.
    pub dragging: Option<usize>,
    /// Why the last chain could not be added.
    pub error: Option<String>,
    /// Each joint's number of ancestors (the most bones a chain ending there can have).
    pub depths: Vec<usize>,
    /// The target sliders run from -range to range in each axis: twice the distance of the
    /// rest pose's farthest joint from the origin (at least 1).
    pub target_range: f32,
}

impl IkEditor {
    /// The editor for `model`: the next chain ends at its deepest joint (a hand, a toe, a
    /// tail's tip), so Add works at once.
    pub fn new(model: &Model) -> Self {
        let depths = model.skeleton.hierarchy().depths();
        let deepest = (0..depths.len()).max_by_key(|&j| (depths[j], std::cmp::Reverse(j)));
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
            new_length: 2,
            dragging: None,
            error: None,
            depths,
            target_range: (farthest * 2.0).max(1.0),
        }
    }
}

impl ViewerState {
    /// Adds a chain of `length` bones ending at `end`, its target where the end joint is now
    /// (so nothing moves until the target does).
    pub fn add_ik_chain(&mut self, end: usize, length: usize) {
        let target = self
            .joint_matrices
            .get(end)
            .map_or(glam::Vec3::ZERO, |m| m.w_axis.truncate());
        match IkLayer::new(self.model.skeleton.hierarchy(), end, length, target) {
            Ok(layer) => {
                self.player.animator.ik.push(layer);
                self.ik_editor.error = None;
            }
            Err(error) => {
                self.ik_editor.error = Some(format!("{}: {error}", self.model.skeleton.name(end)));
            }
        }
    }

    /// A press of the main button at `cursor` in the view. Returns true when IK editing takes
    /// it (a target grabbed, or a joint picked), false when the camera should orbit.
    pub fn press_in_view(&mut self, cursor: Vec2, view: &Viewport) -> bool {
        if self.ik_editor.show_targets {
            let targets = self.player.animator.ik.iter().map(|layer| layer.target);
            if let Some(chain) = view.nearest(targets, cursor, PICK_RADIUS) {
                self.ik_editor.dragging = Some(chain);
                return true;
            }
        }
        if self.ik_editor.picking {
            let joints = self.joint_matrices.iter().map(|m| m.w_axis.truncate());
            if let Some(joint) = view.nearest(joints, cursor, PICK_RADIUS) {
                self.ik_editor.picking = false;
                self.ik_editor.new_end = joint;
                self.add_ik_chain(joint, self.ik_editor.new_length);
                return true;
            }
        }
        false
    }

    /// The pointer moved to `cursor`: a grabbed target follows it across the plane through the
    /// target that faces the camera.
    pub fn drag_in_view(&mut self, cursor: Vec2, view: &Viewport) {
        let Some(layer) = self
            .ik_editor
            .dragging
            .and_then(|chain| self.player.animator.ik.get_mut(chain))
        else {
            return;
        };
        if let Some(point) = view.on_camera_plane(cursor, layer.target) {
            layer.target = point;
        }
    }

    /// The main button was released.
    pub fn release_in_view(&mut self) {
        self.ik_editor.dragging = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::render::OrbitCamera;

    /// The demo at rest, posed once, and a view of it.
    fn setup() -> (ViewerState, Viewport) {
        let mut state = ViewerState::new(demo_model());
        state.player.select(None);
        state.advance(0.0);
        // The default camera looks at (0, 1, 0), about the demo's chest.
        (state, Viewport::new(&OrbitCamera::default(), 800.0, 600.0))
    }

    fn joint_pixel(state: &ViewerState, view: &Viewport, joint: usize) -> Vec2 {
        view.to_pixels(state.joint_matrices[joint].w_axis.truncate()).unwrap()
    }

    #[test]
    fn clicking_near_a_joint_while_picking_adds_a_chain_ending_there() {
        let (mut state, view) = setup();
        let wrist = state.model.skeleton.find("wrist.L").unwrap();
        let near_wrist = joint_pixel(&state, &view, wrist) + Vec2::new(3.0, -2.0);
        assert!(
            !state.press_in_view(near_wrist, &view),
            "not picking: the camera orbits"
        );
        state.ik_editor.picking = true;
        assert!(state.press_in_view(near_wrist, &view));
        assert!(!state.ik_editor.picking, "one pick per request");
        let chain = &state.player.animator.ik[0].chain;
        assert_eq!(chain.end(), wrist);
        assert_eq!(chain.bones(), 2);
        assert_eq!(state.model.skeleton.name(chain.joints()[0]), "shoulder.L");
    }

    #[test]
    fn picking_shows_the_skeleton_to_pick_from() {
        let (mut state, _) = setup();
        state.view.skeleton = false;
        assert!(!state.view_options().skeleton);
        state.ik_editor.picking = true;
        assert!(state.view_options().skeleton);
    }

    #[test]
    fn dragging_a_target_moves_it_and_the_hand_follows() {
        let (mut state, view) = setup();
        let wrist = state.model.skeleton.find("wrist.L").unwrap();
        state.add_ik_chain(wrist, 2);
        let start = joint_pixel(&state, &view, wrist);
        state.ik_editor.show_targets = false;
        assert!(!state.press_in_view(start, &view), "hidden targets cannot be grabbed");
        state.ik_editor.show_targets = true;
        assert!(
            state.press_in_view(start + Vec2::new(2.0, 2.0), &view),
            "grabs the target"
        );
        assert_eq!(state.ik_editor.dragging, Some(0));
        let goal = start + Vec2::new(40.0, -60.0);
        state.drag_in_view(goal, &view);
        state.release_in_view();
        state.drag_in_view(start, &view);
        let target = state.player.animator.ik[0].target;
        assert!(
            view.to_pixels(target).unwrap().distance(goal) < 0.5,
            "moves only while held"
        );
        state.advance(0.0);
        let hand = state.joint_matrices[wrist].w_axis.truncate();
        assert!(state.player.animator.ik[0].outcome.reached);
        assert!(hand.distance(target) < 1e-2, "the wrist reaches the dragged target");
    }

    #[test]
    fn a_chain_longer_than_the_joints_ancestry_is_reported() {
        let (mut state, _) = setup();
        let hips = state.model.skeleton.find("hips").unwrap();
        state.add_ik_chain(hips, 5);
        assert!(state.player.animator.ik.is_empty());
        let error = state.ik_editor.error.clone().unwrap();
        assert!(error.starts_with("hips: a chain of 5 bones"), "{error}");
    }
}
