//! Reloading the open file when it changes on disk, keeping what still applies.
//!
//! The clip, its time, the selected joint, additive layers, blend weights and IK chains are
//! carried over by the names of their clips and joints, so a re-export that adds, removes or
//! reorders them keeps what it can; view options, lighting and the camera stay as they are.
//! A reload that fails keeps the model on screen and says why; the next change tries again.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::ViewerState;
use crate::anim::{AdditiveLayer, Clip, IkLayer, MorphOverride, Player, Skeleton};
use crate::asset::{self, Format, Model, SceneChoice};
use crate::ui::notice::Notice;

impl ViewerState {
    /// The files to watch now: those the model was read from and a file that failed to open;
    /// none while watching is off.
    pub fn watched_files(&self) -> Vec<PathBuf> {
        if !self.watching.enabled {
            return Vec::new();
        }
        let mut files = self.document.model.source_files.clone();
        files.extend(self.watching.failed_file.iter().cloned());
        files
    }

    /// Some watched files changed (absolute paths, as the watcher reports them): opens the
    /// file that had failed to open when it is among them, else reloads the model when one of
    /// its files is.
    pub fn files_changed(&mut self, changed: &[PathBuf]) {
        let is_changed = |file: &Path| absolute(file).is_some_and(|f| changed.contains(&f));
        if let Some(failed) = self.watching.failed_file.clone()
            && is_changed(&failed)
        {
            self.open(&failed);
            return;
        }
        if self.document.model.source_files.iter().any(|f| is_changed(f)) {
            self.reload();
        }
    }

    /// Reads the open model's file again and shows it in place of the old one, keeping the
    /// clip, time, selection, layers, blend weights and IK chains that still apply. An
    /// `.md5anim` or other file whose clips were added to the model is added again. On failure the model stays and
    /// `watching.note` says why.
    pub fn reload(&mut self) {
        let scene = self
            .document
            .model
            .scene
            .map_or(SceneChoice::FileDefault, SceneChoice::Index);
        let name = asset::file_name(&self.document.model.path);
        let done = format!("Reloaded {name} at {}", utc_time_of_day(SystemTime::now()));
        self.load_again(&scene, done, format!("reloading {name} failed"));
        // A reload comes from outside, so it is said where the user looks too.
        self.notice = self.watching.note.clone();
    }

    /// Shows scene `index` of the open file in place of the one shown, keeping what still
    /// applies as a reload does.
    pub fn show_scene(&mut self, index: usize) {
        let name = asset::file_name(&self.document.model.path);
        let scene_name = self.document.model.scenes.get(index).map_or("?", |s| s.name.as_str());
        let done = format!("Showing scene '{scene_name}' of {name}");
        self.load_again(
            &SceneChoice::Index(index),
            done,
            format!("showing scene {index} of {name} failed"),
        );
    }

    /// Reads the open model's file again with scene `scene`; `watching.note` becomes `done`, or
    /// `failed` and why.
    fn load_again(&mut self, scene: &SceneChoice, done: String, failed: String) {
        let path = self.document.model.path.clone();
        let loaded = asset::load_scene(&path, scene).and_then(|mut model| {
            let added = self
                .document
                .model
                .source_files
                .iter()
                .filter(|f| !model.source_files.contains(f));
            let added: Vec<PathBuf> = added.cloned().collect();
            for file in added {
                match Format::from_extension(&file) {
                    Some(Format::Md5Anim) => asset::add_md5_animation(&mut model, &file)?,
                    Some(format) if format.info().is_model => {
                        asset::add_clips_from(&mut model, &file)?;
                    }
                    _ => {}
                }
            }
            Ok(model)
        });
        self.watching.note = Some(match loaded {
            Ok(model) => {
                self.replace_model_keeping_settings(model);
                Notice::done(done)
            }
            Err(error) => Notice::failed(format!("{failed}: {error}")),
        });
    }

    fn replace_model_keeping_settings(&mut self, model: Model) {
        let old_model = std::mem::replace(&mut self.document.model, model);
        let (old, new) = (&old_model, &self.document.model);
        let clip = |index: usize| old.clips.get(index).and_then(|c| find_clip(&new.clips, c.name()));
        let joint = |index: usize| {
            (index < old.skeleton.len())
                .then(|| new.skeleton.find(old.skeleton.name(index)))
                .flatten()
        };
        let mut player = carry_player(&self.frame.player, &old.clips, &new.clips);
        player.animator.layers = (self.frame.player.animator.layers.iter())
            .filter_map(|layer| carry_layer(layer, clip(layer.clip())?, layer.mask_root().map(joint)))
            .collect();
        player.animator.ik = (self.frame.player.animator.ik.iter())
            .filter_map(|ik| carry_ik(ik, joint(ik.chain.end())?, &new.skeleton))
            .collect();
        self.frame.player = player;
        let selected = self.inspection.selected.and_then(joint);
        self.inspection = self.inspection.for_model(new);
        self.inspection.selected = selected;
        let pinned = self.trails.pinned.iter().filter_map(|&j| joint(j)).collect();
        self.trails = self.trails.for_new_model();
        self.trails.pinned = pinned;
        let carrier = self.motion.carrier.and_then(joint);
        self.motion = self.motion.for_new_model();
        self.motion.carrier = carrier;
        // Hand-set morph weights stay while the weights are the same; others start afresh.
        let weight_count = new.skeleton.rest_pose().morph_weights().len();
        if self.frame.morphs.len() != weight_count {
            self.frame.morphs = MorphOverride::new(weight_count);
        }
        // Expression weights stay by name.
        let expressions = new.avatar.as_ref().map_or(&[][..], |a| &a.expressions[..]);
        let old_weight = |name: &str| {
            let old_expressions = old.avatar.as_ref().map_or(&[][..], |a| &a.expressions[..]);
            let index = old_expressions.iter().position(|e| e.name == name)?;
            self.frame.avatar.expressions.get(index).copied()
        };
        self.frame.avatar.expressions = expressions.iter().map(|e| old_weight(&e.name).unwrap_or(0.0)).collect();
        self.file_camera = self.file_camera.filter(|&c| c < new.cameras.len());
        // The material variant stays by name.
        self.view.material_variant = (self.view.material_variant)
            .and_then(|v| old.material_variants.get(v))
            .and_then(|name| new.find_variant(name).ok());
        self.ik_editor = crate::ui::ik_edit::IkEditor::new(new);
        self.hovered_file = None;
        self.document.load_error = None;
        self.document.refresh_facts();
        self.frame.pose = self.document.model.skeleton.rest_pose().clone();
        self.frame.joint_matrices = self.frame.pose.to_model_matrices();
        self.document.generation += 1;
        self.retire(old_model);
    }
}

/// The player with the same clip (by name), time, fade queue settled, speed, mode and blend
/// weights (by clip name).
fn carry_player(old: &Player, old_clips: &[Clip], new_clips: &[Clip]) -> Player {
    let clip_named = |index: usize| old_clips.get(index).and_then(|c| find_clip(new_clips, c.name()));
    let target = match old.clip() {
        Some(index) => clip_named(index),
        None => None,
    };
    let first = (!new_clips.is_empty()).then_some(0);
    let mut player = Player::new(if old.clip().is_some() { target.or(first) } else { None });
    player.playing = old.playing;
    player.speed = old.speed;
    player.fade_time = old.fade_time;
    player.animator.mode = old.animator.mode;
    player.animator.layer_time = old.animator.layer_time;
    if target.is_some() {
        // The time of what was on screen (the clip faded to, once its fade ends).
        let mut settled = old.animator.crossfade.clone();
        settled.settle();
        player.animator.crossfade.set_time(settled.time());
        player.animator.crossfade.wrap_times(player.animator.mode, new_clips);
    }
    for index in 0..old_clips.len() {
        let weight = old.animator.sync_blend.weight(index);
        if let Some(new_index) = clip_named(index).filter(|_| weight > 0.0) {
            player.animator.sync_blend.set_weight(new_index, weight);
        }
    }
    player
}

/// `layer` on clip `clip` of the new model, its mask on `mask_root` (none when the old
/// joint is gone: the layer is dropped rather than spread over the whole body).
fn carry_layer(layer: &AdditiveLayer, clip: usize, mask_root: Option<Option<usize>>) -> Option<AdditiveLayer> {
    let mut carried = AdditiveLayer::new(clip, layer.weight);
    carried.space = layer.space;
    carried.set_reference_time(layer.reference_time());
    carried.set_mask_root(match mask_root {
        Some(root) => Some(root?),
        None => None,
    });
    Some(carried)
}

/// The IK chain of as many bones ending at joint `end` of `skeleton`, with the same target,
/// weight, solver and limits (constraints are kept when the chain has the same joints).
fn carry_ik(ik: &IkLayer, end: usize, skeleton: &Skeleton) -> Option<IkLayer> {
    let mut carried = IkLayer::new(skeleton.hierarchy(), end, ik.chain.bones(), ik.target).ok()?;
    carried.weight = ik.weight;
    carried.solver = ik.solver;
    carried.iterations = ik.iterations;
    carried.threshold = ik.threshold;
    let constraints = carried.chain.constraints_mut();
    if constraints.len() == ik.chain.constraints().len() {
        constraints.copy_from_slice(ik.chain.constraints());
    }
    Some(carried)
}

fn find_clip(clips: &[Clip], name: &str) -> Option<usize> {
    clips.iter().position(|c| c.name() == name)
}

/// "21:04:05 UTC" (the standard library knows no time zones).
fn utc_time_of_day(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!("{:02}:{:02}:{:02} UTC", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

/// `path` made absolute the way notify names the files of a watched folder (the folder's path
/// joined with the file's name), so the viewer's files compare with what the watcher reports.
pub fn absolute(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).ok()?;
    Some(path.parent()?.join(path.file_name()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_of_day_is_hours_minutes_seconds() {
        let time = UNIX_EPOCH + std::time::Duration::from_secs(3 * 86_400 + 21 * 3600 + 4 * 60 + 5);
        assert_eq!(utc_time_of_day(time), "21:04:05 UTC");
    }
}
