"""The judge's wall-time cross-check, and the run-queue waits it forgives on a busy host."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from kernelevo.evaluation.judge.timing_check import (
    RunQueueWaits,
    WallMismatch,
    cross_check,
    nothing_timed,
    runqueue_wait_ms,
)

BUSY = "import time\nend = time.time() + 3\nwhile time.time() < end: pass\n"


def test_a_loop_whose_samples_explain_its_wall_time_passes() -> None:
    cross_check([1.0] * 20, [0.02] * 20, seen_s=0.025, per_call_ms=0.1)


def test_wall_time_nothing_explains_is_work_outside_the_timed_region() -> None:
    with pytest.raises(WallMismatch, match="outside the timed region"):
        cross_check([0.3] * 20, [0.02] * 20, seen_s=0.060, per_call_ms=0.2)


def test_a_median_no_longer_than_the_event_bracket_timed_nothing() -> None:
    bracket = 0.0022  # what the events cost an H200's call
    why = nothing_timed([0.0021, 0.0022, 0.0019, 0.4], bracket)  # a side stream's launches, one straggler
    assert why is not None and "no work ran between them" in why
    assert nothing_timed([], bracket)
    assert nothing_timed([0.0061, 0.0058, 0.0060], bracket) is None  # a 4 us kernel between them


def test_time_spent_waiting_for_a_cpu_is_forgiven_and_only_that_much() -> None:
    samples, covers = [0.3] * 20, [0.02] * 20  # 6 ms of kernels; the loop took 60 ms, 4.4 ms of it overhead
    cross_check(samples, covers, seen_s=0.060, per_call_ms=0.2, waited_ms=45.0)
    with pytest.raises(WallMismatch, match=r"45\.000 ms waiting for a CPU"):
        cross_check(samples, covers, seen_s=0.100, per_call_ms=0.2, waited_ms=45.0)


def test_the_run_queue_wait_of_a_process_and_of_a_thread_are_read_from_proc() -> None:
    if not os.path.exists(f"/proc/{os.getpid()}/schedstat"):
        pytest.skip("this kernel keeps no scheduler statistics (CONFIG_SCHEDSTATS)")
    assert runqueue_wait_ms(os.getpid()) is not None and runqueue_wait_ms(os.getpid()) >= 0  # type: ignore[operator]
    assert runqueue_wait_ms(os.getpid(), threading.get_native_id()) is not None
    assert runqueue_wait_ms(None) is None
    assert runqueue_wait_ms(2**22 + 12345) is None  # no such process


def test_a_process_that_shares_its_cpu_with_another_busy_one_waits_on_the_run_queue() -> None:
    """Two busy processes pinned to one CPU: each waits for it about half the time, and the reading shows it."""
    if not os.path.exists(f"/proc/{os.getpid()}/schedstat") or not hasattr(os, "sched_setaffinity"):
        pytest.skip("no scheduler statistics or CPU affinity here")
    cpu = min(os.sched_getaffinity(0))
    procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        for p in procs:
            os.sched_setaffinity(p.pid, {cpu})
        waits = RunQueueWaits(child_pid=procs[0].pid)
        assert waits.since_start() == 0.0  # nothing counted before the loop starts
        before = runqueue_wait_ms(procs[0].pid)
        waits.start()
        time.sleep(1.0)
        after = runqueue_wait_ms(procs[0].pid)
        waited = waits.since_start()
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert before is not None and after is not None
    assert after - before > 200.0  # of about 1,000 ms, it ran about half
    assert waited > 200.0  # the child's wait, and this (sleeping) thread's, which is about none
