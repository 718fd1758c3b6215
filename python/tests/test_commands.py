"""``lint``, ``render``, ``diff`` and ``convert`` against the commands, and the exceptions for a
missing and a broken file."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

import rigscope
from conftest import ASSETS, CESIUM_MAN, FOX, cli_json, run_cli


def read_png_rgba(path: Path) -> np.ndarray:
    """An 8-bit RGBA, non-interlaced PNG (what ``rigscope render`` writes) as (H, W, 4)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert (depth, colour, interlace) == (8, 6, 0), "expected 8-bit RGBA, not interlaced"
    raw = zlib.decompress(idat)
    stride = width * 4
    rows = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        out = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            left = out[x - 4] if x >= 4 else 0
            up = previous[x]
            up_left = previous[x - 4] if x >= 4 else 0
            if kind == 0:
                predictor = 0
            elif kind == 1:
                predictor = left
            elif kind == 2:
                predictor = up
            elif kind == 3:
                predictor = (left + up) // 2
            else:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
            out[x] = (line[x] + predictor) & 0xFF
        rows[y] = out
        previous = out
    return rows.reshape(height, width, 4)


@pytest.mark.parametrize("path", [FOX, CESIUM_MAN])
def test_lint_equals_lint_json(path):
    line = cli_json("lint", "--json", path)
    report = rigscope.lint(path)
    assert (report.errors, report.warnings, report.notes) == (line["errors"], line["warnings"], line["notes"])
    assert [(f.code, f.severity, f.message, f.location, f.count) for f in report.findings] == [
        (f["rule"], f["severity"], f["message"], f["subject"], f["count"]) for f in line["findings"]
    ]
    assert rigscope.load(path).lint() == report


def test_render_equals_the_png_pixel_for_pixel(tmp_path):
    png = tmp_path / "cesium.png"
    run_cli("render", CESIUM_MAN, "-o", png, "--size", "96x64", "--time", "0.5", "--skeleton")
    pixels = rigscope.render(CESIUM_MAN, 96, 64, time=0.5, options=["--skeleton"])
    assert pixels.shape == (64, 96, 4) and pixels.dtype == np.uint8
    expected = read_png_rgba(png)
    assert np.array_equal(pixels, expected), f"{np.count_nonzero(np.any(pixels != expected, axis=2))} pixels differ"
    # Something was drawn: not one flat colour.
    assert len(np.unique(pixels.reshape(-1, 4), axis=0)) > 10


def test_diff_and_convert_equal_the_commands(tmp_path):
    assert rigscope.diff(FOX, FOX) == cli_json("diff", "--json", FOX, FOX)
    assert rigscope.diff(FOX, CESIUM_MAN)["differs"] is True
    ours, theirs = tmp_path / "ours.glb", tmp_path / "theirs.glb"
    report = rigscope.convert(CESIUM_MAN, ours)
    run_cli("convert", CESIUM_MAN, "-o", theirs)
    assert report["output"] == str(ours) and report["bytes"] == ours.stat().st_size
    assert ours.read_bytes() == theirs.read_bytes()


def cli_error(*arguments) -> str:
    """The words ``rigscope`` prints after ``rigscope: `` for a failing command."""
    result = run_cli(*arguments, check=False)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("rigscope: ")
    return last[len("rigscope: ") :]


def test_a_missing_file_raises_file_not_found_in_the_commands_words(tmp_path):
    missing = tmp_path / "nowhere.glb"
    with pytest.raises(rigscope.NotFoundError) as raised:
        rigscope.load(missing)
    assert isinstance(raised.value, FileNotFoundError) and isinstance(raised.value, rigscope.RigscopeError)
    assert str(raised.value) == cli_error("pose", missing)
    with pytest.raises(FileNotFoundError):
        rigscope.lint(missing)
    with pytest.raises(FileNotFoundError):
        rigscope.render(missing, 32, 32)


def test_a_broken_file_raises_invalid_file_in_the_commands_words(tmp_path):
    broken = tmp_path / "broken.glb"
    broken.write_bytes(b"glTF" + bytes(40))
    with pytest.raises(rigscope.InvalidFileError) as raised:
        rigscope.load(broken)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) == cli_error("pose", broken)
    not_json = tmp_path / "broken.gltf"
    not_json.write_text("{ not json")
    with pytest.raises(rigscope.InvalidFileError):
        rigscope.lint(not_json)
    with pytest.raises(rigscope.UnsupportedError):
        rigscope.load(ASSETS / "gltf" / "Fox" / "SOURCE.txt")
