"""An evaluator actor that sleeps instead of evaluating: for measuring the search loop itself.

It answers every candidate after a fixed delay (an evaluation time measured on a real
GPU) with a result marked ``hardware="simulated"``, never a speed of any real device. The
scaling benchmark uses it to show what the loop, Ray and the run store cost on their own,
with 1 to 8 actors on a machine without GPUs.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
import zlib
from concurrent.futures import ProcessPoolExecutor

from kernelevo.archive.descriptors import descriptor_set, measure
from kernelevo.evaluation import EvalOptions, EvalResult
from kernelevo.records.candidate import Candidate
from kernelevo.records.race import Race
from kernelevo.records.result import Environment, Stage, Timing
from kernelevo.search.pool import Races
from kernelevo.spec import Spec


class SimulatedEvaluatorActor:
    delay_s = 1.0

    def __init__(self, options: EvalOptions) -> None:
        self.options = options

    def ready(self) -> dict[str, str]:
        return {"pid": str(os.getpid()), "simulated": f"{self.delay_s} s per evaluation"}

    def prepare(self, spec: Spec, options: EvalOptions | None = None) -> str | None:
        return None

    def evaluate(self, spec: Spec, source: str, race: Race | None = None,
                 options: EvalOptions | None = None) -> EvalResult:
        time.sleep(self.delay_s)
        result = simulated_result(source, self.delay_s)
        descriptors = (options or self.options).descriptors
        if descriptors:  # as a real evaluator does: measured here, not in the driver
            result.measures = measure(descriptors, source, result)
        return result

    def release(self, spec: Spec, options: EvalOptions | None = None) -> None:
        pass

    def close(self) -> None:
        pass


def simulated_result(source: str, delay_s: float) -> EvalResult:
    """A correct result with a deterministic, made-up time per source (so the archive has something
    to order), marked ``hardware="simulated"``."""
    kernel_ms = 1.0 + (zlib.crc32(source.encode()) % 1000) / 1000

    def timing(ms: float) -> Timing:
        return Timing(median_ms=ms, iqr_ms=0.0, min_ms=ms, mean_ms=ms, repetitions=1, method="simulated")

    env = Environment(device="simulated", device_name="simulated", hardware="simulated", torch="-", triton="-",
                      python="-", hostname="-")
    result = EvalResult(correct=True, stage=Stage.VERDICT, kernel=timing(kernel_ms), eager=timing(1.5),
                        speedup_eager=1.5 / kernel_ms, environment=env)
    result.costs.judge_s = delay_s
    return result


def made_up_measures(source: str, descriptors: list[str]) -> dict[str, float]:
    """A cell's middle on each descriptor, picked by the source's hash: deterministic, spread evenly."""
    found = descriptor_set(descriptors)
    # one digest for every descriptor, 4 bytes each (not crc32: it is linear, and its low bits would move
    # together across the descriptors); hashing the source once per descriptor took 8% of the driver it measures
    digest = hashlib.blake2b(source.encode(), digest_size=min(64, 4 * max(1, len(found)))).digest()
    measures = {}
    for i, d in enumerate(found):
        cell = int.from_bytes(digest[4 * i % 64:4 * i % 64 + 4], "little") % d.cells
        measures[d.name] = d.low + (cell + 0.5) * (d.high - d.low) / d.cells
    return measures


class SimulatedPool:
    """``workers`` simulated evaluators on this event loop: each answers after ``delay_s``.

    No process, no Ray: what is measured with it is the driver alone (selection, operators,
    the archive, the store), at evaluator counts no machine here could host as processes."""

    def __init__(self, workers: int, delay_s: float, *, descriptors: list[str] | None = None,
                 made_up_measures: bool = False) -> None:
        self.workers = self.capacity = workers
        self.delay_s = delay_s
        self.busy_s = 0.0
        # (start, end, evaluator) of each evaluation, time.monotonic(); evaluators are taken first free,
        # first served, as the Ray pool takes its actors from a queue
        self.spans: list[tuple[float, float, int]] = []
        self._free: asyncio.Queue[int] | None = None
        # Real evaluators measure the archive's descriptors on their own hosts: here a process beside
        # the driver stands in for them, so the driver's process does only the driver's work.
        self.descriptors = descriptors
        self._measurer: ProcessPoolExecutor | None = None
        # or, as results recorded on real evaluators would bring them: made-up measures, spread over the
        # cells, that cost this machine nothing (one machine cannot stand in for hundreds of hosts)
        self.make_up_measures = made_up_measures

    async def start(self) -> None:
        if self.descriptors and not self.make_up_measures:
            self._measurer = ProcessPoolExecutor(1)

    async def evaluate(self, candidate: Candidate, races: Races | None = None) -> list[tuple[str, EvalResult]]:
        if self._free is None:
            self._free = asyncio.Queue()
            for evaluator in range(self.workers):
                self._free.put_nowait(evaluator)
        evaluator = await self._free.get()
        try:
            return await self._evaluate(candidate, evaluator)
        finally:
            self._free.put_nowait(evaluator)

    async def _evaluate(self, candidate: Candidate, evaluator: int) -> list[tuple[str, EvalResult]]:
        start = time.monotonic()
        await asyncio.sleep(self.delay_s)
        result = simulated_result(candidate.source, self.delay_s)
        if self.make_up_measures and self.descriptors:
            result.measures = made_up_measures(candidate.source, self.descriptors)
        elif self._measurer is not None and self.descriptors:
            result.measures = await asyncio.get_running_loop().run_in_executor(
                self._measurer, measure, self.descriptors, candidate.source, result)
        self.busy_s += time.monotonic() - start
        self.spans.append((start, time.monotonic(), evaluator))
        return [("simulated", result)]

    def steady_window(self, warmup_s: float) -> tuple[float, float] | None:
        """(begin, end), time.monotonic(): from ``warmup_s`` after the first start to the last start (the seeds'
        first round and the budget's last draining round left out); None before there is one."""
        if not self.spans:
            return None
        begin = min(s for s, _, _ in self.spans) + warmup_s
        end = max(s for s, _, _ in self.spans)
        return (begin, end) if end > begin else None

    def steady_state(self, warmup_s: float) -> tuple[float, float, float]:
        """(results a second, busy fraction, the least busy evaluator's fraction) over :meth:`steady_window`."""
        steady = self.steady_window(warmup_s)
        if steady is None:
            return 0.0, 0.0, 0.0
        begin, end = steady
        done = sum(1 for _, e, _ in self.spans if begin <= e <= end)
        per_evaluator = [0.0] * self.workers
        for s, e, evaluator in self.spans:
            per_evaluator[evaluator] += max(0.0, min(e, end) - max(s, begin))
        window = end - begin
        return done / window, sum(per_evaluator) / (self.workers * window), min(per_evaluator) / window

    def abort(self) -> None:
        """Nothing to kill: the simulated evaluations are sleeps, cancelled with their tasks."""

    async def close(self) -> None:
        if self._measurer is not None:
            self._measurer.shutdown(cancel_futures=True)
