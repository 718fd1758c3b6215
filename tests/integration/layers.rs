//! The source tree's layers, as docs/ARCHITECTURE.md draws them: each folder of `src/` uses
//! only the folders it may (arrows point down), and no files of one folder import each other
//! round a loop. Read from the `use` lines and paths of the code itself, test modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each folder of `src/` and the folders it may use, from the bottom up.
const LAYERS: &[(&str, &[&str])] = &[
    ("simd", &[]),
    ("anim", &["simd"]),
    ("export", &[]),
    ("asset", &["anim"]),
    ("skin", &["anim", "asset", "simd"]),
    ("lint", &["anim", "asset", "skin", "inspect"]),
    ("inspect", &["anim", "asset", "skin"]),
    ("view", &["anim", "asset", "skin", "inspect", "lint"]),
    (
        "render",
        &["anim", "asset", "skin", "inspect", "lint", "view", "export"],
    ),
    ("ui", &["anim", "asset", "skin", "inspect", "lint", "view"]),
    (
        "cli",
        &["anim", "asset", "skin", "inspect", "lint", "view", "export", "render"],
    ),
    (
        "app",
        &[
            "anim", "asset", "skin", "inspect", "lint", "view", "export", "render", "ui",
        ],
    ),
];

/// A source file: its module path (`ui::state::reload`) and its code without comments and
/// test modules.
struct Source {
    file: PathBuf,
    module: Vec<String>,
    is_mod_rs: bool,
    code: String,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(&root).unwrap().with_extension("");
            let mut module: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let is_mod_rs = module.last().is_some_and(|m| m == "mod");
            if is_mod_rs {
                module.pop();
            }
            // The crate's roots and test helpers sit above every layer.
            if module.len() == 1 && ["main", "lib", "test_shapes"].contains(&module[0].as_str()) {
                return None;
            }
            let code = without_tests(&std::fs::read_to_string(&file).unwrap());
            Some(Source {
                file,
                module,
                is_mod_rs,
                code,
            })
        })
        .collect()
}

fn collect(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code less its comments and everything from the first `#[cfg(test)]` on (test modules
/// come last in this code base, and tests may use any layer).
fn without_tests(code: &str) -> String {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path the code names through `crate::`, `super::` or `self::`, absolute and with
/// `{a, b::c}` groups spread out (one level deep, as rustfmt writes them).
fn named_paths(source: &Source) -> Vec<Vec<String>> {
    let code = &source.code;
    let mut paths = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let base: Vec<String> = match start {
                "crate::" => Vec::new(),
                // `super` of a file `a::b` is `a`; of a folder's mod.rs `a::b` also `a`.
                "super::" => source.module[..source.module.len() - 1].to_vec(),
                _ if source.is_mod_rs => source.module.clone(),
                _ => source.module[..source.module.len() - 1].to_vec(),
            };
            let rest = &code[at + start.len()..];
            for tail in spread(rest) {
                let mut path = base.clone();
                path.extend(tail);
                paths.push(path);
            }
        }
    }
    paths
}

/// The paths at the start of `rest`: `a::b::C` or `a::{b, c::D}`.
fn spread(rest: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut text = rest;
    loop {
        let name: String = text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            if let Some(group) = text.strip_prefix('{') {
                let inner = &group[..group.find('}').unwrap_or(group.len())];
                return inner
                    .split(',')
                    .map(|item| {
                        let mut path = prefix.clone();
                        path.extend(
                            item.trim()
                                .split("::")
                                .map(|s| s.trim().to_owned())
                                .filter(|s| !s.is_empty()),
                        );
                        path
                    })
                    .collect();
            }
            return vec![prefix];
        }
        text = &text[name.len()..];
        prefix.push(name);
        match text.strip_prefix("::") {
            Some(next) => text = next,
            None => return vec![prefix],
        }
    }
}

#[test]
fn folders_use_only_the_layers_below_them() {
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for source in sources() {
        let folder = source.module[0].as_str();
        let Some(may_use) = allowed.get(folder) else {
            wrong.push(format!(
                "{}: folder '{folder}' has no place in LAYERS",
                source.file.display()
            ));
            continue;
        };
        let used: BTreeSet<String> = named_paths(&source)
            .into_iter()
            .filter_map(|p| p.first().cloned())
            .collect();
        for other in used {
            if other != folder && allowed.contains_key(other.as_str()) && !may_use.contains(&other.as_str()) {
                wrong.push(format!("{} ({folder}) uses {other}", source.file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

#[test]
fn no_files_of_one_folder_import_each_other_round_a_loop() {
    let sources = sources();
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    // An arrow between two files of one folder (neither of them the folder's mod.rs).
    let mut arrows: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for source in &sources {
        for path in named_paths(source) {
            let Some(target) = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| modules.contains(m))
            else {
                continue;
            };
            let siblings = target.len() == source.module.len()
                && target[..target.len() - 1] == source.module[..source.module.len() - 1];
            if siblings && target != source.module {
                arrows.entry(source.module.clone()).or_default().insert(target);
            }
        }
    }
    let mut loops = Vec::new();
    for start in arrows.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&Vec<String>> = arrows[start].iter().collect();
        while let Some(module) = stack.pop() {
            if module == start {
                loops.push(start.join("::"));
                break;
            }
            if seen.insert(module) {
                stack.extend(arrows.get(module).into_iter().flatten());
            }
        }
    }
    assert!(
        loops.is_empty(),
        "files in an import loop with their siblings: {loops:?}"
    );
}

#[test]
fn the_reader_sees_the_imports_it_is_meant_to() {
    // The reader itself: a grouped import spreads, `super` is the folder, a sibling loop and
    // an arrow back up are found.
    let source = Source {
        file: PathBuf::from("src/ui/panel.rs"),
        module: vec!["ui".into(), "panel".into()],
        is_mod_rs: false,
        code: "use super::{state::ViewerState, timeline};\nuse crate::app::run;".into(),
    };
    let paths = named_paths(&source);
    let expected: Vec<Vec<String>> = [
        &["app", "run"][..],
        &["ui", "state", "ViewerState"],
        &["ui", "timeline"],
    ]
    .iter()
    .map(|path| path.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(paths, expected);
    assert_eq!(without_tests("use a; // b\n#[cfg(test)]\nmod tests {}"), "use a; ");
}
