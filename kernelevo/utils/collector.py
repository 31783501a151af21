"""Fewer garbage collections for the search's processes (the driver, and each island actor).

A search allocates a burst of objects per candidate and per result (an AST per source, a result
record) on a heap of thousands of results: with Python's default thresholds, collections took half
the driver's time per result at 256 evaluators; in an island actor, the same settings took 6 to 8%
off its CPU per result, about the machine's noise (benchmarks/driver_ceiling.py, benchmarks/README.md).
What exists at the start is frozen out of the collector's sight, and young collections run 140x less
often. Cycles are still collected, only less often.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

THRESHOLDS = (100_000, 50, 1000)


def collect_less() -> tuple[int, int, int]:
    """From now on, for this process: what exists is frozen, and collections run less often. The
    thresholds before, for :func:`fewer_collections` to put back."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return before


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """:func:`collect_less` until the block ends (the driver's loop: a process that goes on after it)."""
    before = collect_less()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


__all__ = ["THRESHOLDS", "collect_less", "fewer_collections"]
