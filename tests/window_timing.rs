//! The real window under Xvfb, timed: playback follows the wall clock at any frame rate, and
//! a paused, untouched viewer draws nothing and uses no CPU. The tests take turns (one window
//! at a time), so that they do not slow each other's frames; the time given the viewer to open
//! stretches with the machine's load (`common::timing`).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_WINDOW_AT_A_TIME: Mutex<()> = Mutex::new(());

fn xvfb_rigscope(args: &[&str]) -> Command {
    let mut command = Command::new("xvfb-run");
    command
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args(args);
    command
}

/// The report `--exit-after` prints.
fn report(output: &std::process::Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn playback_follows_the_wall_clock_at_any_frame_rate() {
    let _turn = ONE_WINDOW_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let mut frame_times = Vec::new();
    for (quality, label) in [("fast", "Fast"), ("best", "Best")] {
        let output = xvfb_rigscope(&[fox.to_str().unwrap(), "--quality", quality, "--exit-after", "5"])
            .output()
            .expect("xvfb-run (Debian package xvfb) must be installed; .ci/run installs it");
        let report = report(&output);
        assert_eq!(report["quality"], label, "the renderer runs at the quality asked for");
        let playing = report["playing_seconds"].as_f64().unwrap();
        let played = report["clip_seconds_played"].as_f64().unwrap();
        let frames = report["frames"].as_f64().unwrap();
        assert!(playing > 2.0, "{quality}: too little time to measure: {report}");
        assert!(
            (played - playing).abs() < 0.1 * playing,
            "{quality}: the clip played {played:.2} s in {playing:.2} s: {report}"
        );
        frame_times.push(playing / frames);
    }
    eprintln!("frame times (fast, best): {frame_times:?}");
}

/// CPU time (user + system) the process `pid` has used so far, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name (which is in parentheses and may hold spaces).
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // SAFETY: sysconf only reads a configuration value.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    assert!(ticks_per_second > 0, "the kernel's clock tick");
    ticks / ticks_per_second as f64
}

/// Seconds to let the viewer open and draw its first frames: 8 on a quiet machine, more on a
/// busy one.
fn opening_seconds() -> u64 {
    common::timing::scaled(Duration::from_secs(8)).as_secs_f64().ceil() as u64
}

/// The process running `binary` among the descendants of `ancestor`.
fn descendant_running(ancestor: u32, binary: &Path, deadline: Instant) -> u32 {
    let parent_of = |pid: u32| -> Option<u32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat[stat.rfind(')')? + 2..].split(' ').nth(1)?.parse().ok()
    };
    let descends = |mut pid: u32| {
        while let Some(parent) = parent_of(pid) {
            if parent == ancestor {
                return true;
            }
            if parent <= 1 {
                break;
            }
            pid = parent;
        }
        false
    };
    let binary = binary.canonicalize().unwrap();
    while Instant::now() < deadline {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
            if exe.as_deref() == Some(binary.as_path()) && descends(pid) {
                return pid;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("rigscope did not start under xvfb-run");
}

/// The viewer opened on `file`, paused, closing after `seconds`: the xvfb-run process, and
/// the viewer's own process id (to read its CPU time).
fn paused_viewer(file: &Path, seconds: &str) -> (std::process::Child, u32) {
    let start = Instant::now();
    let child = xvfb_rigscope(&[file.to_str().unwrap(), "--paused", "--exit-after", seconds])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run (Debian package xvfb) must be installed; .ci/run installs it");
    let binary = Path::new(env!("CARGO_BIN_EXE_rigscope"));
    let viewer = descendant_running(
        child.id(),
        binary,
        start + common::timing::scaled(Duration::from_secs(10)),
    );
    (child, viewer)
}

#[test]
fn a_paused_untouched_viewer_draws_nothing_and_uses_no_cpu() {
    let _turn = ONE_WINDOW_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let opening = opening_seconds();
    let start = Instant::now();
    let (child, viewer) = paused_viewer(&fox, &(opening + 11).to_string());
    // Time to open and draw its first frames, then 10 s idle.
    std::thread::sleep((start + Duration::from_secs(opening)).saturating_duration_since(Instant::now()));
    let before = cpu_seconds(viewer);
    std::thread::sleep(Duration::from_secs(10));
    let idle_cpu = cpu_seconds(viewer) - before;
    let report = report(&child.wait_with_output().unwrap());
    let last_frame = report["last_frame_at"].as_f64().unwrap();
    assert!(
        last_frame < opening as f64,
        "a frame was drawn while idle, at {last_frame:.2} s: {report}"
    );
    assert!(report["clip_seconds_played"].as_f64().unwrap() == 0.0, "{report}");
    assert!(idle_cpu < 0.2, "the idle viewer used {idle_cpu:.2} s of CPU in 10 s");
}

/// Rewrites `path` in place in two pieces `pause` apart, as an exporter writing in parts does.
fn write_in_two_pieces(path: &Path, contents: &[u8], pause: Duration) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).unwrap();
    let (first, second) = contents.split_at(contents.len() / 2);
    file.write_all(first).unwrap();
    file.flush().unwrap();
    std::thread::sleep(pause);
    file.write_all(second).unwrap();
}

#[test]
fn each_change_of_the_open_file_reloads_it_once_and_reading_it_none() {
    let _turn = ONE_WINDOW_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = common::temp_dir("window-watch");
    let fox = dir.join("Fox.glb");
    let bytes = std::fs::read(common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    std::fs::write(&fox, &bytes).unwrap();
    // The timeline below, on a quiet machine, begins at 8 s.
    let opening = opening_seconds();
    let start = Instant::now();
    let (child, viewer) = paused_viewer(&fox, &(opening + 24).to_string());
    let at = |seconds: u64| {
        let since_opened = Duration::from_secs(opening + seconds - 8);
        std::thread::sleep((start + since_opened).saturating_duration_since(Instant::now()))
    };
    at(8);
    // touch: one reload.
    let touched = std::time::SystemTime::now();
    std::fs::File::options()
        .write(true)
        .open(&fox)
        .unwrap()
        .set_modified(touched)
        .unwrap();
    at(12);
    // Written again in two pieces 100 ms apart: one reload, once it has settled.
    write_in_two_pieces(&fox, &bytes, Duration::from_millis(100));
    at(16);
    // Read: none.
    std::fs::read(&fox).unwrap();
    at(19);
    let before = cpu_seconds(viewer);
    std::thread::sleep(Duration::from_secs(10));
    let idle_cpu = cpu_seconds(viewer) - before;
    let report = report(&child.wait_with_output().unwrap());
    assert_eq!(report["reloads"], 2, "a touch and a rewrite, each once: {report}");
    let last_frame = report["last_frame_at"].as_f64().unwrap();
    assert!(
        last_frame < (opening + 11) as f64,
        "a frame was drawn while idle, at {last_frame:.2} s: {report}"
    );
    assert!(
        idle_cpu < 0.2,
        "after the reloads the viewer used {idle_cpu:.2} s of CPU in 10 s"
    );
}
