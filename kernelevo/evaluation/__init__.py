"""Evaluation: static checks, compile, correctness, timing and verdict, in isolated children.

``evaluate(spec, candidate)`` judges one candidate; :class:`Evaluator` keeps a judge warm
for many. Results are :class:`EvalResult` records; the evaluator never raises into its
caller.

Four rooms: ``judge/`` (the evaluator and the judge's process), ``child/`` (the children that run
a candidate's code), ``common/`` (what both import: messages, timing, comparison...) and
``static/`` (the checks that read a source and run nothing). The child's side never imports the judge's.

The evaluator's and the static checks' names load on first use (PEP 562): a candidate's child imports
:mod:`kernelevo.evaluation.child.runner`, and this package's face must not load the judge's side into it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kernelevo.records.options import EvalOptions
from kernelevo.records.result import (
    Environment,
    ErrorKind,
    EvalResult,
    KernelMetadata,
    Mismatch,
    Roofline,
    Stage,
    StageCosts,
    Timing,
)

if TYPE_CHECKING:
    from kernelevo.evaluation.judge.evaluator import Evaluator, evaluate
    from kernelevo.evaluation.static.check import Finding, check_source

_HOMES = {"Evaluator": "judge.evaluator", "evaluate": "judge.evaluator", "Finding": "static.check",
          "check_source": "static.check"}

__all__ = [
    "Environment",
    "ErrorKind",
    "EvalOptions",
    "EvalResult",
    "Evaluator",
    "Finding",
    "KernelMetadata",
    "Mismatch",
    "Roofline",
    "Stage",
    "StageCosts",
    "Timing",
    "check_source",
    "evaluate",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'kernelevo.evaluation' has no attribute {name!r}")
    return getattr(importlib.import_module(f"kernelevo.evaluation.{_HOMES[name]}"), name)
