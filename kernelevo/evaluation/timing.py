"""Timing one callable honestly; the same function times candidates and baselines.

On a GPU every call is bracketed like this::

    flush L2 (write a buffer twice its size) -> start event -> fn(inputs) -> end event
    -> synchronize the device

so each call starts with a cold cache, and work on any stream is finished before the next
one starts. The flush is still running on the GPU when the start event and the kernel are
queued behind it, so the CPU's launch overhead is not counted as kernel time (on an H200
the eager GELU baseline measured 0.290 ms with an idle GPU waiting for each launch, 0.255 ms
without; one run each). Input
sets are rotated, warm-up calls come first, and repetitions continue until the spread
(IQR / median) is small or the time budget is spent. The median and IQR are reported,
in milliseconds.

On a CPU (Triton's interpreter) the same loop runs with ``time.perf_counter``; such
timings are marked interpreted and are never GPU speeds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from kernelevo.evaluation.result import Timing

# Bound once, when the harness imports this module and before any candidate is imported: a
# candidate that patches time.perf_counter, torch.cuda.synchronize or the statistics
# functions (and even restores them afterwards) cannot reach the names used below.
_perf_counter = time.perf_counter
_synchronize = torch.cuda.synchronize
_Event = torch.cuda.Event
_record = torch.cuda.Event.record
_elapsed_time = torch.cuda.Event.elapsed_time
_quantiles_of = statistics.quantiles
_fmean = statistics.fmean


@dataclass
class TimingRun:
    """A :class:`Timing` plus what a cross-check needs: every sample and the loop's wall time."""

    timing: Timing
    samples_ms: list[float]
    loop_wall_s: float


class L2Flusher:
    """Evicts the L2 cache by writing a buffer twice its size (``bytes`` from the device)."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        size = 0
        if device.type == "cuda":
            size = 2 * int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20))
        self.buffer = torch.empty(max(size, 1) // 4, dtype=torch.int32, device=device) if size else None

    def __call__(self) -> None:
        if self.buffer is not None:
            self.buffer.zero_()


def _quantiles(samples: Sequence[float]) -> tuple[float, float, float]:
    if len(samples) == 1:
        return samples[0], samples[0], samples[0]
    q1, median, q3 = _quantiles_of(samples, n=4, method="inclusive")
    return q1, median, q3


def time_callable(
    fn: Callable[..., Any],
    input_sets: Sequence[Sequence[Any]],
    *,
    device: torch.device,
    flusher: L2Flusher | None = None,
    warmup: int = 3,
    warmup_ms: float = 0.0,
    min_reps: int = 10,
    min_measure_ms: float = 0.0,
    max_reps: int = 1000,
    budget_ms: float = 1000.0,
    target_rel_iqr: float = 0.02,
    interpreted: bool = False,
    on_loop_start: Callable[[], None] | None = None,
) -> TimingRun:
    """Time ``fn(*inputs)`` over rotated ``input_sets``; see the module docstring.

    Warm-up runs at least ``warmup`` calls and ``warmup_ms`` of wall time (a GPU that was
    idle runs at low clocks until it has had work). The measured loop makes at least
    ``min_reps`` calls and ``min_measure_ms`` of kernel time, then stops once the spread is
    below ``target_rel_iqr`` or ``budget_ms`` of wall time has passed. ``on_loop_start``
    is called right before the first measured call, so a parent can time the loop.
    """
    if not input_sets:
        raise ValueError("time_callable needs at least one input set")
    cuda = device.type == "cuda"
    if flusher is None and cuda:
        flusher = L2Flusher(device)
    warm_until = _perf_counter() + warmup_ms / 1000.0
    i = 0
    while i < warmup or _perf_counter() < warm_until:
        fn(*input_sets[i % len(input_sets)])
        _sync(cuda)
        i += 1

    samples: list[float] = []
    if on_loop_start is not None:
        on_loop_start()
    loop_start = _perf_counter()
    deadline = loop_start + budget_ms / 1000.0
    start_evt = _Event(enable_timing=True) if cuda else None
    end_evt = _Event(enable_timing=True) if cuda else None
    while len(samples) < max_reps:
        inputs = input_sets[len(samples) % len(input_sets)]
        if flusher is not None:
            flusher()
        if cuda:
            assert start_evt is not None and end_evt is not None
            _record(start_evt)
            fn(*inputs)
            _record(end_evt)
            _synchronize()
            samples.append(_elapsed_time(start_evt, end_evt))
        else:
            t0 = _perf_counter()
            fn(*inputs)
            samples.append((_perf_counter() - t0) * 1000.0)
        enough = len(samples) >= min_reps and sum(samples) >= min_measure_ms
        if enough and (_perf_counter() >= deadline or _settled(samples, target_rel_iqr)):
            break
    loop_wall = _perf_counter() - loop_start
    timing = summarize(samples, method="cuda_events" if cuda else "perf_counter", interpreted=interpreted,
                       l2_flushed=flusher is not None and flusher.buffer is not None, input_sets=len(input_sets))
    return TimingRun(timing=timing, samples_ms=samples, loop_wall_s=loop_wall)


def summarize(samples: Sequence[float], *, method: str, interpreted: bool, l2_flushed: bool,
              input_sets: int) -> Timing:
    """Median, IQR, min and mean of ``samples`` (ms): also how the judge re-derives a child's summary."""
    q1, median, q3 = _quantiles(samples)
    return Timing(
        median_ms=median,
        iqr_ms=q3 - q1,
        min_ms=min(samples),
        mean_ms=_fmean(samples),
        repetitions=len(samples),
        method=method,
        interpreted=interpreted,
        l2_flushed=l2_flushed,
        input_sets=input_sets,
    )


def _settled(samples: Sequence[float], target_rel_iqr: float) -> bool:
    # Checking every call would cost a sort per call; every 10th is plenty.
    if len(samples) % 10:
        return False
    q1, median, q3 = _quantiles(samples)
    return median > 0 and (q3 - q1) / median <= target_rel_iqr


def _sync(cuda: bool) -> None:
    if cuda:
        _synchronize()


def per_call_overhead_ms(device: torch.device, flusher: L2Flusher | None, *, reps: int = 50) -> float:
    """Wall time per timed call that is not the callable: flush, syncs, events (ms).

    The judge uses it to check a child's reported times against the wall time it saw. The
    smallest of three warm measurements: a cold first one overstates it (2.5x on an H200),
    which would loosen that check.
    """
    per_call = []
    for _ in range(3):
        run = time_callable(lambda: None, [()], device=device, flusher=flusher, warmup=5, min_reps=reps,
                            max_reps=reps, budget_ms=10_000)
        per_call.append(run.loop_wall_s * 1000.0 / run.timing.repetitions)
    return min(per_call)
