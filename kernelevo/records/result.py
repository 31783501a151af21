"""Typed records the evaluator returns: :class:`EvalResult` and its parts.

Every number carries its unit in its name (``_ms``, ``_bytes``, ``_gbs`` for GB/s).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field


class Stage(StrEnum):
    """Pipeline stages, in order; ``EvalResult.stage`` is the last one reached."""

    STATIC = "static"
    COMPILE = "compile"
    CORRECTNESS = "correctness"
    TIMING = "timing"
    VERDICT = "verdict"


class ErrorKind(StrEnum):
    """Named reasons a candidate is rejected (or could not be judged)."""

    # static checks (no code run)
    SYNTAX_ERROR = "syntax_error"
    MISSING_MODEL_NEW = "missing_model_new"
    NO_KERNEL = "no_kernel"
    FORBIDDEN_IMPORT = "forbidden_import"
    TRY_EXCEPT_FALLBACK = "try_except_fallback"
    TORCH_COMPUTE = "torch_compute"
    CALLS_REFERENCE = "calls_reference"
    SIDE_STREAM = "side_stream"
    THREADS = "threads"
    MONKEY_PATCH = "monkey_patch"
    FILE_OR_NETWORK = "file_or_network_access"
    DYNAMIC_CODE = "dynamic_code"
    UNSUPPORTED_LANGUAGE = "unsupported_language"
    LIBRARY_CALL = "library_call"  # cuBLAS, cuDNN, Thrust, CuPy's own kernels... where the library policy forbids them
    TIMER_ACCESS = "timer_access"  # CUDA events, clocks or the global timer read by the candidate
    # compile and load
    COMPILE_ERROR = "compile_error"
    COMPILE_TIMEOUT = "compile_timeout"
    # running the candidate
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    CUDA_ERROR = "cuda_error"
    OUT_OF_MEMORY = "out_of_memory"
    KERNEL_NOT_LAUNCHED = "kernel_not_launched"
    # a library call (allowed by the policy) doing work the reference gives no library: an identity
    # convolution adding a bias, a GEMM with a ones vector summing rows
    LIBRARY_MISUSE = "library_misuse"
    # fp32 products rounded to TF32 where the spec's reference computes them in fp32 (Triton's tl.dot default)
    REDUCED_PRECISION = "reduced_precision"
    # torch's precision settings (TF32, reduced-precision sums) changed: the reference's calls would change too
    PRECISION_SETTINGS = "precision_settings"
    # correctness of what it returned
    WRONG_TYPE = "wrong_type"
    WRONG_SHAPE = "wrong_shape"
    WRONG_DTYPE = "wrong_dtype"
    WRONG_OUTPUT = "wrong_output"
    NAN_INF_MISMATCH = "nan_inf_mismatch"
    UNINITIALIZED_OUTPUT = "uninitialized_output"
    CACHED_OUTPUT = "cached_output"
    NONDETERMINISTIC = "nondeterministic"
    MUTATED_INPUTS = "mutated_inputs"
    # timing
    BELOW_PHYSICAL_FLOOR = "below_physical_floor"
    TIMER_MISMATCH = "timer_mismatch"
    # the evaluator itself (not the candidate's fault)
    SPEC_ERROR = "spec_error"
    NEEDS_GPU = "needs_gpu"  # a CUDA kernel on a machine without a GPU: checked and compiled, not run
    EVALUATOR_ERROR = "evaluator_error"
    RUN_STOPPED = "run_stopped"  # its run left the shared evaluator pool before the candidate was judged
    POOL_LOST = "pool_lost"  # the shared evaluator pool died (or was stopped) before the candidate was judged


class Timing(BaseModel):
    """Repeated timings of one callable, in milliseconds."""

    median_ms: float
    iqr_ms: float
    min_ms: float
    mean_ms: float
    repetitions: int
    method: str  # "cuda_events" or "perf_counter"
    interpreted: bool = False  # Triton's CPU interpreter: never a GPU speed
    l2_flushed: bool = False
    input_sets: int = 1  # distinct input sets rotated through
    # GPU: the host's median time to launch one call (Python, wrapper, launches). It is kept out of
    # median_ms: the GPU is kept busy while the host launches, so the events time only the GPU's work.
    host_launch_ms: float | None = None
    bracket_ms: float = 0.0  # GPU: the event bracket's own time, measured by the judge and taken off each sample
    # stopped early, clearly slower than the elite of its archive cell (kernelevo.evaluation.common.racing): the
    # median is from fewer samples, and is above the elite's by more than the noise
    raced: bool = False

    @property
    def relative_iqr(self) -> float:
        return self.iqr_ms / self.median_ms if self.median_ms > 0 else float("inf")


class Mismatch(BaseModel):
    """Where and by how much a candidate's output differs from the reference."""

    variant: str
    trial: str
    output_index: int
    max_abs_error: float
    max_rel_error: float
    worst_index: list[int]
    expected: float | None = None
    got: float | None = None
    mismatched: int
    total: int
    atol: float
    rtol: float

    def summary(self) -> str:
        where = ",".join(str(i) for i in self.worst_index)
        return (
            f"output[{self.output_index}] of variant {self.variant!r} ({self.trial}): "
            f"{self.mismatched}/{self.total} elements outside atol={self.atol:g}, rtol={self.rtol:g}; "
            f"max abs error {self.max_abs_error:.3g}, max rel error {self.max_rel_error:.3g} "
            f"at [{where}] (expected {self.expected!r}, got {self.got!r})"
        )


class KernelMetadata(BaseModel):
    """What the compiler reports for one kernel (Triton or CUDA)."""

    name: str
    launches: int = 0
    registers: int | None = None
    spills: int | None = None  # spilled registers (bytes of local memory when read from a cubin)
    shared_bytes: int | None = None
    num_warps: int | None = None
    num_stages: int | None = None
    max_threads_per_block: int | None = None  # CUDA: what its registers and shared memory allow
    tf32_dots: int | None = None  # Triton: its dots that round fp32 operands to TF32 (None: its TTIR was not read)
    source: str = "runtime"  # "runtime" (the GPU's own compile) or "aot-sm90" (compiled ahead of time)
    error: str | None = None


# The vendor-library families a candidate may hand to torch by default: the ops inductor itself
# leaves to libraries (kernelevo.evaluation.common.library says what each covers).
LIBRARY_FAMILIES = ("gemm", "conv", "attention", "rnn")


def known_families(value: list[str] | None, *, pure: str = "[] for pure mode") -> list[str] | None:
    """``value`` when it names only library families (a validator's check); else a ValueError that lists them."""
    unknown = [v for v in value or [] if v not in LIBRARY_FAMILIES]
    if unknown:
        raise ValueError(f"library families are {', '.join(LIBRARY_FAMILIES)} ({pure}), not "
                         f"{', '.join(map(repr, unknown))}")
    return value


class LibraryCall(BaseModel):
    """Calls of one vendor-library op with one signature that a forward made through torch."""

    family: str  # "gemm", "conv", "attention", "rnn" (kernelevo.evaluation.common.library)
    op: str  # the torch function or aten op: "linear", "mm", "conv2d", "scaled_dot_product_attention", ...
    signature: str  # for people: "linear 4096x4096x4096 float16"
    count: int = 1  # calls per forward
    work: list[str] = Field(default_factory=list)  # the work units one call does (what the policy compares)


class LibraryUse(BaseModel):
    """The library kernels a candidate's forward ran through torch, and their share of its GPU time."""

    policy: list[str]  # the families the run allowed (empty: pure mode)
    calls: list[LibraryCall] = Field(default_factory=list)
    # GPU only: the library calls' GPU time in one forward (CUDA events around each, L2 flushed before the
    # forward; ms), and that time over the candidate's median
    library_ms: float | None = None
    gpu_share: float | None = None

    def summary(self) -> str:
        """What ran in libraries: ``"linear x2, conv2d (83% of GPU time)"``."""
        if not self.calls:
            return ""
        ops = ", ".join(f"{c.op}{f' x{c.count}' if c.count > 1 else ''}" for c in self.calls)
        return ops + (f" ({self.gpu_share:.0%} of GPU time)" if self.gpu_share is not None else "")


class CudaBuild(BaseModel):
    """One CUDA unit of a candidate (a CuPy module or a load_inline extension) as compiled."""

    form: str  # "cupy" (NVRTC) or "load_inline" (nvcc, built by torch)
    name: str
    arch: str  # "sm_90"
    compiler: str  # "nvcc 13.0", "nvrtc (cupy 14.2)", ...
    ahead_of_time: bool = False  # compiled by the evaluator for its figures, not the build the GPU ran
    compile_s: float | None = None
    cached: bool = False  # load_inline: the extension was already built for this source
    ptx: str | None = None
    sass: str | None = None
    truncated: bool = False  # PTX or SASS longer than what is kept (64 KiB each)
    log: str = ""  # ptxas -v: registers, spills, shared memory per kernel
    error: str | None = None


class Floor(StrEnum):
    """Which bound sets a kernel's floor (:meth:`kernelevo.evaluation.judge.hardware.Ceilings.floor`)."""

    COMPUTE = "compute"  # FLOPs / peak FLOP/s
    READ = "read"  # a kernel that reads more than it writes: the bytes it reads at the read bandwidth, ...
    COPY = "copy"  # bytes moved / the copy bandwidth (a kernel that writes as much as it reads, or more)


class Roofline(BaseModel):
    """The physical floor of a kernel's time and the fraction of it a kernel reaches."""

    bytes_moved: int  # bytes_read + bytes_written
    flops: int
    bandwidth_gbs: float | None  # measured device-to-device copy bandwidth (bytes read + written)
    peak_tflops: float | None
    floor_ms: float | None  # the floor that applies (``floor``)
    fraction: float | None  # floor_ms / kernel median_ms (1.0 is the roofline)
    # Results stored before reads and writes were told apart have none of the four below: their
    # floor was the copy floor (or the compute floor where FLOPs dominated).
    bytes_read: int | None = None  # inputs and parameters, each read once
    bytes_written: int | None = None  # outputs, each written once
    read_bandwidth_gbs: float | None = None  # measured read-only bandwidth (bytes read)
    floor: Floor | None = None

    def floor_kind(self) -> Floor | None:
        """The floor that applies; for an older record, the one its numbers show (copy or compute)."""
        if self.floor is not None or self.floor_ms is None or not self.bandwidth_gbs:
            return self.floor
        copy_ms = self.bytes_moved / (self.bandwidth_gbs * 1e6)
        compute_ms = self.flops / (self.peak_tflops * 1e9) if self.flops and self.peak_tflops else 0.0
        return Floor.COMPUTE if compute_ms > copy_ms else Floor.COPY

    def terms(self) -> str:
        """What the floor is made of, e.g. ``"1073.7 MB read, 0.3 MB written; 3012 GB/s copy, 3301 GB/s read; 0.00
        GFLOP"`` (bytes in MB, bandwidths measured, FLOPs at the rated peak)."""
        if self.bytes_read is None or self.bytes_written is None:
            moved = f"{self.bytes_moved / 1e6:.1f} MB moved"
        else:
            moved = f"{self.bytes_read / 1e6:.1f} MB read, {self.bytes_written / 1e6:.1f} MB written"
        rates = [f"{bw:.0f} GB/s {name}" for name, bw in (("copy", self.bandwidth_gbs),
                                                          ("read", self.read_bandwidth_gbs)) if bw]
        peak = f" at {self.peak_tflops:.0f} TFLOP/s" if self.flops and self.peak_tflops else ""
        flops = f"{self.flops / 1e9:.2f} GFLOP{peak}"
        return "; ".join([moved, ", ".join(rates) or "bandwidth unknown", flops])


def floor_name(roofline: Roofline | None) -> str | None:
    """Which floor a roofline's fraction is of ("read", "copy" or "compute", as stored beside the fraction);
    None without a roofline or a known floor."""
    kind = roofline.floor_kind() if roofline is not None else None
    return kind.value if kind is not None else None


class Environment(BaseModel):
    """Where an evaluation ran."""

    device: str
    device_name: str
    hardware: str  # short key for archives: "h200", "cpu-interpreter", ...
    compute_capability: str | None = None
    sm_count: int | None = None
    l2_bytes: int | None = None
    shared_per_sm_bytes: int | None = None
    driver: str | None = None
    cuda: str | None = None
    torch: str
    triton: str | None
    python: str
    hostname: str


class MemoryUse(BaseModel):
    """GPU memory of one evaluation, in bytes: the caching allocators' peaks (CUDA contexts not counted)."""

    live_data_bytes: int  # D: inputs, outputs and parameters of the spec's largest variant
    judge_peak_bytes: int | None = None  # the judge, during this candidate
    child_peak_bytes: int | None = None  # the candidate's child, over its life
    child_limit_bytes: int | None = None  # the child's limit (over it: out_of_memory)
    device_bytes: int | None = None  # what the evaluation could use on the GPU


class StageCosts(BaseModel):
    """Where the evaluation's own wall time went, in seconds."""

    judge_start_s: float = 0.0  # starting the judge, when this candidate had to wait for it (references, plan)
    judge_start_parts: dict[str, float] = Field(default_factory=dict)  # where judge_start_s went, by step
    child_start_s: float = 0.0  # waiting for a fresh candidate child (0 when one was warm)
    static_s: float = 0.0
    compile_s: float = 0.0
    correctness_s: float = 0.0
    timing_s: float = 0.0
    baselines_s: float = 0.0  # eager and torch.compile: measured once per judge, or read from the disk cache
    precompile_s: float = 0.0  # on the CPU, while the GPU judged the previous candidate
    judge_s: float = 0.0  # the judge held the device for this candidate (the GPU's busy time)
    # where the judge's time went, by step: load, calls (the candidate's correctness runs, the
    # child's inputs and the hand-over included), in_child (of which inside the child), reference,
    # compare, metadata, settle, timing, cleanup
    judge_parts: dict[str, float] = Field(default_factory=dict)
    total_s: float = 0.0


class Precompiled(BaseModel):
    """The kernels compiled on the CPU ahead of the GPU run, and whether the GPU run reused them."""

    kernels: list[str] = Field(default_factory=list)
    error: str | None = None  # why the candidate's wrapper could not run without a GPU
    timed_out: bool = False  # the compile ran past the compile limit (the candidate is rejected for it)
    compiled_on_gpu: int = 0  # kernels the GPU child still had to compile (0: all came from the cache)
    output: str = ""  # the tail of what the precompiler's child printed, stdout and stderr together


class Tolerance(BaseModel):
    """A tolerance the judge widened from its dtype's default for one variant, because the reference's own
    result is that far from float64 (kernelevo.spec.precision); a spec's own tolerance is never widened."""

    variant: str
    dtype: str
    atol: float
    rtol: float
    default: float  # the dtype's default atol = rtol
    reference_error: float  # the reference's worst error from float64 (its TF32 run included), in defaults
    why: str = ""  # e.g. "TF32 convolutions", "TF32 recurrent layers", "its own rounding"

    def summary(self) -> str:
        return (f"variant {self.variant!r} judged at atol = rtol = {self.atol:g}, not {self.default:g}: the "
                f"reference's own {self.dtype} result is {self.reference_error:.3g}x that from float64"
                + (f" ({self.why})" if self.why else ""))


class EvalResult(BaseModel):
    """Everything the evaluator found out about one candidate. Never an exception."""

    correct: bool = False
    stage: Stage = Stage.STATIC
    error: ErrorKind | None = None
    message: str = ""
    mismatch: Mismatch | None = None
    tolerances: list[Tolerance] = Field(default_factory=list)  # defaults the judge widened, per variant
    variants_checked: list[str] = Field(default_factory=list)
    timed_variant: str | None = None
    kernel: Timing | None = None
    eager: Timing | None = None
    compiled: Timing | None = None  # torch.compile of the reference
    compile_baseline_error: str | None = None
    speedup_eager: float | None = None
    speedup_compile: float | None = None
    remeasured: bool = False  # a >10x speedup over torch.compile was timed again before being believed
    interpreted: bool = False
    # the run's archive descriptors (EvalOptions.descriptors), measured where the evaluator runs, so
    # that the driver need not parse every source again: name -> value; None when not asked or not correct
    measures: dict[str, float] | None = None
    roofline: Roofline | None = None
    kernels: list[KernelMetadata] = Field(default_factory=list)
    cuda: list[CudaBuild] = Field(default_factory=list)  # CUDA candidates: how each unit compiled, PTX, SASS
    library: LibraryUse | None = None  # vendor-library calls the forward made through torch (None: none)
    launches: int = 0
    environment: Environment | None = None
    costs: StageCosts = Field(default_factory=StageCosts)
    precompiled: Precompiled | None = None
    memory: MemoryUse | None = None  # GPU only
    baselines_cached: bool = False  # the eager and torch.compile timings came from the disk cache
    # the tail of what the candidate's child printed, stdout and stderr together (its own prints, CUDA
    # asserts, compiler dumps), then under "[ahead-of-time compile]" that of the CPU's sm_90 compile
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.correct and self.error is None

    def headline(self) -> str:
        """One line for logs: verdict, reason or speedups."""
        if not self.ok:
            return f"rejected at {self.stage}: {self.error} - {self.message.splitlines()[0] if self.message else ''}"
        if self.interpreted:
            return "correct (interpreted on CPU: timings are not GPU speeds)"
        return ", ".join([f"correct, {self.kernel.median_ms:.4g} ms" if self.kernel else "correct",
                          *self.speed_parts()])

    def speed_parts(self) -> list[str]:
        """The speedups and roofline fraction known, e.g. ``["1.20x eager", "82% of roofline (read)"]``."""
        parts = []
        if self.speedup_eager:
            parts.append(f"{self.speedup_eager:.2f}x eager")
        if self.speedup_compile:
            parts.append(f"{self.speedup_compile:.2f}x torch.compile")
        if self.roofline and self.roofline.fraction:
            parts.append(f"{self.roofline.fraction:.0%} of roofline ({self.roofline.floor_kind()})")
        return parts
