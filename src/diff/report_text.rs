//! The comparison in words: the verdict, then the findings section by section, and the
//! numbers in units people read (millimetres, centimetres, degrees).

use std::io::{self, Write};

use super::{RigDiff, Section};

/// How many findings of one section the text lists (JSON has them all).
const LISTED_PER_SECTION: usize = 20;

/// A distance in metres, in the unit that shows it best: "0.10 mm", "1.00 cm", "1.250 m". The
/// unit is chosen by the number as shown (0.0099999 m shows as "1.00 cm", not "10.00 mm").
pub fn format_distance(metres: f32) -> String {
    // Whether `value` shown with `decimals` decimals reads at least `at_least`.
    let shows_at_least = |value: f32, decimals: i32, at_least: f32| {
        let scale = 10f32.powi(decimals);
        (value.abs() * scale).round() >= at_least * scale
    };
    let (centimetres, millimetres) = (metres * 100.0, metres * 1000.0);
    if !metres.is_finite() {
        format!("{metres} m")
    } else if shows_at_least(metres, 3, 1.0) {
        format!("{metres:.3} m")
    } else if shows_at_least(centimetres, 2, 1.0) {
        format!("{centimetres:.2} cm")
    } else if shows_at_least(millimetres, 2, 0.1) || metres == 0.0 {
        format!("{millimetres:.2} mm")
    } else {
        format!("{millimetres:.4} mm")
    }
}

/// An angle in degrees: "5.00°".
pub fn format_angle(degrees: f32) -> String {
    format!("{degrees:.2}°")
}

/// Writes the comparison for people: the verdict, the counts, then each section's findings.
pub fn write_text(diff: &RigDiff, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", diff.verdict)?;
    let joints = &diff.joints;
    writeln!(
        out,
        "joints: {} in A, {} in B, {} paired",
        joints.count, joints.count_b, joints.paired
    )?;
    for mesh in &diff.meshes {
        let renamed = match mesh.name_b.as_deref() {
            Some(name_b) if name_b != mesh.name => format!(" ('{name_b}' in B)"),
            _ => String::new(),
        };
        writeln!(
            out,
            "mesh '{}'{renamed}: {} vertices and {} triangles in A, {} and {} in B",
            mesh.name, mesh.vertices, mesh.triangles, mesh.vertices_b, mesh.triangles_b
        )?;
    }
    let tolerance = &diff.tolerance;
    writeln!(
        out,
        "tolerance: {}, {}, weight {}",
        format_distance(tolerance.distance),
        format_angle(tolerance.angle_degrees),
        tolerance.weight
    )?;
    let mut section: Option<Section> = None;
    let mut listed = 0;
    for (index, finding) in diff.findings.iter().enumerate() {
        if section != Some(finding.section) {
            section = Some(finding.section);
            listed = 0;
            writeln!(out, "{}:", finding.section.title())?;
        }
        listed += 1;
        if listed <= LISTED_PER_SECTION {
            writeln!(out, "  {}", finding.text)?;
        } else if listed == LISTED_PER_SECTION + 1 {
            let rest = diff.findings[index..]
                .iter()
                .take_while(|f| f.section == finding.section)
                .count();
            writeln!(out, "  ... and {rest} more (--json lists them all)")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_shown_in_the_unit_that_reads_best() {
        assert_eq!(format_distance(0.01), "1.00 cm");
        assert_eq!(format_distance(0.009_999_9), "1.00 cm");
        assert_eq!(format_distance(0.999_9999), "1.000 m");
        assert_eq!(format_distance(0.009_94), "9.94 mm");
        assert_eq!(format_distance(1e-4), "0.10 mm");
        assert_eq!(format_distance(2e-6), "0.0020 mm");
        assert_eq!(format_distance(0.0), "0.00 mm");
        assert_eq!(format_distance(1.25), "1.250 m");
        assert_eq!(format_angle(5.0), "5.00°");
    }
}
