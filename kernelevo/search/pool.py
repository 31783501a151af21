"""Where candidates are evaluated: the pool interface and the in-process pool.

The search loop only awaits :meth:`EvaluatorPool.evaluate`; the local pool runs warm
:class:`~kernelevo.evaluation.Evaluator` workers in threads (each drives its own judge
process), and the Ray pool (``kernelevo.distributed``) runs GPU actors. Either way the
loop never blocks: while an evaluation runs, LLM calls for the next candidates go on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Protocol

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator
from kernelevo.records.candidate import Candidate
from kernelevo.records.race import Race
from kernelevo.spec import Spec

Races = Mapping[str, Race]  # hardware type -> the elites a candidate must beat there


class EvaluatorPool(Protocol):
    workers: int  # evaluators (GPUs) per hardware target
    capacity: int  # candidates it takes at once (an evaluator on a GPU takes several: see Evaluator.slots)

    async def start(self) -> None: ...

    async def evaluate(self, candidate: Candidate, races: Races | None = None) -> list[tuple[str, EvalResult]]:
        """The candidate's result on each hardware type the run targets.

        ``races``: per hardware type, the elites the candidate must beat there (see
        :mod:`kernelevo.evaluation.common.racing`); a hardware type not in it times in full.
        """
        ...

    def abort(self) -> None:
        """Kill the evaluations under way now (a search stopped at once); :meth:`close` follows."""
        ...

    async def close(self) -> None: ...


class LocalEvaluatorPool:
    """``workers`` warm evaluators in this process's threads, on one device kind.

    Each evaluator takes as many candidates at once as it has slots (on a GPU, one holds the
    GPU while the others compile on the CPU; how many is sized from the host's cores).
    """

    def __init__(self, spec: Spec, options: EvalOptions, *, workers: int = 1) -> None:
        self.workers = workers
        self._evaluators = [Evaluator(spec, options) for _ in range(workers)]
        self.capacity = sum(ev.slots for ev in self._evaluators)
        self._free: asyncio.Queue[Evaluator] = asyncio.Queue()
        self.hardware = "unknown"

    async def start(self) -> None:
        await asyncio.gather(*(asyncio.to_thread(ev.start) for ev in self._evaluators))
        for ev in self._evaluators:
            for _ in range(ev.slots):
                self._free.put_nowait(ev)

    async def evaluate(self, candidate: Candidate, races: Races | None = None) -> list[tuple[str, EvalResult]]:
        evaluator = await self._free.get()
        race = (races or {}).get(self.hardware)
        try:
            result = await asyncio.to_thread(evaluator.evaluate, candidate.source, race)
        finally:
            self._free.put_nowait(evaluator)
        if result.environment is not None:
            self.hardware = result.environment.hardware
        return [(self.hardware, result)]

    def abort(self) -> None:
        for ev in self._evaluators:
            ev.abort()

    async def close(self) -> None:
        await asyncio.gather(*(asyncio.to_thread(ev.close) for ev in self._evaluators))
