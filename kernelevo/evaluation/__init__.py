"""Evaluation: static checks, compile, correctness, timing and verdict, in isolated children.

``evaluate(spec, candidate)`` judges one candidate; :class:`Evaluator` keeps a judge warm
for many. Results are :class:`EvalResult` records; the evaluator never raises into its
caller.
"""

from kernelevo.evaluation.evaluator import Evaluator, evaluate
from kernelevo.evaluation.static_check import Finding, check_source
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
