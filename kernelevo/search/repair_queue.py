"""Rejected kernels an LLM may repair, latest last, each handed to ``llm-repair`` once."""

from __future__ import annotations

import random

from kernelevo.records.candidate import Candidate, OperatorName
from kernelevo.records.result import ErrorKind, EvalResult

_K = ErrorKind
# what an LLM can repair, given the error: a kernel that fails to build or run, or computes the wrong thing
REPAIRABLE = frozenset({
    _K.COMPILE_ERROR, _K.RUNTIME_ERROR, _K.WRONG_OUTPUT, _K.WRONG_SHAPE, _K.WRONG_DTYPE, _K.WRONG_TYPE,
    _K.NAN_INF_MISMATCH, _K.UNINITIALIZED_OUTPUT, _K.KERNEL_NOT_LAUNCHED, _K.TORCH_COMPUTE, _K.OUT_OF_MEMORY,
    _K.CUDA_ERROR, _K.TIMEOUT, _K.SYNTAX_ERROR, _K.MISSING_MODEL_NEW, _K.NO_KERNEL, _K.TRY_EXCEPT_FALLBACK,
    _K.FORBIDDEN_IMPORT, _K.MUTATED_INPUTS, _K.NONDETERMINISTIC})


class RepairQueue:
    """Broken candidates (rejected for a repairable reason), in the order they were told, not yet repaired."""

    def __init__(self) -> None:
        self.broken: dict[int, Candidate] = {}  # candidate id -> candidate, oldest first
        self.repaired: set[int] = set()  # handed to llm-repair already (never queued again)

    def made(self, candidate: Candidate) -> None:
        """A repair of its parents was made: they leave the queue for good."""
        if candidate.operator == OperatorName.LLM_REPAIR:
            self.repaired.update(candidate.parent_ids)
            for parent in candidate.parent_ids:
                self.broken.pop(parent, None)

    def told(self, candidate: Candidate, result: EvalResult) -> None:
        """A result came back: a kernel rejected for a repairable reason joins the queue (once)."""
        if not result.ok and result.error in REPAIRABLE and candidate.id not in self.repaired:
            self.broken[candidate.id] = candidate

    def targets(self, limit: int = 20) -> list[Candidate]:
        """The latest ``limit`` broken candidates worth a repair."""
        return list(self.broken.values())[-limit:]

    def take(self, rng: random.Random) -> Candidate:
        """A broken candidate to repair, marked at once so that no other repair in flight takes it."""
        target = rng.choice(self.targets())
        self.repaired.add(target.id)
        self.broken.pop(target.id, None)
        return target
