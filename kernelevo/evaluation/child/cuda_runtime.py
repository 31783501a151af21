"""Runtime checks for CUDA candidates, installed in the candidate's child before its import.

Triton launches pass through Python, where :class:`~kernelevo.evaluation.child.instrument.LaunchRecorder`
counts them. CUDA launches do not (a ``load_inline`` extension launches from C++), so
here the GPU itself is asked: each correctness call runs under torch's profiler (CUPTI),
which lists every kernel the GPU ran, whoever launched it, with its stream. From that list:

- the candidate's own kernels (by the ``__global__`` names in its source, and those CuPy
  and ``load_inline`` were asked to build at run time) are its launches; none is
  ``kernel_not_launched``;
- any other kernel, except PyTorch's own (allocation, fills and copies, which the op
  recorder judges), is a library doing the work: ``library_call`` (cuBLAS, cuDNN, Thrust,
  CuPy's array kernels...), unless the options allow that library;
- an own kernel on another stream than the caller's is ``side_stream``.

The hooks also route compiles through the compile limit (CuPy's NVRTC at its first
``get_function``; ``load_inline``'s nvcc), keep built extensions in a cache keyed by their
source so re-evaluating a candidate does not rebuild it, and collect each kernel's
registers, spills and shared memory as the GPU loaded them, and (load_inline) the built
extension's PTX and SASS.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from kernelevo.evaluation.child.cuda_build import (
    nvrtc_toolkit_flags,
    own_name,
    read_binary,
    register_limited_threads,
    source_hash,
)
from kernelevo.records.result import CudaBuild, ErrorKind, KernelMetadata
from kernelevo.utils.cuda_source import find_cuda, kernel_names
from kernelevo.utils.paths import cache_dir

# Kernels PyTorch itself launches for the allocation, fill and copy ops forward may use.
TORCH_KERNEL = re.compile(r"\bat::|\bc10::|\bnative::|CatArrayBatchedCopy|elementwise_kernel|"
                          r"distribution_elementwise|reduce_kernel|\bMemcpy\b|\bMemset\b")
LIBRARY_KERNELS = {
    "cublas": re.compile(r"gemm|gemv|cublas|xmma|cutlass|ampere_|sm\d+_|trsm|syrk|nvjet", re.I),
    "cudnn": re.compile(r"cudnn|implicit_convolve|winograd|fft2d", re.I),
    "thrust": re.compile(r"thrust::|_kernel_agent", re.I),
    "cub": re.compile(r"cub::|DeviceReduce|DeviceScan|DeviceRadixSort|DeviceSegmented", re.I),
    "cupy": re.compile(r"^cupy_|cupy::", re.I),
}
# The vendor kernels a library op of each policy family runs when a candidate calls it through torch, from
# Python or from C++ (``torch::matmul`` in a load_inline extension: cuBLAS, nvjet on CUDA 13). The op
# recorder saw those calls and the judge holds them to the library policy and to the reference's work; the
# launch check only must not call their kernels foreign.
FAMILY_KERNELS = {
    "gemm": (LIBRARY_KERNELS["cublas"],),
    "conv": (LIBRARY_KERNELS["cudnn"], LIBRARY_KERNELS["cublas"]),
    "attention": (re.compile(r"flash|fmha|attention", re.I), LIBRARY_KERNELS["cublas"]),
    "rnn": (LIBRARY_KERNELS["cudnn"], LIBRARY_KERNELS["cublas"]),
}


class CupyMismatch(RuntimeError):
    """CuPy built for another CUDA major version than torch: the two cannot share a process."""


@dataclass
class LaunchLog:
    """What the GPU ran during one watched call."""

    own: Counter[str] = field(default_factory=Counter)
    foreign: list[str] = field(default_factory=list)
    other_stream: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class CudaRuntime:
    """Hooks for one CUDA candidate's child; see the module docstring."""

    on_phase: Callable[[str, str], None]
    allowed_libraries: frozenset[str] = frozenset()
    own: set[str] = field(default_factory=set)
    launches: Counter[str] = field(default_factory=Counter)
    cupy_kernels: dict[str, Any] = field(default_factory=dict)
    cupy_units: int = 0  # CuPy modules and kernels made (their PTX and SASS: see metadata())
    extensions: list[tuple[str, Path, bool, float]] = field(default_factory=list)  # name, build dir, cached, s
    compile_s: float = 0.0
    cupy_version: str | None = None
    phase: str = "run"

    # -- hooks -----------------------------------------------------------------------------
    def install(self) -> None:
        # The first profile imports torch._dynamo, which wraps torch.manual_seed: done here, before
        # the child's integrity snapshot, so that it is not taken for the candidate's doing.
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU]):
            pass
        self._install_load_inline()
        try:
            self._install_cupy()
        except ImportError:  # without CuPy, only load_inline candidates can run
            self.cupy_version = None

    def missing_cupy(self, source: str) -> str | None:
        """Why a CuPy candidate cannot run here, or None."""
        if self.cupy_version is None and "cupy" in find_cuda(source).forms:
            major = (torch.version.cuda or "13").split(".")[0]
            return (f"CuPy is not installed in the evaluator's environment: pip install cupy-cuda{major}x "
                    f"(or 'kernelevo[cuda{major}]')")
        return None

    @contextlib.contextmanager
    def _compiling(self, what: str) -> Iterator[None]:
        """A compile phase: the parent applies the compile limit to it, and its time is counted."""
        previous = self.phase
        self.on_phase("compile", what)
        start = time.perf_counter()
        try:
            yield
        finally:
            self.compile_s += time.perf_counter() - start
            self.on_phase(previous, "")

    def _install_load_inline(self) -> None:
        import torch.utils.cpp_extension as cpp_extension

        original = cpp_extension.load_inline
        runtime = self

        def load_inline(name: str, cpp_sources: Any, cuda_sources: Any = None, *args: Any, **kwargs: Any) -> Any:
            texts = [cpp_sources, cuda_sources, args, sorted(kwargs.items())]
            key = source_hash(repr(texts), torch.__version__, str(torch.version.cuda),
                              str(torch.cuda.get_device_capability()))
            build = cache_dir() / "cuda-extensions" / f"{name}-{key}"
            build.mkdir(parents=True, exist_ok=True)
            cached = (build / f"{name}.so").exists()
            kwargs.update(build_directory=str(build), verbose=False)
            for text in (cuda_sources if isinstance(cuda_sources, list) else [cuda_sources or ""]):
                runtime.own.update(kernel_names(text))
            start = time.perf_counter()
            with runtime._compiling(f"load_inline {name}"):
                module = original(name, cpp_sources, cuda_sources, *args, **kwargs)
            runtime.extensions.append((name, build, cached, time.perf_counter() - start))
            return module

        cpp_extension.load_inline = load_inline

    def _install_cupy(self) -> None:
        import cupy

        check_cupy_matches_torch(cupy)
        self.cupy_version = cupy.__version__
        runtime = self
        base_module, base_kernel = cupy.RawModule, cupy.RawKernel

        class RawModule(base_module):  # type: ignore[misc, valid-type]
            """CuPy's RawModule, with NVRTC under the compile limit and its kernels recorded."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs["options"] = (*kwargs.get("options", ()), *nvrtc_toolkit_flags())
                super().__init__(*args, **kwargs)
                code = kwargs.get("code", args[0] if args else None)
                runtime.cupy_units += 1
                if isinstance(code, str):
                    runtime.own.update(kernel_names(code))

            def get_function(self, name: str) -> Any:
                with runtime._compiling(f"NVRTC {name}"):
                    kernel = super().get_function(name)
                    kernel.attributes  # noqa: B018  (loads the module now, under the compile limit)
                runtime.own.add(name.split("<")[0].strip())
                runtime.cupy_kernels[name] = kernel
                return kernel

        class RawKernel(base_kernel):  # type: ignore[misc, valid-type]
            """CuPy's RawKernel, recorded; it compiles at its first launch."""

            def __init__(self, code: str, name: str, options: tuple[str, ...] = (), *args: Any,
                         **kwargs: Any) -> None:
                options = (*options, *nvrtc_toolkit_flags())
                super().__init__(code, name, options, *args, **kwargs)
                runtime.own.update({name, *kernel_names(code)})
                runtime.cupy_units += 1
                runtime.cupy_kernels[name] = self

            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                if not getattr(self, "_kernelevo_loaded", False):
                    with runtime._compiling(f"NVRTC {self.name}"):
                        self.attributes  # noqa: B018
                    self._kernelevo_loaded = True
                return super().__call__(*args, **kwargs)

        cupy.RawModule, cupy.RawKernel = RawModule, RawKernel

    def read_source(self, source: str) -> None:
        """The kernel names the candidate's source declares (before it runs)."""
        self.own.update(find_cuda(source).kernels)

    # -- watching the GPU --------------------------------------------------------------------
    @contextlib.contextmanager
    def watch(self, device: torch.device) -> Iterator[LaunchLog]:
        """Profile what the GPU runs inside the block; the log is filled when the block ends."""
        from torch.profiler import ProfilerActivity, profile

        log = LaunchLog()
        marker = torch.empty(1, device=device)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            marker.fill_(1.0)  # a kernel on the caller's stream: its stream id is "current"
            yield log
            torch.cuda.synchronize(device)
        self._read(prof, log)

    def _read(self, prof: Any, log: LaunchLog) -> None:
        with tempfile.NamedTemporaryFile(suffix=".json") as trace:
            prof.export_chrome_trace(trace.name)
            events = json.loads(Path(trace.name).read_text() or "{}").get("traceEvents", [])
        read_kernels(events, self.own, log, allowed=self._allowed)
        self.launches.update(log.own)

    def _allowed(self, name: str) -> bool:
        return any(LIBRARY_KERNELS[lib].search(name) for lib in self.allowed_libraries if lib in LIBRARY_KERNELS)

    def violations(self, log: LaunchLog, library_families: Iterable[str] = ()) -> list[tuple[ErrorKind, str]]:
        """What the watched call did wrong; ``library_families``: those of the library calls the op recorder saw
        in it, whose vendor kernels are theirs (:data:`FAMILY_KERNELS`)."""
        found = []
        served = [p for family in set(library_families) for p in FAMILY_KERNELS.get(family, ())]
        foreign = [n for n in log.foreign if not any(p.search(n) for p in served)]
        if foreign:
            names = ", ".join(sorted({_short(n) for n in foreign})[:4])
            libs = sorted({lib for lib, p in LIBRARY_KERNELS.items() for n in foreign if p.search(n)})
            found.append((ErrorKind.LIBRARY_CALL, f"the GPU ran kernels that are not the candidate's own: {names}"
                          + (f" ({', '.join(libs)})" if libs else "") + "; your kernels must do the work"))
        if log.other_stream:
            found.append((ErrorKind.SIDE_STREAM, f"kernels ran on another stream than the caller's: "
                                                 f"{'; '.join(log.other_stream[:3])}"))
        return found

    # -- what was built ------------------------------------------------------------------------
    def metadata(self, arch: str) -> tuple[list[KernelMetadata], list[CudaBuild]]:
        """Each own kernel's resources (from the GPU's own build where it can be read) and the builds."""
        kernels: dict[str, KernelMetadata] = {}
        builds: list[CudaBuild] = []
        for name, build_dir, cached, seconds in self.extensions:
            so = next(iter(sorted(build_dir.glob(f"{name}*.so"))), None)
            build = CudaBuild(form="load_inline", name=name, arch=arch, compiler="nvcc (torch load_inline)",
                              compile_s=seconds, cached=cached)
            if so is None:
                build.error = "the built extension was not found"
            else:
                build, found = read_binary(so, build, sorted(self.own), source="runtime")
                kernels.update({k.name: k for k in found})
            builds.append(build)
        for _ in range(self.cupy_units):  # their PTX and SASS come from the evaluator, off the GPU (cuda_build)
            builds.append(CudaBuild(form="cupy", name="RawModule", arch=arch,
                                    compiler=f"nvrtc (cupy {self.cupy_version})"))
        for name, kernel in self.cupy_kernels.items():  # the kernel the GPU loaded: its own figures
            attrs = kernel.attributes
            short = name.split("<")[0].strip()
            kernels[short] = KernelMetadata(
                name=short, registers=attrs.get("num_regs"), spills=attrs.get("local_size_bytes"),
                shared_bytes=attrs.get("shared_size_bytes"), max_threads_per_block=attrs.get("max_threads_per_block"),
                source="runtime")
        for name, k in kernels.items():
            k.launches = self.launches.get(name, 0)
            if k.max_threads_per_block is None:
                k.max_threads_per_block = register_limited_threads(k.registers)
        launched_only = [KernelMetadata(name=n, launches=c) for n, c in self.launches.items() if n not in kernels]
        return [*kernels.values(), *launched_only], builds


def read_kernels(events: list[dict[str, Any]], own: set[str], log: LaunchLog, *,
                 allowed: Callable[[str], bool] = lambda name: False) -> None:
    """Sort the kernels of a profiler trace (chrome-trace events) into ``log``.

    The first kernel is the marker the watch launched on the caller's stream."""
    kernels = sorted((e for e in events if e.get("cat") == "kernel"), key=lambda e: e.get("ts", 0))
    if not kernels:
        log.error = "the profiler saw no kernel at all, not even the marker: the launch check cannot work"
        return
    current = kernels[0].get("args", {}).get("stream")
    names = sorted(own, key=len, reverse=True)  # the longest first: "gelu_kernel_v2" before "gelu_kernel"
    for event in kernels[1:]:
        name, stream = str(event.get("name", "")), event.get("args", {}).get("stream")
        mine = own_name(name, names)
        if mine is not None:
            log.own[mine] += 1
            if stream != current:
                log.other_stream.append(f"{mine} (stream {stream}, the caller's is {current})")
        elif not TORCH_KERNEL.search(name) and not allowed(name):
            log.foreign.append(name)


def check_cupy_matches_torch(cupy: Any) -> None:
    """CuPy's CUDA major version must be torch's: one process holds one CUDA runtime of each."""
    cupy_major = cupy.cuda.runtime.runtimeGetVersion() // 1000
    torch_cuda = torch.version.cuda
    if torch_cuda and int(torch_cuda.split(".")[0]) != cupy_major:
        major = torch_cuda.split(".")[0]
        raise CupyMismatch(f"CuPy {cupy.__version__} is built for CUDA {cupy_major}, torch {torch.__version__} for "
                           f"CUDA {torch_cuda}: install cupy-cuda{major}x (pip install 'kernelevo[cuda{major}]')")


def _short(name: str) -> str:
    return name if len(name) <= 80 else name[:77] + "..."


def device_arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}"

