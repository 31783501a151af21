"""benchmarks/ray_gpu.py: GPU counts, and one short search through Ray on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from pool_scripts import load, run_script


def test_gpu_counts() -> None:
    ray_gpu = load("ray_gpu")
    assert ray_gpu.gpu_count("all", "cuda", ["H100", "H100"]) == 2
    assert ray_gpu.gpu_count("1", "cuda", ["H100", "H100"]) == 1
    assert ray_gpu.gpu_count("all", "cpu", []) == 1
    assert ray_gpu.gpu_count("4", "cpu", []) == 4  # logical GPUs
    with pytest.raises(SystemExit, match="3 GPUs asked for, but torch sees 2"):
        ray_gpu.gpu_count("3", "cuda", ["H100", "H100"])


@pytest.mark.slow
def test_a_short_search_on_the_cpu(tmp_path: Path) -> None:
    report = run_script("ray_gpu", "--device", "cpu", "--example", "gelu", "--runs", "ray:1", "--minutes", "0.05",
                        "--tail-limit", "1", out=tmp_path / "ray_gpu.json")
    assert report["device"] == "cpu" and report["gpu_names"] == [] and "NOT a GPU figure" in report["hardware"]
    (row,) = report["rows"]
    assert row["mode"] == "ray" and row["gpus"] == 1 and row["device"] == "cpu" and row["tail_limit_s"] == 1
    # a 3 s budget: the seeds may still be judged when the tail limit stops them, a second after it
    assert row["evaluations"] + row["stopped_in_flight"] >= 1
    # the scheduler wakes at its time budget's deadline, before the tail limit's a second later
    assert row["stopped"].startswith("time budget"), row["stopped"]
    assert row["tail_s"] < 15  # the run ended soon after the limit (the seeds it stopped were not waited for)
    for key in ("window_evals_per_min", "judge_fraction", "window_judge_fraction", "median_s", "nvml_utilization"):
        assert key in row
    assert row["nvml_utilization"] is None  # no nvidia-smi here
