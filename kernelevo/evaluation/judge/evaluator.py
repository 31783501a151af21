"""The evaluator as the search and the CLI see it: ``evaluate(spec, candidate) -> EvalResult``.

:class:`Evaluator` keeps one judge warm for a spec (its reference outputs, baselines and
spare candidate children), runs the static checks itself (they execute nothing), and
restarts the judge if it ever dies. Nothing here runs spec or kernel code: the judge, the
candidate children and the precompilers do, each in its own sandbox.

On a GPU it takes several candidates at once (:attr:`Evaluator.slots`): while the judge
holds the GPU for one, the others' kernels are compiled on the CPU
(:mod:`kernelevo.evaluation.judge.compile_ahead`) into a Triton cache of that candidate's own,
which its GPU child then reads. The precompilers start with the judge, not after it. A CUDA
candidate on a machine without a GPU is only compiled (:mod:`kernelevo.evaluation.judge.cuda_compile`).

The eager and ``torch.compile`` baselines are read from the disk cache
(:mod:`kernelevo.evaluation.judge.spec_cache`) when an earlier judge measured them on the
same GPU and software; otherwise the judge measures them as it starts, before any
candidate's child holds GPU memory, and the evaluator caches them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import threading
import time
from typing import Any

from kernelevo.archive.descriptors import measure
from kernelevo.evaluation.common.protocol import (
    BaselinesReply,
    BaselinesRequest,
    Describe,
    EvaluateRequest,
    JudgeInfo,
    JudgeSetup,
)
from kernelevo.evaluation.judge.capacity import slots_for, uses_gpu
from kernelevo.evaluation.judge.compile_ahead import AheadCompilers, TritonCaches, cubins
from kernelevo.evaluation.judge.cuda_compile import add_cupy_listings, cuda_without_gpu
from kernelevo.evaluation.judge.spec_cache import (
    baseline_key,
    flops_key,
    load_baselines,
    load_flops,
    store_baselines,
    store_flops,
)
from kernelevo.evaluation.static.gate import static_rejection
from kernelevo.isolation import containment
from kernelevo.isolation.sandbox import Sandbox, SandboxFailure
from kernelevo.records.options import CUDA_COMPILE_TIMEOUT_S, EvalOptions
from kernelevo.records.race import Race
from kernelevo.records.result import ErrorKind, EvalResult, Precompiled, Stage, StageCosts, Timing
from kernelevo.spec.errors import SpecError
from kernelevo.spec.spec import Spec
from kernelevo.utils.devices import sandbox_env

log = logging.getLogger(__name__)

STOPPED = "the evaluator was stopped (abort()): this candidate was not judged"


def source_of(candidate: Any) -> str:
    """A candidate's kernel source: a string, or anything with a ``source`` attribute."""
    return candidate if isinstance(candidate, str) else str(candidate.source)


class Evaluator:
    """A warm evaluation worker for one spec on one device. Use as a context manager."""

    def __init__(self, spec: Spec, options: EvalOptions | None = None) -> None:
        self.spec = spec
        self.options = options or EvalOptions()
        if spec.settings.language == "cuda" and "compile_timeout_s" not in self.options.model_fields_set:
            # load_inline runs nvcc over torch's headers: 55 s and 106 s for a small kernel on an H100 host's
            # 16 cores while other evaluators built beside it (benchmarks/results/cuda_cases-h100.log)
            self.options = self.options.model_copy(update={"compile_timeout_s": CUDA_COMPILE_TIMEOUT_S})
        self.gpu = uses_gpu(self.options)
        # Compiling ahead is Triton's: CUDA candidates build when their child imports them.
        self.precompiling = self.gpu and self.options.precompile and spec.settings.language != "cuda"
        self._judge: Sandbox | None = None
        self._judge_lock = threading.RLock()  # one candidate on the GPU at a time
        # On a GPU each candidate's kernels go to a Triton cache of its own (compiled ahead or by its child)
        self._caches = TritonCaches() if self.gpu else None
        self._ahead = AheadCompilers(spec, self.options, self._caches) if self.precompiling else None
        self.info: JudgeInfo | None = None  # what the judge found at its start
        self.baselines: dict[str, Timing | str] = {}
        self.baselines_cached = False
        self._start_costs: StageCosts | None = None  # what starting the judge cost: told to the next result
        self.judge_restarts = 0
        self._aborted = False  # abort(): no judge starts again

    @property
    def slots(self) -> int:
        return slots_for(self.options)

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        """Start the judge and wait until it is ready; a broken spec raises :class:`SpecError`."""
        if self.spec.settings.language == "cuda" and not self.gpu:
            return  # CUDA without a GPU is only compiled (cuda_compile.cuda_without_gpu): no judge to start
        with self._judge_lock:
            if self._judge is not None and self._judge.alive():
                return
            started = time.perf_counter()
            if self._caches:
                self._caches.ensure()
            # Triton's own C helpers, built by each child before any candidate code runs, are kept
            # across runs (a fresh cache cost every `kernelevo eval` a host compile), as are load_inline's
            # builds, in a folder the sandboxed children share; each candidate's kernels still go to a
            # cache of its own.
            shared = containment.shared_cache() if self.gpu else None
            runtime_cache = str(shared / "triton-runtime") if shared else None
            env = sandbox_env(gpu=self.gpu)
            if shared:
                env["KERNELEVO_CACHE_DIR"] = str(shared)
            flops = flops_key(self.spec, self.spec.timing_variant(gpu=self.gpu))
            known_flops = load_flops(flops)
            # The judge and its children may write their own folders, the shared cache and the candidates' caches
            writable = tuple(str(p) for p in (shared, self._caches.root if self._caches else None) if p)
            box = Sandbox("kernelevo.evaluation.judge.process:JudgeProcess",
                          JudgeSetup(self.spec, self.options, self.gpu, runtime_cache, known_flops),
                          env=env, name="judge", writable=writable)
            box.start()
            if self._ahead is not None and not self._ahead.started:
                self._ahead.start()  # they import torch and the spec while the judge starts
            try:
                box.wait_ready(self.options.start_timeout_s + 600)  # the judge runs every reference
                self.info = box.call(Describe(), {"*": 60})
                if known_flops is None:
                    store_flops(flops, self.info.flops)
                baselines_s = self._set_baselines(box, self.info)
            except SandboxFailure as exc:
                box.kill()
                raise SpecError(exc.message.removeprefix("SpecError: ")) from None
            self._judge = box
            parts = {"process_and_imports": (box.ready_after_s or 0.0) - sum(self.info.start_costs.values()),
                     **self.info.start_costs}
            self._start_costs = StageCosts(judge_start_s=time.perf_counter() - started - baselines_s,
                                           judge_start_parts=parts, baselines_s=baselines_s)

    def _set_baselines(self, box: Sandbox, info: JudgeInfo) -> float:
        """Hand the judge cached baselines, or have it measure them (and cache them); seconds spent."""
        key = baseline_key(self.spec, info.timed_variant, info.environment, self.options, info.timing_sets)
        use_cache = self.gpu and self.options.baseline_cache
        cached = load_baselines(key) if use_cache and not self.options.rebaseline else None
        reply: BaselinesReply = box.call(BaselinesRequest(cached), {"*": self.options.start_timeout_s + 600})
        self.baselines, self.baselines_cached = reply.baselines, cached is not None
        if use_cache and cached is None:
            store_baselines(key, reply.baselines)
        return reply.measured_s

    def abort(self) -> None:
        """Kill the judge and the compiles under way now, from any thread (a search stopped at once): the
        candidates in them come back at once as evaluator errors, and no judge starts again. :meth:`close`
        still cleans up. The children are in sessions of their own: each is killed with what it started."""
        self._aborted = True
        boxes = [self._judge, *(self._ahead.stop() if self._ahead is not None else [])]
        for box in boxes:
            pid = box.pid if box is not None else None
            if pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)

    def close(self) -> None:
        with self._judge_lock:
            if self._judge is not None:
                self._judge.close()
                self._judge = None
        if self._ahead is not None:
            self._ahead.close()
        if self._caches:
            self._caches.remove()

    def __enter__(self) -> Evaluator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, candidate: Any, race: Race | None = None) -> EvalResult:
        """Judge one candidate (source text or an object with ``.source``); never raises.

        ``race``: the archive's elites it must beat; a candidate clearly slower than its cell's
        elite is timed only until that is clear (:mod:`kernelevo.evaluation.common.racing`).
        """
        started = time.perf_counter()
        source = source_of(candidate)
        result = static_rejection(source, self.spec, self.options)
        static_s = time.perf_counter() - started
        if result is None and self.spec.settings.language == "cuda" and not self.gpu:
            result = cuda_without_gpu(source, self.options)
        elif result is None:
            result = self._compile_and_judge(source, race)
        result.interpreted = result.interpreted or not self.gpu
        if result.ok and self.options.descriptors:
            result.measures = measure(self.options.descriptors, source, result)
        result.costs.static_s = static_s
        result.costs.total_s = time.perf_counter() - started
        return result

    def forget_start_costs(self) -> None:
        """No result carries what starting the judge cost: a start no candidate waited for (the shared pool's,
        prepared when a run registers, before any of its candidates is sent)."""
        self._start_costs = None

    def _take_start_costs(self, result: EvalResult) -> None:
        """The first result after a judge's start carries what starting it cost."""
        result.baselines_cached = self.baselines_cached
        if self._start_costs is not None:
            start = self._start_costs
            result.costs.judge_start_s, result.costs.baselines_s = start.judge_start_s, start.baselines_s
            result.costs.judge_start_parts = start.judge_start_parts
            self._start_costs = None

    def _compile_and_judge(self, source: str, race: Race | None = None) -> EvalResult:
        """On a GPU, compile ahead into the candidate's own Triton cache; then judge it holding the GPU."""
        cache = self._caches.new() if self._caches else None
        try:
            started = time.perf_counter()
            precompiled = self._compile_ahead(source, cache)
            precompile_s = time.perf_counter() - started
            if precompiled is not None and precompiled.timed_out:
                # the same compile would take as long in the GPU child: no need to hold the GPU for it
                result = EvalResult(stage=Stage.COMPILE, error=ErrorKind.COMPILE_TIMEOUT, message=(
                    f"compiling the candidate's kernels took over {self.options.compile_timeout_s:g} s "
                    "(on the CPU, before its GPU run)"))
            else:
                before = cubins(cache)
                with self._judge_lock:
                    judged = time.perf_counter()
                    result = self._in_judge(source, cache, race)
                    result.costs.judge_s = time.perf_counter() - judged
                    self._take_start_costs(result)
                if precompiled is not None:
                    precompiled.compiled_on_gpu = cubins(cache) - before
            result.precompiled = precompiled
            result.costs.precompile_s = precompile_s
            if self.spec.settings.language == "cuda":
                add_cupy_listings(source, result, self.options)
            return result
        finally:
            if cache:
                shutil.rmtree(cache, ignore_errors=True)

    def _compile_ahead(self, source: str, cache: str | None) -> Precompiled | None:
        """``source``'s kernels compiled into ``cache`` on the CPU, for the GPU the judge told (never raises)."""
        if self._ahead is None:
            return None
        return self._ahead.compile(source, cache, lambda: self.info.target if self.info is not None else None)

    def _in_judge(self, source: str, cache: str | None, race: Race | None = None) -> EvalResult:
        if self._aborted:
            return EvalResult(stage=Stage.COMPILE, error=ErrorKind.EVALUATOR_ERROR, message=STOPPED)
        try:
            self.start()
        except SpecError as exc:
            return EvalResult(stage=Stage.COMPILE, error=ErrorKind.SPEC_ERROR, message=str(exc))
        assert self._judge is not None
        try:
            return self._judge.call(EvaluateRequest(source, cache, race), {"*": self._judge_deadline_s()})
        except SandboxFailure as exc:
            if self._aborted:  # killed by abort(): nothing failed
                return EvalResult(stage=Stage.COMPILE, error=ErrorKind.EVALUATOR_ERROR, message=STOPPED)
            # The judge itself failed (not the candidate): restart it for the next candidate.
            log.warning("judge failed (%s); restarting it", exc.message)
            self.close()
            self.judge_restarts += 1
            return EvalResult(stage=Stage.COMPILE, error=ErrorKind.EVALUATOR_ERROR,
                              message=f"the evaluator's judge failed: {exc.message}")

    def _judge_deadline_s(self) -> float:
        """A safety net above the judge's own per-stage limits."""
        o = self.options
        variants = len(self.spec.correctness_variants(gpu=self.gpu))
        return (o.start_timeout_s + o.compile_timeout_s * (2 + variants) + o.run_timeout_s * variants
                + 3 * o.timing_timeout_s + 600)


def evaluate(spec: Spec, candidate: Any, options: EvalOptions | None = None) -> EvalResult:
    """Judge one candidate against ``spec`` with a judge started for it; never raises."""
    evaluator = Evaluator(spec, options)
    try:
        return evaluator.evaluate(candidate)
    finally:
        evaluator.close()
