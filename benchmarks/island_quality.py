"""Issue 38: is a search with island actors as good as one without, evaluation for evaluation?

Runs the no-seed, no-LLM search (template operator, seeds from torch.compile) of each spec once with one island
and once with N islands (``--counts 1,N``), the same budget of evaluations each, evaluators on Ray in both (one
judge a GPU), one run after the other on the GPUs this process sees. Per run: the best kernel's time and its
speedup over torch.compile (both timed by the same judge), the best time so far after every tenth of the budget, the
evaluations, how many were correct, the migrations, seeding and search seconds. Noise: each best's IQR, and
torch.compile's time as each run's judge measured it (the same kernel, timed in two runs).

    python benchmarks/island_quality.py --specs cumsum_reverse,kl_div_loss --counts 1,4 --evaluations 100 \
        --out benchmarks/results/island_quality-h200.json
    python benchmarks/island_quality.py --device cpu --seed-from spec --specs examples/gelu/spec.py --counts 1,2 \
        --evaluations 10 --out /tmp/iq.json   # the interpreter: a check that the script runs, not a GPU figure
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search_examples import best_so_far  # noqa: E402

from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.recorder import load_run  # noqa: E402


def best_at(curve: list[list[float]], count: int) -> float | None:
    """The best time after ``count`` evaluations, from a best-so-far curve."""
    found = [ms for at, ms in curve if at <= count]
    return found[-1] if found else None


def search(spec_path: Path, islands: int, evaluations: int, minutes: float, evaluation: EvalOptions,
           seed_from: str) -> dict[str, Any]:
    spec = read_spec(str(spec_path))
    config = RunConfig(budget=Budget(evaluations=evaluations, minutes=minutes), ray=True, islands=islands,
                       seed_from=seed_from, evaluation=evaluation)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        db = open_database(f"sqlite:///{out}/kernelevo.db")
        outcome = asyncio.run(start_search(db, spec, config, out=out))
        stored = load_run(db, outcome.run_id)  # what the store kept: every evaluation once, the migrations
    import ray

    ray.shutdown()  # the next run starts its own local Ray
    state = outcome.state
    row: dict[str, Any] = {"spec": spec.name, "islands": islands, "stopped": outcome.reason,
                           "wall_s": time.perf_counter() - started, "search_s": outcome.loop.elapsed_s(),
                           "seeding_s": outcome.loop.seeding_s, "evaluations": state.evaluated_count(),
                           "correct": state.correct_count(), "stored_evaluations": len(stored.evaluations),
                           "stored_candidates_evaluated": len({e.candidate_id for e, _ in stored.evaluations}),
                           "migrations": len(stored.migrations)}
    hardware = state.hardware_types()
    if not hardware:
        return row
    evaluated = [e for v in state.evaluations.values() for e in v if e.hardware == hardware[0]]
    curve = best_so_far(evaluated)
    best = state.best(hardware[0])
    result = state.result_of(best[1].id, hardware[0]) if best else None
    row.update({
        "hardware": hardware[0], "curve": curve,
        "best_at": {str(n): best_at(curve, n) for n in range(evaluations // 10, evaluations + 1, evaluations // 10)},
        "best_ms": result.kernel.median_ms if result and result.kernel else None,
        "best_iqr_ms": result.kernel.iqr_ms if result and result.kernel else None,
        "compile_ms": result.compiled.median_ms if result and result.compiled else None,
        "speedup_compile": result.speedup_compile if result else None,
        "best_lineage": best[1].note if best else None,
        "environment": json.loads(result.environment.model_dump_json()) if result and result.environment else None,
    })
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--specs", required=True, help="names under benchmarks/suite/ or spec paths, comma-separated")
    parser.add_argument("--seed-from", default="compile", choices=["auto", "compile", "spec"])
    parser.add_argument("--counts", default="1,4", help="island counts, comma-separated: a run of each per spec")
    parser.add_argument("--evaluations", type=int, default=100, help="each run's budget of evaluations")
    parser.add_argument("--minutes", type=float, default=4.0, help="each run's time budget, a guard")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    evaluation = EvalOptions(device=args.device)
    report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                              "evaluations": args.evaluations, "runs": []}
    for name in args.specs.split(","):
        for islands in (int(n) for n in args.counts.split(",")):
            path = Path(name) if name.endswith(".py") else ROOT / "benchmarks" / "suite" / f"{name}.py"
            row = search(path, islands, args.evaluations, args.minutes, evaluation, args.seed_from)
            report["runs"].append(row)
            Path(args.out).write_text(json.dumps(report, indent=1))  # after each run: a cut command keeps the rest
            print(f"{name:18} islands {islands}: {row['evaluations']} evaluations ({row['correct']} correct), "
                  f"best {row.get('best_ms')} ms, x compile {row.get('speedup_compile')}, "
                  f"best at {row.get('best_at')}, search {row['search_s']:.0f} s, seeding {row['seeding_s']}",
                  flush=True)


if __name__ == "__main__":
    main()
