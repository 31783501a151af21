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
    python benchmarks/ray_gpu.py --runs ray:1,ray:all --minutes 0.75 --tail-limit 15   # 1 GPU, then every GPU

``ray:all`` is every GPU torch sees; a count above that is refused (a local Ray would give the
extra actors GPU ids that do not exist). ``--tail-limit S`` ends a configuration S seconds after
its budget: the evaluations still under way are stopped (counted in ``stopped_in_flight``,
left out of every other figure), so one slow compile cannot hold a short command for
minutes. ``--device cpu`` judges in Triton's interpreter (logical GPUs: a check that the
script runs, not a GPU figure).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import shutil
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

from kernelevo.distributed.pool import stopped_result  # noqa: E402
from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.result import ErrorKind, EvalResult  # noqa: E402
from kernelevo.records.run import StopReason  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.search.scheduler import Scheduler  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402


class UtilizationSampler:
    """``nvidia-smi -lms 250`` in the background: (monotonic time, gpu index, utilization %)."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, int, float]] = []
        self._proc: subprocess.Popen[str] | None = None
        if shutil.which("nvidia-smi") is None:  # no GPU here (--device cpu): no utilization to report
            return
        self._proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=index,utilization.gpu", "--format=csv,noheader,nounits", "-lms", "250"],
            stdout=subprocess.PIPE, text=True)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                self.samples.append((time.monotonic(), int(parts[0]), float(parts[1])))

    def mean(self, start: float, end: float, gpus: int) -> float | None:
        values = [u for t, i, u in self.samples if start <= t <= end and i < gpus]
        return statistics.fmean(values) / 100 if values else None

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def visible_gpus(device: str) -> list[str]:
    """The names of the GPUs torch sees (none with --device cpu)."""
    if device == "cpu":
        return []
    import torch

    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]


def gpu_count(text: str, device: str, names: list[str]) -> int:
    """A configuration's GPU count: a number, or ``all`` (every GPU torch sees; on the CPU, one logical GPU)."""
    if text == "all":
        return len(names) or 1
    count = int(text)
    if device != "cpu" and count > len(names):
        raise SystemExit(f"{count} GPUs asked for, but torch sees {len(names)} here")
    return count


def stopped_in_flight(result: EvalResult) -> bool:
    """An evaluation under way that --tail-limit stopped (never judged)."""
    return result.error == ErrorKind.EVALUATOR_ERROR and result.message == stopped_result().message


def cut_tail(loop: Scheduler) -> None:
    """Stop the evaluations under way now, and judge no seed still waiting (the loop judges the seeds a budget
    stopped it before, on actors this kills: it would wait for them for ever)."""
    loop.stop("the benchmark's tail limit", StopReason.BUDGET_TIME)
    loop.by_budget = False
    loop.pool.abort()


def measure(example: str, mode: str, gpus: int, minutes: float, sampler: UtilizationSampler,
            evaluation: EvalOptions, tail_limit_s: float | None = None) -> dict[str, Any]:
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    config = RunConfig(budget=Budget(evaluations=None, minutes=minutes), workers=gpus, ray=mode == "ray",
                       evaluation=evaluation)
    window: dict[str, float] = {}

    def on_start(loop: Scheduler) -> None:
        window["start"], window["wall_start"] = loop.started, time.time()
        if tail_limit_s is not None:  # the evaluations still under way that long after the budget are stopped
            asyncio.get_running_loop().call_later(minutes * 60 + tail_limit_s, cut_tail, loop)

    with tempfile.TemporaryDirectory() as out:
        db = open_database(f"sqlite:///{out}/kernelevo.db")
        outcome = asyncio.run(start_search(db, spec, config, out=out, on_start=on_start))
    window["end"] = outcome.loop.finished or time.monotonic()
    if mode == "ray":  # the next configuration starts its own local Ray, with its own GPU count
        import ray

        ray.shutdown()
    search_s = outcome.loop.elapsed_s()
    every = [e for v in outcome.state.evaluations.values() for e in v]
    evaluated = [e for e in every if not stopped_in_flight(e.result)]
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
        "example": example, "mode": mode, "gpus": gpus, "device": evaluation.device, "search_s": search_s,
        "stopped": outcome.reason, "tail_limit_s": tail_limit_s, "stopped_in_flight": len(every) - len(evaluated),
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
                        help="MODE:GPUS[:AHEADxTHREADS],... with MODE local or ray and GPUS a number or all; "
                             "AHEADxTHREADS sets how many candidates compile ahead, in how many threads each "
                             "(default: sized from the cores)")
    parser.add_argument("--warmup", type=float, default=0.0, help="minutes of an unrecorded run first")
    parser.add_argument("--tail-limit", type=float, default=None, metavar="SECONDS",
                        help="stop the evaluations still under way this long after each budget (default: wait)")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                        help="cpu: Triton's interpreter on logical GPUs (checks the script, measures no GPU)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    names = visible_gpus(args.device)
    configurations = []
    for run in args.runs.split(","):  # all read before any runs: a wrong one fails at once
        mode, gpus, *compile_ahead = run.split(":")
        evaluation = EvalOptions(device=args.device)
        if compile_ahead:
            ahead, threads = compile_ahead[0].split("x")
            evaluation = EvalOptions(device=args.device, precompile_ahead=int(ahead), precompile_threads=int(threads))
        configurations.append((mode, gpu_count(gpus, args.device, names), evaluation))
    sampler = UtilizationSampler()
    rows: list[dict[str, Any]] = []
    try:
        if args.warmup:  # a fresh host compiles and caches Triton's own helpers in the first run: not measured
            measure(args.example, "ray", 1, args.warmup, sampler, EvalOptions(device=args.device), args.tail_limit)
        for mode, gpus, evaluation in configurations:
            rows.append(measure(args.example, mode, gpus, args.minutes, sampler, evaluation, args.tail_limit))
            if args.out:  # after each configuration, so a run cut short keeps what it measured
                report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "example": args.example,
                          "minutes": args.minutes, "device": args.device, "gpu_names": names,
                          "hardware": ", ".join(names) or "cpu interpreter (logical GPUs): NOT a GPU figure",
                          "rows": rows}
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
