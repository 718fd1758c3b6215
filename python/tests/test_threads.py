"""Posing releases the GIL: four threads posing four models finish at least 1.35 times sooner
than one thread posing the four in turn (on two or more cores). Holding the GIL gives 1.0 or
less; two idle cores give 1.7-1.9, a shared CI machine 1.5-1.6, so 1.35 separates the two
without failing on a busy machine."""

from __future__ import annotations

import os
import threading
import time

import pytest

import rigscope
from conftest import CESIUM_MAN

MIN_SPEED_UP = 1.35
ROUNDS = 12
TIMES = [0.1 * i for i in range(ROUNDS)]


def pose_rounds(model: rigscope.Model) -> None:
    for t in TIMES:
        model.pose(0, t)


def serial_seconds(models) -> float:
    started = time.perf_counter()
    for model in models:
        pose_rounds(model)
    return time.perf_counter() - started


def threaded_seconds(models) -> float:
    threads = [threading.Thread(target=pose_rounds, args=(model,)) for model in models]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def test_four_threads_pose_four_models_faster_than_one():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if cores < 2:
        pytest.skip(f"needs two cores to run threads in parallel; this machine gives {cores}")
    # CesiumMan: 3,273 skinned vertices, enough that skinning, not the Python calls, takes the
    # time, and under the 20,000 at which one pose already skins on every core.
    models = [rigscope.load(CESIUM_MAN) for _ in range(4)]
    pose_rounds(models[0])
    # The best of five interleaved pairs: other work on a shared machine only slows a run.
    ratios = []
    for _ in range(5):
        serial = serial_seconds(models)
        threaded = threaded_seconds(models)
        ratios.append(serial / threaded)
        if ratios[-1] >= MIN_SPEED_UP:
            break
    assert max(ratios) >= MIN_SPEED_UP, f"one thread / four threads: {', '.join(f'{r:.2f}' for r in ratios)}"
