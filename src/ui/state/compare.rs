//! "Compare with…": a second model (B) opened beside the open one (A), what `diff::compare`
//! found between them, and B's playback, which follows A's: B plays the clip of the same name
//! as A's clip (none: its rest pose) at A's clip time, in A's pose mode, so both always show
//! the same moment. One camera sees both. No GPU here: the app draws B from what this holds.

use std::path::Path;

use glam::Mat4;

use super::ViewerState;
use super::document::Document;
use crate::anim::Player;
use crate::asset::{self, Model};
use crate::diff::{JointChange, RigDiff, Tolerance, compare};
use crate::inspect::PoseMode;
use crate::skin::Deformer;
use crate::view::Bounds;
use crate::view::animated_frame::AnimatedFrame;
use crate::view::compare_layout::CompareLayout;
use crate::view::framing::animation_bounds;

/// Model B, and what it is compared with A by.
pub struct Comparison {
    /// B: its model, summary and rig lint.
    pub document: Document,
    /// B's player (driven by A's), pose and joint matrices (model space, where B was authored).
    pub frame: AnimatedFrame,
    /// B's joint matrices moved to where `layout` puts B (world space): what is drawn.
    pub placed_matrices: Vec<Mat4>,
    /// Over A, or beside it.
    pub layout: CompareLayout,
    /// Colour A's mesh by how much each vertex's weights changed in B.
    pub heat_map: bool,
    /// What changed from A to B.
    pub diff: RigDiff,
    /// Per joint of A, what changed of it in B (the joint tree's marks).
    pub joint_marks: Vec<JointMarks>,
    /// A's model generation `diff` was worked out for: when A changes (another file, a
    /// reload), B is compared with it again.
    compared_with: u64,
    /// A's and B's regions in their rest poses (what side by side places B by).
    rest_bounds: (Bounds, Bounds),
    /// Bumped whenever B or the diff is replaced: the app uploads B again and rewrites the heat
    /// map.
    pub generation: u64,
    /// A's clip and model generation that B's clip was matched for.
    followed: Option<(Option<usize>, u64)>,
}

impl Comparison {
    /// B (`model_b`) compared with A (`model_a`, of model generation `generation_a`), shown as
    /// `layout` says, at rest.
    pub fn new((model_a, generation_a): (&Model, u64), model_b: Model, layout: CompareLayout) -> Self {
        let diff = compare(model_a, &model_b, &Tolerance::default());
        let joint_marks = joint_marks(&diff, model_a.skeleton.len());
        let rest_bounds = (rest_bounds(model_a), rest_bounds(&model_b));
        let frame = AnimatedFrame::new(&model_b, None);
        Self {
            placed_matrices: frame.joint_matrices.clone(),
            frame,
            document: Document::new(model_b),
            layout,
            heat_map: false,
            diff,
            joint_marks,
            compared_with: generation_a,
            rest_bounds,
            generation: 0,
            followed: None,
        }
    }

    /// The same B compared with a new A (`model_a`, of generation `generation_a`: replaced or
    /// reloaded): the diff and the placement again, B's clip matched again at the next step.
    pub fn against(self, a: (&Model, u64)) -> Self {
        let generation = self.generation + 1;
        let (layout, heat_map) = (self.layout, self.heat_map);
        Self {
            layout,
            heat_map,
            generation,
            ..Self::new(a, self.document.model, layout)
        }
    }

    /// World → world: where B is drawn against A.
    pub fn placement(&self) -> Mat4 {
        let (a, b) = &self.rest_bounds;
        self.layout.placement(a, b)
    }

    /// B's clip: the one named as A's `clip_a` (None: no clip, or none of that name).
    pub fn matching_clip(&self, model_a: &Model, clip_a: Option<usize>) -> Option<usize> {
        let name = clip_a.and_then(|c| model_a.clips.get(c))?.name();
        self.document.model.clips.iter().position(|clip| clip.name() == name)
    }

    /// Poses B at A's moment: the clip named as A's (matched again only when A's clip or model
    /// changes), A's playback mode and clip time, A's pose mode; then B's matrices, placed.
    /// Allocates nothing once B's buffers exist.
    pub fn follow(&mut self, model_a: &Model, generation_a: u64, player_a: &Player, pose_mode: PoseMode) {
        let clip_a = player_a.clip();
        if self.followed != Some((clip_a, generation_a)) {
            let clip_b = self.matching_clip(model_a, clip_a);
            // B snaps to A's clip: A's own fade shows the switch.
            self.frame.player.fade_time = 0.0;
            self.frame.player.select(clip_b);
            self.followed = Some((clip_a, generation_a));
        }
        let model_b = &self.document.model;
        let player = &mut self.frame.player;
        player.playing = false;
        player.animator.mode = player_a.mode();
        player.scrub(player_a.clip_time(&model_a.clips), &model_b.clips);
        self.frame.advance(model_b, self.generation, pose_mode, 0.0);
        let placement = self.placement();
        for (placed, matrix) in self.placed_matrices.iter_mut().zip(&self.frame.joint_matrices) {
            *placed = placement * *matrix;
        }
    }
}

/// What changed of one joint of A in B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JointMarks {
    /// Not in B.
    pub removed: bool,
    /// In B under another name.
    pub renamed: bool,
    /// Under another parent in B.
    pub reparented: bool,
    /// Its rest or bind transform moved or turned beyond tolerance.
    pub moved: bool,
}

/// Per joint of A (`joints` of them), its marks from `diff`'s joint changes.
fn joint_marks(diff: &RigDiff, joints: usize) -> Vec<JointMarks> {
    let mut marks = vec![JointMarks::default(); joints];
    for change in &diff.joint_changes {
        let Some(mark) = change.joint().and_then(|j| marks.get_mut(j)) else {
            continue;
        };
        match change {
            JointChange::Added { .. } => {}
            JointChange::Removed { .. } => mark.removed = true,
            JointChange::Renamed { .. } => mark.renamed = true,
            JointChange::Reparented { .. } => mark.reparented = true,
            JointChange::Moved { .. } => mark.moved = true,
        }
    }
    marks
}

/// The region `model` takes in its rest pose.
fn rest_bounds(model: &Model) -> Bounds {
    animation_bounds(model, None, None, &mut Deformer::new(model))
}

/// "Compare with…": opening B, and closing the comparison.
impl ViewerState {
    /// Opens `path` as B beside the open model (from the panel's dialog, a drop with Shift
    /// held or `--compare`), in the layout of the comparison open now (else a ghost). On
    /// failure the error is said as for any file, and the comparison open now stays.
    pub fn open_compare(&mut self, path: &Path) {
        self.hovered_file = None;
        match asset::load(path) {
            Ok(model_b) => {
                let layout = self.compare.as_ref().map_or(CompareLayout::default(), |c| c.layout);
                let a = (&self.document.model, self.document.generation);
                let mut comparison = Comparison::new(a, model_b, layout);
                comparison.generation = self.compare.as_ref().map_or(0, |c| c.generation + 1);
                self.compare = Some(comparison);
                // Shows B at once, posed at A's moment.
                self.follow_compare();
                self.requests.frame_model = true;
            }
            Err(error) => self.failed_to_open(error.to_string()),
        }
    }

    /// A file dropped on the window: with Shift held, compared with the open model; else
    /// opened in its place.
    pub fn drop_file(&mut self, path: &Path, shift_held: bool) {
        match shift_held {
            true => self.open_compare(path),
            false => self.open(path),
        }
    }

    /// Goes to finding `index` of the comparison: selects its joint (showing it in the joint
    /// tree), and plays its clip (A's, by name), paused at its time.
    pub fn go_to_finding(&mut self, index: usize) {
        let Some(finding) = self.compare.as_ref().and_then(|c| c.diff.findings.get(index)) else {
            return;
        };
        if let Some(joint) = finding.joint.filter(|&j| j < self.document.model.skeleton.len()) {
            self.inspection.selected = Some(joint);
            self.inspection.reveal = true;
        }
        let clips = &self.document.model.clips;
        let clip = (finding.clip.as_deref()).and_then(|name| clips.iter().position(|c| c.name() == name));
        let time = finding.time;
        let player = &mut self.frame.player;
        if let Some(clip) = clip {
            player.select(Some(clip));
        }
        if let Some(time) = time {
            player.playing = false;
            player.scrub(time, clips);
        }
        self.follow_compare();
    }

    /// Closes the compare view: A alone again.
    pub fn close_compare(&mut self) {
        if self.compare.take().is_some() {
            self.requests.frame_model = true;
        }
    }

    /// Poses B (when comparing) at A's moment, after comparing it again with A when A changed.
    pub(super) fn follow_compare(&mut self) {
        let a = (&self.document.model, self.document.generation);
        if let Some(comparison) = self.compare.take_if(|c| c.compared_with != a.1) {
            self.compare = Some(comparison.against(a));
        }
        if let Some(comparison) = &mut self.compare {
            let pose_mode = self.inspection.pose_mode;
            let (model, generation) = (&self.document.model, self.document.generation);
            comparison.follow(model, generation, &self.frame.player, pose_mode);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    /// The demo, and the demo with its clips in another order and one renamed.
    fn reordered_demo() -> Model {
        let mut model = demo_model();
        model.clips.reverse();
        let last = model.clips.len() - 1;
        // The first clip (now last) gets a name A does not have.
        let renamed = model.clips[last].clone().renamed("only in B");
        model.clips[last] = renamed;
        model
    }

    fn comparing(model_b: Model) -> ViewerState {
        let mut state = ViewerState::new(demo_model());
        let a = (&state.document.model, state.document.generation);
        state.compare = Some(Comparison::new(a, model_b, CompareLayout::Ghost));
        state
    }

    #[test]
    fn b_plays_the_clip_named_as_a_s_at_a_s_time() {
        let mut state = comparing(reordered_demo());
        state.frame.player.select(Some(1));
        state.advance(0.6);
        let comparison = state.compare.as_ref().unwrap();
        let (a, b) = (&state.document.model, &comparison.document.model);
        let clip_b = comparison.frame.player.clip().unwrap();
        assert_eq!(b.clips[clip_b].name(), a.clips[1].name());
        let time_a = state.frame.player.clip_time(&a.clips);
        assert!(time_a > 0.0);
        assert!((comparison.frame.player.clip_time(&b.clips) - time_a).abs() < 1e-5);
        assert_eq!(
            comparison.frame.pose, state.frame.pose,
            "the same clip at the same time: the same pose"
        );
    }

    #[test]
    fn b_follows_a_clip_change_and_rests_without_a_clip_of_that_name() {
        let mut state = comparing(reordered_demo());
        state.frame.player.fade_time = 0.0;
        state.frame.player.select(Some(3));
        state.advance(0.1);
        let comparison = state.compare.as_ref().unwrap();
        let b = &comparison.document.model;
        let clip_b = comparison.frame.player.clip().unwrap();
        assert_eq!(b.clips[clip_b].name(), state.document.model.clips[3].name());
        // A's first clip is named otherwise in B.
        state.frame.player.select(Some(0));
        state.advance(0.1);
        let comparison = state.compare.as_ref().unwrap();
        assert_eq!(comparison.frame.player.clip(), None);
        assert_eq!(&comparison.frame.pose, comparison.document.model.skeleton.rest_pose());
    }

    #[test]
    fn b_takes_a_s_pose_mode() {
        let mut state = comparing(demo_model());
        state.advance(0.4);
        state.inspection.pose_mode = PoseMode::Bind;
        state.advance(0.1);
        let comparison = state.compare.as_ref().unwrap();
        assert_eq!(&comparison.frame.pose, comparison.document.model.skeleton.bind_pose());
    }

    #[test]
    fn side_by_side_places_b_beside_a_and_the_ghost_over_it() {
        let mut state = comparing(demo_model());
        state.advance(0.0);
        let comparison = state.compare.as_mut().unwrap();
        assert_eq!(comparison.placed_matrices, comparison.frame.joint_matrices, "a ghost");
        comparison.layout = CompareLayout::SideBySide;
        state.advance(0.0);
        let comparison = state.compare.as_ref().unwrap();
        let (a, b) = comparison.rest_bounds;
        let shift = comparison.placed_matrices[0].w_axis - comparison.frame.joint_matrices[0].w_axis;
        assert!(shift.x > a.max.x - b.min.x, "B starts past A's right edge: {shift}");
        assert_eq!((shift.y, shift.z), (0.0, 0.0));
    }

    #[test]
    fn a_file_that_fails_keeps_the_comparison() {
        let mut state = comparing(demo_model());
        state.open_compare(Path::new("/no/such/b.glb"));
        assert!(state.compare.is_some());
        let error = state.document.load_error.clone().unwrap();
        assert!(error.contains("/no/such/b.glb"), "{error}");
        state.close_compare();
        assert!(state.compare.is_none());
        assert!(state.requests.frame_model, "A alone is framed again");
    }

    #[test]
    fn the_same_model_compares_equal() {
        let state = comparing(demo_model());
        let comparison = state.compare.as_ref().unwrap();
        assert!(!comparison.diff.differs, "{}", comparison.diff.verdict);
        assert_eq!(comparison.matching_clip(&state.document.model, Some(2)), Some(2));
    }
}
