"""The candidate's child: the only process that runs a candidate's code.

A fresh child serves one candidate. It imports torch and triton, does Triton's
once-per-process work (:mod:`kernelevo.evaluation.child.triton_warm`) and installs the runtime
checks (:mod:`kernelevo.evaluation.child.instrument`) while the previous candidate is judged;
its CUDA context is created on a :class:`Warm` request, which the judge sends when it
hands the child a candidate, so a new context never disturbs another's measurement. It
builds its inputs from seeds the judge sends, runs the candidate one call at a time, and
sends back outputs and timings; it decides nothing. Each call's outputs and input
buffers go to the judge as they are (CUDA IPC: no copy) and stay alive until the judge's
next request, so a call holds one copy of the variant's data, however large. A CUDA error
poisons the process, so the judge throws the child away after each candidate.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from multiprocessing.connection import Connection
from typing import Any

import torch

from kernelevo.evaluation.child import interpreter_speed
from kernelevo.evaluation.child.candidate_module import candidate_path, exec_candidate
from kernelevo.evaluation.child.cuda_runtime import CudaRuntime, CupyMismatch, LaunchLog, device_arch
from kernelevo.evaluation.child.instrument import (
    ALLOWED_ATEN_OPS,
    Guards,
    IntegritySnapshot,
    LaunchRecorder,
    OpRecorder,
)
from kernelevo.evaluation.child.triton_warm import warm_backend, warm_triton_key
from kernelevo.evaluation.common.compare import fill_poison
from kernelevo.evaluation.common.diagnostics import classify, describe
from kernelevo.evaluation.common.precision import precision_settings, settings_drift, tf32_dots
from kernelevo.evaluation.common.protocol import (
    Call,
    CallReply,
    ChildError,
    ChildSetup,
    Load,
    MetadataReply,
    MetadataRequest,
    TimeReply,
    TimeRequest,
    Warm,
)
from kernelevo.evaluation.common.timing import L2Flusher, time_callable
from kernelevo.isolation.sandbox import Progress
from kernelevo.records.result import ErrorKind, KernelMetadata
from kernelevo.spec.errors import SpecError
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.utils.devices import pick_device


class CandidateRunner:
    """Sandbox handler for one candidate: Load, then Calls per variant, Metadata, Time."""

    @staticmethod
    def preload(setup: ChildSetup) -> None:
        """What every child needs, done once in the fork server (:mod:`kernelevo.isolation.zygote`); never CUDA."""
        import triton  # noqa: F401

        if setup.device.startswith("cuda"):
            warm_triton_key()

    def __init__(self, setup: ChildSetup, conn: Connection) -> None:
        import triton  # noqa: F401  (imported now, so a candidate's import is cheap)

        # CPU tensors travel through named shared memory: the default (passing file
        # descriptors) needs a multiprocessing parent, and the judge is not one.
        torch.multiprocessing.set_sharing_strategy("file_system")
        self.conn = conn
        self.device = pick_device(setup.device)
        self.gpu = self.device.type == "cuda"
        self.flusher: L2Flusher | None = None
        self.warm = False
        if self.gpu:  # Triton's once-per-process work, done before any candidate is here to wait for it
            warm_triton_key()
        self.problem = LoadedSpec(setup.spec)
        if setup.spec.settings.tf32:  # the spec opts in: its fp32 library GEMMs and convolutions may round to TF32
            torch.backends.cuda.matmul.allow_tf32 = True
            torch.backends.cudnn.allow_tf32 = True
        self.precision = precision_settings()  # as the judge set them: a candidate must leave them so
        self.allowed_ops = ALLOWED_ATEN_OPS | frozenset(setup.allowed_ops)
        self.recorder = LaunchRecorder(on_phase=self._progress)
        self.recorder.install(interpreted=not self.gpu)
        if not self.gpu:  # custom combines reduced and scanned in log steps, not one interpreted call an element
            interpreter_speed.install()
        self.guards = Guards()
        self.guards.install()
        # CUDA candidates: the GPU's own list of kernels run (by name and stream) is their launch count.
        self.cuda: CudaRuntime | None = None
        self.cuda_setup_error: str | None = None
        if self.gpu and setup.spec.settings.language == "cuda":
            self.cuda = CudaRuntime(on_phase=self._progress, allowed_libraries=frozenset(setup.allowed_libraries))
            try:
                self.cuda.install()
            except CupyMismatch as exc:
                self.cuda_setup_error = str(exc)
        self.integrity = IntegritySnapshot()
        # The references' weights are built now, on the CPU, while the candidate before this child's is
        # judged: a 4096 x 4096 Linear takes 0.07 to 0.09 s to initialise on one core, and Load builds
        # ModelNew besides (the matmul example's load: 0.37 s, 0.23 s with this, on an H100 host).
        self.references = self._references_ahead(setup)
        self.models: dict[str, torch.nn.Module] = {}
        self.buffers: dict[str, list[Any]] = {}  # the inputs of the current variant's last fresh call
        self.candidate_file = ""
        self._sent: list[Any] = []  # tensors the judge may still be reading
        self.library_seen: set[str] = set()  # variants whose forward made vendor-library calls

    def _progress(self, phase: str, detail: str = "") -> None:
        self.recorder.phase = phase
        if self.cuda is not None:
            self.cuda.phase = phase
        self.conn.send(Progress(phase, detail))

    def _compile_s(self) -> float:
        return self.recorder.compile_s + (self.cuda.compile_s if self.cuda is not None else 0.0)

    def handle(self, request: Any) -> Any:
        self._release()
        if isinstance(request, Warm):
            return self._warm(request.memory_limit_bytes)
        self._warm(None)  # a judge that sent no Warm gets a context anyway
        if isinstance(request, Load):
            return self._load(request)
        if isinstance(request, Call):
            return self._call(request)
        if isinstance(request, TimeRequest):
            return self._time(request)
        if isinstance(request, MetadataRequest):
            return self._metadata()
        raise TypeError(f"unknown request {type(request).__name__}")

    def _warm(self, memory_limit_bytes: int | None) -> str:
        if self.gpu and not self.warm:
            torch.cuda.set_device(self.device)
            torch.cuda.init()
            if memory_limit_bytes is not None:  # the judge's plan: the rest of the GPU is the judge's
                total = torch.cuda.get_device_properties(self.device).total_memory
                torch.cuda.set_per_process_memory_fraction(min(1.0, memory_limit_bytes / total), self.device)
            self.flusher = L2Flusher(self.device)
            torch.cuda.synchronize()
            import triton

            triton.runtime.driver.active.utils  # noqa: B018  (loads Triton's C helpers, built once per judge)
            warm_backend()
        self.warm = True
        return "warm"

    # -- load ------------------------------------------------------------------------------
    def _load(self, request: Load) -> ChildError | None:
        self._progress("import")
        if request.triton_cache:  # Triton reads it at each cache access: this candidate's kernels go there
            os.environ["TRITON_CACHE_DIR"] = request.triton_cache
        self.candidate_file = candidate_path()
        if self.cuda_setup_error:
            return ChildError(ErrorKind.EVALUATOR_ERROR, self.cuda_setup_error)
        if self.cuda is not None:
            missing = self.cuda.missing_cupy(request.source)
            if missing:
                return ChildError(ErrorKind.EVALUATOR_ERROR, missing)
            self.cuda.read_source(request.source)
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

    def _references_ahead(self, setup: ChildSetup) -> dict[tuple[str, int], torch.nn.Module]:
        if setup.model_seed is None:
            return {}
        try:
            return {(v, setup.model_seed): self.problem.built(v, setup.model_seed) for v in setup.variants}
        except Exception:  # Load builds them again, and reports what went wrong there
            return {}

    def _build(self, cls: type, variant: str, seed: int) -> torch.nn.Module:
        """ModelNew built as the reference is (same seed), with the reference's same-named weights."""
        model = self.problem.model(variant, seed, self.device, cls=cls)
        ahead = self.references.pop((variant, seed), None)
        reference = (self.problem.model(variant, seed, self.device) if ahead is None
                     else self.problem.placed(ahead, self.device)).state_dict()
        own = model.state_dict()
        shared = {k: v for k, v in reference.items() if k in own and own[k].shape == v.shape}
        if shared:
            model.load_state_dict(shared, strict=False)
        return model

    def _release(self) -> None:
        """Drop what the judge was reading (it has let go before sending another request)."""
        self._sent.clear()
        if self.gpu and self.warm:
            torch.cuda.ipc_collect()

    def _peak(self) -> int | None:
        return torch.cuda.max_memory_reserved(self.device) if self.gpu and self.warm else None

    # -- correctness -----------------------------------------------------------------------
    def _call(self, request: Call) -> CallReply | ChildError:
        started = time.perf_counter()
        self._progress("run")
        model = self.models[request.variant]
        ops = OpRecorder(precision=self.precision)
        compile_before = self._compile_s()
        gpu_log = LaunchLog()
        try:
            inputs = self._inputs(request)
            fill_poison(request.outputs, self.device, request.poison)
            before = self.recorder.total_launches()
            self.recorder.ops = ops
            watch = self.cuda.watch(self.device) if self.cuda is not None else contextlib.nullcontext(gpu_log)
            try:
                with watch as gpu_log, torch.no_grad(), ops:
                    result = model(*inputs)
            finally:
                self.recorder.ops = None
            if self.gpu:
                torch.cuda.synchronize(self.device)
        except SpecError as exc:
            return ChildError(ErrorKind.SPEC_ERROR, str(exc))
        except Exception as exc:
            return ChildError(classify(exc), describe(exc, self.candidate_file),
                              compile_s=self._compile_s() - compile_before)
        if gpu_log.error:
            return ChildError(ErrorKind.EVALUATOR_ERROR, gpu_log.error)
        library = ops.library.records() if ops.library is not None else []
        cuda_violations = (self.cuda.violations(gpu_log, {call.family for call in library})
                           if self.cuda is not None else [])
        items = list(result) if isinstance(result, list | tuple) else [result]
        wrong = next((f"output[{i}] is a {type(x).__name__}" for i, x in enumerate(items)
                      if type(x) is not torch.Tensor), None)
        if library:
            self.library_seen.add(request.variant)
        reply = CallReply(
            outputs=[] if wrong else [x.detach() for x in items],
            inputs_after=list(inputs),
            launches=self.recorder.total_launches() - before + sum(gpu_log.own.values()),
            wrong_type=wrong,
            compute_ops=ops.compute_ops(self.allowed_ops),
            library=library,
            violations=cuda_violations + self._violations(ops.library.drift if ops.library is not None else []),
            compile_s=self._compile_s() - compile_before,
            peak_bytes=self._peak(),
        )
        reply.child_s = time.perf_counter() - started
        self._sent = [reply]
        return reply

    def _inputs(self, request: Call) -> list[Any]:
        """Fresh inputs (kept as the variant's buffers), or those buffers refilled in place."""
        if request.trial == "fresh":
            self.buffers.clear()  # the previous buffers go before the new ones are made
            inputs = self.problem.inputs(request.variant, request.seed, self.device)
            if not self.gpu:  # sending a CPU tensor moves it into shared memory: move it now, so its address
                for x in inputs:  # stays the same across the calls on these buffers
                    if isinstance(x, torch.Tensor):
                        x.share_memory_()
            self.buffers[request.variant] = inputs
        else:
            _refill(self.buffers[request.variant], self.problem.inputs(request.variant, request.seed, self.device))
        return self.buffers[request.variant]

    # -- timing ----------------------------------------------------------------------------
    def _time(self, request: TimeRequest) -> TimeReply | ChildError:
        self._progress("time")
        model = self.models[request.variant]
        self.buffers.clear()
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
                    on_loop_start=lambda: self._progress("timed_loop"), race_ms=request.race_ms,
                )
            library_ms = self._library_ms(call, sets[0]) if self.gpu and request.variant in self.library_seen else None
        except Exception as exc:
            return ChildError(classify(exc), describe(exc, self.candidate_file))
        del sets
        if self.gpu:  # the timing sets go back to the GPU: the judge may time its baselines again
            torch.cuda.empty_cache()
        return TimeReply(run.timing, run.samples_ms, run.loop_wall_s, run.covers_ms, self._violations(), self._peak(),
                         library_ms)

    def _library_ms(self, call: Any, inputs: list[Any], forwards: int = 3) -> float:
        """The GPU time (ms) of one forward's library calls: CUDA events around each, L2 flushed before the
        forward, the median of ``forwards``. After the timed loop, so it costs the timing nothing."""
        times = []
        for _ in range(forwards):
            if self.flusher is not None:
                self.flusher()
            ops = OpRecorder(timed=True)
            with torch.no_grad(), ops:
                call(*inputs)
            assert ops.library is not None
            times.append(ops.library.library_ms())
        return statistics.median(times)

    # -- metadata --------------------------------------------------------------------------
    def _metadata(self) -> MetadataReply:
        if self.cuda is not None:
            kernels, builds = self.cuda.metadata(device_arch(self.device))
            triton_kernels = self._triton_metadata()
            return MetadataReply(kernels + triton_kernels, builds=builds)
        if not self.gpu:  # nothing was compiled; the judge compiles ahead of time in another child
            return MetadataReply([], dict(self.recorder.interpreted), dict(self.recorder.launches))
        return MetadataReply(self._triton_metadata())

    def _triton_metadata(self) -> list[KernelMetadata]:
        kernels = []
        for name, kernel in self.recorder.compiled.items():
            meta = kernel.metadata
            kernels.append(KernelMetadata(
                name=name, launches=self.recorder.launches[name],
                registers=getattr(kernel, "n_regs", None), spills=getattr(kernel, "n_spills", None),
                shared_bytes=getattr(meta, "shared", None), num_warps=getattr(meta, "num_warps", None),
                num_stages=getattr(meta, "num_stages", None), source="runtime",
                tf32_dots=tf32_dots(getattr(kernel, "asm", {}).get("ttir")),
            ))
        return kernels

    # -- checks ----------------------------------------------------------------------------
    def _violations(self, library_drift: list[str] | None = None) -> list[tuple[ErrorKind, str]]:
        """What the candidate's code did that no kernel may; ``library_drift``: precision settings that were
        not the judge's during one of its library calls (those it restored after are not seen otherwise)."""
        found: list[tuple[ErrorKind, str]] = []
        changed = self.integrity.changed()
        if changed:
            found.append((ErrorKind.MONKEY_PATCH, f"the candidate replaced {', '.join(changed[:5])}"))
        drift = library_drift or settings_drift(self.precision, precision_settings())
        if drift:
            found.append((ErrorKind.PRECISION_SETTINGS,
                          f"the candidate changed torch's precision settings ({'; '.join(drift[:3])}): the "
                          "reference computes under the judge's, and the kernel must run as it would elsewhere. "
                          "A spec that accepts TF32 says so (tf32: True in its KERNELEVO settings)"))
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
