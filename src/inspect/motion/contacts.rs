//! Foot contacts and sliding.
//!
//! A foot stands on the ground while it is low and still: its height is within
//! `CONTACT_HEIGHT` of the clip's ground (the lowest any foot gets in the clip) and its speed
//! over the ground under `CONTACT_SPEED`. It leaves the ground only when it rises above
//! `RELEASE_HEIGHT` or moves faster than `RELEASE_SPEED` (hysteresis: a foot rolling from heel
//! to toe does not flicker in and out). All four scale with the character's height.
//!
//! Speed at a sample is the ground-plane distance from the previous sample over the time
//! between them. A contact's slide is how far from where it landed the foot gets on the
//! ground while it stands: the largest ground-plane distance from the sample before the
//! contact's first (where the step that led to it started) to any sample in contact. A foot
//! swaying back and forth a centimetre slides a centimetre, not the length of its dithering.

use glam::{Vec2, Vec3};

use super::feet::Foot;
use super::samples::MotionSamples;

/// Shares of the character's height (and of its height per second for speeds); for a 1.8 m
/// character, 2.7 cm and 0.14 m/s to stand, 4.5 cm and 0.27 m/s to leave. An ankle rises
/// and moves forward as the heel leaves the ground: tighter, and that roll would count as
/// standing and sliding.
const CONTACT_HEIGHT: f32 = 0.015;
const RELEASE_HEIGHT: f32 = 0.025;
const CONTACT_SPEED: f32 = 0.08;
const RELEASE_SPEED: f32 = 0.15;
/// A foot slides when it moves more than this share of the character's height over the
/// ground during one contact (3.6 cm for a 1.8 m character): more than the ankle moves as the
/// foot rolls from heel to toe.
pub const SLIDE_SHARE: f32 = 0.02;

/// One stretch of time a foot stands on the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Clip time of the first and last sample in contact (seconds).
    pub start: f32,
    pub end: f32,
    /// How far from where it landed the foot got over the ground meanwhile (model units:
    /// metres for glTF, VRM and FBX).
    pub slide: f32,
    /// Where it stands: the foot's mean model-space position over the contact.
    pub at: Vec3,
}

/// A foot's contacts over a clip.
#[derive(Clone, Debug, PartialEq)]
pub struct FootContacts {
    pub foot: Foot,
    pub contacts: Vec<Contact>,
}

impl FootContacts {
    /// The contact in which the foot slides most.
    pub fn worst(&self) -> Option<&Contact> {
        self.contacts.iter().max_by(|a, b| a.slide.total_cmp(&b.slide))
    }

    /// How far the foot slides over the whole clip.
    pub fn total_slide(&self) -> f32 {
        self.contacts.iter().map(|c| c.slide).sum()
    }

    /// Whether the foot stands on the ground at clip time `time`.
    #[cfg(any(test, feature = "internals"))]
    pub fn standing_at(&self, time: f32) -> bool {
        self.contacts.iter().any(|c| (c.start..=c.end).contains(&time))
    }
}

/// The contacts of each of `feet` in `samples` (see the module docs), for a character
/// `height` tall; none when it has no height.
pub fn detect_contacts(samples: &MotionSamples, feet: &[Foot], height: f32) -> Vec<FootContacts> {
    let paths: Vec<Vec<Vec3>> = feet.iter().map(|f| samples.positions(f.joint)).collect();
    let ground = paths.iter().flatten().map(|p| p.y).fold(f32::INFINITY, f32::min);
    feet.iter()
        .zip(&paths)
        .map(|(&foot, path)| FootContacts {
            foot,
            contacts: if height > 0.0 {
                contacts_of(samples.times(), path, ground, height)
            } else {
                Vec::new()
            },
        })
        .collect()
}

fn contacts_of(times: &[f32], path: &[Vec3], ground: f32, height: f32) -> Vec<Contact> {
    let ground_point = |p: Vec3| Vec2::new(p.x, p.z);
    let mut contacts = Vec::new();
    // The contact going on, how many samples it has, and where the foot landed.
    let mut current: Option<(Contact, u32, Vec2)> = None;
    for (index, (&time, &position)) in times.iter().zip(path).enumerate() {
        // The first sample takes the speed of the step after it.
        let (from, to) = if index == 0 { (0, 1) } else { (index - 1, index) };
        let (Some(&a), Some(&b)) = (path.get(from), path.get(to)) else {
            break;
        };
        let seconds = times[to] - times[from];
        let speed = if seconds > 0.0 {
            ground_point(a).distance(ground_point(b)) / seconds
        } else {
            0.0
        };
        let above = position.y - ground;
        current = match current {
            Some((mut contact, samples, landed))
                if above <= RELEASE_HEIGHT * height && speed <= RELEASE_SPEED * height =>
            {
                contact.end = time;
                contact.slide = contact.slide.max(landed.distance(ground_point(position)));
                contact.at += position;
                Some((contact, samples + 1, landed))
            }
            Some(finished) => {
                contacts.push(mean_place(finished));
                None
            }
            None if above <= CONTACT_HEIGHT * height && speed <= CONTACT_SPEED * height => {
                // Where the step that led here started (the first sample: itself).
                let landed = ground_point(path[index.saturating_sub(1)]);
                let contact = Contact {
                    start: time,
                    end: time,
                    slide: landed.distance(ground_point(position)),
                    at: position,
                };
                Some((contact, 1, landed))
            }
            None => None,
        };
    }
    contacts.extend(current.map(mean_place));
    contacts
}

/// A contact whose `at` sums the positions of its `samples`, with their mean instead.
fn mean_place((contact, samples, _): (Contact, u32, Vec2)) -> Contact {
    Contact {
        at: contact.at / samples as f32,
        ..contact
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::analyse;
    use crate::inspect::motion::feet::Side;
    use crate::inspect::motion::test_walker::{Carrier, Walk, walker};

    fn spans(contacts: &FootContacts) -> Vec<(f32, f32)> {
        let round = |t: f32| (t * 100.0).round() / 100.0;
        contacts
            .contacts
            .iter()
            .map(|c| (round(c.start), round(c.end)))
            .collect()
    }

    #[test]
    fn planted_feet_of_a_walk_stand_in_turn_and_do_not_slide() {
        for carrier in [Carrier::Root, Carrier::Hips] {
            let model = walker(Walk {
                carrier,
                ..Walk::default()
            });
            let report = analyse(&model, 0, None).unwrap();
            let [left, right] = &report.feet[..] else {
                panic!("two feet")
            };
            assert_eq!((left.foot.side, right.foot.side), (Side::Left, Side::Right));
            assert_eq!(spans(left), [(0.0, 0.5), (1.02, 1.5)], "{carrier:?}");
            assert_eq!(spans(right), [(0.52, 1.0), (1.52, 2.0)], "{carrier:?}");
            assert!(left.total_slide() < 1e-4 && right.total_slide() < 1e-4);
        }
    }

    #[test]
    fn a_foot_sliding_4_cm_while_it_stands_is_measured_where_it_slides() {
        let model = walker(Walk {
            left_slide: 0.04,
            ..Walk::default()
        });
        let report = analyse(&model, 0, None).unwrap();
        let worst = report.feet[0].worst().unwrap();
        assert!((worst.slide - 0.04).abs() < 0.005, "{}", worst.slide);
        assert!(
            (worst.start - 1.0).abs() < 0.03 && (worst.end - 1.5).abs() < 0.03,
            "{worst:?}"
        );
        assert!(report.feet[1].total_slide() < 1e-4);
        assert!(report.feet[0].standing_at(1.25) && !report.feet[0].standing_at(0.75));
        let planted = report.feet[1].contacts[0].at;
        assert!(planted.distance(glam::Vec3::new(-0.1, 0.1, 1.125)) < 1e-4, "{planted}");
    }
}
