"""Messages between the evaluator, the judge and a candidate's child (no torch needed here).

The judge never sends the child its own tensors: both build the same inputs from the
same seed. The child sends its outputs and its input buffers back, one call at a time
(CUDA IPC on a GPU, so nothing is copied; shared memory on a CPU), and keeps them alive
until the judge's next request.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from kernelevo.evaluation.common.memory import MemoryPlan
from kernelevo.records.options import EvalOptions
from kernelevo.records.race import Race
from kernelevo.records.result import CudaBuild, Environment, ErrorKind, KernelMetadata, LibraryCall, Timing
from kernelevo.spec.spec import Spec


@dataclass(frozen=True)
class GpuTarget:
    """What Triton compiles for: backend, architecture (90 for Hopper) and warp size.

    The judge reports it (:class:`JudgeInfo`); a precompiler compiles for it (a ``PrecompileRequest``).
    """

    backend: str = "cuda"
    arch: int = 90
    warp_size: int = 32


@dataclass
class JudgeSetup:
    spec: Spec
    options: EvalOptions
    gpu: bool  # the evaluator's answer: the judge's children start before the judge imports torch
    # Triton's cache for what candidate children build before any candidate code runs
    # (Triton's C helpers); each candidate's kernels go to a cache of its own (EvaluateRequest)
    runtime_cache: str | None = None
    flops: int | None = None  # the timed variant's FLOPs, from the evaluator's cache (None: the judge counts them)


@dataclass
class EvaluateRequest:
    source: str
    triton_cache: str | None = None  # this candidate's own Triton cache, perhaps filled ahead of time
    race: Race | None = None  # the elites it must beat (evaluation.racing); None: time it in full


@dataclass
class Describe:
    """Asks a ready judge for its :class:`JudgeInfo`."""


@dataclass
class JudgeInfo:
    """What a judge found at its start: where it runs, the memory plan, and where its start time went."""

    environment: Environment
    target: GpuTarget | None  # what Triton compiles for on its GPU (None without one)
    timed_variant: str
    flops: int  # of the timed variant
    timing_sets: int
    memory: MemoryPlan | None
    start_costs: dict[str, float]  # seconds per start-up step


@dataclass
class BaselinesRequest:
    """Use ``cached`` baselines, or (None) measure eager and torch.compile now."""

    cached: dict[str, Timing | str] | None = None


@dataclass
class BaselinesReply:
    baselines: dict[str, Timing | str]  # a Timing, or why the baseline could not run
    measured_s: float  # 0 when the cached ones were taken


@dataclass
class LaunchSignature:
    """What an ahead-of-time compile needs of one interpreted launch (no tensors kept)."""

    args: dict[str, Any]  # name -> ("tensor", dtype, aligned16) | ("int", value) | ("float", value) | value
    options: dict[str, Any]  # num_warps, num_stages


def fresh_seed() -> int:
    """A seed no candidate can predict."""
    return secrets.randbits(62)


@dataclass
class ChildSetup:
    spec: Spec
    device: str
    allowed_ops: list[str]
    allowed_libraries: list[str] = field(default_factory=list)  # CUDA: libraries whose kernels may run
    # the reference models a Load will ask for (its variants, built with its model seed): a child
    # builds them on the CPU before its candidate comes, while the one before is judged
    variants: list[str] = field(default_factory=list)
    model_seed: int | None = None


@dataclass
class Warm:
    """Create the CUDA context and the L2 flush buffer (sent once the previous candidate is timed)."""

    memory_limit_bytes: int | None = None  # the child's allocator limit (the judge's memory plan)


@dataclass
class Load:
    """Import the candidate and build ModelNew for each variant."""

    source: str
    variants: list[str]
    model_seed: int
    triton_cache: str | None = None  # where Triton caches (and may find) this candidate's kernels


@dataclass
class Call:
    """Run the candidate once on ``variant``, for correctness.

    ``trial`` says which inputs: ``fresh`` ones drawn from ``seed`` (kept as the variant's
    buffers); or those buffers refilled in place with ``seed``'s values (``address_reuse``:
    a result cached by input address shows; ``repeat``: the first seed again, so
    nondeterminism and unwritten memory show). Before the call, blocks shaped like the
    expected outputs are filled with poison pattern ``poison`` and freed.
    """

    variant: str
    trial: str
    seed: int
    poison: int
    outputs: list[tuple[list[int], str]]  # (shape, dtype) of each expected output


@dataclass
class CallReply:
    """One call's outputs and input buffers (alive in the child until the next request) and what it did."""

    outputs: list[Any]  # tensors; anything else is reported as a wrong type
    inputs_after: list[Any]
    launches: int
    wrong_type: str | None = None
    compute_ops: dict[str, int] = field(default_factory=dict)
    library: list[LibraryCall] = field(default_factory=list)  # vendor-library calls made through torch
    violations: list[tuple[ErrorKind, str]] = field(default_factory=list)
    compile_s: float = 0.0
    peak_bytes: int | None = None  # GPU: the child's allocator peak so far
    child_s: float = 0.0  # the call's wall time inside the child (inputs, the run, its checks)


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
    race_ms: float | None = None  # stop once clearly slower than this (raw samples' ms; see racing.py)


@dataclass
class TimeReply:
    timing: Timing
    samples_ms: list[float]
    loop_wall_s: float
    covers_ms: list[float]  # the GPU's sleep before each timed call (see kernelevo.evaluation.common.timing)
    violations: list[tuple[ErrorKind, str]] = field(default_factory=list)
    peak_bytes: int | None = None
    # GPU, a forward that made library calls: their GPU time in one forward (ms; CUDA events around
    # each call, L2 flushed before the forward, the median of a few forwards after the timed loop)
    library_ms: float | None = None


@dataclass
class MetadataRequest:
    pass


@dataclass
class MetadataReply:
    """Compiled kernels' metadata (GPU), or what an ahead-of-time compile needs (interpreter)."""

    kernels: list[KernelMetadata]
    signatures: dict[str, LaunchSignature] = field(default_factory=dict)
    launches: dict[str, int] = field(default_factory=dict)
    builds: list[CudaBuild] = field(default_factory=list)  # CUDA: each unit as built, with PTX and SASS


@dataclass
class ChildError:
    """A failure the child classified itself (an exception in the candidate's code)."""

    kind: ErrorKind
    message: str
    compile_s: float = 0.0
