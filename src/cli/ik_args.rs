//! The IK options `pose` and `render` share: chains with their targets, solver settings and
//! joint constraints. They build the same `IkLayer`s the viewer's panel edits.

use anyhow::{Context, anyhow, bail};
use clap::Args;
use glam::Vec3;

use crate::anim::{IkLayer, JointConstraint, Solver};
use crate::asset::Model;
use crate::inspect::lookup::{find_joint, number, vector};

#[derive(Args, Debug)]
pub struct IkArgs {
    /// An IK chain: the CHAIN_LENGTH bones above END_JOINT (a name, a joint index as `rigscope joints` numbers them, or node:N for the file's node N) reach for the
    /// model-space point X,Y,Z; the solver is FABRIK unless `ccd` is given. Repeat for several
    /// chains, solved in order after blending.
    #[arg(
        long,
        value_name = "END_JOINT:CHAIN_LENGTH:X,Y,Z[:ccd|fabrik]",
        allow_hyphen_values = true
    )]
    pub ik: Vec<String>,
    /// Iteration limit of each IK chain [default: 20 for FABRIK, 100 for CCD].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub ik_iterations: Option<u32>,
    /// Distance (model units) at which a target counts as reached [default: 0.1% of the
    /// chain's length].
    #[arg(long, allow_negative_numbers = true)]
    pub ik_threshold: Option<f32>,
    /// Weight of the IK chains: 0 keeps the animation, 1 applies the solve fully.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub ik_weight: f32,
    /// A joint limit for the IK chains, angles in degrees: a cone of CONE around the rest
    /// direction with at most ±TWIST (default 0) about the bone, or a hinge about AXIS (x, y, z
    /// or AX,AY,AZ in the joint's rest frame) from MIN to MAX. Repeat for several joints.
    #[arg(
        long,
        value_name = "JOINT:ball:CONE[:TWIST] | JOINT:hinge:AXIS:MIN:MAX",
        allow_hyphen_values = true
    )]
    pub ik_constraint: Vec<String>,
}

impl IkArgs {
    /// The IK layers these options describe, with their targets as given (the animator
    /// solves them).
    pub fn layers(&self, model: &Model) -> anyhow::Result<Vec<IkLayer>> {
        if !(0.0..=1.0).contains(&self.ik_weight) {
            bail!("--ik-weight must be between 0 and 1");
        }
        if let Some(threshold) = self.ik_threshold
            && !(threshold.is_finite() && threshold >= 0.0)
        {
            bail!("--ik-threshold must be a distance of 0 or more");
        }
        let constraints = self
            .ik_constraint
            .iter()
            .map(|spec| constraint(model, spec).with_context(|| format!("--ik-constraint {spec}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if !constraints.is_empty() && self.ik.is_empty() {
            bail!("--ik-constraint needs an --ik chain to apply to");
        }
        let mut layers = Vec::with_capacity(self.ik.len());
        for spec in &self.ik {
            let mut layer = chain(model, spec).with_context(|| format!("--ik {spec}"))?;
            if let Some(iterations) = self.ik_iterations {
                layer.iterations = iterations;
            }
            layer.threshold = self.ik_threshold;
            layer.weight = self.ik_weight;
            let joints = layer.chain.joints().to_vec();
            for &(joint, constraint) in &constraints {
                // The end effector is never rotated, so only the bones above it take limits.
                if let Some(bone) = joints[..joints.len() - 1].iter().position(|&j| j == joint) {
                    layer.chain.constraints_mut()[bone] = constraint;
                }
            }
            layers.push(layer);
        }
        for &(joint, _) in &constraints {
            let used = layers
                .iter()
                .any(|l| l.chain.joints()[..l.chain.bones()].contains(&joint));
            if !used {
                bail!(
                    "--ik-constraint: joint '{}' is not a rotating joint of any --ik chain",
                    model.skeleton.name(joint)
                );
            }
        }
        Ok(layers)
    }
}

/// `END_JOINT:CHAIN_LENGTH:X,Y,Z[:ccd|fabrik]`; joint names may contain ':'.
fn chain(model: &Model, spec: &str) -> anyhow::Result<IkLayer> {
    let mut parts: Vec<&str> = spec.split(':').collect();
    let solver = match parts.last().map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("ccd") => Some(Solver::Ccd),
        Some("fabrik") => Some(Solver::Fabrik),
        _ => None,
    };
    if solver.is_some() {
        parts.pop();
    }
    if parts.len() < 3 {
        bail!("expected END_JOINT:CHAIN_LENGTH:X,Y,Z[:ccd|fabrik]");
    }
    let target = vector(parts[parts.len() - 1], "the target X,Y,Z")?;
    let length_text = parts[parts.len() - 2].trim();
    let length: usize = length_text
        .parse()
        .map_err(|_| anyhow!("CHAIN_LENGTH '{length_text}' is not a whole number of bones"))?;
    let end = find_joint(model, &parts[..parts.len() - 2].join(":"))?;
    let mut layer = IkLayer::new(model.skeleton.hierarchy(), end, length, target)
        .map_err(|error| anyhow!("{}: {}: {error}", model.path.display(), model.skeleton.name(end)))?;
    layer.set_solver(solver.unwrap_or_default());
    Ok(layer)
}

/// `JOINT:ball:CONE[:TWIST]` or `JOINT:hinge:AXIS:MIN:MAX`, angles in degrees.
fn constraint(model: &Model, spec: &str) -> anyhow::Result<(usize, JointConstraint)> {
    let parts: Vec<&str> = spec.split(':').collect();
    let kind = parts
        .iter()
        .rposition(|p| matches!(p.trim(), "ball" | "hinge"))
        .filter(|&i| i > 0)
        .ok_or_else(|| anyhow!("expected JOINT:ball:CONE[:TWIST] or JOINT:hinge:AXIS:MIN:MAX"))?;
    let joint = find_joint(model, &parts[..kind].join(":"))?;
    let degrees = |text: &str, what: &str| number(text, what).map(f32::to_radians);
    let constraint = match (parts[kind].trim(), &parts[kind + 1..]) {
        ("ball", [cone]) => JointConstraint::Ball {
            cone: degrees(cone, "CONE")?,
            twist: 0.0,
        },
        ("ball", [cone, twist]) => JointConstraint::Ball {
            cone: degrees(cone, "CONE")?,
            twist: degrees(twist, "TWIST")?,
        },
        ("hinge", [axis, min, max]) => {
            let axis = match axis.trim() {
                "x" | "X" => Vec3::X,
                "y" | "Y" => Vec3::Y,
                "z" | "Z" => Vec3::Z,
                other => vector(other, "AXIS")?,
            };
            let axis = axis
                .try_normalize()
                .ok_or_else(|| anyhow!("the hinge AXIS cannot be zero"))?;
            let (min, max) = (degrees(min, "MIN")?, degrees(max, "MAX")?);
            if min > max {
                bail!("the hinge's MIN is above its MAX");
            }
            JointConstraint::Hinge { axis, min, max }
        }
        ("ball", _) => bail!("expected JOINT:ball:CONE[:TWIST]"),
        _ => bail!("expected JOINT:hinge:AXIS:MIN:MAX"),
    };
    if let JointConstraint::Ball { cone, twist } = constraint
        && (cone < 0.0 || twist < 0.0)
    {
        bail!("CONE and TWIST cannot be negative");
    }
    Ok((joint, constraint))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;

    #[test]
    fn constraints_parse_letter_and_vector_axes_and_ball_twists() {
        let model = demo_model();
        let elbow = model.skeleton.find("elbow.L").unwrap();
        for (axis, expected) in [("x", Vec3::X), ("Y", Vec3::Y), ("z", Vec3::Z), ("0,2,0", Vec3::Y)] {
            let (joint, parsed) = constraint(&model, &format!("elbow.L:hinge:{axis}:-10:20")).unwrap();
            let expected = JointConstraint::Hinge {
                axis: expected,
                min: (-10f32).to_radians(),
                max: 20f32.to_radians(),
            };
            assert_eq!((joint, parsed), (elbow, expected), "{axis}");
        }
        let ball = |spec: &str| constraint(&model, spec).unwrap().1;
        assert_eq!(
            ball("shoulder.L:ball:30:5"),
            JointConstraint::Ball {
                cone: 30f32.to_radians(),
                twist: 5f32.to_radians()
            }
        );
        assert_eq!(
            ball("shoulder.L:ball:30"),
            JointConstraint::Ball {
                cone: 30f32.to_radians(),
                twist: 0.0
            }
        );
    }
}
