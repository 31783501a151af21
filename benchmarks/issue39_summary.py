"""Issue 39's figures from the reports ``issue39_gpu.sh`` wrote into one folder, against the issue's targets.

Reads ``fair_share.json``, ``second_run.json``, ``ray_gpu.json`` and ``batch_kernelbench.json``
(any may be missing: that step failed or was not run), and ``fair_share_backlog.json`` (the
experiment of runs that send more than the pool's slots, where it was run), prints one table and writes
``summary.json`` beside them. Scaling is the last configuration (every GPU) over the first
(one GPU): within the time budget for the search, kernels per minute for the batch.

    python benchmarks/issue39_summary.py /tmp/issue39
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table


def read(folder: Path, name: str) -> dict[str, Any] | None:
    path = folder / name
    try:
        report: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return report


def pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def fair_share_rows(report: dict[str, Any], label: str = "fair share") -> list[tuple[str, str, str, bool | None]]:
    """Met: run 1's share of the evaluations over the whole measured span (shorter than the issue's 2-minute
    window); its share of the evaluator-seconds and the worst of the shorter windows are shown beside it."""
    rows: list[tuple[str, str, str, bool | None]] = []
    for r in report["rows"]:
        if len(r["weights"]) == 1:
            continue
        weights = ":".join(f"{w:g}" for w in r["weights"])
        expected, share = r["expected_share"][0], r["share"][0]
        got = f"{pct(share)} of evaluations ({r['evaluations'][0]} of {sum(r['evaluations'])})"
        if "seconds_share" in r:
            got += f", {pct(r['seconds_share'][0])} of evaluator-s"
        worst = [w for w in (r.get("worst_window_error"), r.get("worst_window_seconds_error")) if w is not None]
        if worst:
            got += f"; worst {report['settings']['window']:g} s window +-{pct(max(worst))}"
        rows.append((f"{label} {weights}: run 1's share", f"{expected:.0%} +- 10%", got,
                     abs(share - expected) <= 0.10 if sum(r["evaluations"]) else None))
        vs = r.get("throughput_vs_alone")
        extra = f" (evaluator-s {pct(r['evaluator_s_vs_alone'])})" if r.get("evaluator_s_vs_alone") is not None else ""
        rows.append((f"{label} {weights}: throughput vs one run alone", ">= 95%", pct(vs) + extra,
                     None if vs is None else vs >= 0.95))
    return rows


def summarize(folder: Path) -> dict[str, Any]:
    rows: list[tuple[str, str, str, bool | None]] = []
    hardware: dict[str, str] = {}
    fair = read(folder, "fair_share.json")
    if fair is not None:
        hardware["fair_share"] = fair.get("hardware", "")
        rows += fair_share_rows(fair)
    experiment = read(folder, "fair_share_backlog.json")
    if experiment is not None:
        backlog = experiment["settings"].get("backlog")
        rows += fair_share_rows(experiment, f"EXPERIMENT, runs sending {backlog:g}x the pool's slots: fair share")
    second = read(folder, "second_run.json")
    if second is not None:
        hardware["second_run"] = second.get("hardware", "")
        run = second["second"]
        began = run.get("first_began_s")
        rows.append(("second run: evaluating after (s from its start)", "<= 3 s",
                     "-" if began is None else f"{began:.2f} (first result {run['first_result_s'] or 0:.2f})",
                     second["second_within_target"]))
        # a start the pool prepared at a run's registration is carried by no result (EvaluatorActor.prepare);
        # the first run's joining time holds it, and the pool's judge says how long it took
        first, prepared = second["first"], [j.get("prepare_s") for j in second.get("pool_judges", [])]
        prepare = f", judge prepared in {prepared[0]:.1f} s" if prepared and prepared[0] is not None else ""
        rows.append(("second run: judge starts / baselines paid again", "none",
                     f"{run['judge_starts']} / {run['baselines_s']:.2f} s, joined after "
                     f"{run.get('joined_s') or 0:.2f} s (first run: joined after {first.get('joined_s') or 0:.1f} s"
                     f"{prepare})", run["judge_starts"] == 0))
    search = read(folder, "ray_gpu.json")
    if search is not None and len(search["rows"]) >= 2:
        hardware["ray_gpu"] = search.get("hardware", "")
        one, every = search["rows"][0], search["rows"][-1]
        ratio = every["window_evals_per_min"] / one["window_evals_per_min"] if one["window_evals_per_min"] else None
        rows.append((f"search scaling, {every['gpus']} GPUs vs {one['gpus']} (in budget)", ">= 1.9x",
                     "-" if ratio is None else f"{ratio:.2f}x ({one['window_evals_per_min']:.1f} -> "
                     f"{every['window_evals_per_min']:.1f} per min)", None if ratio is None else ratio >= 1.9))
    batch = read(folder, "batch_kernelbench.json")
    if batch is not None and batch["runs"]:
        hardware["batch"] = ", ".join(batch.get("gpu_names") or []) or batch.get("device", "")
        if len(batch["runs"]) >= 2:
            one, every = batch["runs"][0]["summary"], batch["runs"][-1]["summary"]
            ratio = every["kernels_per_min"] / one["kernels_per_min"] if one["kernels_per_min"] else None
            rows.append((f"batch scaling, {batch['runs'][-1]['mode']} vs {batch['runs'][0]['mode']}", ">= 1.9x",
                         "-" if ratio is None else f"{ratio:.2f}x ({one['kernels_per_min']:.1f} -> "
                         f"{every['kernels_per_min']:.1f} kernels per min)", None if ratio is None else ratio >= 1.9))
        wrong = len(batch["wrong_verdicts"])
        modes = ", ".join(run["mode"] for run in batch["runs"])
        rows.append((f"batch: every verdict right and the same ({modes})", "0 wrong",
                     f"{wrong} wrong of {batch['kernels']}", wrong == 0))
    return {"folder": str(folder), "hardware": hardware,
            "rows": [{"measure": m, "target": t, "got": g, "met": ok} for m, t, g, ok in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    args = parser.parse_args()
    folder = Path(args.folder)
    summary = summarize(folder)
    (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    table = Table(title="issue 39 on " + "; ".join(sorted(set(summary["hardware"].values()))))
    for col in ("measure", "target", "got", "met"):
        table.add_column(col)
    for row in summary["rows"]:
        table.add_row(row["measure"], row["target"], row["got"], {True: "yes", False: "NO", None: "-"}[row["met"]])
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
