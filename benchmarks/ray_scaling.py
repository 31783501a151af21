"""The search loop's own overhead on Ray: 1, 2, 4 and 8 evaluator actors that sleep.

Each actor answers after a fixed delay, an evaluation time measured on a real GPU (the
warm evaluations of benchmarks/results/eval_examples-h200.json took 1.3 to 1.6 s); the
loop, the template operator, the archive, the run store (fsync per record) and Ray are
all real. Efficiency = evaluations per second achieved / (actors / delay): what is lost to
the loop and Ray, not to evaluation. Runs on a machine without GPUs (logical GPUs).

    python benchmarks/ray_scaling.py --delay 1.5 --out benchmarks/results/ray_scaling-cpu.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from kernelevo.distributed import RayEvaluatorPool, connect  # noqa: E402
from kernelevo.distributed.simulated import SimulatedEvaluatorActor  # noqa: E402
from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402


def measure(actors: int, delay: float, evaluations_per_actor: int) -> dict:
    # the matmul seeds expose 6 and 24 tunables: the template operator never runs out of new kernels
    spec = read_spec(str(ROOT / "examples" / "matmul_epilogue" / "spec.py"))

    class Sleeper(SimulatedEvaluatorActor):
        delay_s = delay

    config = RunConfig(budget=Budget(evaluations=evaluations_per_actor * actors), workers=actors,
                       evaluation=EvalOptions(device="cpu"))
    pool = RayEvaluatorPool(spec, config.evaluation, cluster=connect(local_gpus=8), actors_per_target=actors,
                            actor_class=Sleeper)
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        db = open_database(f"sqlite:///{out}/kernelevo.db")
        outcome = asyncio.run(start_search(db, spec, config, out=out, pool=pool))
        wall = time.perf_counter() - started
    search_s = outcome.loop.elapsed_s()
    n = outcome.state.evaluated_count()
    ideal = actors / delay
    return {"actors": actors, "evaluations": n, "search_s": search_s, "wall_s": wall,
            "evals_per_s": n / search_s, "ideal_evals_per_s": ideal, "efficiency": n / search_s / ideal}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=1.5, help="seconds per simulated evaluation")
    parser.add_argument("--per-actor", type=int, default=12, help="evaluations per actor")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    rows = [measure(n, args.delay, args.per_actor) for n in (1, 2, 4, 8)]
    table = Table(title=f"search loop on Ray, actors sleeping {args.delay:g} s per evaluation")
    for col in ("actors", "evaluations", "seconds", "evals/s", "ideal", "efficiency"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(str(r["actors"]), str(r["evaluations"]), f"{r['search_s']:.1f}", f"{r['evals_per_s']:.2f}",
                      f"{r['ideal_evals_per_s']:.2f}", f"{r['efficiency']:.0%}")
    Console(width=120).print(table)
    if args.out:
        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                  "machine": f"{platform.node()} ({platform.processor() or platform.machine()}), CPU only, "
                             "logical GPUs", "delay_s": args.delay, "rows": rows}
        Path(args.out).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
