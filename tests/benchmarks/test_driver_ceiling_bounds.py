"""benchmarks/driver_ceiling.py's arithmetic: the bound a run's CPU a result puts on its ratio, and Ray's processes."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ceiling():
    spec = importlib.util.spec_from_file_location("driver_ceiling", ROOT / "benchmarks" / "driver_ceiling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_split_run_is_bounded_by_its_cpu_a_result_with_and_without_rays_processes(ceiling) -> None:
    rows = [{"evaluators": 2048, "islands": 1, "results_per_s": 1000.0, "steady_cpu_ms_per_result": 0.9},
            {"evaluators": 2048, "islands": 2, "results_per_s": 1500.0, "steady_cpu_ms_per_result": 1.2,
             "steady_ray_cpu_ms_per_result": 0.06}]
    (bound,) = ceiling.split_bounds(rows, cores=2)
    assert bound["ratio"] == pytest.approx(1.5) and bound["cores"] == 2
    assert bound["cpu_bound_ratio"] == pytest.approx(2 * 0.9 / 1.2)
    assert bound["cpu_bound_ratio_with_ray"] == pytest.approx(2 * 0.9 / 1.26)
    assert bound["split_adds_cpu_ms_per_result"] == pytest.approx(0.3)
    assert bound["split_may_add_for_1_6x_ms"] == pytest.approx(2 * 0.9 / 1.6 - 0.9)
    (on_16,) = ceiling.split_bounds(rows, cores=16)  # the driver and 2 islands keep 3 cores busy at most
    assert on_16["cores"] == 3


def test_descendants_finds_a_grandchild(ceiling) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; "
                              "subprocess.run([sys.executable, '-c', 'import time; time.sleep(30)'])"])
    try:
        grandchildren: set[int] = set()
        for _ in range(200):
            grandchildren = ceiling.descendants(child.pid)
            if grandchildren:
                break
            subprocess.run(["sleep", "0.05"])
        below = ceiling.descendants(os.getpid())
        assert len(grandchildren) == 1 and {child.pid, *grandchildren} <= below
        assert os.getpid() not in below
    finally:
        for pid in ceiling.descendants(child.pid):
            os.kill(pid, 9)
        child.kill()
        child.wait()
