"""The offline search (template operator only) on the examples, one time budget each.

Reports per example: the best elite's time, its speedups over eager and torch.compile
(timed the same way in the same worker), its fraction of the roofline, evaluations per
minute, the fraction of wall time the evaluator spent timing candidates and evaluating
them, and the archive's coverage. Exports each run's elites.

    python benchmarks/search_examples.py --minutes 2.5 --out benchmarks/results/search_examples-h200.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.search.config import Budget, RunConfig  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402


def bench(name: str, minutes: float, runs: Path, exports: Path, device: str) -> dict:
    spec = read_spec(str(ROOT / "examples" / name / "spec.py"))
    config = RunConfig(budget=Budget(evaluations=None, minutes=minutes), evaluation=EvalOptions(device=device),
                       ray=False)
    started = time.perf_counter()
    db = open_database(f"sqlite:///{runs / name}.db")
    outcome = asyncio.run(start_search(db, spec, config, out=runs / name, export_to=exports))
    wall = time.perf_counter() - started
    state = outcome.state
    results = [e.result for v in state.evaluations.values() for e in v]
    timing_s = sum(r.costs.timing_s for r in results)
    row: dict = {"example": name, "stopped": outcome.reason, "wall_s": wall, "search_s": outcome.loop.elapsed_s(),
                 "evaluations": state.evaluated_count(), "correct": state.correct_count(),
                 "evals_per_min": state.evaluated_count() / outcome.loop.elapsed_s() * 60,
                 "timing_fraction": timing_s / outcome.loop.elapsed_s(),
                 "evaluating_fraction": outcome.loop.busy_fraction()}
    for hardware in state.hardware_types():
        archive_cells = sum(len(a) for (_, hw), a in state.archives.items() if hw == hardware)
        row["hardware"], row["cells_filled"] = hardware, archive_cells
        row["coverage"] = archive_cells / next(a.cells for (_, hw), a in state.archives.items() if hw == hardware)
        best = state.best(hardware)
        if best is None:
            continue
        candidate = best[1]
        result = state.result_of(candidate.id, hardware)
        assert result is not None
        seeds = [state.result_of(c.id, hardware) for c in state.candidates.values() if c.operator == "seed"]
        best_seed = min((r.kernel.median_ms for r in seeds if r and r.ok and r.kernel), default=None)
        row.update({
            "best_candidate": candidate.id, "best_lineage": candidate.note, "best_ms": result.kernel.median_ms,
            "best_iqr_ms": result.kernel.iqr_ms, "eager_ms": result.eager.median_ms if result.eager else None,
            "compile_ms": result.compiled.median_ms if result.compiled else None,
            "speedup_eager": result.speedup_eager, "speedup_compile": result.speedup_compile,
            "roofline_fraction": result.roofline.fraction if result.roofline else None,
            "floor_ms": result.roofline.floor_ms if result.roofline else None,
            "bandwidth_gbs": result.roofline.bandwidth_gbs if result.roofline else None,
            "best_seed_ms": best_seed, "environment": json.loads(result.environment.model_dump_json())
            if result.environment else None,
        })
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", default="gelu,softmax,rmsnorm")
    parser.add_argument("--minutes", type=float, default=2.5, help="search time per example")
    parser.add_argument("--runs", default="/tmp/kernelevo-bench-runs")
    parser.add_argument("--exports", default=str(ROOT / "archives"))
    parser.add_argument("--device", default="auto")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    console = Console(width=180)
    rows = []
    for name in args.examples.split(","):
        rows.append(bench(name, args.minutes, Path(args.runs) / str(time.time_ns()), Path(args.exports), args.device))
        if args.out:  # written after each example, so a run cut short keeps what it measured
            report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      "minutes_per_example": args.minutes, "examples": rows}
            Path(args.out).write_text(json.dumps(report, indent=2))
    table = Table(title=f"offline search, {args.minutes:g} min per example (template operator only)")
    for col in ("example", "evals", "evals/min", "timing %", "busy %", "cells", "best ms", "eager ms", "compile ms",
                "x eager", "x compile", "roofline", "best seed ms"):
        table.add_column(col, justify="right")
    for r in rows:
        def f(key: str, fmt: str, r: dict = r) -> str:
            return "-" if r.get(key) is None else format(r[key], fmt)

        table.add_row(r["example"], str(r["evaluations"]), f("evals_per_min", ".1f"), f("timing_fraction", ".0%"),
                      f("evaluating_fraction", ".0%"), str(r.get("cells_filled", 0)), f("best_ms", ".4f"),
                      f("eager_ms", ".4f"), f("compile_ms", ".4f"), f("speedup_eager", ".2f"),
                      f("speedup_compile", ".2f"), f("roofline_fraction", ".0%"), f("best_seed_ms", ".4f"))
    console.print(table)


if __name__ == "__main__":
    main()
