"""Evaluator actors that die on cue, for the failure tests (imported by Ray workers by name)."""

from __future__ import annotations

import os
from pathlib import Path

from kernelevo.distributed.simulated import SimulatedEvaluatorActor


class DiesOnMarker(SimulatedEvaluatorActor):
    """Kills its own process when a candidate carries the marker: a worker lost mid-evaluation."""

    delay_s = 0.2

    def evaluate(self, spec, source):  # type: ignore[no-untyped-def]
        if "KILL-THE-WORKER" in source:
            os._exit(1)
        return super().evaluate(spec, source)


class DiesOnce(SimulatedEvaluatorActor):
    """The first actor to see the candidate marked '# id 3' dies; the retry succeeds.

    The flag file named on the source's '# flag:' line records the death (workers do not see
    environment changes made after Ray started).
    """

    delay_s = 0.3

    def evaluate(self, spec, source):  # type: ignore[no-untyped-def]
        marked = [line.split(":", 1)[1].strip() for line in source.splitlines() if line.startswith("# flag:")]
        flag = Path(marked[0]) if marked else Path("/nonexistent/flag")
        if "# id 3" in source and not flag.exists():
            flag.write_text("died")
            os._exit(1)
        return super().evaluate(spec, source)
