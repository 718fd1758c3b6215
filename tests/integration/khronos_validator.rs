//! The Khronos glTF-Validator as a test tool (`common::validator`), checked against known
//! answers: the shared samples' findings, and the validator's own test models, whose reports lie
//! beside them (`FILE.report.json`, made by the validator's command line).

use crate::common;

use std::path::Path;

use common::validator::{ERROR, WARNING, khronos_validate, khronos_validate_all, khronos_validate_all_with};

#[test]
fn the_shared_samples_get_their_known_findings() {
    let fox = khronos_validate(&common::gltf("Fox/glTF-Binary/Fox.glb"));
    fox.assert_no_errors();
    assert_eq!((fox.warnings, fox.infos, fox.hints), (0, 0, 0), "{}", fox.describe());

    // A warning, with its place: CesiumMan's skinned mesh hangs below the root.
    let cesium_man = khronos_validate(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb"));
    cesium_man.assert_no_errors();
    assert_eq!(cesium_man.codes_of_severity(WARNING), ["NODE_SKINNED_MESH_NON_ROOT"]);
    assert_eq!(cesium_man.messages[0].pointer.as_deref(), Some("/nodes/2"));
}

/// Models of the validator's corpus with errors: an animation whose external buffer holds the
/// faults, a PNG beside its `.gltf` that ends early (so external resources are read from beside
/// the file), and a GLB whose container is wrong (located by byte offset, not JSON pointer).
const CORPUS_MODELS_WITH_ERRORS: [&str; 3] = [
    "base/data/animation_data/invalid_input_values.gltf",
    "base/data/image/png_eos.gltf",
    "base/data/glb/chunk_too_big.glb",
];

#[test]
fn the_validators_own_models_get_the_errors_its_reports_say() {
    let paths: Vec<_> = CORPUS_MODELS_WITH_ERRORS
        .iter()
        .map(|model| common::validator_dir().join(model))
        .collect();
    let reports = khronos_validate_all(&paths);
    for (path, report) in paths.iter().zip(&reports) {
        assert_eq!(&report.file, path, "reports come in the order of the files");
        let expected = expected_report(path);
        let expected_codes: Vec<&str> = expected["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["severity"] == ERROR)
            .filter_map(|m| m["code"].as_str())
            .collect();
        assert!(report.errors > 0, "{}", report.describe());
        assert_eq!(
            report.errors as u64,
            expected["numErrors"].as_u64().unwrap(),
            "{}",
            report.describe()
        );
        assert_eq!(report.codes_of_severity(ERROR), expected_codes, "{}", report.describe());
    }
    let glb = &reports[2];
    assert!(
        glb.messages.iter().all(|m| m.pointer.is_none() && m.offset.is_some()),
        "{}",
        glb.describe()
    );
}

/// The `issues` of the validator's own report on `model`.
fn expected_report(model: &Path) -> serde_json::Value {
    let report_path = format!("{}.report.json", model.display());
    let text = std::fs::read(&report_path).unwrap_or_else(|e| panic!("{report_path}: {e}"));
    let report: serde_json::Value = serde_json::from_slice(&text).unwrap();
    report["issues"].clone()
}

#[test]
fn a_report_that_has_errors_fails_listing_them() {
    let model = common::validator_dir().join(CORPUS_MODELS_WITH_ERRORS[0]);
    let report = khronos_validate(&model);
    let failure = std::panic::catch_unwind(|| report.assert_no_errors()).unwrap_err();
    let text = failure.downcast_ref::<String>().unwrap();
    assert!(
        text.contains("3 errors")
            && text.contains("ACCESSOR_ANIMATION_INPUT_NON_INCREASING at /animations/0/samplers/0/input"),
        "{text}"
    );
}

#[test]
#[should_panic(expected = "could not validate every file")]
fn a_file_that_cannot_be_read_fails_the_test() {
    khronos_validate(Path::new("no such model.glb"));
}

#[test]
#[should_panic(expected = "run `npm ci --prefix tools/validate`")]
fn a_missing_validator_fails_the_test_naming_the_install_command() {
    let empty = common::temp_dir("khronos-validator-missing");
    khronos_validate_all_with(&empty, &[common::gltf("Fox/glTF-Binary/Fox.glb")]);
}
