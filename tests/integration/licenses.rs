//! `rigscope --licenses` and the Debian package's copyright file name every crate compiled into
//! the binary: the crates Cargo builds for this platform as normal and build dependencies, as
//! `cargo tree` resolves them from Cargo.lock. When a dependency changes, these fail until
//! `tools/licenses/generate.sh` has been run.

use crate::common::succeed;

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs cargo in the source tree with these arguments and returns what it printed.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .args(["--locked", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// "name vVERSION" of every crate compiled into rigscope's binary on this platform: its normal
/// and build dependencies with the features a build of the binary turns on, as `cargo tree`
/// resolves them (`cargo metadata`'s graph also counts features that only dev-dependencies
/// ask for).
fn compiled_crates() -> BTreeSet<String> {
    let tree = cargo(&["tree", "--edges", "normal,build", "--prefix", "none", "--format", "{p}"]);
    let mut crates: BTreeSet<String> = tree
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some(format!("{} {}", words.next()?, words.next()?))
        })
        .collect();
    crates.remove(&format!("rigscope v{}", env!("CARGO_PKG_VERSION")));
    crates
}

/// "name vVERSION" of every crate Cargo.lock holds, for any platform and any kind of dependency.
fn locked_crates() -> BTreeSet<String> {
    let metadata: Value = serde_json::from_str(&cargo(&["metadata", "--format-version", "1"])).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{} v{}", p["name"].as_str().unwrap(), p["version"].as_str().unwrap()))
        .collect()
}

/// The crates the licence text lists, one a line as `name vVERSION: licence [texts]` under its
/// "Rust crates" heading.
fn listed_crates(text: &str) -> BTreeSet<String> {
    let list = text.split_once("\nRust crates (").unwrap().1;
    let list = list.split_once("\n\n").unwrap().1;
    let list = list.split_once("\n\n").unwrap().0;
    list.lines()
        .map(|line| line.split_once(':').unwrap().0.to_owned())
        .collect()
}

#[test]
fn licenses_name_every_crate_compiled_in_and_no_other() {
    let text = succeed(&["--licenses"]);
    let listed = listed_crates(&text);
    let missing: Vec<_> = compiled_crates().difference(&listed).cloned().collect();
    assert!(
        missing.is_empty(),
        "rigscope --licenses lacks {missing:?}: run tools/licenses/generate.sh"
    );
    let stale: Vec<_> = listed.difference(&locked_crates()).cloned().collect();
    assert!(
        stale.is_empty(),
        "rigscope --licenses lists {stale:?}, which Cargo.lock no longer has: run tools/licenses/generate.sh"
    );
}

#[test]
fn licenses_give_rigscope_s_own_and_each_crate_s_licence_texts() {
    let text = succeed(&["--licenses"]);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let own = format!(
        "rigscope {} is copyright the rigscope developers and licensed under the MIT licence or the \
         Apache License 2.0, at your option",
        env!("CARGO_PKG_VERSION")
    );
    assert!(words.contains(&own), "{}", &text[..400]);
    let list = text
        .split_once("\nRust crates (")
        .unwrap()
        .1
        .split_once("\n\n")
        .unwrap()
        .1;
    let list = list.split_once("\n\n").unwrap().0;
    let texts = text.split_once("\nLicence texts\n").unwrap().1;
    for line in list.lines() {
        let references: Vec<&str> = line.split('[').skip(1).map(|r| r.split(']').next().unwrap()).collect();
        assert!(!references.is_empty(), "{line}: no licence text");
        for number in references {
            assert!(texts.contains(&format!("\n[{number}] ")), "{line}: no text [{number}]");
        }
    }
    assert!(texts.contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"));
    assert!(texts.contains("Permission is hereby granted, free of charge"));
}

#[test]
fn licenses_give_the_c_and_c_plus_plus_libraries_texts() {
    let text = succeed(&["--licenses"]);
    let libraries = text
        .split_once("\nC and C++ libraries in those crates\n")
        .unwrap()
        .1
        .split_once("\nLicence texts\n")
        .unwrap()
        .0;
    for (library, notice) in [
        ("ufbx (in ufbx v", "Copyright (c) 2022 Samuli Raivio"),
        (
            "meshoptimizer (in meshopt ",
            "Copyright (c) 2016-2026 Arseny Kapoulkine",
        ),
        ("OpenH264 (in openh264-sys2 v", "Copyright (c) 2013, Cisco Systems"),
        ("Draco (in draco-core v", "Apache-2.0"),
        ("Basis Universal transcoder (in basisu v", "Apache-2.0"),
    ] {
        let entry = libraries
            .split_once(library)
            .unwrap_or_else(|| panic!("no {library}"))
            .1;
        assert!(entry.contains(notice), "{library}: {entry}");
    }
    assert!(libraries.contains("Redistributions in binary form must reproduce the above copyright notice"));
}

#[test]
fn the_debian_copyright_file_names_every_crate_compiled_in() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/deb/copyright");
    let copyright = std::fs::read_to_string(path).unwrap();
    assert!(copyright.starts_with("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"));
    let missing: Vec<_> = compiled_crates()
        .into_iter()
        .filter(|crate_| {
            let folder = crate_.replace(" v", "-");
            !copyright.contains(&format!("\nFiles: cargo-registry/{folder}/*\n"))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "tools/deb/copyright lacks {missing:?}: run tools/licenses/generate.sh"
    );
}

#[test]
fn licenses_stop_quietly_when_the_reader_stops_reading() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("--licenses")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The text is several times a pipe's buffer: rigscope is still writing when `head` would quit.
    let mut first_line = [0; 60];
    child.stdout.take().unwrap().read_exact(&mut first_line).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&first_line).starts_with("Licences of rigscope"));
}
