//! A clip's root motion and foot contacts as `inspect` and `curves` report them: JSON for
//! pipelines, a few lines of text for people. Distances are in model units (metres for glTF,
//! VRM and FBX); slides in centimetres of those.

use std::io::Write;

use serde::Serialize;

use crate::asset::Model;
use crate::inspect::motion::{Contact, MotionReport, RootReason, SLIDE_SHARE, Side};

#[derive(Serialize)]
pub struct MotionSummary {
    root: Option<RootSummary>,
    feet: Vec<FootSummary>,
    /// A contact in which a foot moves more than this is sliding (`lint`'s foot-sliding).
    sliding_cm: f32,
}

#[derive(Serialize)]
struct RootSummary {
    /// The joint that carries the travel, and why it was taken.
    joint: String,
    reason: RootReason,
    distance: f32,
    speed: f32,
    /// Where it ends from where it starts, on the ground (x, z).
    displacement: [f32; 2],
    turn_degrees: f32,
    vertical_range: f32,
}

#[derive(Serialize)]
struct FootSummary {
    joint: String,
    side: Side,
    contacts: Vec<ContactSummary>,
    slide_cm: f32,
    worst: Option<ContactSummary>,
}

#[derive(Clone, Copy, Serialize)]
struct ContactSummary {
    start: f32,
    end: f32,
    slide_cm: f32,
    /// Where the foot stands (model space).
    at: [f32; 3],
}

impl From<&Contact> for ContactSummary {
    fn from(contact: &Contact) -> Self {
        Self {
            start: contact.start,
            end: contact.end,
            slide_cm: contact.slide * 100.0,
            at: contact.at.to_array(),
        }
    }
}

impl MotionSummary {
    pub fn new(model: &Model, report: &MotionReport) -> Self {
        let name = |joint: usize| model.skeleton.name(joint).to_owned();
        Self {
            root: report.root.as_ref().map(|root| {
                let end = root.travel.last().copied().unwrap_or_default();
                RootSummary {
                    joint: name(root.joint),
                    reason: root.reason,
                    distance: root.distance,
                    speed: root.speed,
                    displacement: end.to_array(),
                    turn_degrees: root.turn,
                    vertical_range: root.vertical_range,
                }
            }),
            feet: (report.feet.iter())
                .map(|foot| FootSummary {
                    joint: name(foot.foot.joint),
                    side: foot.foot.side,
                    contacts: foot.contacts.iter().map(ContactSummary::from).collect(),
                    slide_cm: foot.total_slide() * 100.0,
                    worst: foot.worst().map(ContactSummary::from),
                })
                .collect(),
            sliding_cm: SLIDE_SHARE * report.height * 100.0,
        }
    }

    /// "root motion: 'Hips' (named as the hips) travels 3.00 m at 1.50 m/s, turns 0°,
    /// height range 0.04 m", then a line per foot, each indented by `indent`.
    pub fn write_text(&self, indent: &str, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(root) = &self.root {
            writeln!(
                out,
                "{indent}root motion: '{}' ({}) travels {:.2} m at {:.2} m/s, turns {:.0}°, height range {:.2} m",
                root.joint,
                root.reason.words(),
                root.distance,
                root.speed,
                // Rounded first, so that a turn of -0.01° reads 0°.
                root.turn_degrees.round() + 0.0,
                root.vertical_range
            )?;
        }
        for foot in &self.feet {
            let side = foot.side.words();
            match &foot.worst {
                Some(worst) => writeln!(
                    out,
                    "{indent}{side} foot '{}': {} contacts, slides {:.1} cm in all, {:.1} cm at worst ({:.2}-{:.2} s)",
                    foot.joint,
                    foot.contacts.len(),
                    foot.slide_cm,
                    worst.slide_cm,
                    worst.start,
                    worst.end
                )?,
                None => writeln!(out, "{indent}{side} foot '{}': never on the ground", foot.joint)?,
            }
        }
        Ok(())
    }
}
