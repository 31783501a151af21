"""Runtime checks inside a candidate's child, installed before the candidate is imported.

- :class:`LaunchRecorder` wraps Triton's launch paths (compiled and interpreted) to count
  launches per kernel, keep each kernel's compiled form for its metadata, and announce
  compile phases so the parent can apply the compile time limit to them. It also bounds a
  candidate's own autotuning (short trials on a GPU, the first config in the interpreter).
- :class:`OpRecorder` records every aten op that ``forward`` dispatches outside kernel
  launches, so PyTorch compute (a fallback, a call to the reference) is seen even when it
  got past the static checks.
- :class:`Guards` counts new CUDA streams and Python threads, and
  :class:`IntegritySnapshot` notices monkey-patching of torch, triton, the timers and
  the harness itself.

These run in the untrusted process, so they are a second line: the verdict is decided in
the judge, which also cross-checks the reported times against the wall time it saw.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import statistics
import sys
import threading
import time
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from kernelevo.evaluation.child.candidate_module import CANDIDATE_MODULE
from kernelevo.evaluation.common.library import LibraryRecorder
from kernelevo.evaluation.common.protocol import LaunchSignature

# aten ops forward may dispatch: allocation, views, copies, fills, casts. Everything else computes.
ALLOWED_ATEN_OPS = frozenset(
    {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like",
     "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like", "new_full", "fill", "fill_", "zero_",
     "arange", "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "permute", "transpose", "t",
     "expand", "squeeze", "unsqueeze", "slice", "select", "split", "split_with_sizes", "unbind", "chunk",
     "narrow", "alias", "detach", "contiguous", "clone", "copy_", "_to_copy", "to", "lift_fresh",
     "lift_fresh_copy", "flatten", "unflatten", "movedim", "view_as", "expand_as", "resize_", "sym_size",
     "sym_stride", "sym_numel", "sym_storage_offset", "_local_scalar_dense", "scalar_tensor", "is_same_size",
     "view_as_real", "view_as_complex", "_has_compatible_shallow_copy_type", "set_", "empty_permuted"}
)


class OpRecorder(TorchDispatchMode):
    """Counts aten ops by name while active; launches and library calls pause it (the interpreter uses
    torch, and a library function's own decomposition is the library's). An aten op that is a library
    kernel (``mm`` under ``einsum``) goes to ``library``, the :class:`LibraryRecorder` beside it."""

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        # Torch wraps a mode's __torch_dispatch__ so that Dynamo never traces it, importing
        # torch._dynamo at the first op: 0.8 s here, 6 s on a GPU host, on every candidate's
        # child. Nothing in that child compiles with Dynamo, so the wrapper has nothing to do.
        return False

    def __init__(self, *, library: bool = True, timed: bool = False, precision: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.ops: Counter[str] = Counter()
        self.paused = 0
        self.library = LibraryRecorder(self, timed=timed, precision=precision) if library else None

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if not self.paused:
            name = func.overloadpacket.__name__
            timed = self.library.aten_call(name, args, kwargs) if self.library is not None else None
            if timed is not None:
                with timed:
                    return func(*args, **kwargs)
            self.ops[name] += 1
        return func(*args, **kwargs)

    def __enter__(self) -> OpRecorder:
        if self.library is not None:
            self.library.__enter__()  # the function mode first: its library calls pause this one
        return super().__enter__()

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        if self.library is not None:
            self.library.__exit__(*exc)

    def compute_ops(self, allowed: frozenset[str]) -> dict[str, int]:
        return {op: n for op, n in self.ops.items() if op not in allowed}


@dataclass
class LaunchRecorder:
    """Wraps Triton's launch and compile entry points; see the module docstring."""

    on_phase: Callable[[str, str], None] = lambda phase, detail: None
    launches: Counter[str] = field(default_factory=Counter)
    compiled: dict[str, Any] = field(default_factory=dict)
    interpreted: dict[str, LaunchSignature] = field(default_factory=dict)
    compile_s: float = 0.0
    ops: OpRecorder | None = None
    phase: str = "run"

    def install(self, *, interpreted: bool) -> None:
        from triton.runtime import autotuner
        from triton.runtime.jit import JITFunction

        rec = self
        run = JITFunction.run
        do_compile = JITFunction._do_compile

        def jit_run(fn: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
            if warmup:
                return run(fn, *args, grid=grid, warmup=warmup, **kwargs)
            with rec._paused():
                kernel = run(fn, *args, grid=rec._watched_grid(grid), warmup=warmup, **kwargs)
            rec.launches[fn.__name__] += 1
            rec.compiled[fn.__name__] = kernel
            return kernel

        def jit_compile(fn: Any, *args: Any, **kwargs: Any) -> Any:
            previous = rec.phase
            rec.on_phase("compile", fn.__name__)
            start = time.perf_counter()
            try:
                return do_compile(fn, *args, **kwargs)
            finally:
                rec.compile_s += time.perf_counter() - start
                rec.on_phase(previous, "")

        _patch(JITFunction, "run", jit_run)
        _patch(JITFunction, "_do_compile", jit_compile)

        if interpreted:
            from triton.runtime.interpreter import InterpretedFunction

            interp_run = InterpretedFunction.run

            def interpreted_run(fn: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
                if warmup:
                    return interp_run(fn, *args, grid=grid, warmup=warmup, **kwargs)
                with rec._paused():
                    result = interp_run(fn, *args, grid=rec._watched_grid(grid), warmup=warmup, **kwargs)
                rec.launches[fn.__name__] += 1
                rec.interpreted[fn.__name__] = _signature_of(fn, args, kwargs)
                return result

            _patch(InterpretedFunction, "run", interpreted_run)
            # Autotuning in the interpreter would benchmark every config at CPU speed: run the first.
            _patch(autotuner.Autotuner, "prune_configs", lambda self, kwargs: self.configs[:1])
        else:
            _patch(autotuner.Autotuner, "do_bench", property(_short_trials))

    def _watched_grid(self, grid: Any) -> Any:
        """The candidate's grid callable is candidate code: record its ops even inside a launch."""
        if not callable(grid):
            return grid

        def watched(meta: Any) -> Any:
            paused = self.ops.paused if self.ops is not None else 0
            if self.ops is not None:
                self.ops.paused = 0
            try:
                return grid(meta)
            finally:
                if self.ops is not None:
                    self.ops.paused = paused

        return watched

    @contextlib.contextmanager
    def _paused(self) -> Iterator[None]:
        if self.ops is not None:
            self.ops.paused += 1
        try:
            yield
        finally:
            if self.ops is not None:
                self.ops.paused -= 1

    def total_launches(self) -> int:
        return sum(self.launches.values())


# A candidate's own ``@triton.autotune`` times each config with Triton's default benchmarker: 25 ms
# of warm-up and 100 ms of runs. The judge runs it once for each variant's shape: an autotuned matmul
# with 4 configs and 3 shapes spent 1.42 s of its 2.24 s judge in its correctness calls, 0.37 s with
# these trials (H100, benchmarks/README.md), every verdict of the 52 in that benchmark the same.
# 20 ms is still dozens of runs of a 0.3 ms kernel per config: a config it cannot tell apart from the
# best is within the noise of the judge's own timing of the winner. A candidate that passes its own
# benchmarker, warm-up or repetitions keeps them.
AUTOTUNE_WARMUP_MS, AUTOTUNE_REP_MS = 5, 20


def _short_trials(tuner: Any) -> Callable[..., Any]:
    """``Autotuner.do_bench`` in a GPU child: the candidate's own benchmarker, else the short one."""
    own = getattr(tuner, "_do_bench", None)
    if own is not None:
        return own
    import triton.testing

    return functools.partial(triton.testing.do_bench, warmup=AUTOTUNE_WARMUP_MS, rep=AUTOTUNE_REP_MS)


def _patch(owner: Any, name: str, value: Any) -> None:
    """Install a harness wrapper (before any candidate code runs)."""
    setattr(owner, name, value)


def _signature_of(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> LaunchSignature:
    names = list(fn.arg_names)
    values = dict(zip(names, args, strict=False))
    values.update({k: v for k, v in kwargs.items() if k in names})
    described: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, torch.Tensor):
            described[name] = ("tensor", str(value.dtype).removeprefix("torch."), value.data_ptr() % 16 == 0)
        elif isinstance(value, bool):
            described[name] = ("bool", value)
        elif isinstance(value, int):
            described[name] = ("int", value)
        elif isinstance(value, float):
            described[name] = ("float", value)
        else:
            described[name] = ("other", getattr(value, "value", value))
    options: dict[str, Any] = {k: kwargs[k] for k in ("num_warps", "num_stages") if k in kwargs}
    return LaunchSignature(args=described, options=options)


CANDIDATE_MODULES = (CANDIDATE_MODULE,)


def _from_candidate(skip: tuple[str, ...]) -> str | None:
    """The candidate module that asked for this, or None when the harness or a library did.

    Walks out of the frames of ``skip`` (the library doing the work: threading, a thread
    pool, torch.cuda) to the code that called into it.
    """
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith(skip):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    caller = frame.f_globals.get("__name__", "")
    return caller if caller.startswith(CANDIDATE_MODULES) else None


@dataclass
class Guards:
    """Counts CUDA streams made or entered, and threads started, by the candidate's code.

    Libraries make streams and threads of their own (an event records on a stream object
    torch creates; Triton may compile on a pool), so only requests whose nearest caller
    outside the library is the candidate count.
    """

    streams: int = 0
    threads: list[str] = field(default_factory=list)

    def install(self) -> None:
        guard = self
        start = threading.Thread.start

        def thread_start(thread: threading.Thread) -> None:
            caller = _from_candidate(("threading", "concurrent.futures"))
            if caller is not None:
                guard.threads.append(f"{thread.name} (started from {caller})")
            start(thread)

        _patch(threading.Thread, "start", thread_start)
        if not torch.cuda.is_available():
            return
        stream_new = torch.cuda.Stream.__new__
        set_stream = torch.cuda.set_stream
        context_enter = torch.cuda.StreamContext.__enter__
        library = ("torch.cuda", "torch.cuda.streams")

        def new_stream(cls: type, *args: Any, **kwargs: Any) -> Any:
            # Stream(stream_id=...) wraps a stream that exists (torch.cuda.current_stream() makes one
            # of those): only a new stream counts. Entering or setting any stream is counted below.
            guard.streams += "stream_id" not in kwargs and _from_candidate(library) is not None
            return stream_new(cls, *args, **kwargs)

        def counted_set_stream(stream: Any) -> Any:
            guard.streams += _from_candidate(library) is not None
            return set_stream(stream)

        def counted_enter(ctx: Any) -> Any:
            guard.streams += _from_candidate(library) is not None
            return context_enter(ctx)

        _patch(torch.cuda.Stream, "__new__", new_stream)
        _patch(torch.cuda, "set_stream", counted_set_stream)
        _patch(torch.cuda.StreamContext, "__enter__", counted_enter)


def _watched() -> dict[str, tuple[Any, str]]:
    """Objects whose attributes must not change, by name."""
    import triton.runtime.jit as triton_jit

    import kernelevo.evaluation.common.timing as timing

    watched: dict[str, tuple[Any, str]] = {}
    for owner, label, names in (
        (torch, "torch", ("equal", "allclose", "isclose", "manual_seed", "randn", "rand", "empty", "empty_like")),
        (torch.cuda, "torch.cuda", ("Event", "synchronize", "current_stream", "set_stream", "Stream")),
        (torch.cuda.Event, "torch.cuda.Event", ("record", "elapsed_time", "synchronize")),
        (torch.Tensor, "torch.Tensor", ("__eq__", "clone", "copy_", "cpu", "to", "contiguous", "data_ptr",
                                        "zero_", "fill_", "__torch_function__", "__reduce_ex__")),
        (torch.nn.Module, "torch.nn.Module", ("__call__", "_call_impl", "forward")),
        (time, "time", ("perf_counter", "time", "monotonic", "perf_counter_ns")),
        (statistics, "statistics", ("quantiles", "fmean", "median", "mean")),
        (triton_jit.JITFunction, "triton JITFunction", ("run", "_do_compile")),
        (threading.Thread, "threading.Thread", ("start",)),
    ):
        for name in names:
            if hasattr(owner, name):
                watched[f"{label}.{name}"] = (owner, name)
    for module in (timing, sys.modules[__name__]):
        for name, value in vars(module).items():
            if callable(value) and not isinstance(value, types.ModuleType):
                watched[f"{module.__name__}.{name}"] = (module, name)
    return watched


def _raw(owner: Any, name: str) -> Any:
    # getattr_static: a classmethod looked up normally is a new bound object every time.
    return inspect.getattr_static(owner, name, None)


class IntegritySnapshot:
    """Identities of watched attributes; :meth:`changed` names any that were replaced.

    Take it after the harness has installed its own wrappers.
    """

    def __init__(self) -> None:
        self.watched = _watched()
        self.identity = {key: id(_raw(owner, name)) for key, (owner, name) in self.watched.items()}

    def changed(self) -> list[str]:
        return [key for key, (owner, name) in self.watched.items() if id(_raw(owner, name)) != self.identity[key]]
