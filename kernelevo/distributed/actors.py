"""The GPU evaluator actor: one per GPU, owning the isolated evaluation processes of that GPU.

An actor keeps one warm :class:`~kernelevo.evaluation.Evaluator` per spec and evaluation
options (a run's own pool passes none and the actor's are used; the shared pool passes each
run's), so the judge's reference outputs and baseline timings are computed once per spec,
options and hardware and reused for every candidate, of every run that shares them. The
actor itself runs no spec or kernel code: its judge, candidate and precompiler children do,
in their own sandboxes. It is a threaded actor taking as many candidates at once as its
evaluator has slots (on a GPU, the next candidates' kernels compile on the CPU while the GPU
judges one). Ray restarts a dead actor (``max_restarts``); the pool decides what happens to
the candidate it was evaluating.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading

from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator
from kernelevo.evaluation.judge.capacity import slots_for
from kernelevo.records.race import Race
from kernelevo.spec import Spec
from kernelevo.spec.errors import SpecError


def options_key(options: EvalOptions) -> str:
    """A short digest of evaluation options: runs whose options digest alike share a warm judge."""
    return hashlib.sha256(options.model_dump_json().encode()).hexdigest()[:16]


class EvaluatorActor:
    """Ray actor body (wrapped with ``ray.remote`` by the pool)."""

    def __init__(self, options: EvalOptions) -> None:
        self.options = options
        self.evaluators: dict[tuple[str, str], Evaluator] = {}  # (spec.sha256, options_key) -> warm judge
        self._lock = threading.Lock()

    def ready(self) -> dict[str, str]:
        """Where this actor runs (host, pid, the GPUs Ray gave it) and how many candidates it takes at once."""
        return {"host": socket.gethostname(), "pid": str(os.getpid()),
                "gpus": os.environ.get("CUDA_VISIBLE_DEVICES", ""), "slots": str(slots_for(self.options))}

    def prepare(self, spec: Spec, options: EvalOptions | None = None) -> str | None:
        """Start the judge of the spec and options (default: the actor's) now (references, baselines,
        children); why it cannot start, or None. No candidate waited for this start, so no result carries
        its cost (the pool keeps how long preparing took: ``PoolJudge.prepare_s``)."""
        evaluator = self._evaluator(spec, options)
        try:
            evaluator.start()
        except SpecError as exc:
            return str(exc)
        evaluator.forget_start_costs()
        return None

    def evaluate(self, spec: Spec, source: str, race: Race | None = None,
                 options: EvalOptions | None = None) -> EvalResult:
        return self._evaluator(spec, options).evaluate(source, race)

    def release(self, spec: Spec, options: EvalOptions | None = None) -> None:
        """Close the judge of the spec and options, and its children: its GPU memory goes to the next one."""
        with self._lock:
            evaluator = self.evaluators.pop((spec.sha256, options_key(options or self.options)), None)
        if evaluator is not None:
            evaluator.close()

    def _evaluator(self, spec: Spec, options: EvalOptions | None) -> Evaluator:
        options = options or self.options
        key = (spec.sha256, options_key(options))
        with self._lock:
            evaluator = self.evaluators.get(key)
            if evaluator is None:
                evaluator = self.evaluators[key] = Evaluator(spec, options)
            return evaluator

    def close(self) -> None:
        for evaluator in self.evaluators.values():
            evaluator.close()
        self.evaluators.clear()
