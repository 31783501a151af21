"""A weighted fair queue over runs, charged in evaluator-seconds (no Ray, no asyncio: pure bookkeeping).

Every run has a virtual clock in evaluator-seconds divided by its weight. The next item to
evaluate is the first queued item of the run whose clock is lowest, so over time each
backlogged run gets evaluator time in proportion to its weight (3:1 weights: 75% / 25%).

Charging: an estimate at dispatch, corrected at completion. When an item is handed to an
evaluator, its run's clock advances at once by the run's mean evaluation time (over its
finished ones; the queue's mean for a run with none yet) divided by its weight; when the
evaluation ends, the clock is corrected by (actual - estimate) / weight. Charging only at
completion would let a run whose evaluations are in flight look as if it had used nothing:
when several evaluator slots free at once (a GPU taking several candidates, or actors
answering together), every one would go to the same run. Charging only the estimate would
let a run whose kernels take long to judge pay for short ones. Both together count the work
in flight and still end up charging exactly the seconds each evaluation held a slot.

No hoarded credit: a run that had nothing queued and becomes backlogged again starts at the
lowest clock of the runs backlogged now (or the queue's last dispatch clock when none is), if
it was behind; an idle hour buys no burst later. Removing a run drops its queued items at
once and hands them back, so their callers can be told "run stopped".
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

DEFAULT_ESTIMATE_S = 1.0  # a first evaluation's charge before any has finished
SMOOTHING = 0.2  # weight of the newest evaluation in a run's mean evaluation time (exponential average)
WINDOW_S = 120.0  # shares are reported over the last two minutes


class UnknownRun(KeyError):
    """A run that is not registered (never, or removed since)."""


@dataclass(frozen=True)
class Ticket:
    """One dispatched item: what its run was charged up front (seconds of evaluator time)."""

    run_id: Hashable
    estimate_s: float
    serial: int


@dataclass
class _Run(Generic[T]):
    weight: float
    order: int  # registration order: breaks ties between equal clocks
    clock: float = 0.0  # evaluator-seconds / weight
    mean_s: float | None = None  # its evaluations' mean time, seconds
    queue: deque[T] = field(default_factory=deque)
    in_flight: int = 0
    used_s: float = 0.0  # evaluator-seconds of its finished evaluations
    evaluations: int = 0


@dataclass(frozen=True)
class RunShare:
    """A run's part of the evaluator time finished over the last ``window_s`` seconds."""

    weight: float
    share: float  # of the evaluator-seconds finished in the window, 0..1
    seconds: float  # evaluator-seconds finished in the window
    evaluations: int  # evaluations finished in the window
    queued: int
    in_flight: int


class FairQueue(Generic[T]):
    """Items of many runs, handed out by weighted fair share (see the module docstring)."""

    def __init__(self, *, now: Callable[[], float] = time.monotonic, window_s: float = WINDOW_S) -> None:
        self._runs: dict[Hashable, _Run[T]] = {}
        self._now, self.window_s = now, window_s
        self._floor = 0.0  # the clock of the last dispatch: where a run backlogged after idling starts at least
        self._mean_s: float | None = None  # every run's evaluations together
        self._serial = 0
        self._order = itertools.count()
        self._done: deque[tuple[float, Hashable, float]] = deque()  # (when, run, seconds) of finished ones

    def add_run(self, run_id: Hashable, *, weight: float = 1.0) -> None:
        """Register a run (again: its weight changes, its queue and clock stay). ``weight`` > 0."""
        if not weight > 0:
            raise ValueError(f"a run's weight must be above 0, not {weight!r}")
        run = self._runs.get(run_id)
        if run is not None:
            run.weight = weight
            return
        self._runs[run_id] = _Run(weight=weight, order=next(self._order))

    def remove_run(self, run_id: Hashable) -> list[T]:
        """Forget a run now: its queued items, returned (never dispatched); its finished and in-flight ones
        stop counting (a completion of one later is ignored)."""
        run = self._runs.pop(run_id, None)
        return list(run.queue) if run is not None else []

    def push(self, run_id: Hashable, item: T, *, first: bool = False) -> None:
        """Queue ``item`` for ``run_id`` (``first``: ahead of its others, as an evaluation retried)."""
        run = self._run(run_id)
        if not run.queue:  # backlogged again: no credit from the time it had nothing queued
            run.clock = max(run.clock, self._least_backlogged_clock())
        if first:
            run.queue.appendleft(item)
        else:
            run.queue.append(item)

    def pop(self) -> tuple[T, Ticket] | None:
        """The next item by fair share and its ticket (charged the run's estimate), or None when none waits."""
        backlogged = [(r.clock, r.order, rid) for rid, r in self._runs.items() if r.queue]
        if not backlogged:
            return None
        _, _, run_id = min(backlogged)
        run = self._runs[run_id]
        self._floor = max(self._floor, run.clock)
        estimate = run.mean_s if run.mean_s is not None else self._mean_s or DEFAULT_ESTIMATE_S
        run.clock += estimate / run.weight
        run.in_flight += 1
        self._serial += 1
        return run.queue.popleft(), Ticket(run_id, estimate, self._serial)

    def done(self, ticket: Ticket, seconds: float) -> None:
        """An evaluation ended after ``seconds`` on its evaluator: correct its run's charge."""
        seconds = max(0.0, seconds)
        self._mean_s = _smoothed(self._mean_s, seconds)
        run = self._runs.get(ticket.run_id)
        if run is None:  # removed while it ran
            return
        run.clock += (seconds - ticket.estimate_s) / run.weight
        run.mean_s = _smoothed(run.mean_s, seconds)
        run.in_flight -= 1
        run.used_s += seconds
        run.evaluations += 1
        self._done.append((self._now(), ticket.run_id, seconds))

    def queued(self, run_id: Hashable | None = None) -> int:
        """Items waiting: of one run, or of all."""
        if run_id is not None:
            return len(self._run(run_id).queue)
        return sum(len(r.queue) for r in self._runs.values())

    def __contains__(self, run_id: object) -> bool:
        return run_id in self._runs

    def runs(self) -> list[Hashable]:
        return list(self._runs)

    def shares(self) -> dict[Hashable, RunShare]:
        """Each registered run's part of the evaluator-seconds finished over the last ``window_s`` seconds."""
        since = self._now() - self.window_s
        while self._done and self._done[0][0] < since:
            self._done.popleft()
        seconds = dict.fromkeys(self._runs, 0.0)
        counts = dict.fromkeys(self._runs, 0)
        for _, run_id, s in self._done:
            if run_id in seconds:
                seconds[run_id] += s
                counts[run_id] += 1
        total = sum(seconds.values())
        return {rid: RunShare(weight=r.weight, share=seconds[rid] / total if total else 0.0, seconds=seconds[rid],
                              evaluations=counts[rid], queued=len(r.queue), in_flight=r.in_flight)
                for rid, r in self._runs.items()}

    def _least_backlogged_clock(self) -> float:
        clocks = [r.clock for r in self._runs.values() if r.queue]
        return min(clocks) if clocks else self._floor

    def _run(self, run_id: Hashable) -> _Run[T]:
        try:
            return self._runs[run_id]
        except KeyError:
            raise UnknownRun(f"run {run_id!r} is not registered with the pool (stopped, or never registered)") from None


def _smoothed(mean: float | None, value: float) -> float:
    return value if mean is None else (1 - SMOOTHING) * mean + SMOOTHING * value
