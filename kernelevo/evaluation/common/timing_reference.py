"""An independent reference for the harness's GPU times: CUDA-graph replay of many calls.

:func:`graph_time_ms` captures ``calls`` repetitions of (L2 flush, ``fn``) in one CUDA graph
and, apart, ``calls`` flushes alone; the replays are timed with events, and the difference
over ``calls`` is the GPU's time for one call of ``fn`` on a cold cache. Nothing of the
host's launch cost is in it: a replay launches every kernel back to back from the GPU's
own queue. The benchmark ``benchmarks/timing_ladder.py`` and a ``gpu`` test hold
:func:`kernelevo.evaluation.common.timing.time_callable` to it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import torch

from kernelevo.evaluation.common.timing import L2Flusher


def graph_time_ms(fn: Callable[..., Any], inputs: list[Any], *, device: torch.device, calls: int = 20,
                  replays: int = 7, flusher: L2Flusher | None = None) -> float:
    """The median GPU time of one ``fn(*inputs)`` after an L2 flush, from graph replays (ms)."""
    flusher = flusher or L2Flusher(device)
    with_fn = _capture(lambda: (flusher(), fn(*inputs)), calls, device)
    flush_only = _capture(flusher, calls, device)
    both, flushes = _replay_ms(with_fn, replays), _replay_ms(flush_only, replays)
    return max(0.0, (statistics.median(both) - statistics.median(flushes)) / calls)


def _capture(body: Callable[[], Any], calls: int, device: torch.device) -> torch.cuda.CUDAGraph:
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):  # warm-up off the capture stream, as capture asks
        for _ in range(2):
            body()
    torch.cuda.current_stream(device).wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            body()
    return graph


def _replay_ms(graph: torch.cuda.CUDAGraph, replays: int) -> list[float]:
    graph.replay()  # the first replay uploads the graph
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(1_000_000)  # the GPU is busy while the host queues the replay
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return times
