"""Simulated evaluators (the driver-ceiling benchmark's): first free, first served, and busy per evaluator."""

from __future__ import annotations

import asyncio

from kernelevo.distributed.simulated import SimulatedPool
from kernelevo.records.candidate import Candidate


def test_each_evaluator_is_counted_and_the_least_busy_one_is_reported() -> None:
    pool = SimulatedPool(4, 0.01)

    async def run() -> None:
        # at most 3 in flight against 4 evaluators, as a driver that cannot keep them all busy
        slots = asyncio.Semaphore(3)

        async def one(i: int) -> None:
            async with slots:
                await pool.evaluate(Candidate(id=i, source=f"# {i}\n", operator="template"))

        await asyncio.gather(*(one(i) for i in range(60)))

    asyncio.run(run())
    assert sorted({evaluator for _, _, evaluator in pool.spans}) == [0, 1, 2, 3]  # a queue: every one is used
    rate, busy, least = pool.steady_state(warmup_s=0.02)
    assert rate > 0 and 0 < least <= busy <= 0.8  # three in flight keep four at most 75% busy
