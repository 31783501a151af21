"""The judge: a warm worker per spec and device that decides every verdict.

The judge runs in its own sandbox, apart from the search loop (it executes the spec, which
is untrusted too), and never imports a candidate: each candidate runs in a child of the
judge (:mod:`kernelevo.evaluation.child.runner`), started ahead of time so that its
start-up overlaps the previous candidate's evaluation. The judge holds the reference
models, computes reference outputs after the candidate has run, compares, times the
eager and ``torch.compile`` baselines with the same function the child uses (once, at its
start, unless the evaluator hands it timings cached on disk), and cross-checks the child's
reported times against the wall time it observed.

On a GPU the judge plans the memory first (:mod:`kernelevo.evaluation.common.memory`): each
variant is sized on the meta device before it is allocated, each reference run's peak is
measured, and the candidate's child is given the rest of the GPU as its limit. Its
process starts the children before it builds the judge
(:mod:`kernelevo.evaluation.judge.process`).
"""

from __future__ import annotations

import time
from typing import Any

import torch

from kernelevo.evaluation.child.instrument import OpRecorder
from kernelevo.evaluation.common.library_policy import effective_policy
from kernelevo.evaluation.common.memory import MemoryPlan, plan_memory
from kernelevo.evaluation.common.protocol import (
    BaselinesReply,
    BaselinesRequest,
    Describe,
    EvaluateRequest,
    GpuTarget,
    JudgeInfo,
    JudgeSetup,
    Warm,
    fresh_seed,
)
from kernelevo.evaluation.common.timing import L2Flusher, bracket_overhead_ms, per_call_overhead_ms, time_callable
from kernelevo.evaluation.judge.hardware import Ceilings, ceilings, environment
from kernelevo.evaluation.judge.process import Children
from kernelevo.records.result import EvalResult, LibraryCall, Timing, Tolerance
from kernelevo.spec.errors import SpecError
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.spec.precision import reference_precision
from kernelevo.spec.probe import VariantInfo, describe_variant
from kernelevo.utils.devices import pick_device


class Judge:
    """Set up once per spec and device (in :class:`~kernelevo.evaluation.judge.process.JudgeProcess`),
    then evaluates candidates."""

    def __init__(self, setup: JudgeSetup, children: Children) -> None:
        self.costs: dict[str, float] = {}
        step = time.perf_counter()
        self.spec = setup.spec
        self.device = pick_device(setup.options.device)
        self.gpu = self.device.type == "cuda"
        self.options = setup.options if self.gpu else setup.options.interpreter()
        self.pool, self.aot_pool = children.candidates, children.aot
        device_bytes = self._init_device()
        self.problem = LoadedSpec(self.spec)
        self.variants = self.spec.correctness_variants(gpu=self.gpu)
        self.timed_variant = self.spec.timing_variant(gpu=self.gpu)
        self.model_seed = children.model_seed  # the children build their references with it ahead
        step = self._cost("device_and_spec", step)
        cpu_limit = int(self.options.cpu_memory_limit_gb * 2**30)
        # runs every reference once: a broken spec, or one too big for this device, fails here
        count = setup.flops is None  # counting them imports Dynamo: seconds, so the evaluator caches them
        self.info: dict[str, VariantInfo] = {
            v: describe_variant(self.problem, v, self.device, cpu_limit_bytes=cpu_limit,
                                count_flops=count and v == self.timed_variant) for v in self.variants}
        if setup.flops is not None:
            self.info[self.timed_variant].flops = setup.flops
        step = self._cost("references", step)
        # where the spec sets no tolerance and the reference's own rounding misses the default: a wider one
        self.tolerances: dict[str, Tolerance] = self._widened_tolerances()
        step = self._cost("tolerances", step)
        self.models = {v: self.problem.model(v, self.model_seed, self.device) for v in self.variants}
        self.library = effective_policy(self.options.library, self.spec.settings.library)
        # the library work each variant's reference does: a candidate's library calls must be part of it
        self.reference_library = {v: self._reference_library(v) for v in self.variants}
        step = self._cost("reference_library", step)
        self.environment = environment(self.device)
        self.ceilings: Ceilings = ceilings(self.device, self.environment.hardware)
        self.flusher = L2Flusher(self.device) if self.gpu else None
        self.overhead_ms = per_call_overhead_ms(self.device, self.flusher)
        self.bracket_ms = bracket_overhead_ms(self.device) if self.gpu else 0.0
        step = self._cost("environment_and_timers", step)
        self.memory: MemoryPlan | None = None
        if self.gpu:
            torch.cuda.empty_cache()
            self.memory = plan_memory(device_bytes=device_bytes,
                                      judge_resident_bytes=torch.cuda.memory_reserved(self.device),
                                      variants=self.info, timed=self.timed_variant,
                                      wanted_sets=self.options.timing_input_sets)
            self.pool.warm_request = Warm(self.memory.child_limit_bytes)
        sets = self.memory.timing_sets if self.memory else self.options.timing_input_sets
        self.timing_seeds = [fresh_seed() for _ in range(sets)]
        self._baselines: dict[str, Timing | str] = {}
        self._cost("memory_plan", step)

    def _init_device(self) -> int:
        """Create this judge's CUDA context; the GPU memory the evaluation may use (bytes, 0 on a CPU)."""
        if not self.gpu:
            return 0
        torch.cuda.set_device(self.device)
        free, _ = torch.cuda.mem_get_info(self.device)
        cap = self.options.gpu_memory_gb
        return free if cap is None else min(free, int(cap * 2**30))

    def _cost(self, name: str, since: float) -> float:
        now = time.perf_counter()
        self.costs[name] = now - since
        return now

    def handle(self, request: Any) -> EvalResult | JudgeInfo | BaselinesReply:
        from kernelevo.evaluation.judge.stages import judge_candidate

        if isinstance(request, EvaluateRequest):
            return judge_candidate(self, request.source, request.triton_cache, request.race)
        if isinstance(request, Describe):
            return self.describe()
        if isinstance(request, BaselinesRequest):
            return self.set_baselines(request.cached)
        raise TypeError(f"unknown request {type(request).__name__}")

    def describe(self) -> JudgeInfo:
        target = None
        if self.gpu:
            major, minor = torch.cuda.get_device_capability(self.device)
            target = GpuTarget("cuda", major * 10 + minor, 32)
        return JudgeInfo(environment=self.environment, target=target, timed_variant=self.timed_variant,
                         flops=self.info[self.timed_variant].flops, timing_sets=len(self.timing_seeds),
                         memory=self.memory, start_costs=dict(self.costs))

    # -- reference side ------------------------------------------------------------------------
    def inputs(self, variant: str, seed: int) -> list[Any]:
        return self.problem.inputs(variant, seed, self.device)

    def reference(self, variant: str, inputs: list[Any]) -> list[torch.Tensor]:
        return self.problem.forward(self.models[variant], variant, inputs)

    def _reference_library(self, variant: str) -> list[LibraryCall]:
        """The vendor-library calls one forward of ``variant``'s reference makes (a run of its own)."""
        ops = OpRecorder()
        with ops:
            self.reference(variant, self.inputs(variant, fresh_seed()))
        if self.gpu:
            torch.cuda.empty_cache()
        return ops.library.records() if ops.library is not None else []

    def _widened_tolerances(self) -> dict[str, Tolerance]:
        """Each variant's reference against float64 (spec/precision.py), where the spec sets no tolerance:
        the variants whose default it misses, with the tolerance that admits it; a spec no tolerance up to
        KernelBench's admits is refused (SpecError). Deterministic inputs (seed 0): every judge of a spec on
        the same GPU and software measures the same."""
        settings = self.spec.settings
        if settings.atol is not None or settings.rtol is not None:
            return {}
        # On a GPU cuDNN may convolve, and run recurrent layers, in TF32 for float32 (torch's default, which the
        # judge keeps), and a spec's opt-in lets GEMMs do so too: either way a kernel may, so its error is
        # measured as well.
        tf32 = self.gpu and (bool(torch.backends.cudnn.allow_tf32) or settings.tf32)
        widened: dict[str, Tolerance] = {}
        for variant in self.variants:
            found = reference_precision(self.problem, variant, self.device, tf32=tf32)
            refusal = found.refusal()
            if refusal is not None:
                raise SpecError(refusal)
            atol = found.widened_tolerance()
            if atol is not None:
                widened[variant] = Tolerance(variant=variant, dtype=found.dtype, atol=atol, rtol=atol,
                                             default=found.atol, reference_error=found.worst() or 0.0,
                                             why=found.cause())
        return widened

    def tolerance(self, variant: str, dtype: torch.dtype) -> tuple[float, float]:
        """(atol, rtol) for ``variant``'s outputs of ``dtype``: the spec's, else the widened or default one."""
        name = str(dtype).removeprefix("torch.")
        widened = self.tolerances.get(variant)
        if widened is not None and widened.dtype == name:
            return widened.atol, widened.rtol
        return self.spec.settings.tolerance(name)

    def compute_dtype(self) -> str:
        """The dtype that sets the FLOP ceiling: the spec's, else the first floating input's."""
        if self.spec.settings.dtype:
            return self.spec.settings.dtype
        floats = [t.dtype for t in self.info[self.timed_variant].inputs if t.dtype.startswith(("float", "bfloat"))]
        return floats[0] if floats else "float32"

    # -- baselines -----------------------------------------------------------------------------
    def set_baselines(self, cached: dict[str, Timing | str] | None) -> BaselinesReply:
        """Take the evaluator's cached baselines, or measure them now (before any child holds GPU memory)."""
        if cached is not None:
            self._baselines = dict(cached)
            return BaselinesReply(self._baselines, 0.0)
        start = time.perf_counter()
        self._baselines = self.measure_baselines()
        return BaselinesReply(self._baselines, time.perf_counter() - start)

    def baselines(self) -> dict[str, Timing | str]:
        """The eager and torch.compile timings in use (measured now if nobody set them)."""
        if not self._baselines:
            self._baselines = self.measure_baselines()
        return self._baselines

    def measure_baselines(self) -> dict[str, Timing | str]:
        """Eager and torch.compile timings of the reference (a Timing, or why it failed)."""
        variant = self.timed_variant
        sets = [self.inputs(variant, s) for s in self.timing_seeds]
        found: dict[str, Timing | str] = {}
        for name in self.options.baseline_names(gpu=self.gpu):
            model = self.models[variant]
            fn = model if name == "eager" else torch.compile(model)
            found[name] = self._time_reference(fn, variant, sets)
        del sets
        if self.gpu:
            torch.cuda.empty_cache()
        return found

    def _time_reference(self, fn: Any, variant: str, sets: list[list[Any]]) -> Timing | str:
        def call(*inputs: Any) -> Any:
            return fn(*inputs)

        opts = self.options
        try:
            with self.problem.variant(variant), torch.no_grad():
                run = time_callable(call, sets, device=self.device, flusher=self.flusher, warmup=opts.warmup_reps,
                                    warmup_ms=opts.warmup_ms, min_reps=opts.min_reps,
                                    min_measure_ms=opts.min_measure_ms, max_reps=opts.max_reps,
                                    budget_ms=opts.timing_budget_ms, target_rel_iqr=opts.target_rel_iqr,
                                    interpreted=False, bracket_ms=self.bracket_ms)
        except Exception as exc:  # torch.compile may fail on a machine without a compiler
            return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
        return run.timing
