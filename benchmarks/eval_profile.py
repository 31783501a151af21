"""Where one candidate's wall time goes: a fixed list of candidates judged by one evaluator.

For each example, the seeds and ``--candidates`` template mutants of its last seed (made with
a fixed random seed, so two runs judge the same work) go through the in-process pool as the
search sends them (as many in flight as the pool takes). Reported per example: evaluations a
minute from the first submission to the last result (the judge's start and baselines are
before the clock), the share of that wall time the judge held the GPU, and the median of each
stage of a judge (waiting for a child, loading and compiling in it, correctness, metadata,
timing) and of compiling ahead on the CPU. Every verdict is kept, so two methods
(``--eval`` overrides the evaluator's options) can be compared candidate by candidate with
``--compare OTHER.json``.

    python benchmarks/eval_profile.py --examples gelu,softmax --candidates 12 --out profile.json

Run it under ``py-spy record --subprocesses --idle --format raw`` for the sampled stacks of
the judge, its children and the precompilers as well.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mutants import mutants  # noqa: E402

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.archive.elites import ElitesArchive  # noqa: E402
from kernelevo.driver import make_pool  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.records.result import EvalResult  # noqa: E402
from kernelevo.records.run_config import RunConfig  # noqa: E402
from kernelevo.search.state import objective_of  # noqa: E402
from kernelevo.spec import Spec, read_spec  # noqa: E402

STAGES = ("child_start_s", "compile_s", "correctness_s", "timing_s", "total_s", "judge_s", "precompile_s")


def verdict(result: EvalResult) -> dict[str, Any]:
    """What a method change must not move: accept or reject (and why), and the speed.

    (``getattr`` for ``raced``: the script also runs against code from before racing.)"""
    return {"ok": result.ok, "error": result.error.value if result.error else None,
            "kernel_ms": result.kernel.median_ms if result.kernel else None,
            "iqr_ms": result.kernel.iqr_ms if result.kernel else None,
            "repetitions": result.kernel.repetitions if result.kernel else None,
            "speedup_compile": result.speedup_compile, "measures": result.measures,
            "raced": bool(result.kernel and getattr(result.kernel, "raced", False)),
            "costs": {k: getattr(result.costs, k) for k in STAGES},
            "judge_parts": dict(getattr(result.costs, "judge_parts", {}))}


async def judge_all(spec: Spec, sources: list[str], options: EvalOptions, workers: int, ray: bool,
                    race: bool) -> dict[str, Any]:
    config = RunConfig(workers=workers, ray=ray, evaluation=options)
    pool = make_pool(spec, config)
    # with --race, each candidate is sent the elites of an archive filled as the results come, as in a search
    archive = ElitesArchive(descriptor_set(config.descriptors))
    start = time.perf_counter()
    await pool.start()
    started_s = time.perf_counter() - start
    try:
        in_flight = asyncio.Semaphore(pool.capacity)

        async def one(i: int, source: str) -> EvalResult:
            async with in_flight:
                races = {hardware: archive.race() for hardware in ("unknown", *hardwares)} if race else None
                [(hardware, result)] = await pool.evaluate(Candidate(id=i, source=source, operator="template"),
                                                           *([races] if race else []))
                hardwares.add(hardware)
                objective = objective_of(result)
                if objective is not None and result.measures is not None and result.kernel is not None:
                    measures = tuple(result.measures[d.name] for d in archive.descriptors)
                    archive.add(i, objective, measures, result.kernel.relative_iqr)
                return result

        hardwares: set[str] = set()

        start = time.perf_counter()
        results = await asyncio.gather(*(one(i, s) for i, s in enumerate(sources)))
        wall_s = time.perf_counter() - start
    finally:
        await pool.close()
        if ray:
            import ray as ray_module

            ray_module.shutdown()
    judged = [r for r in results if r.costs.judge_s > 0]
    medians = {k: statistics.median(getattr(r.costs, k) for r in judged) if judged else None for k in STAGES}
    # the judge's steps (where this code records them), over the candidates that reached timing
    timed = [r.costs.judge_parts for r in judged if "timing" in getattr(r.costs, "judge_parts", {})]
    steps = sorted({k for parts in timed for k in parts})
    part_medians = {k: round(statistics.median(p.get(k, 0.0) for p in timed), 4) for k in steps}
    return {"capacity": pool.capacity, "start_s": started_s, "candidates": len(sources), "wall_s": wall_s,
            "evals_per_min": len(sources) / wall_s * 60,
            "judge_held": sum(r.costs.judge_s for r in results) / (wall_s * workers),
            "correct": sum(r.ok for r in results),
            "raced": sum(bool(r.kernel and getattr(r.kernel, "raced", False)) for r in results),
            "median": medians, "judge_parts_median": part_medians, "cells": len(archive),
            "verdicts": [verdict(r) for r in results]}


def compare(mine: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """The same work judged twice: verdicts that differ, and how the medians compare (mine / other)."""
    differences, full, raced = [], [], []
    for example, row in mine["examples"].items():
        theirs = other["examples"].get(example)
        if theirs is None:
            continue
        for i, (a, b) in enumerate(zip(row["verdicts"], theirs["verdicts"], strict=False)):
            if (a["ok"], a["error"]) != (b["ok"], b["error"]):
                differences.append(f"{example}[{i}]: {b['error'] or 'correct'} -> {a['error'] or 'correct'}")
            elif a["kernel_ms"] and b["kernel_ms"]:
                (raced if a.get("raced") else full).append(a["kernel_ms"] / b["kernel_ms"])
    ratios = {name: {"n": len(r), "median": statistics.median(r), "min": min(r), "max": max(r)} if r else None
              for name, r in (("timed_in_full", full), ("raced", raced))}
    return {"differences": differences, "median_ratio": ratios}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", default="gelu,softmax,rmsnorm,matmul_epilogue")
    parser.add_argument("--candidates", type=int, default=12, help="mutants of the last seed, the seeds included")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ray", action="store_true")
    parser.add_argument("--race", action="store_true", help="send each candidate the elites it must beat")
    parser.add_argument("--eval", default="{}", help="EvalOptions overrides, as JSON")
    parser.add_argument("--device", default="cuda", help="cpu: a dry run of the script, not a measurement")
    parser.add_argument("--label", default="")
    parser.add_argument("--compare", default=None, help="a report of the same work to compare verdicts with")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    options = EvalOptions(device=args.device, **json.loads(args.eval))
    report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "label": args.label,
                              "options": json.loads(args.eval), "workers": args.workers, "ray": args.ray,
                              "seed": args.seed, "examples": {}}
    for example in args.examples.split(","):
        spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
        seeds = [source for _, source in spec.seed_sources()]
        sources = seeds[:-1] + mutants(seeds[-1], args.candidates, args.seed)
        row = asyncio.run(judge_all(spec, sources, options, args.workers, args.ray, args.race))
        report["examples"][example] = row
        if args.out:  # after each example, so a run cut short keeps what it measured
            Path(args.out).write_text(json.dumps(report, indent=1))
        m = {k: f"{v:.2f}" if v is not None else "-" for k, v in row["median"].items()}
        print(f"{args.label} {example:16} {row['candidates']} in {row['wall_s']:6.1f} s "
              f"{row['evals_per_min']:5.1f}/min "
              f"held {row['judge_held']:4.0%} ok {row['correct']:2} raced {row['raced']:2}  "
              f"median judge {m['judge_s']} = child "
              f"{m['child_start_s']} + load {m['compile_s']} + correct {m['correctness_s']} + time {m['timing_s']}; "
              f"ahead {m['precompile_s']}", flush=True)
        print(f"{args.label} {example:16} judge steps (medians, s): "
              + ", ".join(f"{k} {v:.3f}" for k, v in row["judge_parts_median"].items()), flush=True)
    total = sum(r["candidates"] for r in report["examples"].values())
    wall = sum(r["wall_s"] for r in report["examples"].values())
    report["evals_per_min"] = total / wall * 60
    print(f"{args.label} all: {total} in {wall:.1f} s, {report['evals_per_min']:.1f}/min")
    if args.compare:
        report["compared"] = compared = compare(report, json.loads(Path(args.compare).read_text()))
        print(f"verdicts that differ from {args.compare}: {len(compared['differences'])}",
              *compared["differences"], sep="\n  ")
        print(f"medians, this run / that one: {compared['median_ratio']}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
