"""The candidate's child: the only process that runs a candidate's code.

A fresh child serves one candidate. It imports torch and triton and installs the runtime
checks (:mod:`kernelevo.evaluation.instrument`) while the previous candidate is judged;
its CUDA context is created on a :class:`Warm` request, which the judge sends when it
hands the child a candidate, so a new context never disturbs another's measurement. It
builds its inputs from seeds the judge sends, runs the candidate, and sends back outputs
and timings; it decides nothing. A CUDA error poisons the process, so the judge throws
the child away after each candidate.
"""

from __future__ import annotations

import os
from multiprocessing.connection import Connection
from typing import Any

import torch

from kernelevo.evaluation.candidate_module import candidate_path, exec_candidate
from kernelevo.evaluation.compare import fill_poison
from kernelevo.evaluation.diagnostics import classify, describe
from kernelevo.evaluation.instrument import (
    ALLOWED_ATEN_OPS,
    Guards,
    IntegritySnapshot,
    LaunchRecorder,
    OpRecorder,
)
from kernelevo.evaluation.protocol import (
    CallRecord,
    Check,
    CheckReply,
    ChildError,
    ChildSetup,
    Load,
    MetadataReply,
    MetadataRequest,
    TimeReply,
    TimeRequest,
    Warm,
)
from kernelevo.evaluation.result import ErrorKind, KernelMetadata
from kernelevo.evaluation.timing import L2Flusher, time_callable
from kernelevo.sandbox import Progress
from kernelevo.spec.errors import SpecError
from kernelevo.spec.problem import Problem
from kernelevo.utils.devices import pick_device


class CandidateRunner:
    """Sandbox handler for one candidate: Load, then Check per variant, Time, Metadata."""

    def __init__(self, setup: ChildSetup, conn: Connection) -> None:
        import torch._dynamo
        import triton  # noqa: F401  (imported now, so a candidate's import is cheap)

        # CPU tensors travel through named shared memory: the default (passing file
        # descriptors) needs a multiprocessing parent, and the judge is not one.
        torch.multiprocessing.set_sharing_strategy("file_system")
        self.conn = conn
        self.device = pick_device(setup.device)
        self.gpu = self.device.type == "cuda"
        self.flusher: L2Flusher | None = None
        self.memory_fraction = setup.gpu_memory_fraction
        self.warm = False
        self.problem = Problem(setup.spec)
        self.allowed_ops = ALLOWED_ATEN_OPS | frozenset(setup.allowed_ops)
        self.recorder = LaunchRecorder(on_phase=self._progress)
        self.recorder.install(interpreted=not self.gpu)
        self.guards = Guards()
        self.guards.install()
        self.integrity = IntegritySnapshot()
        self.models: dict[str, torch.nn.Module] = {}
        self.candidate_file = ""
        self._sent: list[Any] = []  # tensors the judge may still be reading

    def _progress(self, phase: str, detail: str = "") -> None:
        self.recorder.phase = phase
        self.conn.send(Progress(phase, detail))

    def handle(self, request: Any) -> Any:
        self._sent.clear()
        if isinstance(request, Warm):
            return self._warm()
        self._warm()  # a judge that sent no Warm gets a context anyway
        if isinstance(request, Load):
            return self._load(request)
        if isinstance(request, Check):
            return self._check(request)
        if isinstance(request, TimeRequest):
            return self._time(request)
        if isinstance(request, MetadataRequest):
            return self._metadata()
        raise TypeError(f"unknown request {type(request).__name__}")

    def _warm(self) -> str:
        if self.gpu and not self.warm:
            torch.cuda.set_device(self.device)
            torch.cuda.set_per_process_memory_fraction(self.memory_fraction, self.device)
            torch.cuda.init()
            self.flusher = L2Flusher(self.device)
            torch.cuda.synchronize()
            import triton

            triton.runtime.driver.active.utils  # noqa: B018  (loads Triton's C helpers, built once per judge)
        self.warm = True
        return "warm"

    # -- load ------------------------------------------------------------------------------
    def _load(self, request: Load) -> ChildError | None:
        self._progress("import")
        if request.triton_cache:  # Triton reads it at each cache access: this candidate's kernels go there
            os.environ["TRITON_CACHE_DIR"] = request.triton_cache
        self.candidate_file = candidate_path()
        try:
            module = exec_candidate(request.source)
        except Exception as exc:
            return ChildError(ErrorKind.COMPILE_ERROR, describe(exc, self.candidate_file))
        cls = getattr(module, "ModelNew", None)
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
            return ChildError(ErrorKind.MISSING_MODEL_NEW, "the candidate defines no class ModelNew(nn.Module)")
        try:
            for variant in request.variants:
                self.models[variant] = self._build(cls, variant, request.model_seed)
        except SpecError as exc:
            return ChildError(ErrorKind.COMPILE_ERROR, str(exc))
        except Exception as exc:
            return ChildError(classify(exc), describe(exc, self.candidate_file))
        violations = self._violations()
        if violations:
            return ChildError(*violations[0])
        return None

    def _build(self, cls: type, variant: str, seed: int) -> torch.nn.Module:
        """ModelNew built as the reference is (same seed), with the reference's same-named weights."""
        model = self.problem.model(variant, seed, self.device, cls=cls)
        reference = self.problem.model(variant, seed, self.device).state_dict()
        own = model.state_dict()
        shared = {k: v for k, v in reference.items() if k in own and own[k].shape == v.shape}
        if shared:
            model.load_state_dict(shared, strict=False)
        return model

    # -- correctness -----------------------------------------------------------------------
    def _check(self, request: Check) -> CheckReply | ChildError:
        self._progress("run")
        model, variant = self.models[request.variant], request.variant
        ops = OpRecorder()
        calls: list[CallRecord] = []
        compile_before = self.recorder.compile_s
        try:
            first = self.problem.inputs(variant, request.seeds[0], self.device)
            calls.append(self._call(model, ops, "fresh", request.seeds[0], first, 0, request))
            if request.reuse_seed is not None:
                _refill(first, self.problem.inputs(variant, request.reuse_seed, self.device))
                calls.append(self._call(model, ops, "address_reuse", request.reuse_seed, first, 1, request))
            if request.repeat:
                _refill(first, self.problem.inputs(variant, request.seeds[0], self.device))
                calls.append(self._call(model, ops, "repeat", request.seeds[0], first, 1, request))
            for seed in request.seeds[1:]:
                inputs = self.problem.inputs(variant, seed, self.device)
                calls.append(self._call(model, ops, "fresh", seed, inputs, 0, request))
        except SpecError as exc:
            return ChildError(ErrorKind.SPEC_ERROR, str(exc))
        except Exception as exc:
            return ChildError(classify(exc), describe(exc, self.candidate_file),
                              compile_s=self.recorder.compile_s - compile_before)
        self._sent = calls
        return CheckReply(
            calls=calls,
            compute_ops=ops.compute_ops(self.allowed_ops),
            violations=self._violations(),
            compile_s=self.recorder.compile_s - compile_before,
        )

    def _call(
        self, model: torch.nn.Module, ops: OpRecorder, label: str, seed: int, inputs: list[Any], poison: int,
        request: Check,
    ) -> CallRecord:
        fill_poison(request.poison, self.device, poison)
        before = self.recorder.total_launches()
        self.recorder.ops = ops
        try:
            with torch.no_grad(), ops:
                result = model(*inputs)
        finally:
            self.recorder.ops = None
        if self.gpu:
            torch.cuda.synchronize(self.device)
        items = list(result) if isinstance(result, list | tuple) else [result]
        wrong = next((f"output[{i}] is a {type(x).__name__}" for i, x in enumerate(items)
                      if type(x) is not torch.Tensor), None)
        # Clone: an output that aliases an input or a buffer the kernel reuses must not change later.
        outputs = [] if wrong else [x.detach().clone() for x in items]
        after = [x.detach().clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        return CallRecord(label, seed, poison, outputs, after, self.recorder.total_launches() - before, wrong)

    # -- timing ----------------------------------------------------------------------------
    def _time(self, request: TimeRequest) -> TimeReply | ChildError:
        self._progress("time")
        model = self.models[request.variant]
        try:
            sets = [self.problem.inputs(request.variant, s, self.device) for s in request.seeds]

            def call(*inputs: Any) -> Any:
                return model(*inputs)

            with torch.no_grad():
                run = time_callable(
                    call, sets, device=self.device, flusher=self.flusher, warmup=request.warmup,
                    warmup_ms=request.warmup_ms, min_reps=request.min_reps, min_measure_ms=request.min_measure_ms,
                    max_reps=request.max_reps, budget_ms=request.budget_ms,
                    target_rel_iqr=request.target_rel_iqr, interpreted=not self.gpu,
                    on_loop_start=lambda: self._progress("timed_loop"),
                )
        except Exception as exc:
            return ChildError(classify(exc), describe(exc, self.candidate_file))
        return TimeReply(run.timing, run.samples_ms, run.loop_wall_s, self._violations())

    # -- metadata --------------------------------------------------------------------------
    def _metadata(self) -> MetadataReply:
        if not self.gpu:  # nothing was compiled; the judge compiles ahead of time in another child
            return MetadataReply([], dict(self.recorder.interpreted), dict(self.recorder.launches))
        kernels = []
        for name, kernel in self.recorder.compiled.items():
            meta = kernel.metadata
            kernels.append(KernelMetadata(
                name=name, launches=self.recorder.launches[name],
                registers=getattr(kernel, "n_regs", None), spills=getattr(kernel, "n_spills", None),
                shared_bytes=getattr(meta, "shared", None), num_warps=getattr(meta, "num_warps", None),
                num_stages=getattr(meta, "num_stages", None), source="runtime",
            ))
        return MetadataReply(kernels)

    # -- checks ----------------------------------------------------------------------------
    def _violations(self) -> list[tuple[ErrorKind, str]]:
        found: list[tuple[ErrorKind, str]] = []
        changed = self.integrity.changed()
        if changed:
            found.append((ErrorKind.MONKEY_PATCH, f"the candidate replaced {', '.join(changed[:5])}"))
        if self.guards.streams:
            times = self.guards.streams
            found.append((ErrorKind.SIDE_STREAM, f"the candidate created or switched CUDA streams ({times} times): "
                                                 "kernels must run on the current stream"))
        if self.guards.threads:
            found.append((ErrorKind.THREADS, f"the candidate started threads: {', '.join(self.guards.threads[:3])}"))
        return found


def _refill(buffers: list[Any], values: list[Any]) -> None:
    """Overwrite ``buffers`` in place with ``values``: same addresses, new contents."""
    for buf, val in zip(buffers, values, strict=True):
        if isinstance(buf, torch.Tensor):
            buf.copy_(val)
