//! The source tree's layers, as docs/ARCHITECTURE.md draws them: each folder of `src/` uses
//! only the folders it may (arrows point down), and no files of one folder import each other
//! round a loop. Read from the `use` lines and paths of the code itself, test modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each folder of `src/` and the folders it may use, from the bottom up.
const LAYERS: &[(&str, &[&str])] = &[
    ("simd", &[]),
    ("in_order", &[]),
    ("heap_padding", &[]),
    ("anim", &["simd"]),
    ("export", &[]),
    ("asset", &["anim", "in_order"]),
    ("skin", &["anim", "asset", "simd"]),
    ("write", &["anim", "asset", "export"]),
    ("lint", &["anim", "asset", "skin", "inspect"]),
    ("inspect", &["anim", "asset", "skin"]),
    ("diff", &["anim", "asset"]),
    ("view", &["anim", "asset", "skin", "inspect", "lint"]),
    (
        "render",
        &["anim", "asset", "skin", "inspect", "lint", "view", "export", "in_order"],
    ),
    (
        "ui",
        &[
            "anim", "asset", "skin", "inspect", "lint", "view", "export", "write", "diff",
        ],
    ),
    (
        "cli",
        &[
            "anim", "asset", "skin", "inspect", "lint", "view", "export", "render", "write", "diff",
        ],
    ),
    (
        "app",
        &[
            "anim", "asset", "skin", "inspect", "lint", "view", "export", "render", "ui", "write", "diff",
        ],
    ),
    // The library's public facade (and the Python module's only door) sits on the commands.
    (
        "api",
        &[
            "anim", "asset", "skin", "inspect", "lint", "view", "export", "render", "write", "diff", "cli",
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

/// The code less its comments and its `#[cfg(test)] mod … { … }` blocks (tests may use any
/// layer; other test-only items stay, as they are code of their module).
fn without_tests(code: &str) -> String {
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut kept = String::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let block = item
            .find('{')
            .filter(|&open| item.starts_with("mod ") && !item[..open].contains(';'));
        rest = match block {
            Some(open) => &item[matching_brace(item, open)..],
            None => after,
        };
    }
    kept.push_str(rest);
    kept
}

/// The index just past the `}` that closes the `{` at `open`.
fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (at, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + at + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// Every module path the code names through `crate::`, `super::` (any number of them) or
/// `self::`, absolute and with `{a, b::{c, d}}` groups spread out.
fn named_paths(source: &Source) -> Vec<Vec<String>> {
    let code = &source.code;
    let mut paths = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut rest = &code[at + start.len()..];
            let mut base: Vec<String> = match start {
                "crate::" => Vec::new(),
                // `super` of a file `a::b` is `a`; of a folder's mod.rs `a::b` also `a`.
                "super::" => source.module[..source.module.len() - 1].to_vec(),
                _ => source.module.clone(),
            };
            while let Some(next) = rest.strip_prefix("super::") {
                base.pop();
                rest = next;
            }
            for tail in spread(rest) {
                let mut path = base.clone();
                path.extend(tail);
                paths.push(path);
            }
        }
    }
    paths
}

/// The paths at the start of `rest`: `a::b::C`, or `a::{b, c::{D, E}}` spread out.
fn spread(rest: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut text = rest;
    loop {
        let name: String = text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            if !text.starts_with('{') {
                return vec![prefix];
            }
            let inner = &text[1..matching_brace(text, 0) - 1];
            return top_level_items(inner)
                .flat_map(|item| spread(item.trim()))
                .map(|tail| prefix.iter().cloned().chain(tail).collect())
                .collect();
        }
        text = &text[name.len()..];
        prefix.push(name);
        match text.trim_start().strip_prefix("::") {
            Some(next) => text = next.trim_start(),
            None => return vec![prefix],
        }
    }
}

/// The comma-separated items of a group, commas inside nested groups left alone.
fn top_level_items(inner: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items.into_iter().filter(|item| !item.trim().is_empty())
}

/// What each folder's `pub use` lines hand on: `ui::ViewerState` → `ui::state::ViewerState`,
/// so that an import through a folder's re-export counts as one of the file it comes from.
fn re_exports(sources: &[Source]) -> BTreeMap<Vec<String>, Vec<String>> {
    let mut aliases = BTreeMap::new();
    for source in sources.iter().filter(|s| s.is_mod_rs) {
        for (at, _) in source.code.match_indices("pub use ") {
            let rest = &source.code[at + "pub use ".len()..];
            let rest = rest.strip_prefix("self::").unwrap_or(rest);
            if ["crate::", "super::"].iter().any(|p| rest.starts_with(p)) {
                continue;
            }
            for tail in spread(rest) {
                let Some(name) = tail.last() else { continue };
                let mut alias = source.module.clone();
                alias.push(name.clone());
                let mut target = source.module.clone();
                target.extend(tail.iter().cloned());
                aliases.insert(alias, target);
            }
        }
    }
    aliases
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
    let aliases = re_exports(&sources);
    // An arrow between two files or folders of one folder: the importer's and the imported's
    // ancestors just below the folder they share (a file in `ui/state/` importing
    // `ui/watch_panel.rs` is an arrow from `ui::state` to `ui::watch_panel`). A file importing
    // its own folder's mod.rs, or a mod.rs its own files, draws none.
    let mut arrows: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for source in &sources {
        for path in named_paths(source) {
            let path = (1..=path.len())
                .rev()
                .find_map(|n| aliases.get(&path[..n]).map(|to| [to, &path[n..]].concat()))
                .unwrap_or(path);
            let Some(target) = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| modules.contains(m))
            else {
                continue;
            };
            let shared = source.module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if shared < source.module.len() && shared < target.len() {
                let (from, to) = (source.module[..=shared].to_vec(), target[..=shared].to_vec());
                arrows.entry(from).or_default().insert(to);
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
    assert_eq!(
        without_tests("use a; // b\n#[cfg(test)]\nmod tests { fn f() {} }\nuse c;\n#[cfg(test)]\nmod fixtures;"),
        "use a; \n\nuse c;\n\nmod fixtures;"
    );
    let nested = Source {
        file: PathBuf::from("src/asset/gltf/mesh.rs"),
        module: vec!["asset".into(), "gltf".into(), "mesh".into()],
        is_mod_rs: false,
        code: "use crate::{anim::{Pose, Clip}, render::X};\nuse super::super::super::ui::Y;\nuse self::z::W;".into(),
    };
    let joined: Vec<String> = named_paths(&nested).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "anim::Pose",
            "anim::Clip",
            "render::X",
            "ui::Y",
            "asset::gltf::mesh::z::W"
        ]
    );
}
