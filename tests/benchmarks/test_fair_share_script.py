"""benchmarks/fair_share.py: share windows, and real judges on the CPU (real Ray, the shared pool's real actors)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pool_scripts import GELU, load, run_script


def test_window_shares_count_each_run_and_leave_empty_windows_out() -> None:
    fair_share = load("fair_share")
    # run 0: 3 units in window [0, 10), 1 in [10, 20); run 1: 1 and 3; nothing in [20, 30)
    amounts = [[(1.0, 1.0), (2.0, 2.0), (12.0, 1.0)], [(5.0, 1.0), (11.0, 3.0)]]
    shares = fair_share.window_shares(amounts, 0.0, 30.0, 10.0)
    assert shares == [[0.75, 0.25], [0.25, 0.75], None]
    assert fair_share.worst(shares, 0.5) == pytest.approx(0.25)
    assert fair_share.worst([None], 0.5) is None


@pytest.mark.slow
def test_real_judges_on_the_cpu(tmp_path: Path) -> None:
    """Three scenarios on one pool of one CPU judge: the first run starts the judge, every later run reuses it."""
    report = run_script("fair_share", "--judges", "real", "--device", "cpu", "--gpus", "1", "--spec", GELU,
                        "--seconds", "4", "--warmup", "0", "--window", "2", out=tmp_path / "fair_share.json")
    assert report["judges"] == "real" and report["simulated"] is False and report["device"] == "cpu"
    assert report["hardware"].startswith("cpu interpreter") and "NOT a GPU figure" in report["note"]
    assert report["gpu_names"] == []
    rows = report["rows"]
    assert [r["weights"] for r in rows] == [[1.0], [1.0, 1.0], [3.0, 1.0]]
    assert [r["expected_share"] for r in rows] == [[1.0], [0.5, 0.5], [0.75, 0.25]]
    for row in rows:
        for key in ("evaluations", "evaluator_seconds", "share", "seconds_share", "window_shares",
                    "window_seconds_shares", "worst_window_error", "worst_window_seconds_error", "evals_per_s",
                    "evaluator_s_per_s", "throughput_vs_alone", "evaluator_s_vs_alone", "pool_share", "runs"):
            assert key in row, key
        assert len(row["runs"]) == len(row["weights"]) == len(row["evaluations"]) == len(row["pool_share"])
        if sum(row["evaluations"]):
            assert sum(row["share"]) == pytest.approx(1.0)
        for run in row["runs"]:
            assert run["stopped"] == "the benchmark's window is over"
    assert rows[0]["runs"][0]["judged"] >= 1
    # the pool prepared the judge when the first run registered (no candidate waited for it, so no result
    # carries that start); every run after found it warm
    assert all(run["judge_starts"] == 0 for row in rows for run in row["runs"])
