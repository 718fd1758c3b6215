//! `rigscope diff A B [--json] [--tolerance DISTANCE] [--angle-tolerance DEGREES]
//! [--weight-tolerance WEIGHT]`: what changed from one version of a rig to another (see
//! `crate::diff`), for people or, with `--json`, for pipelines.
//!
//! Exit status, as `diff(1)`'s: 0 when nothing differs beyond tolerance, 1 when something
//! does, 2 when the files could not be compared. The first two are the report's; `main`
//! asks `exit_status` for the status of an error.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::asset::{self, Model};
use crate::diff::{self, Tolerance};

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The old version (.glb, .gltf, .vrm, .fbx, .obj or .md5mesh).
    pub a: PathBuf,
    /// The new version, in any format rigscope reads.
    pub b: PathBuf,
    /// Print the comparison as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How far apart positions (joints, binds, vertices, morph targets) may be and still be
    /// the same, in metres (both models are in metres once loaded).
    #[arg(long, value_name = "DISTANCE", default_value_t = Tolerance::default().distance, value_parser = tolerance)]
    pub tolerance: f32,
    /// How far apart rotations and normals may turn and still be the same, in degrees.
    #[arg(long, value_name = "DEGREES", default_value_t = Tolerance::default().angle_degrees, value_parser = tolerance)]
    pub angle_tolerance: f32,
    /// How far apart one joint's skin weight on a vertex may be and still be the same (0 to 1).
    #[arg(long, value_name = "WEIGHT", default_value_t = Tolerance::default().weight, value_parser = tolerance)]
    pub weight_tolerance: f32,
}

/// A tolerance: a number, 0 or more.
fn tolerance(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!("'{text}' is not a number of 0 or more")),
    }
}

/// The rigs differ beyond tolerance: exit status 1 (the report says how).
#[derive(Debug, thiserror::Error)]
#[error("{} and {} differ: {verdict}", a.display(), b.display())]
pub struct RigsDiffer {
    a: PathBuf,
    b: PathBuf,
    verdict: String,
}

/// The files could not be compared: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct CouldNotCompare(#[from] anyhow::Error);

/// The exit status for an error a command returned: 2 where `diff` could not compare, else 1.
pub fn exit_status(error: &anyhow::Error) -> u8 {
    if error.is::<CouldNotCompare>() { 2 } else { 1 }
}

/// Compares the two files and writes the report to `out`.
pub fn run(args: &DiffArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let tolerance = Tolerance {
        distance: args.tolerance,
        angle_degrees: args.angle_tolerance,
        weight: args.weight_tolerance,
    };
    let (a, b) = (load(&args.a)?, load(&args.b)?);
    let diff = diff::compare(&a, &b, &tolerance);
    let written = if args.json {
        serde_json::to_writer_pretty(&mut *out, &diff)
            .map_err(anyhow::Error::from)
            .and_then(|()| Ok(writeln!(out)?))
    } else {
        diff::write_text(&diff, out).map_err(anyhow::Error::from)
    };
    written.map_err(CouldNotCompare)?;
    if diff.differs {
        return Err(RigsDiffer {
            a: args.a.clone(),
            b: args.b.clone(),
            verdict: diff.verdict,
        }
        .into());
    }
    Ok(())
}

/// Loads one of the two models; the error names the file (`LoadError` does).
fn load(path: &Path) -> Result<Model, CouldNotCompare> {
    asset::load(path).map_err(|error| CouldNotCompare(error.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_are_numbers_of_zero_or_more() {
        assert_eq!(tolerance("0.001"), Ok(0.001));
        assert_eq!(tolerance("0"), Ok(0.0));
        assert!(tolerance("-1").is_err());
        assert!(tolerance("inf").is_err());
        assert!(tolerance("one").is_err());
    }

    #[test]
    fn only_a_failure_to_compare_exits_with_2() {
        let could_not = anyhow::Error::from(CouldNotCompare(anyhow::anyhow!("a.glb: cannot read the file")));
        assert_eq!(exit_status(&could_not), 2);
        assert_eq!(could_not.to_string(), "a.glb: cannot read the file");
        let differ = anyhow::Error::from(RigsDiffer {
            a: "a.glb".into(),
            b: "b.glb".into(),
            verdict: "same rig; 1 clip differs".into(),
        });
        assert_eq!(exit_status(&differ), 1);
        assert_eq!(exit_status(&anyhow::anyhow!("another command failed")), 1);
    }
}
