"""The timing loop: warm-up, rotation, adaptive repetitions, median and IQR."""

from __future__ import annotations

import time

import pytest
import torch

from kernelevo.evaluation.common.timing import L2Flusher, time_callable


def test_times_a_known_sleep() -> None:
    run = time_callable(lambda s: time.sleep(s), [(0.004,)], device=torch.device("cpu"), warmup=1,
                        min_reps=10, max_reps=10, budget_ms=10_000)
    assert run.timing.repetitions == 10 == len(run.samples_ms)
    assert 3.9 <= run.timing.median_ms <= 8.0
    assert run.timing.min_ms <= run.timing.median_ms
    assert run.timing.method == "perf_counter" and not run.timing.l2_flushed
    assert run.loop_wall_s * 1000 >= sum(run.samples_ms)


def test_rotates_input_sets_and_warms_up() -> None:
    seen: list[int] = []
    time_callable(lambda i: seen.append(i), [(0,), (1,), (2,)], device=torch.device("cpu"), warmup=2,
                  min_reps=9, max_reps=9, budget_ms=10_000)
    assert seen[:2] == [0, 1]  # warm-up
    assert seen[2:] == [0, 1, 2] * 3  # every measured call takes the next set


def test_stops_at_the_budget() -> None:
    start = time.perf_counter()
    run = time_callable(lambda: time.sleep(0.01), [()], device=torch.device("cpu"), warmup=0,
                        min_reps=3, max_reps=10_000, budget_ms=100, target_rel_iqr=1e-9)
    assert time.perf_counter() - start < 1.0
    assert 3 <= run.timing.repetitions < 30


def test_stops_early_when_settled() -> None:
    run = time_callable(lambda: None, [()], device=torch.device("cpu"), warmup=0, min_reps=10,
                        max_reps=10_000, budget_ms=60_000, target_rel_iqr=10.0)
    assert run.timing.repetitions == 10


def test_needs_inputs() -> None:
    with pytest.raises(ValueError):
        time_callable(lambda: None, [], device=torch.device("cpu"))


@pytest.mark.gpu
def test_cuda_events_with_flush() -> None:
    device = torch.device("cuda")
    x = torch.randn(1 << 26, device=device)
    run = time_callable(lambda t: t.mul_(1.0001), [(x,)], device=device, flusher=L2Flusher(device))
    assert run.timing.method == "cuda_events" and run.timing.l2_flushed
    # 256 MiB read and 256 MiB written: at most ~5 TB/s, so at least ~0.1 ms
    assert run.timing.median_ms > 0.1


def test_warms_up_and_measures_for_a_minimum_time() -> None:
    calls: list[float] = []

    def fn() -> None:
        calls.append(time.perf_counter())
        time.sleep(0.002)

    run = time_callable(fn, [()], device=torch.device("cpu"), warmup=1, warmup_ms=30, min_reps=3,
                        min_measure_ms=50, max_reps=10_000, budget_ms=10_000, target_rel_iqr=10.0)
    warm = len(calls) - run.timing.repetitions
    # 30 ms of warm-up: the measured calls start at least 30 ms after the first (counted in time, not calls: a
    # 2 ms sleep took 3.3 ms on a loaded 2-core CI machine, so 9 calls filled the 30 ms once)
    assert warm >= 2 and calls[warm] - calls[0] >= 0.030
    assert sum(run.samples_ms) >= 50 and run.timing.repetitions >= 20


@pytest.mark.gpu
@pytest.mark.parametrize("elements", [1 << 21, 1 << 27])  # about 5 us and 0.3 ms of copying on an H100
def test_gpu_times_leave_the_host_launch_out(elements: int) -> None:
    """Against CUDA-graph replay (no launch cost at all): within max(5%, 1.5 us), though the wrapper launches
    slowly. (The benchmark holds the harness to max(3%, 1 us) on a ladder of sizes.)"""
    from kernelevo.evaluation.common.timing import bracket_overhead_ms
    from kernelevo.evaluation.common.timing_reference import graph_time_ms

    device = torch.device("cuda")
    x = torch.randn(elements, device=device)

    def slow_wrapper(t: torch.Tensor) -> torch.Tensor:
        time.sleep(50e-6)  # a Python wrapper that takes 50 us to launch its kernel
        return t * 2.0

    bracket = bracket_overhead_ms(device)
    assert 0 <= bracket < 0.01
    run = time_callable(slow_wrapper, [(x,)], device=device, warmup=5, min_reps=50, max_reps=200, budget_ms=2000,
                        bracket_ms=bracket)
    reference = graph_time_ms(slow_wrapper, [x], device=device)
    assert abs(run.timing.median_ms - reference) <= max(0.05 * reference, 0.0015), (run.timing, reference)
    assert run.timing.host_launch_ms is not None and run.timing.host_launch_ms >= 0.05
    assert len(run.covers_ms) == run.timing.repetitions and all(c >= 0.05 for c in run.covers_ms)


def test_no_garbage_collection_runs_in_the_timed_loop() -> None:
    # a full collection takes tens of ms in a child that imported torch: in the loop it reads as work
    # outside the timed region, and the judge rejects an honest kernel as timer_mismatch
    import gc

    collections: list[int] = []
    seen_by_call: list[int] = []  # collections so far, after each timed call
    in_loop = [False]

    def cycles() -> None:  # cyclic garbage, enough to trigger the young generation many times over
        for _ in range(2000):
            a: list[object] = []
            a.append(a)
        if in_loop[0]:
            seen_by_call.append(len(collections))

    def noted(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    threshold, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(100, 10, 10)  # automatic collections on, whatever an earlier test or library set
    gc.enable()
    gc.callbacks.append(noted)
    try:
        run = time_callable(cycles, [()], device=torch.device("cpu"), warmup=2, min_reps=30, max_reps=30,
                            on_loop_start=lambda: in_loop.__setitem__(0, True))
        in_loop[0] = False
        assert len(run.samples_ms) == len(seen_by_call) == 30
        assert len(set(seen_by_call)) == 1  # no collection between the first timed call and the last
        assert gc.isenabled()  # and the collector is back on afterwards
        before = len(collections)
        for _ in range(30):
            cycles()
        assert len(collections) > before  # the same work outside the loop does collect: the check can fail
    finally:
        gc.callbacks.remove(noted)
        gc.set_threshold(*threshold)
        if not enabled:
            gc.disable()
