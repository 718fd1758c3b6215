#!/usr/bin/env python3
"""Checks a library of models with rigscope across a Dask cluster: a lint and a thumbnail for
every model below the folders given, one task per file, one JSON Lines report and a folder of
thumbnails.

    python examples/check_library.py ASSETS [--scheduler tcp://host:8786] [--out DIR]

Without --scheduler it starts a local cluster (one single-threaded worker per core); with it,
the same tasks go to that cluster's workers (Kubernetes, SLURM, cloud: whatever runs the
scheduler), which need rigscope installed and the folders at the same paths.

Each file is checked in a child process of the worker with a time limit, so a file that
crashes the reader or hangs it (a FIFO, a network mount that stopped answering) is reported as
a failure and the run goes on. Report lines are ``lint --json``'s (``file``, ``ok``,
``errors``, ``warnings``, ``notes``, ``findings``) plus ``thumbnail`` (its path) and
``seconds``; a failure has ``"ok": false`` and ``error``.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Dict, Iterator, List, Optional

# What `rigscope lint DIR` searches for (src/asset/format.rs: the formats that are models).
MODEL_EXTENSIONS = {".glb", ".gltf", ".vrm", ".vrma", ".md5mesh", ".fbx", ".obj"}


def find_models(folders: List[Path]) -> Iterator[Path]:
    """Model files below the folders, each folder's sorted, as `rigscope lint DIR` finds them
    (symbolic links to folders are not followed; anything with a model's extension that is
    not a folder counts, so a file that cannot be read is reported, not skipped); a file named
    itself is checked whatever its name, as `rigscope lint FILE` does."""
    for folder in folders:
        if not folder.is_dir():
            yield folder
            continue
        found = []
        for directory, subfolders, files in os.walk(folder):
            subfolders[:] = [s for s in subfolders if not os.path.islink(os.path.join(directory, s))]
            found += [Path(directory, f) for f in files if Path(f).suffix.lower() in MODEL_EXTENSIONS]
        yield from sorted(found)


def write_png(path: Path, rgba) -> None:
    """An (H, W, 4) uint8 array as an RGBA PNG (zlib only: no imaging library needed)."""
    height, width, _ = rgba.shape
    rows = b"".join(b"\x00" + rgba[y].tobytes() for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
    path.write_bytes(png)


def check_here(model: str, thumbnail: Optional[str], size: int) -> Dict:
    """Lints one model and renders its thumbnail, in this process: the child's work."""
    import rigscope

    started = time.perf_counter()
    try:
        report = rigscope.lint(model)
        result = {
            "ok": True,
            "errors": report.errors,
            "warnings": report.warnings,
            "notes": report.notes,
            "findings": [
                {"count": f.count, "message": f.message, "rule": f.code, "severity": f.severity, "subject": f.location}
                for f in report.findings
            ],
        }
        if thumbnail:
            Path(thumbnail).parent.mkdir(parents=True, exist_ok=True)
            write_png(Path(thumbnail), rigscope.render(model, size, size))
            result["thumbnail"] = thumbnail
    except rigscope.RigscopeError as error:
        result = {"ok": False, "error": str(error)}
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def check_file(model: str, thumbnail: Optional[str], size: int, timeout: float) -> Dict:
    """One task: checks `model` in a child process, killed after `timeout` seconds; a child
    that dies or hangs is this file's failure, never the worker's."""
    command = [sys.executable, os.path.abspath(__file__), "--one", model, "--size", str(size)]
    command += ["--thumbnail", thumbnail] if thumbnail else []
    started = time.perf_counter()
    try:
        child = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"file": model, "ok": False, "error": f"timed out after {timeout:g} s", "seconds": timeout}
    seconds = round(time.perf_counter() - started, 3)
    if child.returncode != 0:
        why = f"killed by signal {-child.returncode}" if child.returncode < 0 else f"exit status {child.returncode}"
        last = child.stderr.strip().splitlines()[-1:] or [""]
        return {"file": model, "ok": False, "error": f"the check crashed ({why}) {last[0]}".strip(), "seconds": seconds}
    try:
        result = json.loads(child.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"file": model, "ok": False, "error": "the check printed no report", "seconds": seconds}
    return {"file": model, **result}


def thumbnail_name(model: Path, index: int, out: Path) -> str:
    """A thumbnail path unique to the model (two folders may hold files of one name)."""
    return str(out / "thumbnails" / f"{index:05d}-{model.stem}.png")


def main(arguments: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="folders (or files) to check")
    parser.add_argument("--scheduler", help="a Dask scheduler's address; without it, a local cluster")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local cluster's workers")
    parser.add_argument("--out", type=Path, default=Path("library-check"), help="report.jsonl and thumbnails/")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a file may take")
    parser.add_argument("--size", type=int, default=256, help="thumbnail size in pixels")
    parser.add_argument("--no-thumbnails", action="store_true", help="lint only")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--thumbnail", help=argparse.SUPPRESS)
    options = parser.parse_args(arguments)

    if options.one:
        # The child process of check_file: one report line on standard output.
        print(json.dumps(check_here(options.one, options.thumbnail, options.size)))
        return 0

    from dask.distributed import Client, LocalCluster, as_completed

    if options.scheduler:
        client = Client(options.scheduler)
    else:
        # One thread per worker process: each task's work is in its child process anyway.
        client = Client(LocalCluster(n_workers=options.workers, threads_per_worker=1, processes=True))
    options.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with client:
        models = list(find_models(options.folders))
        futures = [
            client.submit(
                check_file,
                str(model),
                None if options.no_thumbnails else thumbnail_name(model, index, options.out),
                options.size,
                options.timeout,
                key=f"check-{index}",
                pure=False,
            )
            for index, model in enumerate(models)
        ]
        results = {}
        for future in as_completed(futures):
            result = future.result()
            results[result["file"]] = result
    failed = sum(not r["ok"] for r in results.values())
    with_errors = sum(r.get("errors", 0) > 0 for r in results.values())
    # The report in file order, as `rigscope lint` prints it.
    with open(options.out / "report.jsonl", "w") as report:
        for model in models:
            report.write(json.dumps(results[str(model)], sort_keys=True) + "\n")
    elapsed = time.perf_counter() - started
    print(
        f"checked {len(models)} files in {elapsed:.1f} s: {failed} failed, {with_errors} with lint errors; "
        f"report in {options.out / 'report.jsonl'}",
        file=sys.stderr,
    )
    return 1 if failed or with_errors else 0


if __name__ == "__main__":
    sys.exit(main())
