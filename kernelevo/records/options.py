"""How an evaluation runs: limits, repetitions, which checks and baselines.

A record, not the evaluator's code: the search's run configuration, the API's schemas and the
distributed pool carry these options without importing the evaluation.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kernelevo.records.result import known_families
from kernelevo.utils.devices import cores_per_gpu

AUTO_AHEAD_MAX = 8  # the most candidates compiling ahead that the automatic setting picks
CUDA_COMPILE_TIMEOUT_S = 300.0  # compile_timeout_s for a CUDA spec where none is given (load_inline's nvcc)
CPU_CHILD_LIMIT_GB = 12.0  # address space of a CPU child (kernelevo.spec.sizes.CPU_CHILD_LIMIT, in bytes)


class EvalOptions(BaseModel):
    """Settings of the evaluator; the defaults are what a search uses.

    Times are in seconds unless the name says ms. ``None`` means "the device's default".
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    device: str = "auto"  # "auto", "cuda", "cuda:1" or "cpu"
    # hard wall-clock limits; a child past one is killed with its process group
    start_timeout_s: float = Field(default=180.0, gt=0)
    compile_timeout_s: float = Field(default=120.0, gt=0)  # a CUDA spec: CUDA_COMPILE_TIMEOUT_S
    run_timeout_s: float = Field(default=60.0, gt=0)
    timing_timeout_s: float = Field(default=120.0, gt=0)
    # correctness
    correctness_trials: int = Field(default=2, ge=1)  # fresh random input sets per variant
    static_checks: bool = True
    runtime_checks: bool = True  # op recorder, stream/thread guards, integrity snapshot (tests turn them off)
    allowed_imports: list[str] = Field(default_factory=list)  # on top of the built-in allow-list
    allowed_torch_ops: list[str] = Field(default_factory=list)  # likewise, for forward's torch ops
    # CUDA: libraries a kernel's C++ may call in place of its own kernels ("cublas", "cudnn", "thrust", "cub", ...)
    allowed_libraries: list[str] = Field(default_factory=list)
    # the vendor-library families a candidate may hand to torch (gemm, conv, attention, rnn; [] for pure
    # mode); None: the spec's setting, else every family (kernelevo.evaluation.common.library)
    library: list[str] | None = None
    # archive descriptors (names, see kernelevo.archive.descriptors) to measure on each correct result
    descriptors: list[str] = Field(default_factory=list)
    # timing
    warmup_reps: int = Field(default=3, ge=0)
    warmup_ms: float = Field(default=50.0, ge=0)  # an idle GPU runs at low clocks until it has had work
    min_reps: int = Field(default=20, ge=1)
    min_measure_ms: float = Field(default=100.0, ge=0)  # summed kernel time before the spread may stop the loop
    max_reps: int = Field(default=1000, ge=1)
    timing_budget_ms: float = Field(default=1000.0, gt=0)  # per callable, adaptive repetitions stop here
    target_rel_iqr: float = Field(default=0.02, gt=0)  # stop early once IQR/median is below this
    racing: bool = True  # stop timing a candidate clearly slower than its cell's elite (evaluation.common.racing)
    timing_input_sets: int = Field(default=3, ge=1)  # rotated, so no call finds its inputs in cache
    baselines: list[str] | None = None  # "eager", "compile"; None: both on GPU, eager on CPU
    aot_metadata: bool = True  # without a GPU, compile for sm_90 ahead of time for registers and spills
    floor_check: bool = True
    floor_margin: float = Field(default=0.8, gt=0, le=1)  # reject a median below margin x floor
    remeasure_above: float = 10.0  # speedup over torch.compile that is timed again before believed
    baseline_cache: bool = True  # GPU: reuse the eager and torch.compile timings on disk (evaluation.judge.spec_cache)
    rebaseline: bool = False  # measure the baselines again (and replace the cached ones)
    # resources
    # GPU memory one evaluation (judge and candidate child together) may use; None: what is free when
    # the judge starts. The judge keeps what its memory plan needs; the child gets the rest as its limit.
    gpu_memory_gb: float | None = Field(default=None, gt=0)
    cpu_memory_limit_gb: float = Field(default=CPU_CHILD_LIMIT_GB, gt=0)  # address space of a CPU child
    # candidate children kept started (each imports torch, a few seconds): None → 1 without a
    # GPU, else one per 4 CPU cores of the GPU's share of the host, up to 4, so a GPU never
    # waits for a child to start
    spare_children: int | None = Field(default=None, ge=0)
    # candidate children and precompilers forked from a fork server that imported torch and
    # triton once (kernelevo.isolation.zygote), instead of each starting a new Python: ready in milliseconds
    fork_children: bool = True
    # On a GPU, compile the next candidates' kernels on the CPU while the GPU judges one, each
    # candidate's kernels in parallel threads (Triton releases the GIL while it compiles), at a
    # lower CPU priority than the judge (evaluation.child.precompile.NICENESS), so compiles may use every core.
    # None → sized from the CPU cores per GPU (cores_per_gpu): ahead, half of them within 2..8;
    # threads, the cores shared among those ahead, within 1..4 (16 cores: 8 ahead, 2 threads
    # each). Compiling an autotuned matmul's 8 kernels a candidate on an H100 host's 16 cores,
    # side by side: 39.5 a minute 4 ahead in 3 threads, 54.4 8 ahead in 2 (benchmarks/README.md).
    precompile: bool = True
    precompile_ahead: int | None = Field(default=None, ge=1)
    precompile_threads: int | None = Field(default=None, ge=1)

    @field_validator("library")
    @classmethod
    def _known_families(cls, value: list[str] | None) -> list[str] | None:
        return known_families(value)

    def spares(self, *, gpu: bool) -> int:
        if self.spare_children is not None:
            return self.spare_children
        return max(1, min(4, cores_per_gpu() // 4)) if gpu else 1

    def ahead(self) -> int:
        """Candidates whose kernels compile on the CPU while the GPU judges another."""
        if self.precompile_ahead is not None:
            return self.precompile_ahead
        return max(2, min(AUTO_AHEAD_MAX, cores_per_gpu() // 2))

    def most_ahead(self) -> int:
        """The most :meth:`ahead` gives on any host (a Ray driver sizes actors it does not run)."""
        return self.precompile_ahead if self.precompile_ahead is not None else AUTO_AHEAD_MAX

    def compile_threads(self) -> int:
        """Threads compiling one candidate's kernels ahead."""
        if self.precompile_threads is not None:
            return self.precompile_threads
        return max(1, min(4, cores_per_gpu() // self.ahead()))

    def baseline_names(self, *, gpu: bool) -> list[str]:
        if self.baselines is not None:
            return list(self.baselines)
        return ["eager", "compile"] if gpu else ["eager"]

    def interpreter(self) -> EvalOptions:
        """The same options, scaled for Triton's CPU interpreter (slow, and timings are not speeds)."""
        return self.model_copy(
            update={
                "min_reps": min(self.min_reps, 3),
                "warmup_ms": 0.0,
                "min_measure_ms": 0.0,
                "max_reps": min(self.max_reps, 20),
                "warmup_reps": min(self.warmup_reps, 1),
                "timing_budget_ms": min(self.timing_budget_ms, 300.0),
                "timing_input_sets": min(self.timing_input_sets, 2),
            }
        )
