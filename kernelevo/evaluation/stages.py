"""One candidate through the judge: compile, correctness, timing, verdict.

Each stage records what it found in the :class:`EvalResult` and stops the evaluation at
the first failure, with a named reason. A fresh child runs the candidate and is killed at
the end, whatever happened, so nothing one candidate did can reach the next.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import torch

from kernelevo.evaluation.aot import AotRequest
from kernelevo.evaluation.compare import Verdict, compare_outputs
from kernelevo.evaluation.protocol import (
    CallRecord,
    Check,
    CheckReply,
    ChildError,
    Load,
    MetadataReply,
    MetadataRequest,
    TimeReply,
    TimeRequest,
)
from kernelevo.evaluation.result import ErrorKind, EvalResult, KernelMetadata, Roofline, Stage, Timing
from kernelevo.evaluation.timing import summarize
from kernelevo.sandbox import Progress, Sandbox, SandboxFailure

if TYPE_CHECKING:
    from kernelevo.evaluation.judge import Judge

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


def judge_candidate(judge: Judge, source: str, triton_cache: str | None = None) -> EvalResult:
    """Evaluate ``source`` in a fresh child of ``judge``; never raises."""
    started = time.perf_counter()
    result = EvalResult(environment=judge.environment, interpreted=not judge.gpu)
    child, waited = None, 0.0
    try:
        child, waited = judge.pool.take()
        _Stages(judge, child, result, triton_cache).run(source)
    except Rejected as exc:
        result.correct, result.error, result.message, result.mismatch = False, exc.kind, exc.message, exc.mismatch
    except SandboxFailure as exc:
        result.correct, result.error, result.message = False, *_failure(exc, result.stage)
    finally:
        if child is not None:
            child.kill()
        result.costs.child_start_s = waited
        result.costs.total_s = time.perf_counter() - started
    return result


def _failure(exc: SandboxFailure, stage: Stage) -> tuple[ErrorKind, str]:
    """The named reason for a child that timed out or died."""
    if exc.kind == "timeout":
        if exc.phase in ("compile", "import"):
            what = f"kernel {exc.detail}" if exc.detail else "the candidate"
            return ErrorKind.COMPILE_TIMEOUT, f"compiling {what} took too long: {exc.message}"
        return ErrorKind.TIMEOUT, (
            f"the candidate did not finish: {exc.message} (an infinite loop, a deadlock or far too slow a kernel)"
        )
    if exc.kind == "died":
        return ErrorKind.CRASHED, f"{exc.message} while in {exc.phase or stage}; its process was discarded"
    if exc.kind == "start":
        return ErrorKind.EVALUATOR_ERROR, f"the candidate's child could not start: {exc.message}"
    return ErrorKind.EVALUATOR_ERROR, f"the evaluator's child failed: {exc.message}\n{exc.detail[-2000:]}"


class _Stages:
    def __init__(self, judge: Judge, child: Sandbox, result: EvalResult, triton_cache: str | None) -> None:
        self.judge, self.child, self.result, self.triton_cache = judge, child, result, triton_cache
        self.opts = judge.options
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
        reply = self.child.call(Load(source, self.judge.variants, self.judge.model_seed, self.triton_cache),
                                {"*": self.opts.compile_timeout_s}, first_phase="import")
        self.result.costs.compile_s += time.perf_counter() - start
        if isinstance(reply, ChildError):
            raise Rejected(reply.kind, reply.message)

    # -- correctness ---------------------------------------------------------------------------
    def _correctness(self) -> None:
        from kernelevo.evaluation.judge import fresh_seed

        self.result.stage = Stage.CORRECTNESS
        for variant in self.judge.variants:
            start = time.perf_counter()
            info = self.judge.info[variant]
            request = Check(variant, [fresh_seed() for _ in range(self.opts.correctness_trials)], fresh_seed(),
                            True, [(t.shape, t.dtype) for t in info.outputs])
            reply = self.child.call(request, {"run": self.opts.run_timeout_s, "compile": self.opts.compile_timeout_s})
            compile_s = reply.compile_s
            self.result.costs.compile_s += compile_s
            self.result.costs.correctness_s += time.perf_counter() - start - compile_s
            if isinstance(reply, ChildError):
                raise Rejected(reply.kind, f"{reply.message}\n(variant {variant!r})")
            self._judge_calls(variant, reply)
            self.result.variants_checked.append(variant)

    def _judge_calls(self, variant: str, reply: CheckReply) -> None:
        for call in reply.calls:  # the most precise diagnosis first: no kernel ran at all
            if call.launches == 0:
                raise Rejected(ErrorKind.KERNEL_NOT_LAUNCHED,
                               f"forward launched no Triton kernel on {_TRIALS[call.label]} (variant {variant!r})")
        if self.opts.runtime_checks:
            self._runtime_checks(reply)
        expected: dict[int, list[torch.Tensor]] = {}
        pristines: dict[int, list[Any]] = {}
        first_seed = reply.calls[0].seed
        for call in reply.calls:
            if call.wrong_type:
                raise Rejected(ErrorKind.WRONG_TYPE, f"{call.wrong_type}; expected plain tensors (variant {variant!r})")
            # The reference runs after the candidate: its outputs never sit in freed memory the candidate could read.
            if call.seed not in expected:
                pristines[call.seed] = self.judge.inputs(variant, call.seed)
                expected[call.seed] = self.judge.reference(variant, pristines[call.seed])
            pristine = pristines[call.seed]
            verdict = self._compare(call, expected[call.seed], variant)
            if verdict is not None:
                raise Rejected(*self._diagnose(verdict, call, expected, first_seed, variant))
            self._check_inputs(call, pristine, variant)

    @staticmethod
    def _runtime_checks(reply: CheckReply) -> None:
        if reply.violations:
            raise Rejected(*reply.violations[0])
        if reply.compute_ops:
            ops = ", ".join(f"{op} (x{n})" for op, n in sorted(reply.compute_ops.items()))
            raise Rejected(ErrorKind.TORCH_COMPUTE,
                           f"forward computed with PyTorch ops: {ops}; the kernels must do the work")

    def _compare(self, call: CallRecord, expected: list[torch.Tensor], variant: str) -> Verdict | None:
        atol, rtol = self.judge.tolerance(expected[0].dtype) if expected else (0.0, 0.0)
        got = [o.to(self.judge.device) for o in call.outputs]
        return compare_outputs(got, expected, atol=atol, rtol=rtol, variant=variant,
                               trial=_TRIALS[call.label], poison=call.poison)

    def _diagnose(self, verdict: Verdict, call: CallRecord, expected: dict[int, list[torch.Tensor]],
                  first_seed: int, variant: str) -> tuple[ErrorKind, str, Any]:
        wrong = verdict.kind == ErrorKind.WRONG_OUTPUT
        if wrong and call.label == "address_reuse" and self._compare(call, expected[first_seed], variant) is None:
            return (ErrorKind.CACHED_OUTPUT,
                    "the kernel returned the result for the previous contents of the same input buffers: "
                    "results must not be cached across calls or keyed on input addresses", verdict.mismatch)
        if wrong and call.label == "repeat":
            return (ErrorKind.NONDETERMINISTIC,
                    "the same inputs gave a different output the second time (uninitialised memory or a race): "
                    + verdict.message, verdict.mismatch)
        return verdict.kind, verdict.message, verdict.mismatch

    def _check_inputs(self, call: CallRecord, pristine: list[Any], variant: str) -> None:
        for i, (after, before) in enumerate(zip(call.inputs_after, pristine, strict=True)):
            if isinstance(before, torch.Tensor) and not torch.equal(after.to(before.device), before):
                raise Rejected(ErrorKind.MUTATED_INPUTS,
                               f"forward modified its input {i} (variant {variant!r}); inputs must stay unchanged")

    # -- metadata ------------------------------------------------------------------------------
    def _metadata(self) -> None:
        start = time.perf_counter()
        reply: MetadataReply = self.child.call(MetadataRequest(), {"*": self.opts.compile_timeout_s})
        self.result.kernels = reply.kernels or self._compile_ahead(reply)
        self.result.launches = sum(k.launches for k in self.result.kernels)
        self.result.costs.compile_s += time.perf_counter() - start

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
            box.kill()

    # -- timing --------------------------------------------------------------------------------
    def _timing(self) -> None:
        self.result.stage = Stage.TIMING
        self.result.timed_variant = self.judge.timed_variant
        start = time.perf_counter()
        kernel = self._time_candidate()
        self.result.costs.timing_s += time.perf_counter() - start
        start = time.perf_counter()
        baselines = self.judge.baselines()
        self.result.costs.baselines_s += time.perf_counter() - start
        self._record(kernel, baselines)
        if (self.result.speedup_compile or 0) > self.opts.remeasure_above and not self.result.interpreted:
            self.result.remeasured = True
            self._record(self._time_candidate(), self.judge.baselines(fresh=True))
        self._check_floor()

    def _time_candidate(self) -> Timing:
        from kernelevo.evaluation.judge import fresh_seed

        opts = self.opts
        request = TimeRequest(self.judge.timed_variant, [fresh_seed() for _ in range(opts.timing_input_sets)],
                              opts.warmup_reps, opts.warmup_ms, opts.min_reps, opts.min_measure_ms, opts.max_reps,
                              opts.timing_budget_ms, opts.target_rel_iqr)
        marks: dict[str, float] = {}

        def mark(note: Progress, at: float) -> None:
            marks.setdefault(note.phase, at)

        reply = self.child.call(request, {"time": opts.timing_timeout_s, "timed_loop": opts.timing_timeout_s,
                                          "compile": opts.compile_timeout_s}, first_phase="time", on_progress=mark)
        received = time.perf_counter()
        if isinstance(reply, ChildError):
            raise Rejected(reply.kind, reply.message)
        if reply.violations and self.opts.runtime_checks:
            raise Rejected(*reply.violations[0])
        if "timed_loop" not in marks:
            raise Rejected(ErrorKind.TIMER_MISMATCH,
                           "the child never announced its timed loop: the harness was tampered with")
        samples = reply.samples_ms
        if not samples or len(samples) != reply.timing.repetitions or not all(0 < s < 1e7 for s in samples):
            raise Rejected(ErrorKind.TIMER_MISMATCH, "the child's timing samples are missing or impossible")
        self._cross_check(reply, received - marks["timed_loop"])
        # The summary is the judge's own, from the raw samples: the child's could be doctored.
        t = reply.timing
        return summarize(samples, method=t.method, interpreted=not self.judge.gpu, l2_flushed=t.l2_flushed,
                         input_sets=t.input_sets)

    def _cross_check(self, reply: TimeReply, seen_s: float) -> None:
        """The child's times must account for the wall time the judge saw its loop take."""
        reps = reply.timing.repetitions
        unexplained_ms = seen_s * 1e3 - reps * self.judge.overhead_ms
        reported_ms = sum(reply.samples_ms)
        if unexplained_ms > 0 and reported_ms < 0.5 * unexplained_ms - 0.05 * reps:
            raise Rejected(
                ErrorKind.TIMER_MISMATCH,
                f"the child reported {reported_ms:.3f} ms of kernel time over {reps} calls, but the judge saw the loop "
                f"take {seen_s * 1e3:.3f} ms, of which at most {reps * self.judge.overhead_ms:.3f} ms is overhead: "
                "work ran outside the timed region (a side stream, a thread or a patched timer)",
            )

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
        info = self.judge.info[self.judge.timed_variant]
        floor = self.judge.ceilings.floor_ms(info.min_bytes, info.flops, self.judge.compute_dtype())
        dtype = self.judge.compute_dtype()
        result.roofline = Roofline(
            bytes_moved=info.min_bytes, flops=info.flops, bandwidth_gbs=self.judge.ceilings.bandwidth_gbs,
            peak_tflops=self.judge.ceilings.peak_tflops.get(dtype), floor_ms=floor,
            fraction=floor / kernel.median_ms if floor else None,
        )

    def _check_floor(self) -> None:
        roofline, kernel = self.result.roofline, self.result.kernel
        if not self.opts.floor_check or roofline is None or roofline.floor_ms is None or kernel is None:
            return
        if kernel.median_ms < self.opts.floor_margin * roofline.floor_ms:
            raise Rejected(
                ErrorKind.BELOW_PHYSICAL_FLOOR,
                f"a median of {kernel.median_ms:.4f} ms is below the physical floor of {roofline.floor_ms:.4f} ms "
                f"({roofline.bytes_moved / 1e9:.3f} GB at {roofline.bandwidth_gbs:.0f} GB/s, "
                f"{roofline.flops / 1e9:.1f} GFLOP): the time is impossible, so the kernel skipped work or "
                "the timing was tampered with",
            )

