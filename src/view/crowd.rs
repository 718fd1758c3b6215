//! A crowd: N copies of the open model on a grid on the ground, each playing its own clip at
//! its own phase and speed, animated on the CPU in parallel (the skinning pool, one task per chunk of
//! instances: sample → model matrices → palette per skin), for the renderer to skin on the GPU.
//!
//! Instance 0 stands at the origin and is the model the viewer drives (its animator's pose,
//! with fades, layers and IK); the others stand on a grid beside it, `columns` wide, spaced by
//! the model's bounds. Every instance's matrices already carry its grid offset, so the renderer
//! only picks an instance's block: block `i` of `matrices` (joint → world, one per skeleton
//! joint) and of `palettes` (bind → world per skin joint, skin `s` at `skin_offsets[s]`).
//!
//! Clips, phases and speeds are drawn from a seeded generator (the same seed gives the same
//! crowd), or are all the same: every instance plays the clip given, in step with instance 0.

use glam::{Mat4, Vec3};

use super::Bounds;
use crate::anim::{ClipCursor, Playback, Pose};
use crate::asset::Model;
use crate::skin::palette::skin_palette;
use crate::skin::workers;

/// The largest crowd the viewer and `render` accept (every instance keeps a pose and its
/// matrices: about 10 KB a 50-joint model).
pub const MAX_CROWD: usize = 10_000;
/// The seed a crowd is drawn with unless told otherwise.
pub const DEFAULT_SEED: u64 = 18;
/// Instances per parallel task: small enough to spread a crowd of a few hundred over the
/// cores, large enough that a task outweighs its scheduling.
const CHUNK: usize = 8;
/// Speeds are drawn from this range (times the clip's own).
const SPEEDS: (f32, f32) = (0.8, 1.25);
/// Room between neighbours, as a fraction of the model's footprint.
const GAP: f32 = 0.25;

/// How many instances, and how each one plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrowdOptions {
    /// Instances drawn, 1 to `MAX_CROWD` (1: just the model).
    pub count: usize,
    /// Draws each instance's clip, phase and speed.
    pub seed: u64,
    /// Each instance has its own clip, phase and speed (else all play alike).
    pub varied: bool,
}

impl Default for CrowdOptions {
    fn default() -> Self {
        Self {
            count: 1,
            seed: DEFAULT_SEED,
            varied: true,
        }
    }
}

/// What one instance plays and where it stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdMember {
    pub clip: Option<usize>,
    /// Seconds into its clip at time 0.
    pub phase: f32,
    /// Times the crowd's clock.
    pub speed: f32,
    /// World offset from instance 0.
    pub offset: Vec3,
}

/// A member's animation scratch, reused every frame.
struct Scratch {
    pose: Pose,
    cursor: ClipCursor,
}

pub struct Crowd {
    pub members: Vec<CrowdMember>,
    scratch: Vec<Scratch>,
    /// Joints per instance block of `matrices`.
    joints: usize,
    matrices: Vec<Mat4>,
    /// Matrices per instance block of `palettes` (every skin's palette, one after another).
    block: usize,
    skin_offsets: Vec<usize>,
    palettes: Vec<Mat4>,
    /// The region the whole crowd moves in.
    pub bounds: Bounds,
    /// Where one instance moves, at the grid's origin (instance `i` at `members[i].offset`).
    pub member_bounds: Bounds,
    /// Grid columns (instances per row).
    #[cfg(test)]
    pub columns: usize,
}

impl Crowd {
    /// A crowd of `options.count` (clamped to 1..=`MAX_CROWD`) copies of `model`, which moves
    /// within `bounds` playing `clip` (what a uniform crowd plays, and instance 0's).
    pub fn new(model: &Model, options: CrowdOptions, clip: Option<usize>, bounds: &Bounds) -> Self {
        let count = options.count.clamp(1, MAX_CROWD);
        let options = CrowdOptions { count, ..options };
        let (columns, spacing) = grid(count, bounds);
        let mut random = SplitMix(options.seed);
        let members: Vec<CrowdMember> = (0..count)
            .map(|index| {
                let offset = Vec3::new(
                    (index % columns) as f32 * spacing.x,
                    0.0,
                    (index / columns) as f32 * spacing.z,
                );
                let uniform = CrowdMember {
                    clip,
                    phase: 0.0,
                    speed: 1.0,
                    offset,
                };
                if !options.varied || index == 0 || model.clips.is_empty() {
                    return uniform;
                }
                let chosen = random.below(model.clips.len());
                let duration = model.clips[chosen].duration();
                CrowdMember {
                    clip: Some(chosen),
                    phase: random.unit() * duration,
                    speed: SPEEDS.0 + random.unit() * (SPEEDS.1 - SPEEDS.0),
                    offset,
                }
            })
            .collect();
        let mut skin_offsets = Vec::with_capacity(model.skins.len());
        let mut block = 0;
        for skin in &model.skins {
            skin_offsets.push(block);
            block += skin.joints.len();
        }
        let block = block.max(1);
        let joints = model.skeleton.len().max(1);
        let scratch = members
            .iter()
            .map(|member| Scratch {
                pose: model.skeleton.rest_pose().clone(),
                cursor: member
                    .clip
                    .and_then(|c| model.clips.get(c))
                    .map(|c| c.cursor())
                    .unwrap_or_default(),
            })
            .collect();
        let mut whole = Bounds::EMPTY;
        if !bounds.is_empty() {
            let rows = count.div_ceil(columns);
            let far = Vec3::new((columns - 1) as f32 * spacing.x, 0.0, (rows - 1) as f32 * spacing.z);
            whole.include(bounds.min);
            whole.include(bounds.max + far);
        }
        Self {
            members,
            scratch,
            joints,
            matrices: vec![Mat4::IDENTITY; joints * count],
            block,
            skin_offsets,
            palettes: vec![Mat4::IDENTITY; block * count],
            bounds: whole,
            member_bounds: *bounds,
            #[cfg(test)]
            columns,
        }
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Poses every instance at crowd time `time` (seconds): instance 0 takes `first` (the
    /// viewer's joint → model matrices), the others sample their clips, looping. Runs on every
    /// core; allocates nothing.
    pub fn animate(&mut self, model: &Model, time: f32, first: &[Mat4]) {
        let (joints, block) = (self.joints, self.block);
        let skin_offsets = &self.skin_offsets;
        let members = &self.members;
        let chunks = (self.scratch.chunks_mut(CHUNK))
            .zip(self.matrices.chunks_mut(joints * CHUNK))
            .zip(self.palettes.chunks_mut(block * CHUNK))
            .enumerate();
        workers::global().for_each_item(chunks, &|(chunk, ((scratch, matrices), palettes))| {
            let instances = scratch
                .iter_mut()
                .zip(matrices.chunks_mut(joints))
                .zip(palettes.chunks_mut(block))
                .enumerate();
            for (i, ((scratch, matrices), palette)) in instances {
                let index = chunk * CHUNK + i;
                if index == 0 {
                    let shared = first.len().min(matrices.len());
                    matrices[..shared].copy_from_slice(&first[..shared]);
                } else {
                    pose_member(model, &members[index], time, scratch, matrices);
                }
                for (skin, &offset) in model.skins.iter().zip(skin_offsets) {
                    let out = &mut palette[offset..offset + skin.joints.len()];
                    skin_palette(&skin.joints, &skin.inverse_bind, matrices, out);
                }
            }
        });
    }

    /// Joint → world matrices of every instance, `joints_per_instance()` each.
    #[cfg(any(test, feature = "internals"))]
    pub fn matrices(&self) -> &[Mat4] {
        &self.matrices
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn joints_per_instance(&self) -> usize {
        self.joints
    }

    /// Every instance's palettes, `palette_block()` matrices each.
    pub fn palettes(&self) -> &[Mat4] {
        &self.palettes
    }

    /// Matrices per instance in `palettes`.
    pub fn palette_block(&self) -> usize {
        self.block
    }

    /// Where skin `skin`'s palette starts in an instance's block.
    pub fn skin_offset(&self, skin: usize) -> usize {
        self.skin_offsets.get(skin).copied().unwrap_or(0)
    }

    /// Instance `index`'s joint → world matrices.
    pub fn instance_matrices(&self, index: usize) -> &[Mat4] {
        &self.matrices[index * self.joints..(index + 1) * self.joints]
    }

    /// Instance `index`'s local pose as last sampled (instance 0's is the caller's, not kept).
    pub fn instance_pose(&self, index: usize) -> &Pose {
        &self.scratch[index].pose
    }
}

/// Samples `member`'s clip at crowd time `time` into `scratch`, then writes its joint → world
/// matrices (offset to its grid cell) into `matrices`.
fn pose_member(model: &Model, member: &CrowdMember, time: f32, scratch: &mut Scratch, matrices: &mut [Mat4]) {
    scratch.pose.copy_from(model.skeleton.rest_pose());
    if let Some(clip) = member.clip.and_then(|c| model.clips.get(c)) {
        let clip_time = Playback::Loop.clip_time(member.phase + time * member.speed, clip.duration());
        clip.sample(clip_time, &mut scratch.pose, &mut scratch.cursor);
    }
    // A model without joints still has a one-matrix block (nothing reads it).
    let matrices = &mut matrices[..scratch.pose.len()];
    scratch.pose.model_matrices(matrices);
    let offset = Mat4::from_translation(member.offset);
    for matrix in matrices.iter_mut() {
        *matrix = offset * *matrix;
    }
}

/// Columns of a near-square grid of `count` cells, and the distance between neighbours (x
/// across a row, z between rows) for a model that moves within `bounds`.
fn grid(count: usize, bounds: &Bounds) -> (usize, Vec3) {
    let columns = (count as f64).sqrt().ceil().max(1.0) as usize;
    let size = if bounds.is_empty() {
        Vec3::ONE
    } else {
        bounds.max - bounds.min
    };
    // A flat or thin model still gets room: its footprint is at least a tenth of its largest side.
    let floor = size.max_element().max(1e-3) * 0.1;
    let spacing = Vec3::new(size.x.max(floor), 0.0, size.z.max(floor)) * (1.0 + GAP);
    (columns, spacing)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so a crowd's seed gives
/// the same crowd on every machine.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in 0..bound (bound > 0).
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

#[cfg(test)]
#[path = "crowd_tests.rs"]
mod tests;
