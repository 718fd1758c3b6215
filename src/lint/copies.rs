//! Meshes drawn as copies (EXT_mesh_gpu_instancing): copies that cannot be seen, and copies
//! that are mirrored, whose faces wind the other way (GPU instancing draws every copy with the
//! node's face culling, here as in other viewers, so a single-sided mesh shows its inside).

use super::{Findings, Rule, joint_name};
use crate::asset::Model;

pub(super) fn check(model: &Model, findings: &mut Findings) {
    for copies in &model.copies {
        let Some(instance) = model.instances.get(copies.instance) else {
            continue;
        };
        let subject = format!("node {}", joint_name(model, instance.joint));
        let determinants = copies.transforms.iter().map(|t| t.determinant());
        let (flat, mirrored) = determinants.fold((0, 0), |(flat, mirrored), d| {
            (flat + usize::from(d.abs() < 1e-12), mirrored + usize::from(d < -1e-12))
        });
        findings.add(
            Rule::CopyScaledToNothing,
            &subject,
            "copies (EXT_mesh_gpu_instancing) are scaled to nothing along some axis: they cannot be seen",
            flat,
        );
        findings.add(
            Rule::MirroredCopy,
            &subject,
            "copies (EXT_mesh_gpu_instancing) have a negative scale: their faces wind the other way, so single-sided materials show their backs",
            mirrored,
        );
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Vec3};

    use crate::asset::InstanceCopies;
    use crate::asset::demo::demo_model;
    use crate::lint::{Rule, lint};

    #[test]
    fn flat_and_mirrored_copies_are_found_and_counted() {
        let mut model = demo_model();
        let scaled = |x: f32| Mat4::from_scale(Vec3::new(x, 1.0, 1.0));
        model.copies.push(InstanceCopies {
            instance: 0,
            transforms: vec![scaled(1.0), scaled(0.0), scaled(-1.0), scaled(-2.0)],
            custom: Vec::new(),
        });
        let findings = lint(&model);
        let count = |rule: Rule| findings.iter().find(|f| f.rule == rule).map(|f| f.count);
        assert_eq!(count(Rule::CopyScaledToNothing), Some(1));
        assert_eq!(count(Rule::MirroredCopy), Some(2));
        let joint = model.instances[0].joint;
        let subject = format!("node '{}'", model.skeleton.name(joint));
        assert!(
            findings
                .iter()
                .all(|f| f.rule != Rule::MirroredCopy || f.subject == subject)
        );
    }
}
