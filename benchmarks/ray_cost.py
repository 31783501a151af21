"""What Ray costs: the same fixed list of candidates evaluated through Ray and in-process.

A search's throughput depends on which kernels it happens to produce (a mutant with large
tiles compiles and times longer), so two searches differ by more than the pool does. This
benchmark takes the search out: it makes ``--candidates`` template mutants of an example's
seed with a fixed random seed, then evaluates exactly that list through each pool, as the
search loop does (as many in flight as the pool takes at once), and reports the wall time
from the first submission to the last result. The pools (judges, baselines, actors) are
started before the clock.

    python benchmarks/ray_cost.py --example matmul_epilogue --candidates 24 --modes ray:1,local:1 \
        --out benchmarks/results/ray_cost-h200.json
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

from kernelevo.driver import make_pool  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.records.run_config import RunConfig  # noqa: E402
from kernelevo.spec import Spec, read_spec  # noqa: E402


async def evaluate_all(spec: Spec, mode: str, gpus: int, sources: list[str], device: str) -> dict[str, Any]:
    pool = make_pool(spec, RunConfig(workers=gpus, ray=mode == "ray", evaluation=EvalOptions(device=device)))
    await pool.start()
    try:
        in_flight = asyncio.Semaphore(pool.capacity)

        async def one(i: int, source: str) -> Any:
            async with in_flight:
                [(_, result)] = await pool.evaluate(Candidate(id=i, source=source, operator="template"))
                return result

        started = time.perf_counter()
        results = await asyncio.gather(*(one(i, s) for i, s in enumerate(sources)))
        wall_s = time.perf_counter() - started
    finally:
        await pool.close()
        if mode == "ray":
            import ray

            ray.shutdown()
    judge_s = sum(r.costs.judge_s for r in results)
    return {"mode": mode, "gpus": gpus, "capacity": pool.capacity, "candidates": len(sources), "wall_s": wall_s,
            "evals_per_min": len(sources) / wall_s * 60, "judge_held": judge_s / (wall_s * gpus),
            "correct": sum(r.ok for r in results),
            "median_judge_s": statistics.median(r.costs.judge_s for r in results),
            "median_precompile_s": statistics.median(r.costs.precompile_s for r in results),
            "errors": sorted({r.error.value for r in results if r.error is not None}),
            "kernel_ms": [r.kernel.median_ms if r.kernel else None for r in results]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--example", default="matmul_epilogue")
    parser.add_argument("--candidates", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--modes", default="ray:1,local:1", help="MODE:GPUS,... with MODE ray or local")
    parser.add_argument("--device", default="cuda", help="cpu: a dry run of the script, not a measurement")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    spec = read_spec(str(ROOT / "examples" / args.example / "spec.py"))
    # mutants of the example's last seed: the online softmax, the autotuned matmul
    sources = mutants(spec.seed_sources()[-1][1], args.candidates, args.seed)
    rows = []
    for run in args.modes.split(","):
        mode, gpus = run.split(":")
        rows.append(asyncio.run(evaluate_all(spec, mode, int(gpus), sources, args.device)))
        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "example": args.example,
                  "candidates": args.candidates, "seed": args.seed, "rows": rows}
        if args.out:  # after each mode, so a run cut short keeps what it measured
            Path(args.out).write_text(json.dumps(report, indent=2))
        row = rows[-1]
        print(f"{row['mode']:>6} x{row['gpus']}  {row['candidates']} candidates in {row['wall_s']:.1f} s  "
              f"{row['evals_per_min']:.1f}/min  judge held {row['judge_held']:.0%}  correct {row['correct']}")
    by_mode = {r["mode"]: r for r in rows if r["gpus"] == 1}
    if "ray" in by_mode and "local" in by_mode:
        cost = 1 - by_mode["ray"]["evals_per_min"] / by_mode["local"]["evals_per_min"]
        print(f"Ray's cost: {cost:.1%} of throughput")


if __name__ == "__main__":
    main()
