//! The one line that sums a comparison up: "same rig", "same rig; 2 clips differ", or "rig
//! changed: 3 joints added, weights moved on 412 vertices" (then what else differs).

use super::joints::JointSummary;
use super::meshes::MeshComparison;
use super::{Finding, MorphDiff, MorphStatus, Section};

/// "1 joint", "3 joints", "2 vertices", "2 meshes".
pub fn count(n: usize, thing: &str) -> String {
    match (n, thing) {
        (1, _) => format!("1 {thing}"),
        (_, "vertex") => format!("{n} vertices"),
        (_, "mesh") => format!("{n} meshes"),
        _ => format!("{n} {thing}s"),
    }
}

/// The verdict, from the joint, mesh and morph summaries and the findings of the other
/// sections.
pub fn verdict(joints: &JointSummary, meshes: &MeshComparison, morphs: &[MorphDiff], findings: &[Finding]) -> String {
    let in_section = |section: Section| findings.iter().filter(|f| f.section == section).count();
    let mut rig = Vec::new();
    let joint_counts = [
        (joints.added, "added"),
        (joints.removed, "removed"),
        (joints.renamed, "renamed"),
        (joints.reparented, "reparented"),
    ];
    for (n, what) in joint_counts.into_iter().filter(|&(n, _)| n > 0) {
        rig.push(format!("{} {what}", count(n, "joint")));
    }
    if joints.rest_moved > 0 {
        rig.push(format!("rest pose changed at {}", count(joints.rest_moved, "joint")));
    }
    if joints.bind_moved > 0 {
        rig.push(format!("{} moved", count(joints.bind_moved, "bind")));
    }
    if in_section(Section::Meshes) > 0 {
        let added_or_removed = meshes
            .meshes
            .iter()
            .filter(|m| m.mesh.is_none() || m.mesh_b.is_none())
            .count();
        if added_or_removed > 0 {
            rig.push(format!("{} added or removed", count(added_or_removed, "mesh")));
        }
        if meshes.unpaired_vertices > 0 {
            rig.push(format!(
                "geometry changed at {}",
                count(meshes.unpaired_vertices, "vertex")
            ));
        }
        let uvs_or_normals: usize = meshes.meshes.iter().map(|m| m.uv_changed.max(m.normal_changed)).sum();
        if uvs_or_normals > 0 {
            rig.push(format!("UVs or normals changed on {}", count(uvs_or_normals, "vertex")));
        }
        if added_or_removed + meshes.unpaired_vertices + uvs_or_normals == 0 {
            rig.push("triangles changed".to_owned());
        }
    }
    if meshes.weights.changed > 0 {
        rig.push(format!("weights moved on {}", count(meshes.weights.changed, "vertex")));
    }
    for (status, what) in [
        (MorphStatus::Added, "added"),
        (MorphStatus::Removed, "removed"),
        (MorphStatus::Changed, "changed"),
    ] {
        let n = morphs.iter().filter(|m| m.status == status).count();
        if n > 0 {
            rig.push(format!("{} {what}", count(n, "morph target")));
        }
    }
    let mut other = Vec::new();
    let clips = distinct_clips(findings);
    if clips > 0 {
        other.push(format!(
            "{} {}",
            count(clips, "clip"),
            if clips == 1 { "differs" } else { "differ" }
        ));
    }
    let materials = distinct_named(findings, Section::Materials);
    if materials > 0 {
        let differ = if materials == 1 { "differs" } else { "differ" };
        other.push(format!("{} {differ}", count(materials, "material")));
    }
    match (rig.is_empty(), other.is_empty()) {
        (true, true) => "same rig".to_owned(),
        (true, false) => format!("same rig; {}", other.join(", ")),
        (false, true) => format!("rig changed: {}", rig.join(", ")),
        (false, false) => format!("rig changed: {}; {}", rig.join(", "), other.join(", ")),
    }
}

/// How many clips the clip findings are about (a clip added or renamed counts as one).
fn distinct_clips(findings: &[Finding]) -> usize {
    distinct_named(findings, Section::Clips)
}

/// How many distinct things the findings of `section` name: each finding starts with the
/// thing's name in quotes.
fn distinct_named(findings: &[Finding], section: Section) -> usize {
    let mut names: Vec<&str> = (findings.iter())
        .filter(|f| f.section == section)
        .map(|f| f.text.split('\'').nth(1).unwrap_or(&f.text))
        .collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::WeightSummary;

    fn finding(section: Section, text: &str) -> Finding {
        Finding {
            section,
            text: text.into(),
            joint: None,
            clip: None,
            time: None,
        }
    }

    fn no_meshes(weights_changed: usize) -> MeshComparison {
        MeshComparison {
            meshes: Vec::new(),
            weights: WeightSummary {
                changed: weights_changed,
                ..WeightSummary::default()
            },
            vertex_weight_change: Vec::new(),
            mesh_pairs: Vec::new(),
            vertex_pairs: Vec::new(),
            unpaired_vertices: 0,
        }
    }

    #[test]
    fn nothing_found_is_the_same_rig() {
        assert_eq!(verdict(&JointSummary::default(), &no_meshes(0), &[], &[]), "same rig");
    }

    #[test]
    fn clips_and_materials_alone_leave_the_rig_the_same() {
        let findings = [
            finding(Section::Clips, "'Walk': joints up to 1 cm apart"),
            finding(Section::Clips, "'Walk': keyed at 30 fps in A, 24 fps in B"),
            finding(Section::Clips, "'Run' removed"),
            finding(Section::Materials, "'Skin': roughness 1 → 0.5"),
        ];
        let verdict = verdict(&JointSummary::default(), &no_meshes(0), &[], &findings);
        assert_eq!(verdict, "same rig; 2 clips differ, 1 material differs");
    }

    #[test]
    fn rig_changes_come_first_with_their_counts() {
        let joints = JointSummary {
            added: 3,
            ..JointSummary::default()
        };
        let findings = [finding(Section::Clips, "'Walk' removed")];
        let verdict = verdict(&joints, &no_meshes(412), &[], &findings);
        assert_eq!(
            verdict,
            "rig changed: 3 joints added, weights moved on 412 vertices; 1 clip differs"
        );
    }
}
