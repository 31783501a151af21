"""The offline search (template operator only) on the examples or on any specs, one time budget each.

Reports per spec: the best elite's time, its speedups over eager and torch.compile (timed the
same way in the same worker), its fraction of the roofline, evaluations per minute, the fraction
of wall time the evaluator spent timing candidates and evaluating them, the archive's cells and
QD-score, and each seed's speedup over torch.compile. Exports each run's elites.

    python benchmarks/search_examples.py --minutes 2.5 --out benchmarks/results/search_examples-h200.json
    # the no-seed suite, seeded from torch.compile's own Triton (needs a GPU):
    python benchmarks/search_examples.py --specs 'benchmarks/suite/*.py' --seed-from compile --minutes 3 \
        --out benchmarks/results/suite_search-h200.json
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import datetime as dt
import json
import logging
import math
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions, EvalResult  # noqa: E402
from kernelevo.records.candidate import Evaluated  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.search.state import SearchState  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.variation.moves.autotune_launch import BENCH as AUTOTUNE_BENCH  # noqa: E402


def bench(path: Path, minutes: float, runs: Path, exports: Path, evaluation: EvalOptions, seed_from: str) -> dict:
    spec = read_spec(str(path))
    name = spec.name
    config = RunConfig(budget=Budget(evaluations=None, minutes=minutes), evaluation=evaluation,
                       ray=False, seed_from=seed_from)
    started = time.perf_counter()
    db = open_database(f"sqlite:///{runs / name}.db")
    outcome = asyncio.run(start_search(db, spec, config, out=runs / name, export_to=exports))
    wall = time.perf_counter() - started
    state = outcome.state
    results = [e.result for v in state.evaluations.values() for e in v]
    rejected = collections.Counter(r.error.value for r in results if not r.ok and r.error)
    timing_s = sum(r.costs.timing_s for r in results)
    row: dict = {"example": name, "spec": str(path.resolve().relative_to(ROOT)), "stopped": outcome.reason,
                 "wall_s": wall, "search_s": outcome.loop.elapsed_s(),
                 # making the seeds (torch.compile's captures, side by side), within search_s
                 "seeding_s": outcome.loop.seeding_s,
                 "evaluations": state.evaluated_count(), "correct": state.correct_count(),
                 "evals_per_min": state.evaluated_count() / outcome.loop.elapsed_s() * 60,
                 "timing_fraction": timing_s / outcome.loop.elapsed_s(),
                 "evaluating_fraction": outcome.loop.busy_fraction(), "rejected": dict(rejected.most_common()),
                 # the search past its time budget (its last evaluations draining), and the slowest evaluations:
                 # sum_dim1's 3-minute search on an H100 ran 289 s, and nothing recorded why
                 "past_budget_s": outcome.loop.elapsed_s() - minutes * 60 if "time budget" in outcome.reason else None,
                 "slowest": slowest(state, 3)}
    for hardware in state.hardware_types():
        archive_cells = sum(len(a) for (_, hw), a in state.archives.items() if hw == hardware)
        row["hardware"], row["cells_filled"] = hardware, archive_cells
        row["coverage"] = archive_cells / next(a.cells for (_, hw), a in state.archives.items() if hw == hardware)
        row["qd_score"] = sum(a.qd_score for (_, hw), a in state.archives.items() if hw == hardware)
        seeds = [c for c in state.candidates.values() if c.operator == "seed"]
        row["seeds"] = {c.note.removeprefix("seed "): _verdict(state.result_of(c.id, hardware)) for c in seeds}
        here = [e for v in state.evaluations.values() for e in v if e.hardware == hardware]
        row["curve"] = best_so_far(here)
        row.update(steady_state(here))
        row["judge_by_change"] = judge_by(here, {c.id: change_kind(c.note) for c in state.candidates.values()})
        # an autotuned kernel's children are autotuned too, whatever their own change: by what they are
        row["judge_by_autotuning"] = judge_by(here, {
            c.id: "autotuned by the move" if AUTOTUNE_BENCH in c.source else "not" for c in state.candidates.values()})
        best = state.best(hardware)
        if best is None:
            continue
        candidate = best[1]
        result = state.result_of(candidate.id, hardware)
        assert result is not None
        seeded = [state.result_of(c.id, hardware) for c in seeds]
        best_seed = min((r.kernel.median_ms for r in seeded if r and r.ok and r.kernel), default=None)
        row.update({
            "best_candidate": candidate.id, "best_lineage": candidate.note, "best_ms": result.kernel.median_ms,
            "best_iqr_ms": result.kernel.iqr_ms, "eager_ms": result.eager.median_ms if result.eager else None,
            "compile_ms": result.compiled.median_ms if result.compiled else None,
            "speedup_eager": result.speedup_eager, "speedup_compile": result.speedup_compile,
            "roofline_fraction": result.roofline.fraction if result.roofline else None,
            "floor_ms": result.roofline.floor_ms if result.roofline else None,
            "bandwidth_gbs": result.roofline.bandwidth_gbs if result.roofline else None,
            "read_bandwidth_gbs": result.roofline.read_bandwidth_gbs if result.roofline else None,
            "floor": result.roofline.floor if result.roofline else None,  # read, copy or compute
            "best_seed_ms": best_seed, "environment": json.loads(result.environment.model_dump_json())
            if result.environment else None,
            "library": result.library.summary() if result.library else None,
            "library_share": result.library.gpu_share if result.library else None,
        })
    return row


# what made a candidate, read from its note (the structural moves' labels, the template's parameter changes)
CHANGE_KINDS = (("seed ", "seed"), ("autotuned over", "autotuning"), ("grid-stride", "grid-stride loop"),
                ("warp-specialized", "warp specialization"), ("pipelined over", "pipelining"),
                ("eviction hints", "eviction hints"), ("fused into", "epilogue fusion"), ("crossover", "crossover"))


def change_kind(note: str) -> str:
    return next((kind for text, kind in CHANGE_KINDS if text in note), "parameters")


def judge_by(evaluated: list[Evaluated], group_of: dict[int, str]) -> dict[str, dict]:
    """Per group of candidates: how many, how many correct, and the medians of the judge's hold on the
    device and of the timing loop, in seconds (where a search's evaluations go)."""
    groups: dict[str, list[Evaluated]] = {}
    for e in evaluated:
        groups.setdefault(group_of.get(e.candidate_id, "?"), []).append(e)
    return {name: {"candidates": len(group), "correct": sum(e.result.ok for e in group),
                   "judge_s_median": statistics.median(e.result.costs.judge_s for e in group),
                   "timing_s_median": statistics.median(e.result.costs.timing_s for e in group)}
            for name, group in sorted(groups.items())}


def steady_state(evaluated: list[Evaluated]) -> dict:
    """Evaluations a minute, and the share of the time the judge held the GPU, from the first result to the last.

    The whole search's rate (``evals_per_min``) counts the judge's start and its baselines, which
    the first evaluation waits for (a ``torch.compile`` of the reference: tens of seconds), and a
    run seeded from ``torch.compile`` also counts the capture of its seeds. This window leaves both
    out; it ends with the candidates in flight when the budget ran out.
    """
    done = sorted(evaluated, key=lambda e: e.finished_at)
    if len(done) < 2:
        return {}
    window = done[-1].finished_at - done[0].finished_at  # time.time() of each result
    after = done[1:]
    return {"steady_evals_per_min": len(after) / window * 60, "steady_window_s": window,
            "steady_judge_busy": sum(e.result.costs.judge_s for e in after) / window}


def steady_from_database(path: str) -> list[dict]:
    """:func:`steady_state` of each run a search's SQLite database holds (a run measured before it was recorded)."""
    from sqlalchemy import select

    from kernelevo.storage.recorder import load_run
    from kernelevo.storage.tables import RunRow

    db = open_database(f"sqlite:///{path}")
    with db.session() as session:
        runs = list(session.scalars(select(RunRow.id)))
    return [{"database": path, "run": run, **steady_state([e for e, _ in load_run(db, run).evaluations])}
            for run in runs]


def rows_from_database(path: str) -> list[dict]:
    """A report's rows rebuilt from a search's SQLite database (a report the device tool did not bring back): what
    the suite table reads (evaluations, the best correct kernel and its baselines, the cells, the seeds' verdicts,
    the seeding time from the last progress snapshot), marked ``rebuilt_from``."""
    from sqlalchemy import select

    from kernelevo.storage.recorder import load_run
    from kernelevo.storage.tables import EliteRow, EventRow, RunRow, SpecRow

    db = open_database(f"sqlite:///{path}")
    rows = []
    with db.session() as session:
        for run, spec in session.execute(select(RunRow, SpecRow).join(SpecRow)).tuples().all():
            stored = load_run(db, run.id)
            results = [e.result for e, _ in stored.evaluations]
            correct = [r for r in results if r.ok and r.kernel]
            progress = session.scalars(select(EventRow.data).where(EventRow.run_id == run.id,
                                                                       EventRow.kind == "progress")
                                       .order_by(EventRow.id.desc()).limit(1)).first() or {}
            cells = len(session.scalars(select(EliteRow.cell).where(EliteRow.run_id == run.id)).all())
            seeds = {c.id: c.note.removeprefix("seed ") for c in stored.candidates if c.operator == "seed"}
            row: dict = {"example": spec.name, "rebuilt_from": Path(path).name, "stopped": run.stop_reason,
                         "hardware": run.hardware, "evaluations": len(results), "correct": len(correct),
                         "seeding_s": progress.get("seeding_s"), "search_s": progress.get("elapsed_s"),
                         "cells_filled": cells, "rejected": dict(collections.Counter(
                             r.error.value for r in results if not r.ok and r.error).most_common()),
                         "seeds": {seeds[e.candidate_id]: _verdict(e.result) for e, _ in stored.evaluations
                                   if e.candidate_id in seeds}}
            row.update(steady_state([e for e, _ in stored.evaluations]))
            if correct:
                best = min(correct, key=lambda r: r.kernel.median_ms)
                row.update({"best_ms": best.kernel.median_ms, "best_iqr_ms": best.kernel.iqr_ms,
                            "eager_ms": best.eager.median_ms if best.eager else None,
                            "compile_ms": best.compiled.median_ms if best.compiled else None,
                            "speedup_eager": best.speedup_eager, "speedup_compile": best.speedup_compile,
                            "roofline_fraction": best.roofline.fraction if best.roofline else None,
                            "library": best.library.summary() if best.library else None})
            rows.append(row)
    return rows


def slowest(state: SearchState, n: int) -> list[dict]:
    """The ``n`` evaluations that took longest from hand-over to result, with where their time went."""
    told = sorted((e for v in state.evaluations.values() for e in v), key=lambda e: e.result.costs.total_s)[-n:]
    return [{"candidate": e.candidate_id, "note": state.candidates[e.candidate_id].note, "correct": e.correct,
             "error": str(e.result.error) if e.result.error else None,
             "costs": e.result.costs.model_dump(exclude={"judge_parts", "judge_start_parts"})} for e in reversed(told)]


def best_so_far(evaluated: list[Evaluated]) -> list[list[float]]:
    """[evaluations so far, best median ms so far] at each improvement, in the order the results came
    (benchmarks/template_sweep.py compares it with an exhaustive sweep)."""
    curve: list[list[float]] = []
    for i, e in enumerate(sorted(evaluated, key=lambda e: e.finished_at), 1):
        ms = e.result.kernel.median_ms if e.result.ok and e.result.kernel else None
        if ms is not None and (not curve or ms < curve[-1][1]):
            curve.append([i, ms])
    return curve


def _verdict(result: EvalResult | None) -> dict | None:
    if result is None:
        return None
    return {"correct": result.correct, "error": str(result.error) if result.error else None,
            "ms": result.kernel.median_ms if result.kernel else None, "speedup_compile": result.speedup_compile}


def print_table(rows: list[dict], minutes: float) -> None:
    """The run's table, one row per spec searched."""
    table = Table(title=f"offline search, {minutes:g} min per spec (template operator only)")
    for col in ("example", "evals", "evals/min", "steady /min", "steady busy %", "timing %", "busy %", "cells", "QD",
                "best ms", "eager ms", "compile ms", "x eager", "x compile", "roofline", "best seed ms", "seeding s",
                "library"):
        table.add_column(col, justify="right")
    for r in rows:
        def f(key: str, fmt: str, r: dict = r) -> str:
            return "-" if r.get(key) is None else format(r[key], fmt)

        table.add_row(r["example"], str(r["evaluations"]), f("evals_per_min", ".1f"), f("steady_evals_per_min", ".1f"),
                      f("steady_judge_busy", ".0%"), f("timing_fraction", ".0%"),
                      f("evaluating_fraction", ".0%"), str(r.get("cells_filled", 0)), f("qd_score", ".1f"),
                      f("best_ms", ".4f"),
                      f("eager_ms", ".4f"), f("compile_ms", ".4f"), f("speedup_eager", ".2f"),
                      f("speedup_compile", ".2f"), f("roofline_fraction", ".0%"), f("best_seed_ms", ".4f"),
                      f("seeding_s", ".0f"), f("library_share", ".0%"))
    Console(width=180).print(table)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", default="gelu,softmax,rmsnorm", help="names under examples/")
    parser.add_argument("--specs", default=None, help="spec files (globs, comma-separated) in place of --examples")
    parser.add_argument("--seed-from", default="auto", choices=["auto", "compile", "spec"])
    parser.add_argument("--minutes", type=float, default=2.5, help="search time per example")
    parser.add_argument("--runs", default="/tmp/kernelevo-bench-runs")
    parser.add_argument("--exports", default=str(ROOT / "archives"))
    parser.add_argument("--device", default="auto")
    parser.add_argument("--eval", default="{}", help="EvalOptions overrides, as JSON")
    parser.add_argument("--out", default=None)
    parser.add_argument("--steady-from", nargs="+", metavar="DB",
                        help="only print the steady state of the runs in these databases (--runs of an earlier run)")
    parser.add_argument("--report-from", nargs="+", metavar="DB",
                        help="rebuild a report (--out) from the databases of searches whose report was lost")
    parser.add_argument("--date", help="with --report-from: the searches' date, as the lost report had it")
    parser.add_argument("--table-from", metavar="REPORT",
                        help="only print the table of an earlier --out report (a run cut short prints none)")
    args = parser.parse_args()
    if args.steady_from:
        report = [row for path in args.steady_from for row in steady_from_database(path)]
        print(json.dumps(report, indent=2))
        if args.out:
            Path(args.out).write_text(json.dumps(report, indent=2))
        return
    if args.report_from:
        rows = [row for path in args.report_from for row in rows_from_database(path)]
        speedups = [r["speedup_compile"] for r in rows if r.get("speedup_compile")]
        report = {"date": args.date, "minutes_per_example": args.minutes, "seed_from": args.seed_from,
                  "geomean_speedup_compile": math.prod(speedups) ** (1 / len(speedups)) if speedups else None,
                  "examples": rows}
        if args.out:
            Path(args.out).write_text(json.dumps(report, indent=2))
        print_table(rows, args.minutes)
        return
    if args.table_from:
        report = json.loads(Path(args.table_from).read_text())
        print_table(report["examples"], report["minutes_per_example"])
        return
    evaluation = EvalOptions(device=args.device, **json.loads(args.eval))
    logging.basicConfig(level=logging.WARNING)
    rows = []
    paths = [p for pattern in args.specs.split(",") for p in sorted(Path().glob(pattern))] if args.specs else \
        [ROOT / "examples" / name / "spec.py" for name in args.examples.split(",")]
    for path in paths:
        rows.append(bench(path, args.minutes, Path(args.runs) / str(time.time_ns()), Path(args.exports), evaluation,
                          args.seed_from))
        if args.out:  # written after each spec, so a run cut short keeps what it measured
            speedups = [r["speedup_compile"] for r in rows if r.get("speedup_compile")]
            report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      "minutes_per_example": args.minutes, "seed_from": args.seed_from,
                      "evaluation": json.loads(args.eval),
                      "geomean_speedup_compile": math.prod(speedups) ** (1 / len(speedups)) if speedups else None,
                      "examples": rows}
            Path(args.out).write_text(json.dumps(report, indent=2))
    print_table(rows, args.minutes)


if __name__ == "__main__":
    main()
