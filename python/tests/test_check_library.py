"""examples/check_library.py on a local Dask cluster of two workers, over the sample assets
plus a broken file and a file that hangs (a FIFO: reading it blocks until a writer comes, and
none does): every model is reported, those two as failures, the rest as `rigscope lint` says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ASSETS, CESIUM_MAN, REPOSITORY, run_cli

EXAMPLE = REPOSITORY / "examples" / "check_library.py"


def test_the_library_check_reports_every_model_and_survives_a_broken_and_a_hanging_file(tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    broken = extra / "broken.glb"
    broken.write_bytes(b"glTF" + bytes(40))
    hanging = extra / "hanging.glb"
    os.mkfifo(hanging)
    out = tmp_path / "out"
    timeout = 30
    arguments = [ASSETS, extra, "--workers", "2", "--out", out, "--timeout", str(timeout), "--size", "48"]
    result = subprocess.run([sys.executable, EXAMPLE, *map(str, arguments)], capture_output=True, text=True)
    assert result.returncode == 1, result.stderr  # the failures make the exit status 1
    lines = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
    reported = {line["file"]: line for line in lines}

    cli = [json.loads(line) for line in run_cli("lint", "--json", ASSETS, check=False).stdout.splitlines()]
    expected_files = [line["file"] for line in cli] + [str(broken), str(hanging)]
    assert [line["file"] for line in lines] == expected_files
    for theirs in cli:
        ours = reported[theirs["file"]]
        assert ours["ok"] == theirs["ok"], ours
        if theirs["ok"]:
            fields = ("errors", "warnings", "notes", "findings")
            assert {k: ours[k] for k in fields} == {k: theirs[k] for k in fields}
            thumbnail = Path(ours["thumbnail"])
            assert thumbnail.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            assert ours["error"] == theirs["error"]

    assert reported[str(broken)]["ok"] is False
    (broken_cli,) = [json.loads(line) for line in run_cli("lint", "--json", broken, check=False).stdout.splitlines()]
    assert reported[str(broken)]["error"] == broken_cli["error"]
    assert reported[str(hanging)] == {
        "file": str(hanging),
        "ok": False,
        "error": f"timed out after {timeout} s",
        "seconds": timeout,
    }


def test_the_check_runs_on_the_cluster_its_scheduler_address_names(tmp_path):
    """--scheduler: the tasks go to a cluster started elsewhere (here by the test), not to a
    local cluster of the example's own."""
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
        out = tmp_path / "out"
        arguments = [CESIUM_MAN, "--scheduler", cluster.scheduler_address, "--out", out, "--no-thumbnails"]
        result = subprocess.run([sys.executable, EXAMPLE, *map(str, arguments)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        transitions = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)
    assert transitions > 0, "the cluster ran no task"
    (line,) = [json.loads(line) for line in (out / "report.jsonl").read_text().splitlines()]
    (cli,) = [json.loads(line) for line in run_cli("lint", "--json", CESIUM_MAN).stdout.splitlines()]
    fields = ("file", "ok", "errors", "warnings", "notes", "findings")
    assert {k: line[k] for k in fields} == {k: cli[k] for k in fields}
