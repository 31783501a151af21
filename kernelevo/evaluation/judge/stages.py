"""One candidate through the judge: compile, correctness, timing, verdict.

Each stage records what it found in the :class:`EvalResult` and stops the evaluation at
the first failure, with a named reason. A fresh child runs the candidate and is killed at
the end, whatever happened, so nothing one candidate did can reach the next.

Correctness goes one call at a time: the child runs the candidate once and sends its
outputs and input buffers as they are; the judge then builds the pristine inputs from the
same seed, runs the reference, compares, and lets go of everything before the next call.
So at any moment the GPU holds one copy of the variant's data on each side.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import torch

from kernelevo.archive.descriptors import measure
from kernelevo.evaluation.child.aot import AotRequest
from kernelevo.evaluation.common.compare import Verdict, compare_outputs
from kernelevo.evaluation.common.diagnostics import sandbox_failure_reason
from kernelevo.evaluation.common.library import library_rejection
from kernelevo.evaluation.common.precision import tf32_rejection
from kernelevo.evaluation.common.protocol import (
    Call,
    CallReply,
    ChildError,
    Load,
    MetadataReply,
    MetadataRequest,
    TimeRequest,
    fresh_seed,
)
from kernelevo.evaluation.common.racing import threshold_ms
from kernelevo.evaluation.common.timing import per_call_overhead_ms, summarize
from kernelevo.evaluation.judge.timing_check import RunQueueWaits, WallMismatch, check_timed_reply
from kernelevo.isolation.sandbox import Progress, Sandbox, SandboxFailure
from kernelevo.records.race import Race
from kernelevo.records.result import (
    ErrorKind,
    EvalResult,
    KernelMetadata,
    LibraryUse,
    MemoryUse,
    Roofline,
    Stage,
    Timing,
)
from kernelevo.utils.tensors import equal

if TYPE_CHECKING:
    from kernelevo.evaluation.judge.judge import Judge

AOT_OUTPUT_HEADER = "[ahead-of-time compile]"  # in EvalResult.output, before what the AOT compiler printed

_TRIALS = {
    "fresh": "fresh inputs",
    "address_reuse": "the same input buffers refilled with new values",
    "repeat": "the first inputs again",
}


class Rejected(Exception):
    """Stops the evaluation with a named reason."""

    def __init__(self, kind: ErrorKind, message: str, mismatch: Any = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.mismatch = kind, message, mismatch


def judge_candidate(judge: Judge, source: str, triton_cache: str | None = None, race: Race | None = None) -> EvalResult:
    """Evaluate ``source`` in a fresh child of ``judge``; never raises. ``race``: the elites it must beat."""
    started = time.perf_counter()
    result = EvalResult(environment=judge.environment, interpreted=not judge.gpu,
                        tolerances=list(judge.tolerances.values()))
    if judge.memory is not None:
        torch.cuda.reset_peak_memory_stats(judge.device)
        result.memory = MemoryUse(live_data_bytes=judge.memory.live_data_bytes,
                                  child_limit_bytes=judge.memory.child_limit_bytes,
                                  device_bytes=judge.memory.device_bytes)
    child, waited = None, 0.0
    try:
        child, waited = judge.pool.take()
        _Stages(judge, child, result, triton_cache, race).run(source)
    except Rejected as exc:
        result.correct, result.error, result.message, result.mismatch = False, exc.kind, exc.message, exc.mismatch
    except SandboxFailure as exc:
        result.correct, result.error, result.message = False, *sandbox_failure_reason(exc, result.stage)
    finally:
        with _part(result, "cleanup"):
            if child is not None:
                # the ahead-of-time compile's output (already in result.output) goes after the child's
                result.output = _joined(child.output_tail(), result.output)
                child.kill()
            if result.memory is not None:
                result.memory.judge_peak_bytes = torch.cuda.max_memory_reserved(judge.device)
                torch.cuda.empty_cache()  # the plan gave the judge this much: not a byte more stays reserved
        result.costs.child_start_s = waited
        result.costs.total_s = time.perf_counter() - started
    return result


def _joined(*outputs: str) -> str:
    """Children's output tails, one after the other (those that printed nothing left out)."""
    return "\n".join(output.rstrip("\n") for output in outputs if output)


@contextmanager
def _part(result: EvalResult, name: str) -> Iterator[None]:
    """Add the wall time of the block to the judge's step ``name`` (``result.costs.judge_parts``)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        parts = result.costs.judge_parts
        parts[name] = parts.get(name, 0.0) + time.perf_counter() - start


class _Stages:
    def __init__(self, judge: Judge, child: Sandbox, result: EvalResult, triton_cache: str | None,
                 race: Race | None) -> None:
        self.judge, self.child, self.result, self.triton_cache = judge, child, result, triton_cache
        self.race = race if judge.gpu and judge.options.racing else None  # an interpreter's times decide nothing
        self.opts = judge.options
        self.cuda = judge.spec.settings.language == "cuda"
        self.child_source = ""

    def run(self, source: str) -> None:
        self._compile(source)
        self._correctness()
        self._metadata()
        self._timing()
        self.result.stage = Stage.VERDICT
        self.result.correct = True

    # -- compile -------------------------------------------------------------------------------
    def _compile(self, source: str) -> None:
        self.result.stage = Stage.COMPILE
        self.child_source = source
        start = time.perf_counter()
        with _part(self.result, "load"):
            reply = self.child.call(Load(source, self.judge.variants, self.judge.model_seed, self.triton_cache),
                                    {"*": self.opts.compile_timeout_s}, first_phase="import")
        self.result.costs.compile_s += time.perf_counter() - start
        if isinstance(reply, ChildError):
            raise Rejected(reply.kind, reply.message)

    # -- correctness ---------------------------------------------------------------------------
    def _correctness(self) -> None:
        self.result.stage = Stage.CORRECTNESS
        for variant in self.judge.variants:
            start = time.perf_counter()
            compile_before = self.result.costs.compile_s
            first, *others = [fresh_seed() for _ in range(self.opts.correctness_trials)]
            # one call each, in order: fresh inputs; the same buffers refilled with new values; the
            # first values again (other poison); then further fresh inputs
            trials = [("fresh", first, 0), ("address_reuse", fresh_seed(), 1), ("repeat", first, 1),
                      *(("fresh", seed, 0) for seed in others)]
            for trial, seed, poison in trials:
                self._judge_call(variant, trial, seed, poison, first)
            compile_s = self.result.costs.compile_s - compile_before
            self.result.costs.correctness_s += time.perf_counter() - start - compile_s
            self.result.variants_checked.append(variant)

    def _judge_call(self, variant: str, trial: str, seed: int, poison: int, first_seed: int) -> None:
        info = self.judge.info[variant]
        request = Call(variant, trial, seed, poison, [(t.shape, t.dtype) for t in info.outputs])
        with _part(self.result, "calls"):
            reply = self.child.call(request, {"run": self.opts.run_timeout_s, "compile": self.opts.compile_timeout_s})
        self.result.costs.compile_s += reply.compile_s
        if isinstance(reply, ChildError):
            raise Rejected(reply.kind, f"{reply.message}\n(variant {variant!r})")
        parts = self.result.costs.judge_parts
        parts["in_child"] = parts.get("in_child", 0.0) + reply.child_s
        self._note_child_peak(reply.peak_bytes)
        if reply.launches == 0 and not reply.library:  # the most precise diagnosis first: no kernel ran at all
            raise Rejected(ErrorKind.KERNEL_NOT_LAUNCHED,
                           f"forward launched {'none of its CUDA kernels' if self.cuda else 'no Triton kernel'} "
                           f"on {_TRIALS[trial]} (variant {variant!r})")
        if self.opts.runtime_checks:
            self._runtime_checks(reply)
            self._library_checks(reply, variant)
        if reply.library and variant == self.judge.timed_variant and self.result.library is None:
            self.result.library = LibraryUse(policy=list(self.judge.library), calls=reply.library)
        if reply.wrong_type:
            raise Rejected(ErrorKind.WRONG_TYPE, f"{reply.wrong_type}; expected plain tensors (variant {variant!r})")
        # The reference runs after the candidate: its outputs never sit in freed memory the candidate could read.
        with _part(self.result, "reference"):
            pristine = self.judge.inputs(variant, seed)
            expected = self.judge.reference(variant, pristine)
        with _part(self.result, "compare"):
            verdict = self._compare(reply, expected, variant, trial, poison)
            del expected
            if verdict is not None:
                del pristine
                raise Rejected(*self._diagnose(verdict, reply, variant, trial, first_seed))
            self._check_inputs(reply, pristine, variant)

    def _note_child_peak(self, peak: int | None) -> None:
        if self.result.memory is not None and peak is not None:
            self.result.memory.child_peak_bytes = max(self.result.memory.child_peak_bytes or 0, peak)

    @staticmethod
    def _runtime_checks(reply: CallReply) -> None:
        violations = reply.violations
        if reply.compute_ops:  # a library kernel a PyTorch op ran (cuBLAS under torch.matmul): name the op
            violations = [v for v in violations if v[0] != ErrorKind.LIBRARY_CALL]
        if violations:
            raise Rejected(*violations[0])
        if reply.compute_ops:
            ops = ", ".join(f"{op} (x{n})" for op, n in sorted(reply.compute_ops.items()))
            raise Rejected(ErrorKind.TORCH_COMPUTE,
                           f"forward computed with PyTorch ops: {ops}; the kernels must do the work")

    def _library_checks(self, reply: CallReply, variant: str) -> None:
        """Library calls only of the families the policy allows, doing only work the reference gives libraries."""
        found = library_rejection(reply.library, self.judge.reference_library[variant], self.judge.library)
        if found is not None:
            kind, why = found
            raise Rejected(kind, f"{why} (variant {variant!r})")

    def _compare(self, reply: CallReply, expected: list[torch.Tensor], variant: str, trial: str,
                 poison: int) -> Verdict | None:
        atol, rtol = self.judge.tolerance(variant, expected[0].dtype) if expected else (0.0, 0.0)
        return compare_outputs(reply.outputs, expected, atol=atol, rtol=rtol, variant=variant,
                               trial=_TRIALS[trial], poison=poison)

    def _diagnose(self, verdict: Verdict, reply: CallReply, variant: str, trial: str,
                  first_seed: int) -> tuple[ErrorKind, str, Any]:
        wrong = verdict.kind == ErrorKind.WRONG_OUTPUT
        if wrong and trial == "address_reuse":
            previous = self.judge.reference(variant, self.judge.inputs(variant, first_seed))
            if self._compare(reply, previous, variant, trial, 1) is None:
                return (ErrorKind.CACHED_OUTPUT,
                        "the kernel returned the result for the previous contents of the same input buffers: "
                        "results must not be cached across calls or keyed on input addresses", verdict.mismatch)
        if wrong and trial == "repeat":
            return (ErrorKind.NONDETERMINISTIC,
                    "the same inputs gave a different output the second time (uninitialised memory or a race): "
                    + verdict.message, verdict.mismatch)
        return verdict.kind, verdict.message, verdict.mismatch

    def _check_inputs(self, reply: CallReply, pristine: list[Any], variant: str) -> None:
        for i, (after, before) in enumerate(zip(reply.inputs_after, pristine, strict=True)):
            if isinstance(before, torch.Tensor) and not equal(before, after, nan_equal=True):
                raise Rejected(ErrorKind.MUTATED_INPUTS,
                               f"forward modified its input {i} (variant {variant!r}); inputs must stay unchanged")

    # -- metadata ------------------------------------------------------------------------------
    def _metadata(self) -> None:
        start = time.perf_counter()
        with _part(self.result, "metadata"):
            reply: MetadataReply = self.child.call(MetadataRequest(), {"*": self.opts.compile_timeout_s})
            self.result.kernels = reply.kernels or self._compile_ahead(reply)
        self.result.cuda = reply.builds
        self.result.launches = sum(k.launches for k in self.result.kernels)
        self.result.costs.compile_s += time.perf_counter() - start
        # cuDNN's float32 convolutions and recurrent layers follow cudnn.allow_tf32 (the judge keeps torch's default)
        in_cudnn = any(c.family in ("conv", "rnn") for calls in self.judge.reference_library.values() for c in calls)
        why = tf32_rejection(self.result.kernels, spec_tf32=self.judge.spec.settings.tf32,
                             reference_in_tf32=in_cudnn and torch.backends.cudnn.allow_tf32)
        if why is not None:
            raise Rejected(ErrorKind.REDUCED_PRECISION, why)

    def _compile_ahead(self, reply: MetadataReply) -> list[KernelMetadata]:
        """Register and shared-memory figures for sm_90 of kernels that ran in the interpreter."""
        launches = [KernelMetadata(name=n, launches=c) for n, c in reply.launches.items()]
        if self.judge.aot_pool is None or not reply.signatures:
            return launches
        box, _ = self.judge.aot_pool.take()
        try:
            return box.call(AotRequest(self.child_source, reply.signatures, reply.launches),
                            {"*": self.opts.compile_timeout_s})
        except SandboxFailure as exc:
            return [k.model_copy(update={"error": f"ahead-of-time compile failed: {exc.message}"}) for k in launches]
        finally:
            printed = box.output_tail()
            if printed:
                self.result.output = _joined(self.result.output, f"{AOT_OUTPUT_HEADER}\n{printed}")
            box.kill()

    # -- timing --------------------------------------------------------------------------------
    def _timing(self) -> None:
        self.result.stage = Stage.TIMING
        self.result.timed_variant = self.judge.timed_variant
        with _part(self.result, "settle"):
            self.judge.pool.settle()  # no spare child makes its CUDA context while this one is timed
        start = time.perf_counter()
        baselines = self.judge.baselines()
        self.result.costs.baselines_s += time.perf_counter() - start
        start = time.perf_counter()
        with _part(self.result, "timing"):
            kernel = self._time_candidate(self._race_ms(baselines))
        self.result.costs.timing_s += time.perf_counter() - start
        self._record(kernel, baselines)
        if (self.result.speedup_compile or 0) > self.opts.remeasure_above and not self.result.interpreted:
            self.result.remeasured = True
            self._record(self._time_candidate(), self.judge.measure_baselines())
        self._check_floor()

    def _race_ms(self, baselines: dict[str, Timing | str]) -> float | None:
        """The raw sample (ms) above which this candidate is clearly slower than its cell's elite, if any."""
        eager = baselines.get("eager")
        if self.race is None or not isinstance(eager, Timing):
            return None
        measures = measure(list(self.race.descriptors), self.child_source, self.result)
        threshold = threshold_ms(self.race, measures, eager.median_ms)
        return None if threshold is None else threshold + self.judge.bracket_ms

    def _time_candidate(self, race_ms: float | None = None) -> Timing:
        """The candidate's timing, checked; a wall-time cross-check that fails is tried once more.

        A host busy with other work (other evaluators' compiles and children, a profiler)
        stretches the loop's wall time as work outside the timed region would: an honest
        GELU was rejected so, once in 52 candidates, while GPU tests ran on the host's other
        GPU (benchmarks/README.md). So the judge measures its per-call overhead again, as the
        host is now, and times once more; work that really runs outside the region fails again.
        """
        try:
            return self._time_once(race_ms, self.judge.overhead_ms)
        except WallMismatch:
            overhead_ms = max(self.judge.overhead_ms, per_call_overhead_ms(self.judge.device, self.judge.flusher))
            try:
                return self._time_once(race_ms, overhead_ms)
            except WallMismatch as exc:
                raise Rejected(ErrorKind.TIMER_MISMATCH, str(exc)) from None

    def _time_once(self, race_ms: float | None, overhead_ms: float) -> Timing:
        opts = self.opts
        request = TimeRequest(self.judge.timed_variant, [fresh_seed() for _ in self.judge.timing_seeds],
                              opts.warmup_reps, opts.warmup_ms, opts.min_reps, opts.min_measure_ms, opts.max_reps,
                              opts.timing_budget_ms, opts.target_rel_iqr, race_ms)
        marks: dict[str, float] = {}
        waits = RunQueueWaits(child_pid=self.child.pid)  # started in the judge's thread, which receives the reply

        def mark(note: Progress, at: float) -> None:
            marks.setdefault(note.phase, at)
            if note.phase == "timed_loop":
                waits.start()

        reply = self.child.call(request, {"time": opts.timing_timeout_s, "timed_loop": opts.timing_timeout_s,
                                          "compile": opts.compile_timeout_s}, first_phase="time", on_progress=mark)
        received = self.child.replied_at  # when the reply was readable, not when this thread got the GIL back
        waited_ms = waits.since_start()
        if isinstance(reply, ChildError):
            raise Rejected(reply.kind, reply.message)
        if reply.violations and self.opts.runtime_checks:
            raise Rejected(*reply.violations[0])
        self._note_child_peak(reply.peak_bytes)
        seen_s = received - marks["timed_loop"] if "timed_loop" in marks else None
        if problem := check_timed_reply(reply, seen_s, overhead_ms, waited_ms, self.judge.gpu, self.judge.bracket_ms,
                                        race_ms):
            raise Rejected(ErrorKind.TIMER_MISMATCH, problem)
        if self.result.library is not None and reply.library_ms is not None:
            self.result.library.library_ms = reply.library_ms
        t = reply.timing
        # The summary is the judge's own, from the raw samples: the child's could be doctored.
        return summarize(reply.samples_ms, method=t.method, interpreted=not self.judge.gpu, l2_flushed=t.l2_flushed,
                         input_sets=t.input_sets, host_launch_ms=t.host_launch_ms, bracket_ms=self.judge.bracket_ms,
                         raced=t.raced)

    def _record(self, kernel: Timing, baselines: dict[str, Timing | str]) -> None:
        result = self.result
        result.kernel = kernel
        eager, compiled = baselines.get("eager"), baselines.get("compile")
        result.eager = eager if isinstance(eager, Timing) else None
        result.compiled = compiled if isinstance(compiled, Timing) else None
        result.compile_baseline_error = compiled if isinstance(compiled, str) else None
        if result.interpreted:  # an interpreter's time is not a speed: no speedups, no roofline
            return
        result.speedup_eager = result.eager.median_ms / kernel.median_ms if result.eager else None
        result.speedup_compile = result.compiled.median_ms / kernel.median_ms if result.compiled else None
        if result.library is not None and result.library.library_ms is not None:
            result.library.gpu_share = min(1.0, result.library.library_ms / kernel.median_ms)
        info, ceilings = self.judge.info[self.judge.timed_variant], self.judge.ceilings
        dtype = self.judge.compute_dtype()
        floor_ms, floor = ceilings.floor(info.read_bytes, info.output_bytes, info.flops, dtype) or (None, None)
        result.roofline = Roofline(
            bytes_moved=info.min_bytes, bytes_read=info.read_bytes, bytes_written=info.output_bytes,
            flops=info.flops, bandwidth_gbs=ceilings.bandwidth_gbs, read_bandwidth_gbs=ceilings.read_bandwidth_gbs,
            peak_tflops=ceilings.peak_tflops.get(dtype), floor_ms=floor_ms, floor=floor,
            fraction=floor_ms / kernel.median_ms if floor_ms else None,
        )

    def _check_floor(self) -> None:
        roofline, kernel = self.result.roofline, self.result.kernel
        if not self.opts.floor_check or roofline is None or roofline.floor_ms is None or kernel is None:
            return
        if kernel.median_ms < self.opts.floor_margin * roofline.floor_ms:
            raise Rejected(
                ErrorKind.BELOW_PHYSICAL_FLOOR,
                f"a median of {kernel.median_ms:.4f} ms is below the physical floor of {roofline.floor_ms:.4f} ms "
                f"(the {roofline.floor_kind()} floor: {roofline.terms()}): the time is impossible, so the kernel "
                "skipped work or the timing was tampered with",
            )

