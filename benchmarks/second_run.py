"""A second run of a spec on the shared pool: how soon its first candidate is judged, and what it does not pay again.

On a fresh shared pool (real evaluator actors: one per GPU Ray sees, ``--gpus`` fewer, or
``--device cpu`` judges in Triton's interpreter), run 1 of ``--spec`` searches (template
operator, the spec's seeds) until ``--evaluations`` results, and ends: it leaves the pool,
whose actors and warm judge stay. ``--gap`` seconds later run 2 of the same spec starts and
searches until its own ``--evaluations``. Reported for each run:

* ``first_began_s``: from the run's start (created in its database, its driver called) to the
  moment an evaluator began judging its first candidate (the issue's target for run 2: it
  starts evaluating within 3 s); ``first_result_s``: to that candidate's result;
* ``joined_s``: of that, until its loop began (the pool joined, the judge ready, seeds added);
* what starting judges cost it, from the costs its results carry (``records/result.py``): a
  judge's start that a candidate waited for is told to that candidate's result, as
  ``costs.judge_start_s`` > 0 with that start's ``costs.baselines_s`` (eager and ``torch.compile``
  timed, or read from the disk cache). The pool prepares a spec's judge on every actor when its
  first run registers, before any candidate is sent: that start is in run 1's ``joined_s`` and
  the pool's ``prepare_s`` (``pool_judges``), in no result. Run 2, on a warm pool, must pay none
  (target). Before 2026-11-27 a prepared start was told to the actor's next result whichever run
  sent it: a 2-GPU run 2 showed the start its second actor made during run 1.

    python benchmarks/second_run.py --out second_run-h100x2.json          # every GPU torch sees
    python benchmarks/second_run.py --device cpu --gpus 1 --spec examples/gelu/spec.py
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pool_runs  # noqa: E402
import ray  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from kernelevo.distributed.shared_client import read_snapshot, stop_shared_pool  # noqa: E402
from kernelevo.spec import Spec, read_spec  # noqa: E402

TARGET_S = 3.0  # the issue's: a second run starts evaluating within 3 s of its start


async def one_run(spec: Spec, hardware: pool_runs.Hardware, evaluations: int, folder: Path,
                  name: str) -> dict[str, Any]:
    """A run of ``spec`` on the shared pool until ``evaluations`` results; what it cost to start."""
    config = pool_runs.run_config(hardware, evaluations=evaluations)
    traced = await pool_runs.drive(spec, config, folder, name=name)
    assert traced.task is not None
    await traced.task
    found = traced.judged()
    first = found[0].result if found else None
    return {"name": name, "first_began_s": pool_runs.first_began_s(traced),
            "first_result_s": pool_runs.first_result_s(traced),
            "joined_s": None if traced.searching is None else traced.searching - traced.started,
            "wall_s": (traced.ended or time.time()) - traced.started,
            "judged": len(found), "correct": sum(e.result.ok for e in found),
            "stopped": traced.outcome.reason if traced.outcome else None,
            "first_result_costs": json.loads(first.costs.model_dump_json()) if first else None,
            "first_result_error": first.error if first else None,
            **pool_runs.start_costs(traced)}


def measure(args: argparse.Namespace, hardware: pool_runs.Hardware) -> dict[str, Any]:
    spec = read_spec(args.spec)
    pool_runs.start_ray(hardware)
    stop_shared_pool()  # a pool left by an earlier benchmark would be warm already

    async def both() -> tuple[dict[str, Any], dict[str, Any]]:
        with tempfile.TemporaryDirectory(prefix="kernelevo-second-run-") as tmp:
            first = await one_run(spec, hardware, args.evaluations, Path(tmp) / "first", "first")
            await asyncio.sleep(args.gap)
            second = await one_run(spec, hardware, args.evaluations, Path(tmp) / "second", "second")
            return first, second

    try:
        first, second = asyncio.run(both())
        snapshot = read_snapshot()
    finally:
        stop_shared_pool()
        ray.shutdown()
    within = second["first_began_s"] is not None and second["first_began_s"] <= TARGET_S
    return {"spec": spec.name, "first": first, "second": second, "target_s": TARGET_S,
            "second_within_target": within,
            "second_paid_judge_start": second["judge_starts"] > 0,
            "pool_judges": [json.loads(j.model_dump_json()) for j in snapshot.judges],
            "pool_actors": [{"index": a.index, "gpus": a.gpus, "judges": a.judges, "evaluations": a.evaluations}
                            for a in snapshot.actors]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=str(ROOT / "examples" / "matmul_epilogue" / "spec.py"))
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    parser.add_argument("--gpus", type=int, default=None,
                        help="evaluator actors: GPUs used (default every one torch sees), or CPU judges (default 2)")
    parser.add_argument("--evaluations", type=int, default=8, help="results each run records before it ends")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds between the first run's end and the second's "
                        "start")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    hardware = pool_runs.find_hardware(args.device, args.gpus)
    report = measure(args, hardware)

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.2f}"

    table = Table(title=f"a second run of {report['spec']} on the shared pool, {hardware.label}")
    for col in ("run", "evaluating after s", "first result s", "joined s", "judged", "judge starts", "judge start s",
                "baselines s"):
        table.add_column(col, justify="right")
    for run in (report["first"], report["second"]):
        table.add_row(run["name"], num(run["first_began_s"]), num(run["first_result_s"]), num(run["joined_s"]),
                      str(run["judged"]), str(run["judge_starts"]), num(run["judge_start_s"]), num(run["baselines_s"]))
    console = Console(width=140)
    console.print(table)
    console.print(f"second run: evaluating {'within' if report['second_within_target'] else 'NOT within'} "
                  f"{TARGET_S:g} s; judge start paid again: {'YES' if report['second_paid_judge_start'] else 'no'}")
    if args.out:
        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "hardware": hardware.label,
                  "gpu_names": hardware.names, "device": hardware.device,
                  "machine": f"{platform.node()}, {hardware.label}",
                  "note": "judged in Triton's interpreter on the CPU: NOT a GPU figure" if hardware.device == "cpu"
                  else "judged on the GPUs named", "settings": vars(args), **report}
        Path(args.out).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
