//! One scalar animation curve (a vector component, an Euler angle, a quaternion component, a
//! morph weight or a property value) with its keys, and the groups curves are drawn in.

use serde::Serialize;

/// Curves drawn together, in one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveGroup {
    Translation,
    /// Unwrapped Euler angles in degrees.
    Rotation,
    /// Quaternion components.
    Quaternion,
    Scale,
    /// Morph-target weights.
    Weights,
    /// Animated material, camera, light and visibility values (KHR_animation_pointer).
    Properties,
    /// The root motion's speed over the ground (m/s) and heading (degrees), beside the curves
    /// of the joint that carries it.
    RootMotion,
}

impl CurveGroup {
    pub const ALL: [CurveGroup; 7] = [
        CurveGroup::Translation,
        CurveGroup::Rotation,
        CurveGroup::Quaternion,
        CurveGroup::Scale,
        CurveGroup::Weights,
        CurveGroup::Properties,
        CurveGroup::RootMotion,
    ];

    pub fn label(self) -> &'static str {
        match self {
            CurveGroup::Translation => "Translation",
            CurveGroup::Rotation => "Rotation (Euler °)",
            CurveGroup::Quaternion => "Rotation (quaternion)",
            CurveGroup::Scale => "Scale",
            CurveGroup::Weights => "Morph weights",
            CurveGroup::Properties => "Animated properties",
            CurveGroup::RootMotion => "Root motion (m/s, °)",
        }
    }

    /// A short name for a value axis.
    pub fn axis_label(self) -> &'static str {
        match self {
            CurveGroup::Translation => "translation",
            CurveGroup::Rotation => "Euler °",
            CurveGroup::Quaternion => "quaternion",
            CurveGroup::Scale => "scale",
            CurveGroup::Weights => "weights",
            CurveGroup::Properties => "value",
            CurveGroup::RootMotion => "m/s · °",
        }
    }
}

/// A key of a curve: its time and the curve's value there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurveKey {
    pub time: f32,
    pub value: f32,
}

/// One scalar curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Curve {
    /// "translation.x", "rotation.y", "quaternion.w", "scale.z", "weights[2]".
    pub name: String,
    pub group: CurveGroup,
    /// The channel's interpolation as glTF names it.
    pub interpolation: &'static str,
    /// The value at each of `CurveSet::times`.
    pub values: Vec<f32>,
    /// The channel's keys (their values as sampled, so on the curve).
    pub keys: Vec<CurveKey>,
}

impl Curve {
    /// The colour the curve view and `rigscope curves --format png` draw it in: X, Y, Z and W
    /// in orange, green, blue and grey (red is kept for problems), morph weights from a palette,
    /// animated properties from the same palette by their name.
    pub fn color(&self) -> [u8; 3] {
        const WEIGHTS: [[u8; 3]; 6] = [
            [230, 150, 60],
            [90, 200, 190],
            [200, 120, 230],
            [220, 210, 90],
            [120, 170, 250],
            [240, 130, 160],
        ];
        let suffix = self.name.rsplit('.').next().unwrap_or_default();
        match (self.group, suffix) {
            (CurveGroup::Weights, _) => {
                let index: usize = self
                    .name
                    .trim_start_matches("weights[")
                    .trim_end_matches(']')
                    .parse()
                    .unwrap_or(0);
                WEIGHTS[index % WEIGHTS.len()]
            }
            (CurveGroup::Properties, _) => WEIGHTS[self.name.bytes().map(usize::from).sum::<usize>() % WEIGHTS.len()],
            (CurveGroup::RootMotion, "speed") => [245, 140, 50],
            (CurveGroup::RootMotion, _) => [80, 140, 245],
            (_, "x") => [245, 140, 50],
            (_, "y") => [120, 200, 90],
            (_, "z") => [80, 140, 245],
            _ => [200, 200, 200],
        }
    }
}
