"""Timing one callable honestly; the same function times candidates and baselines.

On a GPU every call is bracketed like this::

    flush L2 (write a buffer twice its size) -> GPU sleeps for the cover -> start event
    -> fn(inputs) -> end event -> synchronize the device

so each call starts with a cold cache, and work on any stream is finished before the next
one starts. The *cover* keeps the GPU busy (``torch.cuda._sleep``) while the host runs
``fn``'s Python and launches its kernels: the start event fires only once they are queued,
so the events time the GPU's work and not the host's launch cost. Without it a wrapper's
launch (15 to 50 us, more for ``torch.compile``'s guards) landed in every sample: 14 to
35 us on 0.13 to 0.25 ms kernels, measured on an H200. The cover is sized from the host's
launch time during warm-up and doubled whenever a call's launch outlasts it. The judge
knows each call's cover and counts it in the wall time it cross-checks.

An event pair itself adds GPU time to what it brackets: the start event must complete
before the first kernel launches, and that kernel's launch latency is inside the pair
(2 to 3 us on an H100, where CUDA-graph replay of the same kernel shows none). The judge
measures this once (:func:`bracket_overhead_ms`: a null kernel bracketed as a call is,
against the same kernel replayed from a CUDA graph) and subtracts it from every sample.

Input sets are rotated, warm-up calls come first, and repetitions continue until the
spread (IQR / median) is small or the time budget is spent. The median and IQR are
reported, in milliseconds.

On a CPU (Triton's interpreter) the same loop runs with ``time.perf_counter``; such
timings are marked interpreted and are never GPU speeds.
"""

from __future__ import annotations

import contextlib
import gc
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from kernelevo.evaluation.common.racing import clearly_slower, looks
from kernelevo.records.result import Timing

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
_gpu_sleep = torch.cuda._sleep

MIN_COVER_MS = 0.02  # the least the GPU sleeps before each timed call
MAX_COVER_MS = 2.0  # the most: a host launch slower than this is the candidate's own cost
COVER_MARGIN = 1.5  # cover = margin x the host's slowest recent launch + MIN_COVER_MS


@dataclass
class TimingRun:
    """A :class:`Timing` plus what a cross-check needs: every sample, each call's cover and the loop's wall time."""

    timing: Timing
    samples_ms: list[float]
    loop_wall_s: float
    covers_ms: list[float]  # the GPU's sleep before each timed call (empty on a CPU)


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
    bracket_ms: float = 0.0,
    race_ms: float | None = None,
) -> TimingRun:
    """Time ``fn(*inputs)`` over rotated ``input_sets``; see the module docstring.

    Warm-up runs at least ``warmup`` calls and ``warmup_ms`` of wall time (a GPU that was
    idle runs at low clocks until it has had work). The measured loop makes at least
    ``min_reps`` calls and ``min_measure_ms`` of kernel time, then stops once the spread is
    below ``target_rel_iqr`` or ``budget_ms`` of wall time has passed. ``on_loop_start``
    is called right before the first measured call, so a parent can time the loop.
    ``bracket_ms`` (:func:`bracket_overhead_ms`) is subtracted from the summary, not from
    the raw samples. With ``race_ms`` (raw samples' units), the loop also stops once the
    samples show the callable clearly slower than that (:mod:`kernelevo.evaluation.common.racing`).
    """
    if not input_sets:
        raise ValueError("time_callable needs at least one input set")
    cuda = device.type == "cuda"
    if flusher is None and cuda:
        flusher = L2Flusher(device)
    launches_ms = _warm_up(fn, input_sets, cuda=cuda, warmup=warmup, warmup_ms=warmup_ms)
    cover = _Cover(device, launches_ms) if cuda else None

    samples: list[float] = []
    covers: list[float] = []
    enqueue_ms: list[float] = []
    with _collector_paused():
        if on_loop_start is not None:
            on_loop_start()
        loop_start = _perf_counter()
        deadline = loop_start + budget_ms / 1000.0
        start_evt = _Event(enable_timing=True) if cuda else None
        end_evt = _Event(enable_timing=True) if cuda else None
        race_looks = looks(min_reps) if race_ms is not None else set()
        raced = False
        while len(samples) < max_reps:
            inputs = input_sets[len(samples) % len(input_sets)]
            if flusher is not None:
                flusher()
            if cover is not None:
                assert start_evt is not None and end_evt is not None
                covers.append(cover.sleep())
                queued = _perf_counter()
                _record(start_evt)
                fn(*inputs)
                _record(end_evt)
                enqueue_ms.append((_perf_counter() - queued) * 1000.0)
                _synchronize()
                samples.append(_elapsed_time(start_evt, end_evt))
                cover.saw(enqueue_ms[-1])
            else:
                t0 = _perf_counter()
                fn(*inputs)
                samples.append((_perf_counter() - t0) * 1000.0)
            if len(samples) in race_looks and clearly_slower(samples, race_ms):  # type: ignore[arg-type]
                raced = True
                break
            enough = len(samples) >= min_reps and sum(samples) >= min_measure_ms
            if enough and (_perf_counter() >= deadline or _settled(samples, target_rel_iqr)):
                break
        loop_wall = _perf_counter() - loop_start
    timing = summarize(samples, method="cuda_events" if cuda else "perf_counter", interpreted=interpreted,
                       l2_flushed=flusher is not None and flusher.buffer is not None, input_sets=len(input_sets),
                       host_launch_ms=_quantiles(enqueue_ms)[1] if enqueue_ms else None, bracket_ms=bracket_ms,
                       raced=raced)
    return TimingRun(timing=timing, samples_ms=samples, loop_wall_s=loop_wall, covers_ms=covers)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the timed loop, as ``timeit`` does.

    A full collection in a process that imported torch, Triton and inductor takes about 150 ms (on the
    2-core development machine). One in the loop, between two calls, stretches its wall time past what the
    samples account for: the judge's cross-check reads it as work outside the timed region. Honest kernels were
    rejected so (4 to 11 of a search's 90 to 150 candidates on an H200, with no run-queue wait to explain it:
    benchmarks/README.md, 2026-11-27); that collections were the cause there is not yet measured. One inside a
    call would stall the GPU on the host and inflate a sample. No collection is run before the loop either: it
    would cost as much, on every timing. The loop's own garbage waits for the next collection after it.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _warm_up(fn: Callable[..., Any], input_sets: Sequence[Sequence[Any]], *, cuda: bool, warmup: int,
             warmup_ms: float) -> list[float]:
    """Run the warm-up calls; return the host's time to launch each (ms, device idle before each)."""
    warm_until = _perf_counter() + warmup_ms / 1000.0
    launches: list[float] = []
    i = 0
    while i < warmup or _perf_counter() < warm_until:
        t0 = _perf_counter()
        fn(*input_sets[i % len(input_sets)])
        launches.append((_perf_counter() - t0) * 1000.0)
        _sync(cuda)
        i += 1
    return launches


class _Cover:
    """The GPU's sleep before each timed call, long enough for the host to queue the call's work."""

    def __init__(self, device: torch.device, launches_ms: list[float]) -> None:
        recent = launches_ms[-3:] or [0.0]  # the first calls compile and autotune: not a launch's cost
        self.ms = min(MAX_COVER_MS, COVER_MARGIN * max(recent) + MIN_COVER_MS)
        self.cycles_per_ms = _sleep_cycles_per_ms()

    def sleep(self) -> float:
        """Queue the sleep; return its length (ms)."""
        _gpu_sleep(int(self.ms * self.cycles_per_ms))
        return self.ms

    def saw(self, enqueue_ms: float) -> None:
        """A call's work took ``enqueue_ms`` to queue: a cover that did not outlast it is doubled."""
        if enqueue_ms > self.ms:
            self.ms = min(MAX_COVER_MS, 2 * self.ms)


def cover_cycles(ms: float) -> int:
    """``torch.cuda._sleep`` cycles that keep the GPU busy for about ``ms`` at the current clocks."""
    return int(ms * _sleep_cycles_per_ms())


def _sleep_cycles_per_ms() -> float:
    """``torch.cuda._sleep`` cycles per ms at the current clocks (measured after warm-up, when clocks are up)."""
    cycles = 100_000
    start, end = _Event(enable_timing=True), _Event(enable_timing=True)
    best = float("inf")
    for _ in range(3):
        _record(start)
        _gpu_sleep(cycles)
        _record(end)
        _synchronize()
        best = min(best, _elapsed_time(start, end))
    return cycles / max(best, 1e-4)


def summarize(samples: Sequence[float], *, method: str, interpreted: bool, l2_flushed: bool,
              input_sets: int, host_launch_ms: float | None = None, bracket_ms: float = 0.0,
              raced: bool = False) -> Timing:
    """Median, IQR, min and mean of ``samples`` less ``bracket_ms`` (ms): also how the judge re-derives a
    child's summary from its raw samples."""
    samples = [max(s - bracket_ms, 0.0) for s in samples]
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
        host_launch_ms=host_launch_ms,
        bracket_ms=bracket_ms,
        raced=raced,
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
    """Wall time per timed call that is neither the callable nor its cover: flush, syncs, events (ms).

    The judge uses it to check a child's reported times against the wall time it saw. The
    smallest of three warm measurements: a cold first one overstates it (2.5x on an H200),
    which would loosen that check.
    """
    per_call = []
    for _ in range(3):
        run = time_callable(lambda: None, [()], device=device, flusher=flusher, warmup=5, min_reps=reps,
                            max_reps=reps, budget_ms=10_000)
        per_call.append((run.loop_wall_s * 1000.0 - sum(run.covers_ms)) / run.timing.repetitions)
    return max(0.0, min(per_call))


def bracket_overhead_ms(device: torch.device, *, reps: int = 100, nodes: int = 100) -> float:
    """The GPU time an event bracket adds to a call (ms).

    A tiny elementwise kernel is bracketed as the timing loop brackets a call, and the same
    kernel is replayed ``nodes`` times from a CUDA graph; the difference of the medians is
    what the bracket itself costs. (A ``torch.cuda._sleep(0)`` kernel gave 6 us here against
    2.2 us for real kernels from 5 us to 6 ms on an H100: it is not a representative launch.)
    """
    tiny = torch.zeros(1024, device=device)
    start, end = _Event(enable_timing=True), _Event(enable_timing=True)
    cover = cover_cycles(0.2)  # ample: a host slower than the cover would put its launch in the bracket
    bracketed = []
    for _ in range(reps):
        _gpu_sleep(cover)
        _record(start)
        tiny.add_(1.0)
        _record(end)
        _synchronize()
        bracketed.append(_elapsed_time(start, end))
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        tiny.add_(1.0)
    torch.cuda.current_stream(device).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(nodes):
            tiny.add_(1.0)
    graph.replay()
    per_node = []
    for _ in range(5):
        _gpu_sleep(cover)
        _record(start)
        graph.replay()
        _record(end)
        _synchronize()
        per_node.append(_elapsed_time(start, end) / nodes)
    return max(0.0, _quantiles(bracketed)[1] - _quantiles(per_node)[1])
