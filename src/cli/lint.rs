//! `rigscope lint FILE|DIR... [--json]`: the rig lint (`crate::lint`) as a report per model,
//! for art pipelines: the exit status is 1 when any model has an error or cannot be read.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::batch::{self, Input};
use crate::asset;
use crate::lint::{Finding, Severity, count, lint};
use crate::view::counted;

#[derive(Serialize)]
struct Report {
    errors: usize,
    warnings: usize,
    notes: usize,
    findings: Vec<Finding>,
}

fn report(input: &Input) -> anyhow::Result<Report> {
    let model = asset::load(&input.path)?;
    let findings = lint(&model);
    Ok(Report {
        errors: count(&findings, Severity::Error),
        warnings: count(&findings, Severity::Warning),
        notes: count(&findings, Severity::Note),
        findings,
    })
}

fn write_text(input: &Input, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {}, {}, {}",
        input.path.display(),
        counted(report.errors, "error", "errors"),
        counted(report.warnings, "warning", "warnings"),
        counted(report.notes, "note", "notes")
    )?;
    for finding in &report.findings {
        let severity = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        writeln!(
            out,
            "  {severity:<7} {:<34} {}: {} {}",
            finding.rule.name(),
            finding.subject,
            finding.count,
            finding.message
        )?;
    }
    Ok(())
}

/// Lints every model the arguments name (in parallel when there are several); with `json`,
/// one JSON line per file: `{"file", "ok", "errors", "warnings", "notes", "findings"}`.
pub fn run(files: &[PathBuf], json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let inputs = batch::expand(files);
    let single = !batch::is_batch(files);
    if single && !json {
        // One file: its report, or the error that stopped it, once.
        let report = report(&inputs[0])?;
        write_text(&inputs[0], &report, out)?;
        if report.errors > 0 {
            anyhow::bail!("{}: {} lint errors", files[0].display(), report.errors);
        }
        return Ok(());
    }
    let mut with_errors = 0;
    let failed = batch::run(
        &inputs,
        || Ok(()),
        |_, input| report(input),
        |input, result| {
            if let Ok(report) = &result {
                with_errors += (report.errors > 0) as usize;
            }
            if json {
                return batch::write_json_line(out, input, result);
            }
            match result {
                Ok(report) => write_text(input, &report, out)?,
                Err(error) => eprintln!("rigscope: {error:#}"),
            }
            Ok(())
        },
    )?;
    if single {
        if failed > 0 {
            anyhow::bail!("{} could not be linted", files[0].display());
        }
    } else {
        batch::finish(inputs.len(), failed, "linted")?;
    }
    if with_errors > 0 {
        anyhow::bail!("lint errors in {with_errors} of {} files", inputs.len());
    }
    Ok(())
}
