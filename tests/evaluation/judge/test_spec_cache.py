"""Baselines and FLOPs cached on disk: found again under the same key, never under another, never from a bad file."""

from __future__ import annotations

from pathlib import Path

from kernelevo.evaluation import EvalOptions, Timing
from kernelevo.evaluation.judge.spec_cache import (
    baseline_key,
    flops_key,
    load_baselines,
    load_flops,
    store_baselines,
    store_flops,
)
from kernelevo.records.result import Environment
from kernelevo.spec import read_spec

ENV = Environment(device="cuda:0", device_name="NVIDIA H100 80GB HBM3", hardware="h100", compute_capability="9.0",
                  driver="580.159.04", cuda="13.0", torch="2.11.0", triton="3.6.0", python="3.12.3", hostname="a")
TIMING = Timing(median_ms=0.2054, iqr_ms=0.001, min_ms=0.2, mean_ms=0.206, repetitions=120, method="cuda_events",
                l2_flushed=True, input_sets=3, host_launch_ms=0.018)


def key(examples_dir: Path, **changes: object) -> dict[str, object]:
    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    return baseline_key(spec, "default", ENV.model_copy(update=changes), EvalOptions(), timing_sets=3)


def test_stored_baselines_come_back(examples_dir: Path, tmp_path: Path) -> None:
    baselines = {"eager": TIMING, "compile": "BackendCompilerFailed: no compiler"}
    store_baselines(key(examples_dir), baselines, root=tmp_path)
    assert load_baselines(key(examples_dir), root=tmp_path) == baselines


def test_another_gpu_driver_or_version_misses(examples_dir: Path, tmp_path: Path) -> None:
    store_baselines(key(examples_dir), {"eager": TIMING}, root=tmp_path)
    for change in ({"device_name": "NVIDIA H200"}, {"driver": "580.159.03"}, {"torch": "2.13.0"},
                   {"triton": "3.9.0"}):
        assert load_baselines(key(examples_dir, **change), root=tmp_path) is None, change
    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    other_options = baseline_key(spec, "default", ENV, EvalOptions(min_reps=50), timing_sets=3)
    assert load_baselines(other_options, root=tmp_path) is None


def test_a_broken_or_foreign_file_is_a_miss(examples_dir: Path, tmp_path: Path) -> None:
    k = key(examples_dir)
    store_baselines(k, {"eager": TIMING}, root=tmp_path)
    (entry,) = (tmp_path / "baselines").glob("*.json")
    entry.write_text(entry.read_text()[:40])
    assert load_baselines(k, root=tmp_path) is None
    entry.write_text('{"key": {"spec_sha256": "another"}, "value": {}}')
    assert load_baselines(k, root=tmp_path) is None


def test_flops_are_kept_per_spec_variant_and_torch(examples_dir: Path, tmp_path: Path) -> None:
    gelu = read_spec(str(examples_dir / "gelu" / "spec.py"))
    softmax = read_spec(str(examples_dir / "softmax" / "spec.py"))
    store_flops(flops_key(gelu, "default"), 1_073_741_824, root=tmp_path)
    assert load_flops(flops_key(gelu, "default"), root=tmp_path) == 1_073_741_824
    assert load_flops(flops_key(gelu, "small"), root=tmp_path) is None
    assert load_flops(flops_key(softmax, "default"), root=tmp_path) is None
    import torch

    assert torch.__version__.startswith(flops_key(gelu, "default")["torch"])  # read without importing torch
