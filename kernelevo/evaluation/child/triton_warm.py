"""Triton's once-per-process costs, paid by a candidate's child before it has a candidate.

A kernel's first launch in a fresh process computes, before it can even look in the
cache for the kernel compiled ahead, Triton's own key (a SHA-256 over its sources and
its 500 MB ``libtriton.so``) and the backend's (``ptxas --version``, a subprocess), and
Triton 3.6 imports its Gluon modules while it specializes the first arguments. Each is
done once per process. A candidate's child serves one candidate, so every candidate
paid them inside its first correctness call, on the GPU's clock: 0.4 to 0.6 s of a
first call of 0.5 to 0.6 s on an H100, against 0.12 to 0.18 s with the key and the
backend warmed (``benchmarks/first_launch.py``). Paid while the child waits for its
candidate, they cost nothing there.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

# what Triton 3.6's first argument specialization imports (0.11 to 0.16 s of a first launch)
GLUON_MODULES = ("triton.experimental.gluon", "triton.experimental.gluon.nvidia.hopper")


def _function(name: str, modules: tuple[str, ...]) -> Callable[..., Any] | None:
    """``name`` from the first of ``modules`` that has it (it moved between Triton releases)."""
    for module in modules:
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if callable(found):
            return found
    return None


def warm_triton_key() -> float:
    """Compute Triton's key and import what its first specialization imports (no GPU needed). Seconds."""
    start = time.perf_counter()
    key = _function("triton_key", ("triton.runtime.cache", "triton.compiler.compiler"))
    if key is not None:
        key()
    for module in GLUON_MODULES:
        try:
            importlib.import_module(module)
        except ImportError:  # a Triton without Gluon imports none of it either
            break
    return time.perf_counter() - start


def warm_backend() -> float:
    """The current GPU's backend and its hash (the ptxas version); needs the CUDA context. Seconds."""
    start = time.perf_counter()
    from triton.runtime.driver import driver

    make_backend = _function("make_backend", ("triton.compiler.compiler",))
    if make_backend is not None:
        make_backend(driver.active.get_current_target()).hash()
    return time.perf_counter() - start


def warm_triton() -> float:
    """Both, in a process that has its CUDA context; the seconds they took."""
    return warm_triton_key() + warm_backend()
