"""What the tests share: the sample assets (RIGSCOPE_ASSETS, by default ../shared/assets beside
the repository; missing assets fail the run, as in the Rust tests), the ``rigscope`` binary the
results are compared with (RIGSCOPE_BIN, by default target/debug/rigscope) and the VRM avatar
the tests write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
ASSETS = Path(os.environ.get("RIGSCOPE_ASSETS", REPOSITORY.parent / "shared" / "assets"))
BINARY = Path(os.environ.get("RIGSCOPE_BIN", REPOSITORY / "target" / "debug" / "rigscope"))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stick_avatar import write_stick_avatar  # noqa: E402

FOX = ASSETS / "gltf" / "Fox" / "glTF-Binary" / "Fox.glb"
CESIUM_MAN = ASSETS / "gltf" / "CesiumMan" / "glTF-Binary" / "CesiumMan.glb"
XBOT = ASSETS / "gltf" / "Xbot" / "Xbot.glb"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Missing assets or binary fail the run rather than skip tests."""
    if not FOX.is_file():
        raise pytest.UsageError(f"sample assets are missing: expected them at {ASSETS} (set RIGSCOPE_ASSETS)")
    if not BINARY.is_file():
        raise pytest.UsageError(f"no rigscope binary at {BINARY}: run cargo build first (or set RIGSCOPE_BIN)")


def run_cli(*arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs the ``rigscope`` command; its standard output and error as text."""
    result = subprocess.run([str(BINARY), *map(str, arguments)], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"rigscope {' '.join(map(str, arguments))} failed: {result.stderr}")
    return result


def cli_json(*arguments: str) -> dict:
    """A command's JSON output."""
    return json.loads(run_cli(*arguments).stdout)


@pytest.fixture(scope="session")
def stick_avatar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The VRM 1.0 stick figure (see stick_avatar.py), written once per run."""
    return write_stick_avatar(tmp_path_factory.mktemp("vrm") / "stick.vrm.gltf")
