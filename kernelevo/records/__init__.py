"""Records that several roles share: the lowest floor of the package.

Evaluation results, candidates and their LLM usage, elites, runs: the evaluator, the
variation operators, the archive, the search, storage and the API all read and write
these, so they live here, below all of them, and import nothing of theirs.
"""

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution, Usage, source_hash
from kernelevo.records.elite import Elite
from kernelevo.records.result import (
    Environment,
    ErrorKind,
    EvalResult,
    Floor,
    KernelMetadata,
    LibraryCall,
    LibraryUse,
    MemoryUse,
    Mismatch,
    Precompiled,
    Roofline,
    Stage,
    StageCosts,
    Timing,
)
from kernelevo.records.run import RunInfo, RunStatus

__all__ = [
    "Candidate",
    "Elite",
    "Environment",
    "ErrorKind",
    "EvalResult",
    "Evaluated",
    "Floor",
    "KernelMetadata",
    "LibraryCall",
    "LibraryUse",
    "MemoryUse",
    "Mismatch",
    "OperatorFailure",
    "Precompiled",
    "PromptEvolution",
    "Roofline",
    "RunInfo",
    "RunStatus",
    "Stage",
    "StageCosts",
    "Timing",
    "Usage",
    "source_hash",
]
