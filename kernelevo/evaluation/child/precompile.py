"""Compile a candidate's Triton kernels on the CPU while the GPU judges another candidate.

Compiling (Triton to PTX to a cubin, plus Triton 3.6's C launcher) takes 0.4 to 0.7 s of
each GPU evaluation and needs no GPU. A :class:`Precompiler` child, with CUDA hidden,
runs the candidate's ``forward`` on CPU tensors of each variant's shapes while Triton's
JIT is told that the device is the GPU the judge reported (``GPUTarget``) and that every
launch is a warm-up: each kernel is specialized exactly as the GPU run will specialize it
(argument types, 16-byte alignment, integers equal to 1, constexprs, launch options) and
compiled, but never launched. Autotuned kernels get every config compiled. With
``threads`` above one, Triton's async-compile mode compiles them in parallel threads (it
releases the GIL while compiling: an autotuned matmul's 8 kernels took 12.0 s in one thread
and 3.7 s in three on the H200 host). The results go to a Triton cache directory of that
candidate alone; the candidate's GPU child then reads its kernels from there instead of
compiling them while it holds the GPU.

A wrapper that needs CUDA on the host side (``torch.cuda`` calls, tensors made on
``"cuda"``) fails here; that costs nothing, since the GPU child compiles whatever is
missing from the cache, as it would have without this step. Each candidate gets a fresh
child and a cache of its own, so no candidate's code can plant a binary that another
candidate's evaluation would load.

A vendor-library op the forward calls through torch (a convolution, a GEMM, attention, a recurrent
layer) is not computed here: its output is allocated with the shape, strides and dtype its meta
function gives (:func:`library_shapes_only`). Nothing reads the values, since no kernel launches, and
the precompiler computes with one thread at a low priority: the suite's Conv1d (16 x 64 x 65536, 52 GFLOP)
takes 2.6 s a call that way on a 2-core development machine, a 4096-cube GEMM about as long, for every candidate.

Precompilers run at a lower CPU priority (:data:`NICENESS`), so that compiles may take every
core of the GPU's share of the host while the judge, its GPU child and the children being
started for the next candidates are scheduled first (a priority, not a reservation).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from kernelevo.evaluation.child.candidate_module import exec_candidate
from kernelevo.evaluation.child.triton_warm import warm_triton_key
from kernelevo.evaluation.common.diagnostics import trim
from kernelevo.evaluation.common.protocol import GpuTarget
from kernelevo.spec.spec import Spec

# Below the judge and its children: a compile that waits costs a candidate compiled later, a
# judge that waits costs the GPU's time
NICENESS = 10


@dataclass
class PrecompileSetup:
    spec: Spec
    threads: int = 1  # kernels of one candidate compiled at once


@dataclass
class PrecompileRequest:
    source: str
    variants: list[str]
    cache_dir: str
    target: GpuTarget  # the judge's GPU (a precompiler starts before the judge has told it)


@dataclass
class PrecompileReply:
    kernels: list[str] = field(default_factory=list)  # "name[config]" of each compiled specialization
    error: str | None = None  # why the wrapper could not run here (the GPU child compiles instead)


class _CompileOnlyDriver:
    """Triton's view of a device it may compile for but never touch."""

    def __init__(self, target: GpuTarget) -> None:
        from triton.backends.compiler import GPUTarget

        self.target = GPUTarget(target.backend, target.arch, target.warp_size)

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        pass

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_current_target(self) -> Any:
        return self.target

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def is_active(self) -> bool:
        return True


class Precompiler:
    """Sandbox handler, started with CUDA hidden: compiles one candidate's kernels."""

    @staticmethod
    def preload(setup: PrecompileSetup) -> None:
        """Imports and Triton's key, once, in the fork server (:mod:`kernelevo.isolation.zygote`)."""
        import torch  # noqa: F401
        import triton  # noqa: F401

        warm_triton_key()

    def __init__(self, setup: PrecompileSetup, conn: Connection) -> None:
        os.nice(NICENESS)  # this child's and its compile threads' (the fork server keeps its own)
        import torch  # noqa: F401  (imported ahead, so a candidate's turn is compile work only)
        import triton  # noqa: F401

        from kernelevo.spec.loaded import LoadedSpec

        self.problem = LoadedSpec(setup.spec)
        self.threads = setup.threads

    def handle(self, request: PrecompileRequest) -> PrecompileReply:
        import torch

        os.environ["TRITON_CACHE_DIR"] = request.cache_dir  # Triton reads it at each cache access
        reply = PrecompileReply()
        launched: list[Any] = []
        with ThreadPoolExecutor(self.threads, thread_name_prefix="compile") as pool:
            try:
                with _compile_only(request.target, launched, pool if self.threads > 1 else None), \
                        library_shapes_only():
                    cls = exec_candidate(request.source).ModelNew
                    cpu = torch.device("cpu")
                    for variant in request.variants:
                        model = self.problem.model(variant, 0, cpu, cls=cls)
                        inputs = self.problem.inputs(variant, 0, cpu)
                        with self.problem.variant(variant), torch.no_grad():
                            model(*inputs)
            except Exception as exc:
                reply.error = trim(f"{type(exc).__name__}: {exc}", 4)
            kernels = _compiled(launched)
            reply.kernels = [f"{name}[warps={k.metadata.num_warps},stages={k.metadata.num_stages}]"
                             for name, k in kernels]
            list(pool.map(_build_launcher, [k for _, k in kernels]))
        return reply


@contextlib.contextmanager
def _compile_only(target: GpuTarget, launched: list[Any], pool: Executor | None) -> Iterator[None]:
    """Within the block Triton compiles for ``target`` and launches nothing.

    ``launched`` collects ``(kernel name, kernel)`` for each launch. With a ``pool``, Triton
    compiles in its threads (its async-compile mode; Triton without it compiles each kernel
    at its launch) and each kernel is a future, all of them finished when the block ends,
    however it ends: the compile-only driver stays in place until the last compile is done.
    (Triton's async mode stops waiting at the first compile that fails; a compile still
    running after the real driver came back would ask it for the target, find no GPU, and
    cache code for the wrong one under the key the GPU child looks up.)
    """
    from triton.runtime import driver
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    try:  # Triton's async-compile mode: the JIT compiles in an executor's threads
        from triton.runtime import _async_compile as async_compile
    except ImportError:  # a Triton without it compiles each kernel at its launch
        async_compile = None

    saved = (JITFunction.run, Autotuner.run, driver._active)
    jit_run = JITFunction.run

    compiling: list[Future[Any]] = []  # the async mode's futures, awaited before anything is restored

    def compile_without_launch(fn: Any, *args: Any, grid: Any = None, warmup: bool = False, **kwargs: Any) -> Any:
        kernel = jit_run(fn, *args, grid=grid, warmup=True, **kwargs)
        if kernel is not None:
            launched.append((fn.__name__, kernel))
            future = getattr(kernel, "future", None)  # an async-compile FutureKernel's own attribute
            if future is not None:
                compiling.append(future)
        return kernel

    def compile_every_config(tuner: Any, *args: Any, **kwargs: Any) -> Any:
        # Autotuning times each config on the GPU; here each config is compiled, so
        # whichever the GPU child picks is already in the cache.
        kernel = None
        for config in tuner.configs:
            kernel = tuner.fn.run(*args, **{**kwargs, **config.all_kwargs()})
        return kernel

    JITFunction.run = compile_without_launch
    Autotuner.run = compile_every_config
    driver.set_active(_CompileOnlyDriver(target))
    try:
        with contextlib.ExitStack() as stack:
            if pool is not None and async_compile is not None:
                stack.enter_context(async_compile.AsyncCompileMode(pool))  # waits for every compile at exit
            yield
    finally:
        wait(compiling)
        JITFunction.run, Autotuner.run, driver._active = saved


@functools.cache
def _library_shapes_only_mode() -> type:
    """The mode's class, made when first used: the judge imports this module, and must not import torch."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_map

    from kernelevo.evaluation.common.library import ATEN_OPS  # imports torch: not at this module's import

    def to_meta(x: Any) -> Any:
        return x.to("meta") if isinstance(x, torch.Tensor) else x

    class _LibraryShapesOnly(TorchDispatchMode):
        @classmethod
        def _should_skip_dynamo(cls) -> bool:
            return False  # as the op recorder's (instrument.py): nothing here compiles with Dynamo

        def __init__(self) -> None:
            super().__init__()
            self.skipped = 0  # library ops whose outputs were allocated, not computed

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            if func.overloadpacket.__name__ not in ATEN_OPS or "out" in kwargs:
                return func(*args, **kwargs)
            try:
                shapes = func(*tree_map(to_meta, args), **tree_map(to_meta, kwargs))
            except Exception:  # no meta function for it: computed, as before
                return func(*args, **kwargs)
            device = next((a.device for a in args if isinstance(a, torch.Tensor)), torch.device("cpu"))
            self.skipped += 1
            return tree_map(lambda m: torch.empty_strided(m.shape, m.stride(), dtype=m.dtype, device=device)
                            if isinstance(m, torch.Tensor) else m, shapes)

    return _LibraryShapesOnly


def library_shapes_only() -> Any:
    """A dispatch mode in which each vendor-library op (:data:`~kernelevo.evaluation.common.library.ATEN_OPS`)
    returns uninitialized outputs of the shapes, strides and dtypes it would compute, computing nothing."""
    return _library_shapes_only_mode()()


def _compiled(launched: list[Any]) -> list[tuple[str, Any]]:
    """Each distinct kernel that compiled, futures resolved (one that failed is left out)."""
    kernels: list[tuple[str, Any]] = []
    for name, kernel in launched:
        if hasattr(kernel, "future"):  # a future of the async-compile mode: None if its compile failed
            try:
                kernel = kernel.result(ignore_errors=True)
            except Exception:  # not expected with ignore_errors; a failed compile either way
                kernel = None
        if kernel is not None and all(kernel is not seen for _, seen in kernels):
            kernels.append((name, kernel))
    return kernels


def _build_launcher(kernel: Any) -> None:
    """Build the kernel's C launcher into the cache, where this Triton compiles one per signature.

    Triton 3.6 compiles a launcher with the host C compiler at a kernel's first launch;
    Triton 3.9 has one generic launcher and needs nothing here.
    """
    try:
        from triton.backends.nvidia import driver as nvidia
    except ImportError:
        return
    if "compile_module_from_src" not in nvidia.CudaLauncher.__init__.__code__.co_names:
        return
    with contextlib.suppress(Exception):  # without the CUDA driver library it cannot load; the GPU child builds it
        nvidia.CudaLauncher(kernel.src, kernel.metadata)
