"""Evaluation: static checks, compile, correctness, timing and verdict, in isolated children.

``evaluate(spec, candidate)`` judges one candidate; :class:`Evaluator` keeps a judge warm
for many. Results are :class:`EvalResult` records; the evaluator never raises into its
caller.

Four rooms: ``judge/`` (the evaluator and the judge's process), ``child/`` (the children that run
a candidate's code), ``common/`` (what both import: messages, timing, comparison...) and
``static/`` (the checks that read a source and run nothing). The child's side never imports the judge's.
"""

from kernelevo.evaluation.judge.evaluator import Evaluator, evaluate
from kernelevo.evaluation.static.check import Finding, check_source
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
