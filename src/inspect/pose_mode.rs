//! Which pose the viewer shows: the animation, the rest pose (the joints' transforms as
//! authored) or the bind pose (the pose the mesh was bound in, where the skin is undeformed).

use crate::anim::{Pose, Skeleton};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PoseMode {
    #[default]
    Animated,
    Rest,
    Bind,
}

impl PoseMode {
    /// Replaces `pose` (the animation's) by the rest or bind pose; `Animated` leaves it.
    pub fn apply(self, skeleton: &Skeleton, pose: &mut Pose) {
        match self {
            Self::Animated => {}
            Self::Rest => pose.copy_from(skeleton.rest_pose()),
            Self::Bind => pose.copy_from(skeleton.bind_pose()),
        }
    }
}
