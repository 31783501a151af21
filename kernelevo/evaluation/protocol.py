"""Messages between the evaluator, the judge and a candidate's child (no torch needed here).

The judge never sends the child its own tensors: both build the same inputs from the
same seed. The child sends outputs back (CUDA IPC on a GPU, shared memory on a CPU).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelevo.evaluation.options import EvalOptions
from kernelevo.evaluation.result import ErrorKind, KernelMetadata, Timing
from kernelevo.spec.spec import Spec


@dataclass
class JudgeSetup:
    spec: Spec
    options: EvalOptions
    # Triton's cache for what candidate children build before any candidate code runs
    # (Triton's C helpers); each candidate's kernels go to a cache of its own (EvaluateRequest)
    runtime_cache: str | None = None


@dataclass
class EvaluateRequest:
    source: str
    triton_cache: str | None = None  # this candidate's own Triton cache, perhaps filled ahead of time


@dataclass
class TargetQuery:
    """Asks the judge what Triton compiles for on its GPU (a :class:`GpuTarget`)."""


@dataclass
class LaunchSignature:
    """What an ahead-of-time compile needs of one interpreted launch (no tensors kept)."""

    args: dict[str, Any]  # name -> ("tensor", dtype, aligned16) | ("int", value) | ("float", value) | value
    options: dict[str, Any]  # num_warps, num_stages


@dataclass
class ChildSetup:
    spec: Spec
    device: str
    gpu_memory_fraction: float
    allowed_ops: list[str]


@dataclass
class Warm:
    """Create the CUDA context and the L2 flush buffer (sent once the previous candidate is timed)."""


@dataclass
class Load:
    """Import the candidate and build ModelNew for each variant."""

    source: str
    variants: list[str]
    model_seed: int
    triton_cache: str | None = None  # where Triton caches (and may find) this candidate's kernels


@dataclass
class Check:
    """Run the candidate for correctness on ``variant``.

    Calls, in order: one per seed on fresh inputs; then, on the first seed's buffers,
    refilled in place with ``reuse_seed``'s values (a result cached by input address
    shows); then those buffers refilled with the first seed's values and other poison
    (nondeterminism and unwritten memory show).
    """

    variant: str
    seeds: list[int]
    reuse_seed: int | None
    repeat: bool
    poison: list[tuple[list[int], str]]  # (shape, dtype) of each expected output


@dataclass
class CallRecord:
    label: str  # "fresh", "address_reuse", "repeat"
    seed: int
    poison: int
    outputs: list[Any]  # tensors; anything else is reported as a wrong type
    inputs_after: list[Any]
    launches: int
    wrong_type: str | None = None


@dataclass
class CheckReply:
    calls: list[CallRecord]
    compute_ops: dict[str, int] = field(default_factory=dict)
    violations: list[tuple[ErrorKind, str]] = field(default_factory=list)
    compile_s: float = 0.0


@dataclass
class TimeRequest:
    variant: str
    seeds: list[int]
    warmup: int
    warmup_ms: float
    min_reps: int
    min_measure_ms: float
    max_reps: int
    budget_ms: float
    target_rel_iqr: float


@dataclass
class TimeReply:
    timing: Timing
    samples_ms: list[float]
    loop_wall_s: float
    violations: list[tuple[ErrorKind, str]] = field(default_factory=list)


@dataclass
class MetadataRequest:
    pass


@dataclass
class MetadataReply:
    """Compiled kernels' metadata (GPU), or what an ahead-of-time compile needs (interpreter)."""

    kernels: list[KernelMetadata]
    signatures: dict[str, LaunchSignature] = field(default_factory=dict)
    launches: dict[str, int] = field(default_factory=dict)


@dataclass
class ChildError:
    """A failure the child classified itself (an exception in the candidate's code)."""

    kind: ErrorKind
    message: str
    compile_s: float = 0.0
