//! The animation options `pose` and `render` share: a clip at a time, a cross-fade, additive
//! layers, IK chains. They build the same `Animator` the viewer uses.

use anyhow::{Context, bail};
use clap::Args;
use glam::Vec2;

use super::PlaybackArg;
use super::ik_args::IkArgs;
use super::in_place_args::InPlaceArgs;
use crate::anim::avatar::SpringReplay;
use crate::anim::{AdditiveLayer, AdditiveSpace, Animator, IkLayer, Playback, Pose};
use crate::asset::Model;
use crate::inspect::lookup::{find_clip, find_joint, number};
use crate::inspect::motion::InPlace;

#[derive(Args, Debug)]
pub struct ClipArgs {
    /// Clip to pose, by name or index.
    #[arg(long)]
    pub clip: Option<String>,
    /// Playback time in seconds.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub time: f32,
    /// How the time maps onto the clip.
    #[arg(long, value_enum, default_value_t = PlaybackArg::Once)]
    pub playback: PlaybackArg,
    /// A cross-fade instead of --clip: FROM at --time, TO faded in for ELAPSED of DURATION
    /// seconds (TO has played ELAPSED seconds).
    #[arg(long, value_name = "FROM:TO:DURATION:ELAPSED", conflicts_with = "clip")]
    pub crossfade: Option<String>,
    /// An additive layer, sampled at --time; repeat for several. REFTIME (empty: each track's
    /// first key) picks the reference pose, MASKJOINT (empty: the whole body) limits it to a
    /// joint's subtree (a name, a joint index as `rigscope joints` numbers them, or node:N for the file's node N), and `local` applies rotations in the joint's frame instead of the parent's.
    #[arg(long, value_name = "CLIP:WEIGHT[:REFTIME[:MASKJOINT[:parent|local]]]")]
    pub additive: Vec<String>,
    #[command(flatten)]
    pub ik: IkArgs,
    /// Leave a VRM avatar's spring bones (hair, skirts, tails) at rest instead of simulating
    /// them along the motion from time 0 to --time.
    #[arg(long)]
    pub no_springs: bool,
    #[command(flatten)]
    pub in_place: InPlaceArgs,
}

/// A pose the options describe.
#[derive(Debug)]
pub struct Posed {
    pub pose: Pose,
    /// The clip the pose is mostly made of (the cross-fade's target, or the clip), for naming
    /// and framing.
    pub clip: Option<usize>,
    /// The IK chains as solved for this pose (targets and outcomes).
    pub ik: Vec<IkLayer>,
    /// With `--in-place`, what took the clip's travel out of the pose, and the travel taken
    /// out (ground-plane x, z; the ground slides back by it).
    pub in_place: Option<InPlace>,
    pub travel: Vec2,
}

impl ClipArgs {
    /// The clip index named by `--clip`, or `default` without it. Fails on a bad `--time` or an
    /// unknown clip, listing the clips there are.
    pub fn resolve(&self, model: &Model, default: Option<usize>) -> anyhow::Result<Option<usize>> {
        if !self.time.is_finite() {
            bail!("--time must be a finite number of seconds");
        }
        match &self.clip {
            Some(wanted) => find_clip(model, wanted).map(Some),
            None => Ok(default),
        }
    }

    /// The pose these options describe. Without any clip option, the clip `default`; node
    /// constraints applied; with `--in-place`, the clip's travel taken out at the end. A
    /// model's spring bones are simulated from time 0 to `--time` on the motion these options
    /// describe at each step (unless `--no-springs`), so that a time always gives one pose.
    pub fn pose(&self, model: &Model, default: Option<usize>) -> anyhow::Result<Posed> {
        let clip = self.resolve(model, default)?;
        self.warn_if_clamped(model, clip);
        let mut animator = self.animator(model, clip, self.time)?;
        let rest = model.skeleton.rest_pose();
        let mut pose = rest.clone();
        animator.pose(&model.clips, rest, &mut pose);
        model.apply_node_constraints(&mut pose, &mut Vec::new());
        if !self.no_springs && !model.spring_bones.is_empty() {
            // The animator was built once at --time: each step's is built the same way.
            let pose_at = |time: f32, out: &mut Pose| {
                if let Ok(mut animator) = self.animator(model, clip, time) {
                    animator.pose(&model.clips, rest, out);
                    model.apply_node_constraints(out, &mut Vec::new());
                }
            };
            let mut start = rest.clone();
            pose_at(0.0, &mut start);
            let mut replay = SpringReplay::new(&model.spring_bones, rest, &start);
            replay.pose_to(&model.spring_bones, self.time, pose_at, &mut pose);
        }
        let clip = animator.crossfade.target();
        // After the springs, which swing with the travel.
        let in_place = self.in_place.for_clip(model, clip)?;
        let travel = in_place.map_or(Vec2::ZERO, |in_place| in_place.apply(&mut pose));
        Ok(Posed {
            pose,
            clip,
            ik: animator.ik,
            in_place,
            travel,
        })
    }

    /// The animator of these options at playback time `time`, `clip` playing.
    fn animator(&self, model: &Model, clip: Option<usize>, time: f32) -> anyhow::Result<Animator> {
        let mut animator = match &self.crossfade {
            Some(spec) => crossfade(model, spec, time)?,
            None => {
                let mut animator = Animator::new(clip);
                animator.advance(&model.clips, time, 0.0);
                animator
            }
        };
        animator.mode = Playback::from(self.playback);
        animator.layer_time = time;
        for spec in &self.additive {
            animator
                .layers
                .push(additive(model, spec).with_context(|| format!("--additive {spec}"))?);
        }
        animator.ik = self.ik.layers(model)?;
        Ok(animator)
    }

    /// Says on standard error when `--playback once` holds the first or last frame because
    /// `--time` lies outside the clip.
    fn warn_if_clamped(&self, model: &Model, clip: Option<usize>) {
        let Some(clip) = clip.and_then(|c| model.clips.get(c)) else {
            return;
        };
        if self.crossfade.is_some() || !matches!(self.playback, PlaybackArg::Once) {
            return;
        }
        let (time, duration) = (self.time, clip.duration());
        let held = if time < 0.0 {
            "first"
        } else if time > duration {
            "last"
        } else {
            return;
        };
        eprintln!(
            "warning: --time {time} is outside clip '{}' (0 to {duration} s): --playback once shows its {held} frame",
            clip.name()
        );
    }
}

/// `FROM:TO:DURATION:ELAPSED`, with FROM at `time`.
fn crossfade(model: &Model, spec: &str, time: f32) -> anyhow::Result<Animator> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [from, to, duration, elapsed] = parts[..] else {
        bail!("--crossfade '{spec}' is not FROM:TO:DURATION:ELAPSED");
    };
    let (from, to) = (find_clip(model, from)?, find_clip(model, to)?);
    let (duration, elapsed) = (number(duration, "DURATION")?, number(elapsed, "ELAPSED")?);
    if duration < 0.0 || elapsed < 0.0 {
        bail!("--crossfade '{spec}': DURATION and ELAPSED cannot be negative");
    }
    let mut animator = Animator::new(Some(from));
    // Run FROM up to the fade's start, start the fade, and run both for ELAPSED.
    animator.advance(&model.clips, time - elapsed, 0.0);
    animator.crossfade.fade_to(to, duration);
    animator.advance(&model.clips, elapsed, elapsed);
    Ok(animator)
}

/// `CLIP:WEIGHT[:REFTIME[:MASKJOINT[:parent|local]]]`; joint names may contain ':'.
fn additive(model: &Model, spec: &str) -> anyhow::Result<AdditiveLayer> {
    let mut parts: Vec<&str> = spec.split(':').collect();
    if parts.len() < 2 {
        bail!("expected CLIP:WEIGHT[:REFTIME[:MASKJOINT[:parent|local]]]");
    }
    let space = match parts.last() {
        Some(&"local") if parts.len() > 3 => Some(AdditiveSpace::Local),
        Some(&"parent") if parts.len() > 3 => Some(AdditiveSpace::Parent),
        _ => None,
    };
    if space.is_some() {
        parts.pop();
    }
    let mut layer = AdditiveLayer::new(find_clip(model, parts[0])?, number(parts[1], "WEIGHT")?);
    layer.space = space.unwrap_or_default();
    if let Some(reference) = parts.get(2).filter(|t| !t.trim().is_empty()) {
        layer.set_reference_time(Some(number(reference, "REFTIME")?));
    }
    // An empty MASKJOINT, like none, means the whole body.
    let mask = parts.get(3..).map(|names| names.join(":")).unwrap_or_default();
    if !mask.trim().is_empty() {
        layer.set_mask_root(Some(find_joint(model, &mask)?));
    }
    Ok(layer)
}
