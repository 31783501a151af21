"""The same offline search with and without Ray on real GPUs, and its scaling over GPUs.

For each configuration it runs ``start_search`` on one example for a fixed time (template
operator only, so no LLM is involved) and reports:

* evaluations per minute of search time (the pools are started before the clock starts), over
  the whole run and within the time budget alone (after it, the run waits for the evaluations
  in flight, and one slow compile can hold it for minutes);
* judge-held fraction: the summed time a judge held its GPU for a candidate (child hand-over,
  compile leftovers, correctness, timing) over search time x GPUs. This is the time the
  GPU actors spend evaluating, what the issue's 70% target is about;
* NVML utilization: ``nvidia-smi``'s utilization.gpu sampled every 250 ms on the GPUs used,
  averaged over the search (the share of time some kernel ran);
* timing fraction: time spent in the timing stage over search time x GPUs;
* how the compile ahead of time went: share of judged candidates whose GPU child compiled
  nothing (every kernel came from the CPU-side compile), and median costs per stage.

    python benchmarks/ray_gpu.py --example matmul_epilogue --minutes 2 --runs local:1,ray:1 \
        --out benchmarks/results/ray_gpu-h200.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.search.scheduler import Scheduler  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402


class UtilizationSampler:
    """``nvidia-smi -lms 250`` in the background: (monotonic time, gpu index, utilization %)."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, int, float]] = []
        self._proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=index,utilization.gpu", "--format=csv,noheader,nounits", "-lms", "250"],
            stdout=subprocess.PIPE, text=True)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                self.samples.append((time.monotonic(), int(parts[0]), float(parts[1])))

    def mean(self, start: float, end: float, gpus: int) -> float | None:
        values = [u for t, i, u in self.samples if start <= t <= end and i < gpus]
        return statistics.fmean(values) / 100 if values else None

    def stop(self) -> None:
        self._proc.terminate()


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def measure(example: str, mode: str, gpus: int, minutes: float, sampler: UtilizationSampler,
            evaluation: EvalOptions) -> dict[str, Any]:
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    config = RunConfig(budget=Budget(evaluations=None, minutes=minutes), workers=gpus, ray=mode == "ray",
                       evaluation=evaluation)
    window: dict[str, float] = {}

    def on_start(loop: Scheduler) -> None:
        window["start"], window["wall_start"] = loop.started, time.time()

    with tempfile.TemporaryDirectory() as out:
        db = open_database(f"sqlite:///{out}/kernelevo.db")
        outcome = asyncio.run(start_search(db, spec, config, out=out, on_start=on_start))
    window["end"] = outcome.loop.finished or time.monotonic()
    if mode == "ray":  # the next configuration starts its own local Ray, with its own GPU count
        import ray

        ray.shutdown()
    search_s = outcome.loop.elapsed_s()
    evaluated = [e for v in outcome.state.evaluations.values() for e in v]
    results = [e.result for e in evaluated]
    # steady state: what finished within the time budget (the run then waits for the evaluations in flight)
    budget_s = minutes * 60
    in_window = [e.result for e in evaluated if e.finished_at <= window["wall_start"] + budget_s]
    judged = [r for r in results if r.costs.judge_s > 0]
    precompiled = [r for r in judged if r.precompiled is not None]
    reused = [r for r in precompiled if r.precompiled and r.precompiled.kernels and r.precompiled.compiled_on_gpu == 0]
    best = outcome.state.best(outcome.state.hardware_types()[0]) if outcome.state.hardware_types() else None
    best_result = outcome.state.result_of(best[1].id, outcome.state.hardware_types()[0]) if best else None
    return {
        "example": example, "mode": mode, "gpus": gpus, "search_s": search_s, "stopped": outcome.reason,
        "precompile_ahead": evaluation.ahead(), "precompile_threads": evaluation.compile_threads(),
        "evaluations": len(results), "judged": len(judged), "correct": sum(r.ok for r in results),
        "evals_per_min": len(results) / search_s * 60,
        "window_evals_per_min": len(in_window) / budget_s * 60,
        "window_judge_fraction": sum(r.costs.judge_s for r in in_window) / (budget_s * gpus),
        "tail_s": search_s - budget_s,
        "judge_fraction": outcome.loop.busy_fraction(),
        "timing_fraction": sum(r.costs.timing_s for r in judged) / (search_s * gpus),
        "nvml_utilization": sampler.mean(window["start"], window["end"], gpus),
        "precompile_reused": len(reused) / len(precompiled) if precompiled else None,
        "precompile_failed": [r.precompiled.error for r in precompiled if r.precompiled and r.precompiled.error][:3],
        "precompile_not_reused": [r.precompiled.model_dump() for r in precompiled if r not in reused][:5],
        "median_s": {k: median([getattr(r.costs, k) for r in judged]) for k in
                     ("judge_s", "child_start_s", "compile_s", "correctness_s", "timing_s", "precompile_s", "total_s")},
        "best_ms": best_result.kernel.median_ms if best_result and best_result.kernel else None,
        "best_speedup_compile": best_result.speedup_compile if best_result else None,
        "environment": json.loads(best_result.environment.model_dump_json())
        if best_result and best_result.environment else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--example", default="matmul_epilogue")  # its template space does not run dry
    parser.add_argument("--minutes", type=float, default=3.0, help="search time per configuration")
    parser.add_argument("--runs", default="local:1,ray:1",
                        help="MODE:GPUS[:AHEADxTHREADS],... with MODE local or ray; AHEADxTHREADS sets how many "
                             "candidates compile ahead, in how many threads each (default: sized from the cores)")
    parser.add_argument("--warmup", type=float, default=0.0, help="minutes of an unrecorded run first")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    sampler = UtilizationSampler()
    rows: list[dict[str, Any]] = []
    try:
        if args.warmup:  # a fresh host compiles and caches Triton's own helpers in the first run: not measured
            measure(args.example, "ray", 1, args.warmup, sampler, EvalOptions(device="cuda"))
        for run in args.runs.split(","):
            mode, gpus, *compile_ahead = run.split(":")
            evaluation = EvalOptions(device="cuda")
            if compile_ahead:
                ahead, threads = compile_ahead[0].split("x")
                evaluation = EvalOptions(device="cuda", precompile_ahead=int(ahead), precompile_threads=int(threads))
            rows.append(measure(args.example, mode, int(gpus), args.minutes, sampler, evaluation))
            if args.out:  # after each configuration, so a run cut short keeps what it measured
                report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "example": args.example,
                          "minutes": args.minutes, "rows": rows}
                Path(args.out).write_text(json.dumps(report, indent=2))
    finally:
        sampler.stop()
    table = Table(title=f"{args.example}: offline search, {args.minutes:g} min per configuration")
    for col in ("mode", "GPUs", "ahead x threads", "evals", "evals/min", "judge held", "in budget: evals/min",
                "judge held", "NVML util", "timing", "CPU compile reused",
                "median judge s", "median compile ahead s", "median child wait s", "best ms"):
        table.add_column(col, justify="right")
    for r in rows:
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.0%}"

        def num(x: float | None, fmt: str = ".2f") -> str:
            return "-" if x is None else format(x, fmt)

        table.add_row(r["mode"], str(r["gpus"]), f"{r['precompile_ahead']}x{r['precompile_threads']}",
                      str(r["evaluations"]), num(r["evals_per_min"], ".1f"),
                      pct(r["judge_fraction"]), num(r["window_evals_per_min"], ".1f"), pct(r["window_judge_fraction"]),
                      pct(r["nvml_utilization"]), pct(r["timing_fraction"]),
                      pct(r["precompile_reused"]), num(r["median_s"]["judge_s"]), num(r["median_s"]["precompile_s"]),
                      num(r["median_s"]["child_start_s"]),
                      num(r["best_ms"], ".4f"))
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
