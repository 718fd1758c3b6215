//! The library's public surface: `api` and the types the crate root re-exports. Every other
//! module is public only with the `internals` feature, which these tests turn on through the
//! package's dev-dependency on itself; a program depending on rigscope sees the facade alone.

use std::path::Path;

fn crate_root() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap()
}

/// The modules the crate root declares through `internal_modules!(...)`.
fn internal_modules(lib: &str) -> Vec<String> {
    let (_, after) = lib
        .split_once("\ninternal_modules!(")
        .expect("lib.rs declares its internal modules with internal_modules!");
    let (list, _) = after.split_once(");").unwrap();
    list.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn only_the_facade_is_a_public_module_of_the_crate_root() {
    let lib = crate_root();
    // At the start of a line: the macro's own `pub mod $name;` is indented.
    let public: Vec<&str> = lib.lines().filter(|line| line.starts_with("pub mod ")).collect();
    assert_eq!(public, ["pub mod api;"]);
}

#[test]
fn every_folder_of_the_source_is_the_facade_or_behind_the_internals_feature() {
    let lib = crate_root();
    let internal = internal_modules(&lib);
    assert!(internal.contains(&"render".to_owned()), "{internal:?}");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let is_module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if !is_module || ["lib", "main", "api", "test_shapes"].contains(&name.as_str()) {
            continue;
        }
        let private = lib.lines().any(|line| line.trim() == format!("mod {name};"));
        assert!(
            internal.contains(&name) || private,
            "src/{name} is neither behind the internals feature nor private to the crate"
        );
    }
}

#[test]
fn the_tests_reach_the_internals_through_the_feature() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    assert!(manifest.contains("rigscope = { path = \".\", features = [\"internals\"] }"));
    assert!(
        cfg!(feature = "internals"),
        "the integration tests are built with the internals feature"
    );
}
