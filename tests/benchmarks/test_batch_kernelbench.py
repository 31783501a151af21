"""benchmarks/batch_kernelbench.py: modes, the layout, and a tiny batch through Ray on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from pool_scripts import load, run_script


@pytest.fixture(scope="module")
def batch():
    return load("batch_kernelbench")


def test_modes(batch) -> None:
    assert batch.workers("local", "cuda", ["H100"]) is None
    assert batch.workers("ray:all", "cuda", ["H100", "H100"]) == "2"
    assert batch.workers("ray:all", "cpu", []) == "1"
    assert batch.workers("ray:2", "cpu", []) == "2"
    with pytest.raises(SystemExit, match="torch sees 2"):
        batch.workers("ray:3", "cuda", ["H100", "H100"])
    with pytest.raises(SystemExit, match="not local, ray:N or ray:all"):
        batch.workers("ray:two", "cuda", ["H100"])


def test_layout_of_some_problems(batch, tmp_path: Path) -> None:
    expected = batch.build(tmp_path / "gelu", 0, ["gelu"], adversarial=False)
    assert expected == {"level1/problem1/sample0": {"kind": "seed", "must": "correct"},
                        "level1/problem1/sample1": {"kind": "seed", "must": "correct"}}
    assert sorted(p.name for p in (tmp_path / "gelu" / "KernelBench" / "level1").iterdir()) == ["1_GELU.py"]
    # the adversarial kernels are GELU's: a batch without GELU has none
    softmax = batch.build(tmp_path / "softmax", 0, ["softmax"], adversarial=True)
    assert {v["kind"] for v in softmax.values()} == {"seed"}
    assert all(k.startswith("level1/problem2/") for k in softmax)


@pytest.mark.slow
def test_a_tiny_batch_on_the_cpu(tmp_path: Path) -> None:
    report = run_script("batch_kernelbench", "--device", "cpu", "--problems", "gelu", "--no-adversarial",
                        "--mutants", "0", "--modes", "ray:1", out=tmp_path / "batch.json")
    assert report["gpu_names"] == [] and "NOT a GPU figure" in report["device"]
    assert report["kernels"] == 2 and report["wrong_verdicts"] == {} and report["modes"] == ["ray:1"]
    (run,) = report["runs"]
    assert run["mode"] == "ray:1" and run["actors"] == 1 and run["exit"] == 0
    assert run["summary"]["kernels"] == 2 and run["summary"]["correct"] == 2 and run["summary"]["kernels_per_min"] > 0
    assert set(run["verdicts"].values()) == {"correct"}
