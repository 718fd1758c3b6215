//! Running a command over many files: directories are searched recursively for models, the
//! files are processed on all cores, results come out in file order as soon as they are ready,
//! a progress bar shows on a terminal, and one bad file does not stop the rest.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, bail};
use serde::Serialize;

use super::progress::Progress;
use crate::asset::format::{is_model_file, model_extensions};

/// One file to process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    /// The path below the directory it was found in (the file name for a file given as is), for
    /// naming outputs after it.
    pub relative: PathBuf,
}

/// Whether these arguments ask for batch processing: several of them, or a directory.
pub fn is_batch(arguments: &[PathBuf]) -> bool {
    arguments.len() > 1 || arguments.iter().any(|a| a.is_dir())
}

/// The files the arguments name: files as given (even missing ones, which then fail with a
/// clear error), directories searched recursively for models, each directory's finds sorted.
pub fn expand(arguments: &[PathBuf]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for argument in arguments {
        if argument.is_dir() {
            let mut found = Vec::new();
            find_models(argument, &mut found);
            found.sort();
            inputs.extend(found.into_iter().map(|path| Input {
                relative: path.strip_prefix(argument).unwrap_or(&path).to_path_buf(),
                path,
            }));
        } else {
            inputs.push(Input {
                relative: argument.file_name().map_or_else(|| argument.clone(), PathBuf::from),
                path: argument.clone(),
            });
        }
    }
    inputs
}

fn find_models(directory: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // Symbolic links to directories are not followed (they could loop).
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            find_models(&path, found);
        } else if is_model_file(&path) {
            found.push(path);
        }
    }
}

/// Runs `job` on every input on all cores; each worker thread first makes its own state with
/// `init` (a renderer, say). `report` receives each result in input order, as soon as it and
/// every one before it are done. A job that panics counts as failed. Returns how many failed.
pub fn run<S, T: Send>(
    inputs: &[Input],
    init: impl Fn() -> anyhow::Result<S> + Sync,
    job: impl Fn(&mut S, &Input) -> anyhow::Result<T> + Sync,
    mut report: impl FnMut(&Input, anyhow::Result<T>) -> anyhow::Result<()>,
) -> anyhow::Result<usize> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(inputs.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let progress = Progress::new(inputs.len());
    let mut failed = 0;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, init, job) = (&next, &init, &job);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = inputs.get(index) else { break };
                    let result = match &mut state {
                        Ok(state) => catch_unwind(AssertUnwindSafe(|| job(state, input))).unwrap_or_else(|_| {
                            Err(anyhow!("{}: internal error while processing it", input.path.display()))
                        }),
                        Err(error) => Err(anyhow!("{error:#}")),
                    };
                    if sender.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Results arrive in any order; they are reported in input order.
        let mut waiting = BTreeMap::new();
        let mut reported = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            progress.done(inputs[index].relative.display());
            while let Some(result) = waiting.remove(&reported) {
                failed += result.is_err() as usize;
                progress.suspend(|| report(&inputs[reported], result))?;
                reported += 1;
            }
        }
        Ok(())
    })?;
    Ok(failed)
}

/// Writes one JSON line for a file: `{"file", "ok": true, ...the result's fields}` or
/// `{"file", "ok": false, "error"}`.
pub fn write_json_line<T: Serialize>(
    out: &mut dyn Write,
    input: &Input,
    result: anyhow::Result<T>,
) -> anyhow::Result<()> {
    let mut line = serde_json::Map::new();
    line.insert("file".into(), input.path.display().to_string().into());
    match result {
        Ok(value) => {
            line.insert("ok".into(), true.into());
            match serde_json::to_value(value)? {
                serde_json::Value::Object(fields) => line.extend(fields),
                other => {
                    line.insert("result".into(), other);
                }
            }
        }
        Err(error) => {
            line.insert("ok".into(), false.into());
            line.insert("error".into(), format!("{error:#}").into());
        }
    }
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// The end of a batch: a count on standard error, and an error (exit status 1) when any file
/// failed.
pub fn finish(total: usize, failed: usize, verb: &str) -> anyhow::Result<()> {
    if total == 0 {
        let extensions: Vec<&str> = model_extensions().collect();
        bail!("no models (.{}) found", extensions.join(", ."));
    }
    eprintln!("rigscope: {verb} {} of {total} files", total - failed);
    if failed > 0 {
        bail!("{failed} of {total} files failed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_expand_to_their_models_and_files_stay_as_given() {
        let dir = std::env::temp_dir().join(format!("rigscope-batch-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("b/c")).unwrap();
        for file in [
            "a.glb",
            "b/c/d.GLTF",
            "b/e.md5mesh",
            "b/e.md5anim",
            "b/f.vrm",
            "b/g.vrma",
            "notes.txt",
        ] {
            std::fs::write(dir.join(file), b"").unwrap();
        }
        let inputs = expand(&[dir.clone(), PathBuf::from("/no/such.glb")]);
        let relative: Vec<_> = inputs.iter().map(|i| i.relative.clone()).collect();
        assert_eq!(
            relative,
            ["a.glb", "b/c/d.GLTF", "b/e.md5mesh", "b/f.vrm", "b/g.vrma", "such.glb"].map(PathBuf::from)
        );
        assert_eq!(inputs[0].path, dir.join("a.glb"));
        assert!(is_batch(std::slice::from_ref(&dir)));
        assert!(!is_batch(&[dir.join("a.glb")]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn results_come_in_input_order_and_failures_are_counted() {
        let inputs: Vec<Input> = (0..40)
            .map(|i| Input {
                path: PathBuf::from(format!("{i}")),
                relative: PathBuf::from(format!("{i}")),
            })
            .collect();
        let mut seen = Vec::new();
        let failed = run(
            &inputs,
            || Ok(()),
            |_, input| {
                let n: u64 = input.path.to_str().unwrap().parse().unwrap();
                std::thread::sleep(std::time::Duration::from_micros((40 - n) * 50));
                match n {
                    7 => Err(anyhow!("seven is bad")),
                    9 => panic!("nine panics"),
                    _ => Ok(n),
                }
            },
            |input, result| {
                seen.push((input.relative.clone(), result.is_ok()));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(failed, 2);
        let order: Vec<_> = seen
            .iter()
            .map(|(p, _)| p.to_str().unwrap().parse::<u32>().unwrap())
            .collect();
        assert_eq!(order, (0..40).collect::<Vec<_>>());
        assert!(!seen[7].1 && !seen[9].1 && seen[8].1);
    }
}
