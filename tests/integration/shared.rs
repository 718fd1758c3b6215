//! Helpers several integration modules share: reading the panel's harness (the playhead, what
//! was painted) and running a command on a terminal.

use egui_kittest::Harness;
use rigscope::ui::ViewerState;

/// Where the playhead is in the clip playing.
pub fn clip_time(harness: &Harness<'static, ViewerState>) -> f32 {
    let state = harness.state();
    state.frame.player.clip_time(&state.document.model.clips)
}

/// Whether the last frame painted `text` (a numeric field's text is painted, not labelled;
/// its suffix is painted apart).
pub fn painted(harness: &Harness<'static, ViewerState>, text: &str) -> bool {
    harness
        .output()
        .shapes
        .iter()
        .any(|clipped| matches!(&clipped.shape, egui::Shape::Text(shape) if shape.galley.text() == text))
}

/// What a terminal shows while `command` (a shell command line) runs on it: `script`
/// (util-linux) runs it on a pseudo-terminal and records the screen into `log`.
pub fn shown_on_a_terminal(command: &str, log: &std::path::Path) -> String {
    let ran = std::process::Command::new("script")
        .args(["-qec", command, log.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let shown = std::fs::read_to_string(log).unwrap();
    std::fs::remove_file(log).unwrap();
    shown
}
