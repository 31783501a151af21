"""Records that several roles share: the lowest floor of the package.

Evaluation results and options, candidates and their LLM usage, elites and races, runs and their
configuration: the evaluator, the variation operators, the archive, the search, storage and the
API all read and write these, so they live here, below all of them, and import nothing of theirs.
"""

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution, Usage, source_hash
from kernelevo.records.cell import cell_index
from kernelevo.records.elite import AddOutcome, AddStatus, Elite
from kernelevo.records.options import EvalOptions
from kernelevo.records.race import Race
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
    Tolerance,
)
from kernelevo.records.run import RunInfo, RunStatus
from kernelevo.records.run_config import Budget, LLMConfig, RunConfig

__all__ = [
    "AddOutcome",
    "AddStatus",
    "Budget",
    "Candidate",
    "Elite",
    "Environment",
    "ErrorKind",
    "EvalOptions",
    "EvalResult",
    "Evaluated",
    "Floor",
    "KernelMetadata",
    "LLMConfig",
    "LibraryCall",
    "LibraryUse",
    "MemoryUse",
    "Mismatch",
    "OperatorFailure",
    "Precompiled",
    "PromptEvolution",
    "Race",
    "Roofline",
    "RunConfig",
    "RunInfo",
    "RunStatus",
    "Stage",
    "StageCosts",
    "Timing",
    "Tolerance",
    "Usage",
    "cell_index",
    "source_hash",
]
