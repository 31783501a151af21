"""Evaluator actors that die on cue, for the failure tests (imported by Ray workers by name)."""

from __future__ import annotations

import os
from pathlib import Path

from kernelevo.distributed.simulated import SimulatedEvaluatorActor


class DiesOnMarker(SimulatedEvaluatorActor):
    """Kills its own process when a candidate carries the marker: a worker lost mid-evaluation."""

    delay_s = 0.2

    def evaluate(self, spec, source, race=None, options=None):  # type: ignore[no-untyped-def]
        if "KILL-THE-WORKER" in source:
            os._exit(1)
        return super().evaluate(spec, source, race, options)


class DiesOnce(SimulatedEvaluatorActor):
    """The first actor to see the candidate marked '# id 3' dies; the retry succeeds.

    The flag file named on the source's '# flag:' line records the death (workers do not see
    environment changes made after Ray started).
    """

    delay_s = 0.3

    def evaluate(self, spec, source, race=None, options=None):  # type: ignore[no-untyped-def]
        marked = [line.split(":", 1)[1].strip() for line in source.splitlines() if line.startswith("# flag:")]
        flag = Path(marked[0]) if marked else Path("/nonexistent/flag")
        if "# id 3" in source and not flag.exists():
            flag.write_text("died")
            os._exit(1)
        return super().evaluate(spec, source, race, options)


class TakesTwo(SimulatedEvaluatorActor):
    """Says it takes two candidates at once (as a GPU evaluator compiling ahead does) and
    reports in each result how many of its evaluations overlapped at most so far."""

    delay_s = 0.4

    def __init__(self, options):  # type: ignore[no-untyped-def]
        import threading

        super().__init__(options)
        self._lock, self._running, self._most = threading.Lock(), 0, 0

    def ready(self):  # type: ignore[no-untyped-def]
        return {**super().ready(), "slots": "2"}

    def evaluate(self, spec, source, race=None, options=None):  # type: ignore[no-untyped-def]
        with self._lock:
            self._running += 1
            self._most = max(self._most, self._running)
        try:
            result = super().evaluate(spec, source, race, options)
        finally:
            with self._lock:
                self._running -= 1
        result.message = f"overlap {self._most}"
        return result


class Quick(SimulatedEvaluatorActor):
    """Answers after 0.1 s: the shared pool's fair-share tests."""

    delay_s = 0.1


class CountsPrepares(SimulatedEvaluatorActor):
    """Counts the judges it was asked to prepare and reports the count in each result's message."""

    delay_s = 0.05

    def __init__(self, options):  # type: ignore[no-untyped-def]
        super().__init__(options)
        self.prepared: list[str] = []

    def prepare(self, spec, options=None):  # type: ignore[no-untyped-def]
        self.prepared.append(spec.sha256)
        return super().prepare(spec, options)

    def evaluate(self, spec, source, race=None, options=None):  # type: ignore[no-untyped-def]
        result = super().evaluate(spec, source, race, options)
        result.message = f"prepares {len(self.prepared)}"
        return result


class DiesOnceCountsPrepares(CountsPrepares):
    """Dies at the first candidate carrying '# die' whose '# flag:' file is missing (writing it first); reports in
    each result how many judges its process was asked to prepare: a restarted actor's count starts again at 0."""

    def evaluate(self, spec, source, race=None, options=None):  # type: ignore[no-untyped-def]
        marked = [line.split(":", 1)[1].strip() for line in source.splitlines() if line.startswith("# flag:")]
        if "# die" in source and marked and not Path(marked[0]).exists():
            Path(marked[0]).write_text("died")
            os._exit(1)
        return super().evaluate(spec, source, race, options)
