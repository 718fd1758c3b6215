//! Clips from another file: the animations of a second model added to an open model, its
//! joints paired by name and its motion retargeted onto the open rig (`anim::retarget` states
//! the semantics).
//!
//! Each added clip is named `CLIP (FILE)`, e.g. `walk (Xbot.glb)`, so the clip list says where
//! it came from. The file joins the model's `source_files`, so the viewer watches it and a
//! reload adds its clips again.

use std::path::{Path, PathBuf};

use super::error::{LoadError, LoadErrorKind};
use super::model::Model;
use crate::anim::{MatchedBy, Retarget};

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
    crate::anim::match_joints(source.skeleton.names(), model.skeleton.names())
        .pairs
        .len()
}

/// Loads `path` and adds its clips to `model`, retargeted (see the module docs).
pub fn add_clips_from(model: &mut Model, path: &Path) -> Result<ClipsFromReport, LoadError> {
    let source = load_clip_source(path)?;
    add_clips_of(model, &source)
}

/// Adds `source`'s clips to `model`, retargeted. Fails, leaving `model` as it was, when no
/// joint of `source` pairs with one of `model`.
pub fn add_clips_of(model: &mut Model, source: &Model) -> Result<ClipsFromReport, LoadError> {
    let retarget = Retarget::new(&source.skeleton, &model.skeleton);
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
