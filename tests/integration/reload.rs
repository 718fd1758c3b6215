//! Watching and reloading with real files and notify's real watcher: rewriting the open file
//! (or its external buffer) reloads it keeping the clip, time and selection; a broken rewrite
//! keeps the model on screen and says why; a file that failed to open opens once fixed.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::app::file_watch::FileWatch;
use rigscope::asset::demo::demo_model;
use rigscope::ui::{ViewerState, panel};

/// Generous: the machine running the tests may be busy.
const PATIENCE: Duration = Duration::from_secs(60);

/// Fox split into `fox.gltf` and its external buffer `fox.bin`, in a fresh folder.
fn fox_with_external_buffer(name: &str) -> (PathBuf, PathBuf) {
    let dir = common::temp_dir(name);
    let glb = std::fs::read(common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let chunk = |offset: usize| {
        let length = u32::from_le_bytes(glb[offset..offset + 4].try_into().unwrap()) as usize;
        (&glb[offset + 8..offset + 8 + length], offset + 8 + length)
    };
    let (json, next) = chunk(12);
    let (bin, _) = chunk(next);
    let mut json: serde_json::Value = serde_json::from_slice(json).unwrap();
    json["buffers"][0]["uri"] = "fox.bin".into();
    let (gltf, buffer) = (dir.join("fox.gltf"), dir.join("fox.bin"));
    std::fs::write(&buffer, bin).unwrap();
    std::fs::write(&gltf, serde_json::to_vec(&json).unwrap()).unwrap();
    (gltf, buffer)
}

/// Replaces `path` the way editors and Blender do: a new file renamed over the old one.
fn replace(path: &Path, contents: &[u8]) {
    let new = path.with_extension("saving");
    std::fs::write(&new, contents).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// A watcher on `state`'s files whose wake-ups arrive on the returned channel.
fn watch(state: &ViewerState) -> (FileWatch, mpsc::Receiver<()>) {
    let (wake, woken) = mpsc::channel();
    let mut watch = FileWatch::new(move || {
        let _ = wake.send(());
    })
    .unwrap();
    watch.watch(&state.watched_files());
    (watch, woken)
}

/// Waits for the watcher to report changes, as the window does, and hands them to `state`.
fn wait_for_changes(watch: &FileWatch, woken: &mpsc::Receiver<()>, state: &mut ViewerState) -> Vec<PathBuf> {
    let start = Instant::now();
    loop {
        let left = PATIENCE.saturating_sub(start.elapsed());
        assert!(!left.is_zero(), "no change reported within {PATIENCE:?}");
        if woken.recv_timeout(left).is_ok() {
            let changed = watch.take_changes();
            if !changed.is_empty() {
                state.files_changed(&changed);
                return changed;
            }
        }
    }
}

#[test]
fn rewriting_the_open_file_or_its_buffer_reloads_it_keeping_clip_time_and_selection() {
    let (gltf, buffer) = fox_with_external_buffer("reload-rewrite");
    let mut state = ViewerState::new(demo_model());
    state.open(&gltf);
    assert!(state.document.load_error.is_none(), "{:?}", state.document.load_error);
    assert!(
        state.document.model.source_files.contains(&buffer),
        "{:?}",
        state.document.model.source_files
    );
    let run = state.document.model.find_clip("Run").unwrap();
    state.frame.player.fade_time = 0.0;
    state.frame.player.select(Some(run));
    state.frame.player.playing = false;
    state.frame.player.scrub(0.3, &state.document.model.clips);
    let head = state.document.model.skeleton.find("b_Head_05").unwrap();
    state.inspection.selected = Some(head);
    state.view.wireframe = true;
    // What the window does with the first open's requests.
    state.requests = Default::default();
    let generation = state.document.generation;
    let (watch, woken) = watch(&state);

    // Reversing the clips' order in the file moves their indices: "Run" is kept by name.
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    json["animations"].as_array_mut().unwrap().reverse();
    replace(&gltf, &serde_json::to_vec(&json).unwrap());
    let changed = wait_for_changes(&watch, &woken, &mut state);
    assert!(changed.iter().any(|c| c.ends_with("fox.gltf")), "{changed:?}");
    assert_eq!(
        state.document.generation,
        generation + 1,
        "reloaded: {:?}",
        state.watching.note
    );
    let clip = state.frame.player.clip().unwrap();
    assert_eq!(state.document.model.clips[clip].name(), "Run", "the clip by name");
    assert_ne!(clip, run, "the file's order changed");
    assert!(
        (state.frame.player.clip_time(&state.document.model.clips) - 0.3).abs() < 1e-4,
        "the time"
    );
    assert!(!state.frame.player.playing);
    assert_eq!(
        state.inspection.selected,
        state.document.model.skeleton.find("b_Head_05")
    );
    assert!(state.view.wireframe, "view options stay");
    assert!(state.requests == Default::default(), "no camera reset or reframing");
    let note = state.watching.note.clone().unwrap();
    assert!(
        !note.failed && note.text.starts_with("Reloaded fox.gltf at "),
        "{note:?}"
    );

    // The external buffer is watched too.
    let bytes = std::fs::read(&buffer).unwrap();
    replace(&buffer, &bytes);
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.generation, generation + 2);
}

#[test]
fn a_broken_rewrite_keeps_the_model_and_shows_the_error_until_fixed() {
    let (gltf, _) = fox_with_external_buffer("reload-broken");
    let good = std::fs::read(&gltf).unwrap();
    let mut state = ViewerState::new(demo_model());
    state.open(&gltf);
    let generation = state.document.generation;
    let vertices = state.document.model.vertex_count();
    let (watch, woken) = watch(&state);

    replace(&gltf, b"{ \"asset\": ");
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.generation, generation, "the old model stays");
    assert_eq!(state.document.model.vertex_count(), vertices);
    let note = state.watching.note.clone().unwrap();
    assert!(
        note.failed && note.text.starts_with("reloading fox.gltf failed: "),
        "{note:?}"
    );
    assert!(note.text.contains("fox.gltf"), "{note:?}");
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| _ = panel::show(ui, state, &Default::default()),
        state,
    );
    harness.run();
    assert_eq!(
        harness.get_all_by_label_contains("reloading fox.gltf failed").count(),
        2,
        "in File and over the view"
    );
    let mut state = harness.into_state();

    // The next good save reloads.
    replace(&gltf, &good);
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.generation, generation + 1);
    assert!(!state.watching.note.clone().unwrap().failed);
}

#[test]
fn a_file_that_failed_to_open_is_watched_and_opens_once_fixed() {
    let (gltf, _) = fox_with_external_buffer("reload-launch");
    let good = std::fs::read(&gltf).unwrap();
    std::fs::write(&gltf, b"not json").unwrap();
    // What the window does with a file from the command line.
    let mut state = ViewerState::new(demo_model());
    state.open(&gltf);
    assert!(state.document.load_error.as_deref().unwrap().contains("fox.gltf"));
    assert_eq!(state.document.model.clips.len(), 5, "the demo rig shows");
    assert!(state.watched_files().contains(&gltf));
    let (watch, woken) = watch(&state);
    replace(&gltf, &good);
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.model.path, gltf, "opened");
    assert!(state.document.load_error.is_none());
    assert!(state.requests.reset_camera, "a newly opened file is framed");
    assert_eq!(state.document.window_title(), "fox.gltf — rigscope");
}

#[test]
fn the_error_at_launch_shows_in_the_panel_and_watching_can_be_turned_off() {
    let mut state = ViewerState::new(demo_model());
    assert_eq!(state.document.window_title(), "rigscope");
    state.open(Path::new("/no/such/model.glb"));
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| _ = panel::show(ui, state, &Default::default()),
        state,
    );
    harness.run();
    assert_eq!(
        harness.get_all_by_label_contains("/no/such/model.glb").count(),
        2,
        "in File and over the view"
    );
    assert_eq!(
        harness.state().watched_files(),
        vec![PathBuf::from("/no/such/model.glb")]
    );
    harness.get_by_label("Watch file for changes").click();
    harness.run();
    assert!(!harness.state().watching.enabled);
    assert!(harness.state().watched_files().is_empty());
}

#[test]
fn an_added_md5_animation_is_watched_and_kept_on_reload() {
    let dir = common::temp_dir("reload-md5");
    let bob = common::assets_dir().join("md5/Bob");
    let mesh = dir.join("bob.md5mesh");
    std::fs::copy(bob.join("Bob.md5mesh"), &mesh).unwrap();
    let elsewhere = dir.join("anims");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let anim = elsewhere.join("wave.md5anim");
    std::fs::copy(bob.join("Bob.md5anim"), &anim).unwrap();
    let mut state = ViewerState::new(demo_model());
    state.open(&mesh);
    state.open(&anim);
    assert!(state.watched_files().contains(&anim));
    let wave = state.document.model.find_clip("wave").unwrap();
    state.frame.player.select(Some(wave));
    state.reload();
    assert!(!state.watching.note.clone().unwrap().failed);
    assert_eq!(
        state.document.model.clips[state.frame.player.clip().unwrap()].name(),
        "wave"
    );
}

#[test]
fn layers_blend_weights_and_ik_chains_are_kept_by_name_and_dropped_when_gone() {
    let (gltf, _) = fox_with_external_buffer("reload-layers");
    let mut state = ViewerState::new(demo_model());
    state.open(&gltf);
    let [survey, walk] = ["Survey", "Walk"].map(|name| state.document.model.find_clip(name).unwrap());
    let animator = &mut state.frame.player.animator;
    animator.layers.push(rigscope::anim::AdditiveLayer::new(survey, 0.5));
    animator.layers.push(rigscope::anim::AdditiveLayer::new(walk, 0.7));
    animator.sync_blend.set_weight(walk, 0.4);
    let head = state.document.model.skeleton.find("b_Head_05").unwrap();
    state.add_ik_chain(head, 2);
    assert_eq!(state.frame.player.animator.ik.len(), 1, "{:?}", state.ik_editor.error);

    // The re-export drops "Survey" and puts "Walk" first.
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    let animations = json["animations"].as_array_mut().unwrap();
    animations.retain(|a| a["name"] != "Survey");
    animations.sort_by_key(|a| a["name"] != "Walk");
    std::fs::write(&gltf, serde_json::to_vec(&json).unwrap()).unwrap();
    state.reload();
    assert!(!state.watching.note.clone().unwrap().failed);
    let walk = state.document.model.find_clip("Walk").unwrap();
    assert_eq!(walk, 0);
    let layers = &state.frame.player.animator.layers;
    assert_eq!(layers.len(), 1, "the Survey layer is gone");
    assert_eq!((layers[0].clip(), layers[0].weight), (walk, 0.7));
    assert_eq!(state.frame.player.animator.sync_blend.weight(walk), 0.4);
    let ik = &state.frame.player.animator.ik;
    assert_eq!(ik.len(), 1);
    assert_eq!(state.document.model.skeleton.name(ik[0].chain.end()), "b_Head_05");
}

/// No change reported within `wait` (the debounce settles in a quarter of a second).
fn assert_no_change(watch: &FileWatch, woken: &mpsc::Receiver<()>, wait: Duration, what: &str) {
    if woken.recv_timeout(wait).is_ok() {
        let changed = watch.take_changes();
        assert!(changed.is_empty(), "{what} counted as a change: {changed:?}");
    }
}

#[test]
fn a_read_is_no_change_and_a_reload_does_not_reload_again() {
    let (gltf, buffer) = fox_with_external_buffer("reload-once");
    let mut state = ViewerState::new(demo_model());
    state.open(&gltf);
    let generation = state.document.generation;
    let (mut watch, woken) = watch(&state);
    let settled = rigscope::app::file_watch::SETTLE_TIME * 8;
    std::fs::read(&gltf).unwrap();
    std::fs::read(&buffer).unwrap();
    assert_no_change(&watch, &woken, settled, "reading the files");

    // touch: one change; the reload reads both files, which is none.
    let later = std::time::SystemTime::now() + Duration::from_secs(2);
    std::fs::File::options()
        .write(true)
        .open(&gltf)
        .unwrap()
        .set_modified(later)
        .unwrap();
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.generation, generation + 1);
    // What the window does after a reload.
    watch.watch(&state.watched_files());
    assert_no_change(&watch, &woken, settled, "the reload's own reading");
    assert_eq!(state.document.generation, generation + 1);

    // Deleted and written again, as many tools save: followed.
    let bytes = std::fs::read(&gltf).unwrap();
    std::fs::remove_file(&gltf).unwrap();
    std::thread::sleep(settled);
    std::fs::write(&gltf, &bytes).unwrap();
    wait_for_changes(&watch, &woken, &mut state);
    assert_eq!(state.document.generation, generation + 2);
    assert!(!state.watching.note.clone().unwrap().failed);
}
