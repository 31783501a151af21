"""The judge's check of a child's timed loop: its samples must account for the wall time the judge saw."""

from __future__ import annotations

import os
import statistics
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kernelevo.evaluation.common.racing import clearly_slower
from kernelevo.evaluation.common.timing import MAX_COVER_MS

if TYPE_CHECKING:
    from kernelevo.evaluation.common.protocol import TimeReply


class WallMismatch(Exception):
    """The timed loop's wall time is not accounted for by the child's samples (see :func:`cross_check`)."""


def runqueue_wait_ms(pid: int | None, tid: int | None = None) -> float | None:
    """How long (ms, since it started) a thread has waited for a CPU while runnable; None where the kernel does not say.

    The second field of ``/proc/PID/task/TID/schedstat`` (``/proc/PID/schedstat``: the process's first thread):
    time spent on a run queue, ready to run but not running. It grows when the host has more runnable threads
    than cores, and not while a thread sleeps, blocks on a GPU synchronize or computes.
    """
    if pid is None:
        return None
    path = Path(f"/proc/{pid}/task/{tid}/schedstat") if tid is not None else Path(f"/proc/{pid}/schedstat")
    try:
        return int(path.read_text().split()[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


class RunQueueWaits:
    """The run-queue waits of the calling thread (the judge's) and a child's first thread, from :meth:`start`.

    Made in the thread that will read :meth:`since_start`; ``start`` may be called from any thread (a progress
    callback), and only its first call counts. A thread the kernel keeps no statistics for adds nothing.
    """

    def __init__(self, child_pid: int | None) -> None:
        self.threads = {"judge": (os.getpid(), threading.get_native_id()), "child": (child_pid, None)}
        self.started: dict[str, float | None] | None = None

    def _now(self) -> dict[str, float | None]:
        return {name: runqueue_wait_ms(pid, tid) for name, (pid, tid) in self.threads.items()}

    def start(self) -> None:
        if self.started is None:
            self.started = self._now()

    def since_start(self) -> float:
        """The wait (ms) added since :meth:`start` over the threads read both times; 0 before any start."""
        if self.started is None:
            return 0.0
        now = self._now()
        return sum(later - was for name, was in self.started.items()
                   if was is not None and (later := now[name]) is not None)


def cross_check(samples_ms: Sequence[float], covers_ms: Sequence[float], seen_s: float, per_call_ms: float,
                waited_ms: float = 0.0) -> None:
    """The child's times must account for the wall time (``seen_s``) the judge saw its loop take.

    Each call's wall time is the judge's measured overhead (``per_call_ms``: flush, events, synchronize),
    the GPU's sleep while the host launched (the cover), and the call's own GPU time (the sample);
    :class:`WallMismatch` says how much was left unexplained.

    ``waited_ms`` is time the judge saw its own thread and the child's timing thread wait for a CPU
    (:func:`runqueue_wait_ms`, read by the judge from ``/proc``, never reported by the child): on a host
    busy with other searches' compiles and children the loop's wall time stretches by it, and honest
    kernels were rejected as work outside the timed region (up to a quarter of a search's candidates, on
    an H200 host running four searches and a CPU benchmark: benchmarks/README.md). Work that really
    runs outside the region (a side stream, a thread) keeps the child's timing thread waiting on the
    GPU or asleep, not on a run queue, and is still caught.
    """
    reps = len(samples_ms)
    overhead_ms = reps * per_call_ms + sum(covers_ms) + max(waited_ms, 0.0)
    unexplained_ms = seen_s * 1e3 - overhead_ms
    reported_ms = sum(samples_ms)
    if unexplained_ms > 0 and reported_ms < 0.5 * unexplained_ms - 0.05 * reps:
        waited = f" and {waited_ms:.3f} ms waiting for a CPU" if waited_ms > 0 else ""
        raise WallMismatch(
            f"the child reported {reported_ms:.3f} ms of kernel time over {reps} calls, but the judge saw the loop "
            f"take {seen_s * 1e3:.3f} ms, of which at most {overhead_ms:.3f} ms is overhead{waited}: "
            "work ran outside the timed region (a side stream, a thread or a patched timer)"
        )


def nothing_timed(samples_ms: Sequence[float], bracket_ms: float) -> str | None:
    """Why no work was timed, when the median call took no more GPU time than the event bracket itself; else None.

    Work queued on a side stream leaves the events on the timed stream nothing between them. When it is short
    (a GELU of 0.03 ms) :func:`cross_check` cannot tell its wall time from the host's per-call jitter, and the
    median less the bracket is 0 ms: a speedup divided by it failed the judge (an H200, 2026-11-27). Every
    output a spec asks for takes a kernel at least a few microseconds to write.
    """
    if samples_ms and statistics.median(samples_ms) > bracket_ms:
        return None
    return (f"the median call took no GPU time beyond the events' own {bracket_ms:.4f} ms: no work ran between "
            "them (a side stream, a thread, or nothing at all)")


def check_timed_reply(reply: TimeReply, seen_s: float | None, overhead_ms: float, waited_ms: float, gpu: bool,
                      bracket_ms: float, race_ms: float | None) -> str | None:
    """Why a child's timing reply cannot be believed (a ``timer_mismatch``), or None when it can.

    ``seen_s`` is the wall time the judge saw the timed loop take (None: the child never announced it);
    :class:`WallMismatch` from :func:`cross_check` is raised, not returned, so that the judge can measure
    its overhead again and time once more.
    """
    if seen_s is None:
        return "the child never announced its timed loop: the harness was tampered with"
    samples = reply.samples_ms
    if not samples or len(samples) != reply.timing.repetitions or not all(0 < s < 1e7 for s in samples):
        return "the child's timing samples are missing or impossible"
    covers_ok = len(reply.covers_ms) == len(samples) and all(0 <= c <= MAX_COVER_MS for c in reply.covers_ms)
    if gpu and not covers_ok:
        return "the child's launch covers are missing or impossible"
    cross_check(samples, reply.covers_ms, seen_s, overhead_ms, waited_ms)
    if gpu and (empty := nothing_timed(samples, bracket_ms)):
        return empty
    if reply.timing.raced and (race_ms is None or not clearly_slower(samples, race_ms)):
        return ("the child stopped its timing early, but its samples do not show the kernel clearly slower than "
                "its archive cell's elite: the harness was tampered with")
    return None


__all__ = ["RunQueueWaits", "WallMismatch", "check_timed_reply", "cross_check", "nothing_timed", "runqueue_wait_ms"]
