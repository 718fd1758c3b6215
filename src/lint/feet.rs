//! Feet that slide while they stand on the ground (`inspect::motion`'s contacts).

use super::{Findings, Rule, joint_name};
use crate::asset::Model;
use crate::inspect::motion::{MotionReport, SLIDE_SHARE, analyse};

pub(super) fn check(model: &Model, findings: &mut Findings) {
    for (index, clip) in model.clips.iter().enumerate() {
        let Some(MotionReport { feet, height, .. }) = analyse(model, index, None) else {
            continue;
        };
        for foot in &feet {
            let sliding: Vec<_> = foot
                .contacts
                .iter()
                .filter(|c| c.slide > SLIDE_SHARE * height)
                .collect();
            let Some(worst) = sliding.iter().max_by(|a, b| a.slide.total_cmp(&b.slide)) else {
                continue;
            };
            findings.add(
                Rule::FootSliding,
                format!("clip '{}' foot {}", clip.name(), joint_name(model, foot.foot.joint)),
                format!(
                    "slides while it stands on the ground: {:.1} cm from {:.2} s to {:.2} s at worst",
                    worst.slide * 100.0,
                    worst.start,
                    worst.end
                ),
                sliding.len(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::inspect::motion::test_walker::{Walk, walker};
    use crate::lint::{Finding, Rule, Severity, lint};

    fn of(findings: &[Finding], rule: Rule) -> Vec<&Finding> {
        findings.iter().filter(|f| f.rule == rule).collect()
    }

    #[test]
    fn a_foot_sliding_4_cm_is_a_warning_that_says_where_and_when() {
        let model = walker(Walk {
            left_slide: 0.04,
            ..Walk::default()
        });
        let findings = lint(&model);
        let sliding = of(&findings, Rule::FootSliding);
        let [finding] = &sliding[..] else {
            panic!("{findings:#?}")
        };
        assert_eq!(finding.severity, Severity::Warning);
        assert_eq!(finding.subject, "clip 'walk' foot 'mixamorig:LeftFoot'");
        assert_eq!(
            finding.message,
            "slides while it stands on the ground: 4.0 cm from 1.02 s to 1.50 s at worst"
        );
        assert!(of(&lint(&walker(Walk::default())), Rule::FootSliding).is_empty());
    }

    #[test]
    fn a_walk_that_travels_loops_once_its_travel_is_taken_out() {
        let walk = lint(&walker(Walk::default()));
        assert!(of(&walk, Rule::LoopSeamJump).is_empty(), "{walk:#?}");
        let open = lint(&walker(Walk {
            open_loop: 30.0,
            ..Walk::default()
        }));
        let seams = of(&open, Rule::LoopSeamJump);
        let [seam] = &seams[..] else { panic!("{open:#?}") };
        assert_eq!(seam.message, "ends away from where it starts, so looping pops: 'spine'");
    }
}
