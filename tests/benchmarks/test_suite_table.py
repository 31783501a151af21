"""benchmarks/suite_table.py: the suite's standing per GPU and per family of op, from hand-made reports."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "suite_table.py"


@pytest.fixture(scope="module")
def suite_table():
    spec = importlib.util.spec_from_file_location("suite_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(example: str, hardware: str, speedup: float | None, *, correct: bool = True, seeding_s: float | None = None,
        cells: int = 5) -> dict:
    out = {"example": example, "hardware": hardware, "evaluations": 100, "correct": 90, "cells_filled": cells,
           "qd_score": 50.0, "best_ms": 0.5 if correct else None,
           "compile_ms": 0.5 * speedup if speedup else None, "speedup_compile": speedup if correct else None}
    if seeding_s is not None:
        out["seeding_s"] = seeding_s
    return out


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text(json.dumps({"date": "2026-01-01T00:00:00+00:00", "examples": rows}))
    return path


@pytest.fixture
def reports(tmp_path: Path) -> list[Path]:
    old = write(tmp_path / "old.json", [
        row("relu", "h100", 0.8),  # replaced by new.json's row
        row("matmul_square", "h100", None, correct=False),
        row("relu", "h200", 1.5),
        row("gelu", "h100", 9.0),  # an example's search, not the suite's: left out
    ])
    new = write(tmp_path / "new.json", [
        row("relu", "h100", 1.25, seeding_s=10.0),
        row("gelu_tanh", "h100", 0.9, seeding_s=30.0),
        row("silu", "h100", 1.6, seeding_s=20.0, cells=2),
        row("matmul_batched", "h100", 1.1, seeding_s=100.0),
    ])
    return [old, new]


def test_every_spec_of_the_suite_has_a_known_family(suite_table) -> None:
    families = {"gemm", "conv", "pooling", "norm", "reduction", "scan", "loss", "attention", "activation",
                "fusion-gemm", "fusion-conv", "network"}
    assert suite_table.SUITE, "no spec found in benchmarks/suite/"
    assert {suite_table.family_of(s) for s in suite_table.SUITE} == families
    assert set(suite_table.FAMILIES) == set(suite_table.SUITE)  # no stale name in families.json either


def test_per_family_numbers_on_one_gpu(suite_table, reports: list[Path]) -> None:
    rows = suite_table.latest_rows(reports)
    assert set(rows) == {"h100", "h200"} and "gelu" not in rows["h100"]
    assert rows["h100"]["relu"]["report"] == "new.json"  # the later report's row wins
    families = suite_table.by_family(rows["h100"])
    activation = families["activation"]
    n_activation = sum(1 for s in suite_table.SUITE if suite_table.family_of(s) == "activation")
    assert activation["specs"] == n_activation and activation["measured"] == 3 and activation["correct"] == 3
    assert activation["at_least_1x"] == 2  # relu 1.25, silu 1.6; gelu_tanh 0.9 is below
    assert activation["geomean_speedup_compile"] == pytest.approx((1.25 * 0.9 * 1.6) ** (1 / 3))
    assert activation["seeding_median_s"] == 20.0 and activation["seeding_max_s"] == 30.0
    gemm = families["gemm"]
    assert (gemm["measured"], gemm["correct"], gemm["at_least_1x"], gemm["geomean_over"]) == (2, 1, 1, 1)
    assert gemm["geomean_speedup_compile"] == pytest.approx(1.1)
    assert gemm["seeding_median_s"] == 100.0  # matmul_square's old row carries no seeding_s: left out
    assert families["conv"]["measured"] == 0 and families["conv"]["geomean_speedup_compile"] is None
    assert families["conv"]["seeding_median_s"] is None
    overall = families["overall"]
    assert list(families)[-1] == "overall" and overall["specs"] == len(suite_table.SUITE)
    assert (overall["measured"], overall["correct"], overall["at_least_1x"]) == (5, 4, 3)
    assert overall["geomean_speedup_compile"] == pytest.approx(math.prod([1.25, 0.9, 1.6, 1.1]) ** 0.25)
    assert overall["seeding_median_s"] == 25.0 and overall["seeding_max_s"] == 100.0
    # an old report's rows, without seeding_s: no seeding time, the rest as before
    h200 = suite_table.by_family(rows["h200"])
    assert h200["activation"]["at_least_1x"] == 1 and h200["activation"]["seeding_max_s"] is None


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def test_the_json_and_the_cli_options(tmp_path: Path, reports: list[Path]) -> None:
    out = tmp_path / "table.json"
    done = run(*map(str, reports), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "by family of op" in done.stdout and "overall" in done.stdout
    h100 = json.loads(out.read_text())["by_hardware"]["h100"]
    assert h100["families"]["activation"]["at_least_1x"] == 2 and h100["families"]["overall"]["correct"] == 4
    assert {r["example"]: r["family"] for r in h100["rows"]}["matmul_batched"] == "gemm"
    assert {r["example"]: r["seeding_s"] for r in h100["rows"]}["silu"] == 20.0
    assert h100["below_1x"] == ["gelu_tanh"] and h100["no_correct_kernel"] == ["matmul_square"]
    # --missing/--failing, narrowed to a family and cut with --take
    missing = run("--missing", "h100", "--family", "activation", *map(str, reports)).stdout.strip().split(",")
    assert "benchmarks/suite/relu.py" not in missing and "benchmarks/suite/elu.py" in missing
    assert all(p.removeprefix("benchmarks/suite/").removesuffix(".py") in json.loads(
        (ROOT / "benchmarks" / "suite" / "families.json").read_text()) for p in missing)
    failing = run("--failing", "h100", "--family", "gemm,activation", "--take", "50", *map(str, reports))
    chosen = failing.stdout.strip().split(",")
    assert "benchmarks/suite/gelu_tanh.py" in chosen and "benchmarks/suite/matmul_square.py" in chosen
    assert "benchmarks/suite/silu.py" in chosen  # 1.6x, but under 4 cells
    assert "benchmarks/suite/relu.py" not in chosen and "benchmarks/suite/matmul_batched.py" not in chosen
    assert len(run("--missing", "h100", "--take", "2", *map(str, reports)).stdout.strip().split(",")) == 2
    wrong = run("--missing", "h100", "--family", "convolution", *map(str, reports))
    assert wrong.returncode == 2 and "no family convolution" in wrong.stderr


def test_a_shortfall_within_the_best_kernels_spread_is_named_a_tie_and_still_counted_below(suite_table) -> None:
    tie = {**row("matmul_square", "h100", 0.99), "best_iqr_ms": 0.5 * 0.02}  # 1% short, 2% spread
    short = {**row("relu", "h100", 0.95), "best_iqr_ms": 0.5 * 0.01}  # 5% short, 1% spread
    unknown = row("silu", "h100", 0.999)  # no spread recorded: not a tie
    checked = suite_table.standing({"matmul_square": tie, "relu": short, "silu": unknown})
    assert sorted(checked["below_1x"]) == ["matmul_square", "relu", "silu"]
    assert checked["below_1x_within_noise"] == ["matmul_square"]
