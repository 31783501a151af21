"""benchmarks/second_run.py on the CPU: real Ray, the shared pool's real actor, two runs of GELU."""

from __future__ import annotations

from pathlib import Path

import pytest
from pool_scripts import GELU, run_script


@pytest.mark.slow
def test_the_second_run_pays_no_judge_start(tmp_path: Path) -> None:
    report = run_script("second_run", "--device", "cpu", "--gpus", "1", "--spec", GELU, "--evaluations", "1",
                        "--gap", "0.5", out=tmp_path / "second_run.json")
    assert report["hardware"].startswith("cpu interpreter") and "NOT a GPU figure" in report["note"]
    assert report["spec"] == "gelu" and report["target_s"] == 3.0
    first, second = report["first"], report["second"]
    for run in (first, second):
        assert run["judged"] >= 1 and run["stopped"].startswith("evaluation budget")
        assert 0 < run["first_began_s"] < run["first_result_s"]
    # the pool prepared the judge when the first run registered, before sending its candidate: no result
    # carries that start (it waited in joining), and the pool's judge says how long it took
    assert first["judge_starts"] == 0 and first["judge_start_s"] == 0
    assert second["judge_starts"] == 0 and second["judge_start_s"] == 0 and second["baselines_s"] == 0
    assert report["second_paid_judge_start"] is False
    assert second["joined_s"] < first["joined_s"]  # the judge was warm: joining is a registration
    assert second["first_result_costs"]["judge_start_s"] == 0
    assert report["second_within_target"] == (second["first_began_s"] <= 3.0)
    (judge,) = report["pool_judges"]
    assert judge["spec"] == "gelu" and judge["prepared"] and judge["runs"] == []  # both runs left; it stays warm
    assert 0 < judge["prepare_s"] <= first["joined_s"]
    assert [a["judges"] for a in report["pool_actors"]] == [["gelu"]]
