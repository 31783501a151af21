"""The GPU evaluator actor: one per GPU, owning the isolated evaluation processes of that GPU.

An actor keeps one warm :class:`~kernelevo.evaluation.Evaluator` per spec, so the judge's
reference outputs and baseline timings are computed once per spec and hardware and
reused for every candidate. The actor itself runs no spec or kernel code: its judge and
candidate children do, in their own sandboxes. Ray restarts a dead actor
(``max_restarts``); the pool decides what happens to the candidate it was evaluating.
"""

from __future__ import annotations

import os
import socket

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator
from kernelevo.spec import Spec


class EvaluatorActor:
    """Ray actor body (wrapped with ``ray.remote`` by the pool)."""

    def __init__(self, options: EvalOptions) -> None:
        self.options = options
        self.evaluators: dict[str, Evaluator] = {}

    def ready(self) -> dict[str, str]:
        """Where this actor runs: host, pid, the GPUs Ray gave it."""
        return {"host": socket.gethostname(), "pid": str(os.getpid()),
                "gpus": os.environ.get("CUDA_VISIBLE_DEVICES", "")}

    def evaluate(self, spec: Spec, source: str) -> EvalResult:
        evaluator = self.evaluators.get(spec.sha256)
        if evaluator is None:
            evaluator = self.evaluators[spec.sha256] = Evaluator(spec, self.options)
        return evaluator.evaluate(source)

    def close(self) -> None:
        for evaluator in self.evaluators.values():
            evaluator.close()
        self.evaluators.clear()
