"""The GPU evaluator actor: one per GPU, owning the isolated evaluation processes of that GPU.

An actor keeps one warm :class:`~kernelevo.evaluation.Evaluator` per spec, so the judge's
reference outputs and baseline timings are computed once per spec and hardware and
reused for every candidate. The actor itself runs no spec or kernel code: its judge,
candidate and precompiler children do, in their own sandboxes. It is a threaded actor
taking as many candidates at once as its evaluator has slots (on a GPU, the next
candidates' kernels compile on the CPU while the GPU judges one). Ray restarts a dead
actor (``max_restarts``); the pool decides what happens to the candidate it was evaluating.
"""

from __future__ import annotations

import os
import socket
import threading

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator
from kernelevo.evaluation.capacity import slots_for
from kernelevo.records.race import Race
from kernelevo.spec import Spec
from kernelevo.spec.errors import SpecError


class EvaluatorActor:
    """Ray actor body (wrapped with ``ray.remote`` by the pool)."""

    def __init__(self, options: EvalOptions) -> None:
        self.options = options
        self.evaluators: dict[str, Evaluator] = {}
        self._lock = threading.Lock()

    def ready(self) -> dict[str, str]:
        """Where this actor runs (host, pid, the GPUs Ray gave it) and how many candidates it takes at once."""
        return {"host": socket.gethostname(), "pid": str(os.getpid()),
                "gpus": os.environ.get("CUDA_VISIBLE_DEVICES", ""), "slots": str(slots_for(self.options))}

    def prepare(self, spec: Spec) -> str | None:
        """Start the spec's judge now (references, baselines, children); why it cannot start, or None."""
        try:
            self._evaluator(spec).start()
        except SpecError as exc:
            return str(exc)
        return None

    def evaluate(self, spec: Spec, source: str, race: Race | None = None) -> EvalResult:
        return self._evaluator(spec).evaluate(source, race)

    def release(self, spec: Spec) -> None:
        """Close the spec's judge and children: its GPU memory goes to the next spec's."""
        with self._lock:
            evaluator = self.evaluators.pop(spec.sha256, None)
        if evaluator is not None:
            evaluator.close()

    def _evaluator(self, spec: Spec) -> Evaluator:
        with self._lock:
            evaluator = self.evaluators.get(spec.sha256)
            if evaluator is None:
                evaluator = self.evaluators[spec.sha256] = Evaluator(spec, self.options)
            return evaluator

    def close(self) -> None:
        for evaluator in self.evaluators.values():
            evaluator.close()
        self.evaluators.clear()
