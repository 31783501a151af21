"""Wall time of ``kernelevo eval`` on one kernel, cold and warm, and where it goes.

For each example: ``kernelevo eval SPEC SEED --json`` run as a new process, as a user runs
it, first with an empty kernelevo cache (no cached baselines, no built Triton helpers:
the judge times eager and ``torch.compile``), then twice more with that cache. The
wall time is the whole command; the split comes from the result's costs: process start
and imports, the judge's start (by step), baselines, waiting for a candidate child, and
the candidate's compile, correctness and timing.

Then the same command with ``--keep-warm``: the first starts the warm evaluator (a judge that
outlives the command), the next ones judge on it.

Targets (one GPU): a second eval at most 6 s; the first at most 15 s plus
``torch.compile``'s compile of the reference.

    python benchmarks/eval_cold_warm.py --out benchmarks/results/eval_cold_warm-h100.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [("gelu", "seed.py"), ("softmax", "seed_online.py")]


def run_eval(example: str, seed: str, cache: str, *, keep_warm: bool = False) -> dict[str, Any]:
    env = {**os.environ, "KERNELEVO_CACHE_DIR": cache, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "kernelevo.cli", "eval", str(ROOT / "examples" / example / "spec.py"),
               str(ROOT / "examples" / example / seed), "--json"] + (["--keep-warm", "1"] if keep_warm else [])
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        return {"example": example, "wall_s": wall, "error": done.stderr[-2000:] + done.stdout[-2000:]}
    result = json.loads(done.stdout)
    c = result["costs"]
    accounted = c["judge_start_s"] + c["baselines_s"] + c["total_s"]
    return {"example": example, "wall_s": wall, "ok": result["correct"], "baselines_cached": result["baselines_cached"],
            "cli_and_imports_s": wall - accounted, "judge_start_s": c["judge_start_s"],
            "judge_start_parts": c["judge_start_parts"], "baselines_s": c["baselines_s"],
            "child_start_s": c["child_start_s"], "compile_s": c["compile_s"], "correctness_s": c["correctness_s"],
            "timing_s": c["timing_s"], "candidate_total_s": c["total_s"],
            "kernel_ms": (result.get("kernel") or {}).get("median_ms")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    parser.add_argument("--warm-runs", type=int, default=2)
    args = parser.parse_args()
    console = Console()
    rows = []
    for example, seed in EXAMPLES:
        with tempfile.TemporaryDirectory(prefix="kernelevo-cache-") as cache:
            # cold, then warm (a new judge, cached baselines), then --keep-warm: the first of those starts
            # the warm evaluator, the others judge on its started judge
            runs = [("cold", False)] + [(f"warm{i + 1}", False) for i in range(args.warm_runs)]
            runs += [(f"keep-warm{i + 1}", True) for i in range(1 + args.warm_runs)]
            for name, keep_warm in runs:
                row = {"run": name, **run_eval(example, seed, cache, keep_warm=keep_warm)}
                rows.append(row)
                console.print(f"{example} {row['run']}: {row['wall_s']:.2f} s"
                              + (f"  ERROR {row['error'][-300:]}" if "error" in row else ""))
    table = Table(title="kernelevo eval, one kernel (s)")
    for column in ("example", "run", "wall", "CLI+imports", "judge start", "baselines", "child start", "compile",
                   "correctness", "timing"):
        table.add_column(column, justify="right")
    for r in rows:
        if "error" in r:
            table.add_row(r["example"], r["run"], f"{r['wall_s']:.2f}", "error")
            continue
        table.add_row(r["example"], r["run"], f"{r['wall_s']:.2f}", f"{r['cli_and_imports_s']:.2f}",
                      f"{r['judge_start_s']:.2f}", "cached" if r["baselines_cached"] else f"{r['baselines_s']:.2f}",
                      f"{r['child_start_s']:.2f}", f"{r['compile_s']:.2f}", f"{r['correctness_s']:.2f}",
                      f"{r['timing_s']:.2f}")
    console.print(table)
    if args.out:
        import torch

        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                  "device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
                  "cpus": os.cpu_count(), "torch": torch.__version__,
                  "targets": {"warm_wall_s": 6.0, "cold_wall_s": "15 + torch.compile's compile"}, "rows": rows}
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
