//! Rig lint: each rule on a small glTF file the test writes with exactly that problem (and a
//! clean file with none), the sample assets (no errors), and the `lint` command's exit status,
//! JSON and batch mode.

use crate::common;

use std::path::PathBuf;

use glam::{Mat4, Quat, Vec3};
use rigscope::lint::{Finding, Rule, Severity, lint};
use serde_json::{Value, json};

/// A triangle skinned to a chain: `root` → `bone` → `extra` more joints, optionally animated.
#[derive(Clone)]
struct Rig {
    /// Influence sets (JOINTS_n / WEIGHTS_n) per vertex: `sets[set][vertex]`.
    sets: Vec<[([u16; 4], [f32; 4]); 3]>,
    inverse_bind: Option<Vec<Mat4>>,
    root_scale: Vec3,
    mesh_translation: Vec3,
    extra: usize,
    /// Rotation keys of `bone` at the given times (any length: not normalised here).
    bone_rotation: Option<(Vec<f32>, Vec<[f32; 4]>)>,
    /// Whether the extra joints swing and come back (a looping clip).
    extras_swing: bool,
}

impl Rig {
    fn clean() -> Self {
        let vertex = ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]);
        let rig = Self {
            sets: vec![[vertex; 3]],
            inverse_bind: None,
            root_scale: Vec3::ONE,
            mesh_translation: Vec3::ZERO,
            extra: 0,
            bone_rotation: None,
            extras_swing: false,
        };
        Self {
            inverse_bind: Some(rig.rest_bind()),
            ..rig
        }
    }

    /// Joint model matrices in the rest pose (root at the origin, each child 1 up).
    fn rest_bind(&self) -> Vec<Mat4> {
        let root = Mat4::from_scale(self.root_scale);
        (0..2 + self.extra)
            .map(|i| (root * Mat4::from_translation(Vec3::Y * i as f32)).inverse())
            .collect()
    }

    fn gltf(&self) -> Value {
        let mut buffer = Vec::new();
        let mut views = Vec::new();
        let mut accessors = Vec::new();
        let mut add = |bytes: Vec<u8>, accessor: Value| {
            views.push(json!({"buffer": 0, "byteOffset": buffer.len(), "byteLength": bytes.len()}));
            buffer.extend(bytes);
            let mut accessor = accessor;
            accessor["bufferView"] = json!(views.len() - 1);
            accessors.push(accessor);
            accessors.len() - 1
        };
        let positions = common::f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        let position = add(
            positions,
            json!({"componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}),
        );
        let mut attributes = json!({"POSITION": position});
        for (set, vertices) in self.sets.iter().enumerate() {
            let joints: Vec<u8> = vertices
                .iter()
                .flat_map(|(j, _)| j.iter().flat_map(|v| v.to_le_bytes()))
                .collect();
            let weights: Vec<f32> = vertices.iter().flat_map(|(_, w)| *w).collect();
            let j = add(joints, json!({"componentType": 5123, "count": 3, "type": "VEC4"}));
            let w = add(
                common::f32_bytes(&weights),
                json!({"componentType": 5126, "count": 3, "type": "VEC4"}),
            );
            attributes[format!("JOINTS_{set}")] = json!(j);
            attributes[format!("WEIGHTS_{set}")] = json!(w);
        }
        let joints = 2 + self.extra;
        let mut skin = json!({"joints": (0..joints).collect::<Vec<_>>()});
        if let Some(matrices) = &self.inverse_bind {
            let values: Vec<f32> = matrices.iter().flat_map(|m| m.to_cols_array()).collect();
            skin["inverseBindMatrices"] = json!(add(
                common::f32_bytes(&values),
                json!({"componentType": 5126, "count": joints, "type": "MAT4"})
            ));
        }
        let mut nodes: Vec<Value> = (0..joints)
            .map(|i| {
                let mut node = json!({"name": format!("joint{i}")});
                if i + 1 < joints {
                    node["children"] = json!([i + 1]);
                }
                if i > 0 {
                    node["translation"] = json!([0, 1, 0]);
                }
                node
            })
            .collect();
        nodes[0]["name"] = json!("root");
        nodes[1]["name"] = json!("bone");
        nodes[0]["scale"] = json!(self.root_scale.to_array());
        nodes.push(json!({"name": "body", "mesh": 0, "skin": 0, "translation": self.mesh_translation.to_array()}));
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        let mut animate = |node: usize, times: &[f32], keys: &[[f32; 4]]| {
            let input = add(
                common::f32_bytes(times),
                json!({"componentType": 5126, "count": times.len(), "type": "SCALAR",
                       "min": [times[0]], "max": [times[times.len() - 1]]}),
            );
            let values: Vec<f32> = keys.iter().flatten().copied().collect();
            let output = add(
                common::f32_bytes(&values),
                json!({"componentType": 5126, "count": keys.len(), "type": "VEC4"}),
            );
            samplers.push(json!({"input": input, "output": output}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": "rotation"}}));
        };
        if let Some((times, keys)) = &self.bone_rotation {
            animate(1, times, keys);
        }
        if self.extras_swing {
            let swing = Quat::from_rotation_z(0.3).to_array();
            for node in 2..joints {
                animate(
                    node,
                    &[0.0, 0.5, 1.0],
                    &[[0.0, 0.0, 0.0, 1.0], swing, [0.0, 0.0, 0.0, 1.0]],
                );
            }
        }
        let mut root = json!({
            "asset": {"version": "2.0"},
            "scene": 0,
            "scenes": [{"nodes": [0, joints]}],
            "nodes": nodes,
            "meshes": [{"name": "body", "primitives": [{"attributes": attributes}]}],
            "skins": [skin],
            "accessors": accessors,
            "bufferViews": views,
            "buffers": [{"byteLength": buffer.len(), "uri": common::data_uri(&buffer)}],
        });
        if !channels.is_empty() {
            root["animations"] = json!([{"name": "clip", "channels": channels, "samplers": samplers}]);
        }
        root
    }

    fn write(&self, name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("rigscope-lint-{}-{name}.gltf", std::process::id()));
        std::fs::write(&path, serde_json::to_vec(&self.gltf()).unwrap()).unwrap();
        path
    }

    fn findings(&self, name: &str) -> Vec<Finding> {
        let path = self.write(name);
        let model = rigscope::asset::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        lint(&model)
    }
}

/// The findings of one rule.
fn of(findings: &[Finding], rule: Rule) -> Vec<&Finding> {
    findings.iter().filter(|f| f.rule == rule).collect()
}

/// Asserts that `rig` has exactly one finding of `rule`, with this severity, subject and
/// count, and returns it.
fn expect(rig: &Rig, name: &str, rule: Rule, severity: Severity, subject: &str, count: usize) -> Finding {
    let findings = rig.findings(name);
    let found = of(&findings, rule);
    assert_eq!(found.len(), 1, "{name}: {findings:#?}");
    let finding = found[0].clone();
    assert_eq!(
        (finding.severity, finding.subject.as_str(), finding.count),
        (severity, subject, count),
        "{finding:?}"
    );
    finding
}

const PRIMITIVE: &str = "mesh 'body' primitive 0";

#[test]
fn a_clean_rig_has_no_findings() {
    assert_eq!(Rig::clean().findings("clean"), vec![]);
}

#[test]
fn weight_rules() {
    let with_vertex = |vertex: ([u16; 4], [f32; 4])| {
        let mut rig = Rig::clean();
        rig.sets[0][1] = vertex;
        rig
    };
    expect(
        &with_vertex(([0, 7, 0, 0], [0.5, 0.5, 0.0, 0.0])),
        "range",
        Rule::JointIndexOutOfRange,
        Severity::Error,
        PRIMITIVE,
        1,
    );
    expect(
        &with_vertex(([0, 1, 0, 0], [1.25, -0.25, 0.0, 0.0])),
        "negative",
        Rule::NegativeWeight,
        Severity::Error,
        PRIMITIVE,
        1,
    );
    expect(
        &with_vertex(([0, 1, 0, 0], [0.5, 0.3, 0.0, 0.0])),
        "sum",
        Rule::WeightsNotNormalised,
        Severity::Warning,
        PRIMITIVE,
        1,
    );
    expect(
        &with_vertex(([0, 1, 0, 0], [0.0; 4])),
        "unweighted",
        Rule::UnweightedVertex,
        Severity::Error,
        PRIMITIVE,
        1,
    );
    expect(
        &with_vertex(([0, 1, 0, 0], [1.0, 0.0, 0.0, 0.0])),
        "zero",
        Rule::ZeroWeightInfluence,
        Severity::Note,
        PRIMITIVE,
        1,
    );
    // Three sets of four: twelve influences on every vertex.
    let mut crowded = Rig::clean();
    let spread = ([0, 1, 0, 1], [1.0 / 12.0; 4]);
    crowded.sets = vec![[spread; 3]; 3];
    expect(
        &crowded,
        "crowded",
        Rule::TooManyInfluences,
        Severity::Warning,
        PRIMITIVE,
        3,
    );
}

#[test]
fn unused_joints_are_named() {
    let mut rig = Rig::clean();
    rig.extra = 2;
    rig.inverse_bind = Some(rig.rest_bind());
    let finding = expect(&rig, "unused", Rule::UnusedJoint, Severity::Note, "skin 'Skin 0'", 2);
    assert!(finding.message.ends_with("'joint2', 'joint3'"), "{}", finding.message);
}

#[test]
fn inverse_bind_matrix_rules() {
    let mut missing = Rig::clean();
    missing.inverse_bind = None;
    expect(
        &missing,
        "missing",
        Rule::MissingInverseBindMatrices,
        Severity::Warning,
        "skin 'Skin 0'",
        1,
    );

    let mut singular = Rig::clean();
    singular.inverse_bind.as_mut().unwrap()[1] = Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0));
    expect(
        &singular,
        "singular",
        Rule::NonInvertibleInverseBindMatrix,
        Severity::Error,
        "skin 'Skin 0'",
        1,
    );

    let mut elsewhere = Rig::clean();
    elsewhere.inverse_bind.as_mut().unwrap()[1] = Mat4::from_translation(Vec3::new(0.0, 1.5, 0.0)).inverse();
    let finding = expect(
        &elsewhere,
        "bind",
        Rule::BindPoseFarFromRest,
        Severity::Warning,
        "skin 'Skin 0'",
        1,
    );
    assert!(finding.message.ends_with("'bone'"), "{}", finding.message);
}

#[test]
fn scale_and_node_transform_rules() {
    let mut mirrored = Rig::clean();
    mirrored.root_scale = Vec3::new(-1.0, 1.0, 1.0);
    mirrored.inverse_bind = Some(mirrored.rest_bind());
    let finding = expect(
        &mirrored,
        "mirror",
        Rule::NegativeScale,
        Severity::Warning,
        "rest pose",
        1,
    );
    assert!(finding.message.ends_with("'root'"));
    assert!(
        of(&mirrored.findings("mirror2"), Rule::BindPoseFarFromRest).is_empty(),
        "bound as it rests"
    );

    let mut stretched = Rig::clean();
    stretched.root_scale = Vec3::new(1.0, 2.0, 1.0);
    stretched.inverse_bind = Some(stretched.rest_bind());
    expect(
        &stretched,
        "stretch",
        Rule::NonUniformScale,
        Severity::Note,
        "rest pose",
        1,
    );

    let mut moved = Rig::clean();
    moved.mesh_translation = Vec3::X;
    let finding = expect(
        &moved,
        "moved",
        Rule::SkinnedMeshNodeTransform,
        Severity::Warning,
        "node 'body'",
        1,
    );
    assert!(finding.message.contains("of its own"));
    // The rule follows the format the loader recognised by content, not the file's name.
    let written = moved.write("moved-renamed");
    let renamed = written.with_extension("json");
    std::fs::rename(&written, &renamed).unwrap();
    let findings = lint(&rigscope::asset::load(&renamed).unwrap());
    std::fs::remove_file(&renamed).unwrap();
    assert_eq!(of(&findings, Rule::SkinnedMeshNodeTransform).len(), 1, "{findings:?}");
}

#[test]
fn rotation_key_rules() {
    let mut long = Rig::clean();
    long.bone_rotation = Some((vec![0.0, 1.0], vec![[0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 1.0]]));
    expect(
        &long,
        "long",
        Rule::RotationKeysNotUnit,
        Severity::Warning,
        "clip 'clip' joint 'bone'",
        1,
    );

    let q = Quat::from_rotation_z(0.2).to_array();
    let flipped = Quat::from_rotation_z(0.4).to_array().map(|c| -c);
    let mut flip = Rig::clean();
    flip.bone_rotation = Some((vec![0.0, 0.5, 1.0], vec![q, flipped, q]));
    expect(
        &flip,
        "flip",
        Rule::QuaternionSignFlip,
        Severity::Note,
        "clip 'clip' joint 'bone'",
        2,
    );
}

#[test]
fn a_looping_clip_whose_joint_ends_elsewhere_pops_at_the_seam() {
    let mut rig = Rig::clean();
    rig.extra = 5;
    rig.inverse_bind = Some(rig.rest_bind());
    rig.sets[0] = [
        ([0, 1, 2, 3], [0.25; 4]),
        ([4, 5, 6, 0], [0.25; 4]),
        ([1, 2, 3, 4], [0.25; 4]),
    ];
    rig.extras_swing = true;
    let start = [0.0, 0.0, 0.0, 1.0];
    let near = Quat::from_rotation_z(0.1).to_array();
    let far = Quat::from_rotation_z(1.5).to_array();
    // The bone drifts to 86° by the end while the five other joints come back: a pop.
    rig.bone_rotation = Some((vec![0.0, 0.5, 1.0], vec![start, near, far]));
    let finding = expect(&rig, "seam", Rule::LoopSeamJump, Severity::Warning, "clip 'clip'", 1);
    assert!(finding.message.ends_with("'bone'"), "{}", finding.message);
    // Coming back too: a clean loop.
    rig.bone_rotation = Some((vec![0.0, 0.5, 1.0], vec![start, far, start]));
    assert!(of(&rig.findings("loop"), Rule::LoopSeamJump).is_empty());
    // A one-shot clip (most joints end elsewhere) is not a loop: no finding.
    rig.extras_swing = false;
    rig.bone_rotation = Some((vec![0.0, 0.5, 1.0], vec![start, near, far]));
    assert!(of(&rig.findings("once"), Rule::LoopSeamJump).is_empty());
}

#[test]
fn identical_findings_are_grouped_with_their_counts_added() {
    // The same problem on three vertices is one finding with count 3.
    let mut rig = Rig::clean();
    rig.sets[0] = [([0, 9, 0, 0], [0.5, 0.5, 0.0, 0.0]); 3];
    let findings = rig.findings("grouped");
    let found = of(&findings, Rule::JointIndexOutOfRange);
    assert_eq!((found.len(), found[0].count), (1, 3));
}

#[test]
fn the_sample_characters_have_no_errors() {
    for file in [
        "RiggedFigure/glTF-Binary/RiggedFigure.glb",
        "CesiumMan/glTF-Binary/CesiumMan.glb",
        "Fox/glTF-Binary/Fox.glb",
        "Xbot/Xbot.glb",
        "RiggedSimple/glTF-Binary/RiggedSimple.glb",
    ] {
        let model = rigscope::asset::load(&common::gltf(file)).unwrap();
        let findings = lint(&model);
        let errors: Vec<_> = findings.iter().filter(|f| f.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{file}: {errors:#?}");
    }
    // Fox's skin lists its two root joints without weighting anything to them.
    let fox = lint(&rigscope::asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap());
    assert_eq!(of(&fox, Rule::UnusedJoint)[0].count, 2);
}

#[test]
fn the_lint_command_exits_1_on_errors_and_speaks_json() {
    let clean = Rig::clean().write("cli-clean");
    let mut broken = Rig::clean();
    broken.sets[0][0] = ([0, 1, 0, 0], [0.0; 4]);
    let broken = broken.write("cli-broken");
    let ok = common::rigscope(&["lint", clean.to_str().unwrap()]);
    assert!(ok.status.success());
    assert!(String::from_utf8_lossy(&ok.stdout).contains("0 errors, 0 warnings, 0 notes"));
    let bad = common::rigscope(&["lint", broken.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(
        text.contains("error   unweighted-vertex") && text.contains(PRIMITIVE),
        "{text}"
    );
    let json = common::rigscope(&["lint", "--json", broken.to_str().unwrap(), clean.to_str().unwrap()]);
    assert_eq!(json.status.code(), Some(1));
    let lines: Vec<Value> = common::json_lines(&json.stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["errors"], 1);
    assert_eq!(lines[0]["findings"][0]["rule"], "unweighted-vertex");
    assert_eq!(lines[0]["findings"][0]["severity"], "error");
    assert_eq!(lines[1]["ok"], true);
    assert_eq!(lines[1]["findings"], json!([]));
    for path in [clean, broken] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn linting_the_sample_assets_in_a_batch_reports_a_corrupt_file_and_lints_the_rest() {
    let dir = common::temp_dir("lint-batch");
    let fox = std::fs::read(common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    std::fs::write(dir.join("corrupt.glb"), &fox[..100]).unwrap();
    let assets = common::assets_dir();
    let output = common::rigscope(&["lint", "--json", assets.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<Value> = common::json_lines(&output.stdout);
    let expected = rigscope::cli::batch::expand(std::slice::from_ref(&assets)).len() + 1;
    assert_eq!(lines.len(), expected);
    let failed: Vec<&Value> = lines.iter().filter(|l| l["ok"] == false).collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["error"].as_str().unwrap().contains("corrupt.glb"));
    assert!(
        lines.iter().filter(|l| l["ok"] == true).all(|l| l["errors"] == 0),
        "the samples lint clean of errors"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_demo_rig_has_only_its_unweighted_root() {
    let findings = lint(&rigscope::asset::demo::demo_model());
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!((findings[0].rule, findings[0].count), (Rule::UnusedJoint, 1));
    assert!(findings[0].message.ends_with("'root'"));
}
