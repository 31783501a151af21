"""Compiling ahead, from the evaluator's side: the precompilers and each candidate's own Triton cache.

On a GPU, while the judge holds the GPU for one candidate, the next ones' kernels are compiled
on the CPU (:mod:`kernelevo.evaluation.child.precompile` is the child's side) into a Triton cache of
that candidate alone, which its GPU child then reads. The precompilers run the candidate's
wrapper, so each runs in a sandbox of its own, started from a :class:`ChildPool`.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from kernelevo.evaluation.child.precompile import PrecompileReply, PrecompileRequest, PrecompileSetup
from kernelevo.evaluation.common.protocol import GpuTarget
from kernelevo.evaluation.judge.child_pool import ChildPool
from kernelevo.isolation import containment
from kernelevo.isolation.sandbox import FailureKind, Limits, Sandbox, SandboxFailure
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import Precompiled
from kernelevo.spec.spec import Spec
from kernelevo.utils.devices import sandbox_env


class TritonCaches:
    """A folder holding one Triton cache per candidate, written by the sandboxed precompiler and candidate
    child (each confined to its own at the candidate's import: kernelevo.isolation.containment.confine_candidate)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="kernelevo-triton-"))
        containment.give_to_sandbox(self.root)
        self._count = 0
        self._lock = threading.Lock()

    def ensure(self) -> None:
        """Make the folder again where a judge that failed took it with it."""
        if not self.root.exists():
            self.root.mkdir()
            containment.give_to_sandbox(self.root)

    def new(self) -> str:
        """A Triton cache directory for one candidate alone."""
        with self._lock:
            self._count += 1
            path = self.root / f"candidate-{self._count}"
        path.mkdir(parents=True)  # parents: a judge that failed took the caches' folder with it
        containment.give_to_sandbox(path)
        return str(path)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def cubins(cache: str | None) -> int:
    """Kernels compiled into ``cache`` so far."""
    return sum(1 for _ in Path(cache).rglob("*.cubin")) if cache else 0


class AheadCompilers:
    """The precompilers of one evaluator: started with its judge, closed with it, stopped by its abort()."""

    def __init__(self, spec: Spec, options: EvalOptions, caches: TritonCaches | None) -> None:
        self.spec, self.options, self.caches = spec, options, caches
        self._lock = threading.Lock()
        self._pool: ChildPool | None = None  # Precompiler sandboxes
        self._compiling: dict[int, Sandbox] = {}  # precompilers at work, for stop() (under _lock)
        self._stopped = False  # stop(): no precompiler starts again

    @property
    def started(self) -> bool:
        return self._pool is not None

    def start(self) -> None:
        # CUDA hidden: a precompiler compiles for the judge's GPU and can never touch it. One
        # torch thread: its CPU work is a wrapper's small tensor ops; the cores go to compiling.
        env = {**sandbox_env(gpu=True), "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"}
        setup = PrecompileSetup(self.spec, threads=self.options.compile_threads())
        # They run the candidate's wrapper: what it prints goes with its result (Precompiled.output).
        with self._lock:
            self._pool = ChildPool("kernelevo.evaluation.child.precompile:Precompiler", setup, env=env,
                                   spare=self.options.ahead(),  # one ready for each candidate ahead
                                   limits=Limits(int(self.options.cpu_memory_limit_gb * 2**30)),
                                   start_timeout_s=self.options.start_timeout_s, name="precompile",
                                   fork=self.options.fork_children, capture_output=True,
                                   writable=(str(self.caches.root),) if self.caches else ())
            self._pool.fill()

    def compile(self, source: str, cache: str | None, target: Callable[[], GpuTarget | None]) -> Precompiled | None:
        """Compile ``source``'s kernels into ``cache`` on the CPU for the GPU ``target()`` names (None: the judge
        has not told it yet); never raises (the GPU child compiles then)."""
        if cache is None or self._pool is None:
            return None
        box, precompiled = None, None
        try:
            with self._lock:
                if self._stopped:
                    return None
                box, _ = self._pool.take()
                self._compiling[id(box)] = box
            variants = self.spec.correctness_variants(gpu=True)  # the timed variant among them
            gpu = target()  # asked once a precompiler is taken: a judge being (re)started may have told it since
            if gpu is None:  # the judge has not told its GPU yet (it is being restarted)
                return None
            reply: PrecompileReply = box.call(PrecompileRequest(source, variants, cache, gpu),
                                              {"*": self.options.compile_timeout_s})
            precompiled = Precompiled(kernels=reply.kernels, error=reply.error)
        except SandboxFailure as exc:
            precompiled = Precompiled(error=f"precompile {exc.kind}: {exc.message}",
                                      timed_out=exc.kind == FailureKind.TIMEOUT)
        finally:
            if box is not None:
                with self._lock:
                    self._compiling.pop(id(box), None)
                if precompiled is not None:
                    precompiled.output = box.output_tail()
                box.kill()
        return precompiled

    def stop(self) -> list[Sandbox]:
        """No precompiler starts from now on; the ones compiling now, for the caller to kill."""
        self._stopped = True  # first: a precompiler taken after the look below is never started
        with self._lock:
            return list(self._compiling.values())

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

