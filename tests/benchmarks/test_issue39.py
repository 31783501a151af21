"""benchmarks/issue39_summary.py against hand-made reports; benchmarks/issue39_gpu.sh's usage."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from pool_scripts import BENCHMARKS, load


def write(folder: Path, name: str, report: dict) -> None:
    (folder / name).write_text(json.dumps(report))


def fair_row(weights: list[float], evaluations: list[int], vs_alone: float) -> dict:
    total = sum(evaluations)
    return {"weights": weights, "expected_share": [w / sum(weights) for w in weights], "evaluations": evaluations,
            "share": [n / total for n in evaluations], "seconds_share": [n / total for n in evaluations],
            "worst_window_error": 0.05, "worst_window_seconds_error": 0.04, "throughput_vs_alone": vs_alone,
            "evaluator_s_vs_alone": vs_alone}


def test_summary_against_the_targets(tmp_path: Path) -> None:
    assert load("issue39_summary").summarize(tmp_path)["rows"] == []  # no report yet: nothing to say
    write(tmp_path, "fair_share.json", {"hardware": "2 x NVIDIA H100 80GB HBM3", "settings": {"window": 15},
                                        "rows": [fair_row([1.0], [40], 1.0), fair_row([1.0, 1.0], [21, 19], 0.97),
                                                 fair_row([3.0, 1.0], [25, 15], 0.90)]})
    write(tmp_path, "second_run.json", {
        "hardware": "2 x NVIDIA H100 80GB HBM3", "second_within_target": True,
        "first": {"judge_starts": 2, "judge_start_s": 19.0, "baselines_s": 12.0},
        "second": {"first_began_s": 0.4, "first_result_s": 2.5, "judge_starts": 0, "baselines_s": 0.0}})
    write(tmp_path, "ray_gpu.json", {"hardware": "NVIDIA H100 80GB HBM3, NVIDIA H100 80GB HBM3", "rows": [
        {"gpus": 1, "window_evals_per_min": 20.0}, {"gpus": 2, "window_evals_per_min": 39.0}]})
    # the batch was cut after its first mode: its verdicts are checked, its scaling left out
    write(tmp_path, "batch_kernelbench.json", {"gpu_names": ["NVIDIA H100 80GB HBM3"] * 2, "kernels": 51,
                                               "wrong_verdicts": {}, "runs": [{"mode": "ray:1", "summary": {}}]})
    summary = load("issue39_summary").summarize(tmp_path)
    met = {row["measure"]: row["met"] for row in summary["rows"]}
    assert met == {
        "fair share 1:1: run 1's share": True,
        "fair share 1:1: throughput vs one run alone": True,
        "fair share 3:1: run 1's share": False,  # 62.5%, not 75% +- 10%
        "fair share 3:1: throughput vs one run alone": False,
        "second run: evaluating after (s from its start)": True,
        "second run: judge starts / baselines paid again": True,
        "search scaling, 2 GPUs vs 1 (in budget)": True,
        "batch: every verdict right and the same (ray:1)": True,
    }
    assert summary["hardware"]["fair_share"] == "2 x NVIDIA H100 80GB HBM3"


def test_the_wrapper_needs_an_out_folder() -> None:
    script = BENCHMARKS / "issue39_gpu.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    done = subprocess.run(["bash", str(script)], capture_output=True, text=True)
    assert done.returncode == 2 and "usage:" in done.stderr
