//! Loading a large OBJ stays within 3x the file's size (the growth of the process's peak
//! resident memory, as `/usr/bin/time -v` reports it): its geometry is read in one pass
//! straight into primitives, not through ufbx's mesh (7x).

mod common;

use std::fmt::Write;

use rigscope::asset;

/// A figure of this process's memory from `/proc/self/status`, in bytes (`VmRSS`: resident
/// now, `VmHWM`: the most resident since the last reset).
fn memory(figure: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(figure)).unwrap();
    let kilobytes: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kilobytes << 10
}

/// Starts `VmHWM` again from what is resident now.
fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
}

/// A grid of `side` × `side` vertices as an OBJ of triangles, with a UV per vertex and one
/// normal when `textured`.
fn grid(side: usize, textured: bool) -> String {
    let mut obj = String::from("o Grid\n");
    for (y, x) in (0..side).flat_map(|y| (0..side).map(move |x| (y, x))) {
        writeln!(obj, "v {:.4} {:.4} 0.0", x as f32 / side as f32, y as f32 / side as f32).unwrap();
    }
    if textured {
        for (y, x) in (0..side).flat_map(|y| (0..side).map(move |x| (y, x))) {
            writeln!(obj, "vt {:.4} {:.4}", x as f32 / side as f32, y as f32 / side as f32).unwrap();
        }
        obj.push_str("vn 0 0 1\n");
    }
    let corner = |i: usize| if textured { format!("{i}/{i}/1") } else { i.to_string() };
    for (y, x) in (0..side - 1).flat_map(|y| (0..side - 1).map(move |x| (y, x))) {
        let a = y * side + x + 1;
        let [b, c, d] = [a + 1, a + side, a + side + 1];
        writeln!(
            obj,
            "f {} {} {}\nf {} {} {}",
            corner(a),
            corner(b),
            corner(c),
            corner(b),
            corner(d),
            corner(c)
        )
        .unwrap();
    }
    obj
}

/// Names the file `load_one` measures in a process of its own.
const FILE_TO_MEASURE: &str = "RIGSCOPE_OBJ_MEMORY_FILE";

#[test]
fn a_large_obj_loads_within_three_times_its_size() {
    let dir = common::temp_dir("obj-memory");
    for (name, textured) in [("plain.obj", false), ("textured.obj", true)] {
        let path = dir.join(name);
        let text = grid(600, textured);
        std::fs::write(&path, &text).unwrap();
        let size = text.len();
        drop(text);
        // In a fresh process, so that no memory an earlier load freed is reused unseen.
        let run = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["load_one", "--exact", "--nocapture", "--test-threads=1"])
            .env(FILE_TO_MEASURE, &path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{name}: {said}");
        let peak: usize = (said.lines())
            .find_map(|l| l.strip_prefix("resident growth: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name}: no measure in {said}"));
        assert!(
            peak <= 3 * size,
            "{name}: loading {size} bytes grew the resident memory by {peak} bytes ({:.2}x the file)",
            peak as f64 / size as f64
        );
        eprintln!(
            "{name}: {size} bytes, {peak} more resident at most ({:.2}x)",
            peak as f64 / size as f64
        );
    }
}

/// Loads the file `FILE_TO_MEASURE` names and says how much the resident memory grew at most
/// (nothing without it: it runs as a child of the test above).
#[test]
fn load_one() {
    let Some(path) = std::env::var_os(FILE_TO_MEASURE) else {
        return;
    };
    let before = memory("VmRSS:");
    reset_peak();
    let model = asset::load(std::path::Path::new(&path)).unwrap();
    let peak = memory("VmHWM:").saturating_sub(before);
    let triangles: usize = model.meshes[0].primitives.iter().map(|p| p.indices.len() / 3).sum();
    assert_eq!(triangles, 2 * 599 * 599);
    eprintln!("resident growth: {peak}");
}
