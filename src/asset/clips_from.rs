//! Clips from another file: the animations of a second model added to an open model, its
//! joints paired by name and its motion retargeted onto the open rig (`anim::retarget` states
//! the semantics). A VRM animation (`.vrma`) plays on a VRM avatar through both humanoid maps,
//! bone by bone, as VRM retargets (`Retarget::humanoid`), its expression tracks setting the
//! avatar's expressions of the same names; on other rigs its bones pair by their
//! humanoid names (leftUpperArm, ...) with the rig's joint names.
//!
//! Each added clip is named `CLIP (FILE)`, e.g. `walk (Xbot.glb)`, so the clip list says where
//! it came from. The file joins the model's `source_files`, so the viewer watches it and a
//! reload adds its clips again.

use std::path::{Path, PathBuf};

use super::error::{LoadError, LoadErrorKind};
use super::model::Model;
use crate::anim::{JointMatching, JointPair, MatchedBy, Retarget, match_joints};

/// What adding a file's clips did: the clips added and how the joints paired.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipsFromReport {
    pub file: PathBuf,
    /// The names the clips were added under.
    pub clips: Vec<String>,
    /// Open rig's joint, the other file's joint, and whether their names were equal.
    pub matched: Vec<(String, String, MatchedBy)>,
    /// Joints of the open rig that the clips leave at rest.
    pub unmatched_target: Vec<String>,
    /// Joints of the other file whose motion is left out.
    pub unmatched_source: Vec<String>,
}

/// Loads `path` to add its clips to a model: fails when it cannot be loaded or has no clips.
pub fn load_clip_source(path: &Path) -> Result<Model, LoadError> {
    let source = super::load(path)?;
    if source.clips.is_empty() {
        return Err(invalid(path, "it holds no animations to add"));
    }
    Ok(source)
}

/// How many of `source`'s joints pair with joints of `model`.
pub fn matching_joint_count(model: &Model, source: &Model) -> usize {
    retarget_for(model, source).matching().pairs.len()
}

/// How `source`'s clips are converted for `model` (see the module docs).
fn retarget_for(model: &Model, source: &Model) -> Retarget {
    let humanoid = &source.vrm_animation.humanoid;
    if let (Some(avatar), false) = (&model.avatar, humanoid.is_empty()) {
        let mut pairs: Vec<JointPair> = (humanoid.iter())
            .filter_map(|&(bone, source)| {
                let target = avatar.joint(bone)?;
                Some(JointPair {
                    target,
                    source,
                    by: MatchedBy::Exact,
                })
            })
            .collect();
        pairs.sort_by_key(|pair| pair.target);
        let unpaired = |count: usize, paired: &dyn Fn(usize) -> bool| (0..count).filter(|&j| !paired(j)).collect();
        let matching = JointMatching {
            unmatched_target: unpaired(model.skeleton.len(), &|j| pairs.iter().any(|p| p.target == j)),
            unmatched_source: unpaired(source.skeleton.len(), &|j| pairs.iter().any(|p| p.source == j)),
            pairs,
        };
        let hips = avatar
            .joint("hips")
            .zip(humanoid.iter().find(|(bone, _)| *bone == "hips").map(|&(_, j)| j));
        // The animation's expression and look-at tracks set the avatar's expression weights and
        // where its eyes look.
        let animation = &source.vrm_animation;
        let expressions = (animation.expressions.iter())
            .filter_map(|(name, joint)| Some((*joint, avatar.expressions[avatar.expression(name)?].weight_entry?)));
        let look_at = animation
            .look_at
            .zip(avatar.look_at.as_ref().and_then(|l| l.rotation_entry));
        let values = expressions.chain(look_at).collect();
        return Retarget::humanoid(&source.skeleton, &model.skeleton, matching, hips).with_values(values);
    }
    // The humanoid's names pair with a rig's joint names better than the file's own do.
    let mut names = source.skeleton.names().to_vec();
    for &(bone, joint) in humanoid {
        names[joint] = bone.to_owned();
    }
    Retarget::local(
        &source.skeleton,
        &model.skeleton,
        match_joints(&names, model.skeleton.names()),
    )
}

/// Loads `path` and adds its clips to `model`, retargeted (see the module docs).
pub fn add_clips_from(model: &mut Model, path: &Path) -> Result<ClipsFromReport, LoadError> {
    let source = load_clip_source(path)?;
    add_clips_of(model, &source)
}

/// Adds `source`'s clips to `model`, retargeted. Fails, leaving `model` as it was, when no
/// joint of `source` pairs with one of `model`.
pub fn add_clips_of(model: &mut Model, source: &Model) -> Result<ClipsFromReport, LoadError> {
    let retarget = retarget_for(model, source);
    let matching = retarget.matching();
    if matching.pairs.is_empty() {
        return Err(invalid(
            &source.path,
            &format!(
                "none of its {} joint names match the {} of {}",
                source.skeleton.len(),
                model.skeleton.len(),
                super::file_name(&model.path)
            ),
        ));
    }
    let file = super::file_name(&source.path);
    let clips: Vec<String> = (source.clips.iter())
        .map(|clip| {
            let name = format!("{} ({file})", clip.name());
            model.clips.push(retarget.clip(clip, name.clone()));
            name
        })
        .collect();
    if !model.source_files.contains(&source.path) {
        model.source_files.push(source.path.clone());
    }
    let (target_names, source_names) = (model.skeleton.names(), source.skeleton.names());
    Ok(ClipsFromReport {
        file: source.path.clone(),
        clips,
        matched: (matching.pairs.iter())
            .map(|p| (target_names[p.target].clone(), source_names[p.source].clone(), p.by))
            .collect(),
        unmatched_target: matching
            .unmatched_target
            .iter()
            .map(|&j| target_names[j].clone())
            .collect(),
        unmatched_source: matching
            .unmatched_source
            .iter()
            .map(|&j| source_names[j].clone())
            .collect(),
    })
}

fn invalid(path: &Path, problem: &str) -> LoadError {
    LoadError {
        path: path.to_path_buf(),
        kind: LoadErrorKind::invalid("clips from another file", problem),
    }
}
