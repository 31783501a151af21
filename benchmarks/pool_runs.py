"""Real searches on the shared evaluator pool, for the pool's benchmarks (fair_share.py --judges real, second_run.py).

A run here is the service's own: ``kernelevo.driver.run_search`` with ``pool = "shared"``, the
template operator (no LLM), the spec's own seeds, real evaluator actors (one per GPU, or per
logical GPU judging in Triton's interpreter with ``--device cpu``). What the benchmarks read
back is what the runs recorded: each evaluation's result (its costs) and the time the driver
was told it (``Evaluated.finished_at``, wall clock), plus the pool's own snapshots.

Which candidates the pool judged: not those the driver's static checks rejected (they never
reach the pool), nor those answered "run stopped" or "pool lost" (never judged). A candidate's
evaluator-seconds are its result's ``costs.total_s``: the time its evaluator worked on it, the
wait for the judge behind another slot's candidate included, as the pool's fair queue charges
it (the queue adds Ray's round trip, a few milliseconds).
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelevo.distributed.cluster import local_options
from kernelevo.driver import RunOutcome, make_pool, new_run, run_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.candidate import Evaluated
from kernelevo.records.result import ErrorKind, EvalResult, Stage
from kernelevo.records.run import StopReason
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.search.scheduler import Scheduler
from kernelevo.spec import Spec
from kernelevo.storage.database import open_database

log = logging.getLogger(__name__)

WINDOW_OVER = "the benchmark's window is over"
NOT_JUDGED = (ErrorKind.RUN_STOPPED, ErrorKind.POOL_LOST)


@dataclass(frozen=True)
class Hardware:
    """What the evaluator actors judge on."""

    device: str  # "cuda" or "cpu"
    evaluators: int  # actors: GPUs, or logical GPUs judging in the interpreter
    label: str  # "2 x NVIDIA H100 80GB HBM3", or "cpu interpreter (2 logical GPUs)"
    names: list[str] = field(default_factory=list)  # each GPU's name (empty on the CPU)


def find_hardware(device: str, evaluators: int | None) -> Hardware:
    """Every GPU torch sees (or ``evaluators`` of them), or ``evaluators`` CPU judges (default 2)."""
    if device == "cpu":
        count = evaluators or 2
        return Hardware("cpu", count, f"cpu interpreter ({count} logical GPUs)")
    import torch

    seen = torch.cuda.device_count()
    if seen == 0:
        raise SystemExit("no GPU is visible here: pass --device cpu to judge in Triton's interpreter")
    if evaluators is not None and evaluators > seen:
        raise SystemExit(f"{evaluators} evaluators asked for, but only {seen} GPU(s) are visible")
    count = evaluators or seen
    names = [torch.cuda.get_device_name(i) for i in range(count)]
    kinds = sorted(set(names))
    return Hardware("cuda", count, ", ".join(f"{names.count(k)} x {k}" for k in kinds), names)


def start_ray(hardware: Hardware) -> None:
    """A local Ray with one (logical) GPU per evaluator: the shared pool starts one actor per GPU it sees."""
    import ray

    ray.init(**local_options(hardware.evaluators))


def run_config(hardware: Hardware, *, weight: float = 1.0, minutes: float | None = None,
               evaluations: int | None = None) -> RunConfig:
    return RunConfig(budget=Budget(evaluations=evaluations, minutes=minutes), workers=hardware.evaluators, ray=True,
                     pool="shared", weight=weight, seed_from="spec", evaluation=EvalOptions(device=hardware.device))


def judged(result: EvalResult) -> bool:
    """The pool judged it (see the module docstring)."""
    return result.stage != Stage.STATIC and result.error not in NOT_JUDGED


@dataclass
class Traced:
    """One run of the benchmark: when it started, searched and ended, and what it recorded."""

    run_id: int
    weight: float
    started: float  # time.time() when the run was created (in its database) to be driven at once
    searching: float | None = None  # time.time() when its loop started (pool joined, seeds added)
    ended: float | None = None
    loop: Scheduler | None = None
    pool: Any = None
    outcome: RunOutcome | None = None
    began: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None  # drives the run; ends with it

    def evaluations(self) -> list[Evaluated]:
        if self.outcome is None:
            return []
        found = [e for v in self.outcome.state.evaluations.values() for e in v]
        return sorted(found, key=lambda e: e.finished_at)

    def judged(self) -> list[Evaluated]:
        return [e for e in self.evaluations() if judged(e.result)]

    def stop(self) -> None:
        """Stop making candidates and leave the pool now: its queued candidates are answered "run stopped"
        (its evaluations under way finish), so every run of a scenario ends at the same moment."""
        if self.loop is not None:
            self.loop.stop(WINDOW_OVER, StopReason.BUDGET_TIME)
        if self.pool is not None:
            self.pool.abort()


async def drive(spec: Spec, config: RunConfig, folder: Path, *, name: str | None = None,
                backlog: float = 1.0) -> Traced:
    """Create a run of ``spec`` (a database of its own under ``folder``) and start driving it; the returned
    :class:`Traced` fills in as it goes, and its ``task`` ends with the run. ``name``: the run's name in the
    shared pool (each database numbers its runs from 1: runs of several must be told apart).

    ``backlog``: an experiment, not what the service does: the run's loop keeps the pool's ``capacity`` submitted
    (for a shared pool, twice its slots: ``shared_client.SUBMITTED_PER_SLOT``); ``backlog`` scales that."""
    folder.mkdir(parents=True, exist_ok=True)
    db = open_database(f"sqlite:///{folder}/kernelevo.db")  # the service's database exists before its runs
    started = time.time()
    run_id = new_run(db, spec, config, owner="benchmark", out=folder / "out")
    traced = Traced(run_id=run_id, weight=config.weight, started=started)
    traced.pool = make_pool(spec, config, run_id=run_id)
    if name is not None:
        traced.pool.run_id = name

    def on_start(loop: Scheduler) -> None:
        traced.loop, traced.searching = loop, time.time()
        if backlog != 1.0:  # the loop reads the pool's capacity before each hand-over
            traced.pool.capacity = max(1, round(traced.pool.capacity * backlog))
        traced.began.set()

    async def go() -> None:
        try:
            traced.outcome = await run_search(db, run_id, pool=traced.pool, on_start=on_start)
        finally:
            traced.ended = time.time()
            traced.began.set()  # a run that failed to start wakes whoever waits for it
            db.engine.dispose()

    traced.task = asyncio.create_task(go())
    return traced


async def run_together(spec: Spec, configs: list[RunConfig], seconds: float, *, tag: str = "run",
                       before_stop: Any = None, backlog: float = 1.0) -> tuple[list[Traced], float]:
    """Start one run per config at once, let them search ``seconds`` after the last one began, stop them all
    together; the runs and the wall time the last one began. Each joins the pool as ``{tag}{i}``;
    ``before_stop()`` (a coroutine: the pool's snapshot, say) is awaited just before they are stopped."""
    with tempfile.TemporaryDirectory(prefix="kernelevo-pool-bench-") as tmp:
        runs = [await drive(spec, config, Path(tmp) / f"run{i}", name=f"{tag}{i}", backlog=backlog)
                for i, config in enumerate(configs)]
        await asyncio.gather(*(r.began.wait() for r in runs))
        failed = [r for r in runs if r.loop is None]
        if failed:
            for r in runs:
                r.stop()
            await asyncio.gather(*(r.task for r in runs if r.task), return_exceptions=True)
            for r in failed:
                if r.task is not None:
                    r.task.result()  # raises why it did not start
        begin = max(r.searching or 0.0 for r in runs)
        await asyncio.sleep(max(0.0, begin + seconds - time.time()))
        if before_stop is not None:
            await before_stop()
        for r in runs:
            r.stop()
        await asyncio.gather(*(r.task for r in runs if r.task))
    return runs, begin


def first_result_s(traced: Traced) -> float | None:
    """Seconds from the run's start to the first candidate the pool judged for it."""
    found = traced.judged()
    return found[0].finished_at - traced.started if found else None


def first_began_s(traced: Traced) -> float | None:
    """Seconds from the run's start to the moment an evaluator began its first judged candidate (its result's
    arrival less the evaluator's own time on it, ``costs.total_s``)."""
    found = traced.judged()
    return min(e.finished_at - e.result.costs.total_s for e in found) - traced.started if found else None


def start_costs(traced: Traced) -> dict[str, Any]:
    """What starting judges cost this run, from its results: a judge start is told to the first result after
    it (``costs.judge_start_s`` > 0, with that start's ``baselines_s``); every other result's ``baselines_s``
    is the moment its judge took to hand over the baselines it holds."""
    results = [e.result for e in traced.judged()]
    starts = [r for r in results if r.costs.judge_start_s > 0]
    return {"judge_starts": len(starts),
            "judge_start_s": sum(r.costs.judge_start_s for r in starts),
            "baselines_s": sum(r.costs.baselines_s for r in starts),
            "baselines_cached": [r.baselines_cached for r in starts],
            "most_baselines_s_elsewhere": max((r.costs.baselines_s for r in results if r.costs.judge_start_s == 0),
                                              default=0.0)}
