"""The search, in pyribs' roles: a scheduler keeps K candidates in flight, emitters are asked for them
and told their outcomes, the archive (:mod:`kernelevo.archive`) adds and returns an outcome.

The names below load on first use (PEP 562): the evaluator pools import :mod:`kernelevo.search.pool`
alone, and importing it must not load the scheduler, storage and the operators.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernelevo.search.bandit import OperatorBandit
    from kernelevo.search.concurrency import ConcurrencyLimiter
    from kernelevo.search.emitter import Emitter
    from kernelevo.search.island import IslandEmitter
    from kernelevo.search.pool import EvaluatorPool, LocalEvaluatorPool
    from kernelevo.search.producer import Producer
    from kernelevo.search.progress import snapshot
    from kernelevo.search.repair_queue import RepairQueue
    from kernelevo.search.scheduler import Scheduler
    from kernelevo.search.selection import SelectionMix, Selector
    from kernelevo.search.state import SearchState, objective_of, replay

_HOMES = {
    "ConcurrencyLimiter": "concurrency", "Emitter": "emitter", "EvaluatorPool": "pool", "IslandEmitter": "island",
    "LocalEvaluatorPool": "pool", "OperatorBandit": "bandit", "Producer": "producer", "RepairQueue": "repair_queue",
    "Scheduler": "scheduler", "SearchState": "state", "SelectionMix": "selection", "Selector": "selection",
    "objective_of": "state", "replay": "state", "snapshot": "progress",
}

__all__ = ["ConcurrencyLimiter", "Emitter", "EvaluatorPool", "IslandEmitter", "LocalEvaluatorPool", "OperatorBandit",
           "Producer", "RepairQueue", "Scheduler", "SearchState", "SelectionMix", "Selector", "objective_of", "replay",
           "snapshot"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'kernelevo.search' has no attribute {name!r}")
    return getattr(importlib.import_module(f"kernelevo.search.{_HOMES[name]}"), name)
