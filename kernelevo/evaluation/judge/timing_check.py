"""The judge's check of a child's timed loop: its samples must account for the wall time the judge saw."""

from __future__ import annotations

from collections.abc import Sequence


class WallMismatch(Exception):
    """The timed loop's wall time is not accounted for by the child's samples (see :func:`cross_check`)."""


def cross_check(samples_ms: Sequence[float], covers_ms: Sequence[float], seen_s: float, per_call_ms: float) -> None:
    """The child's times must account for the wall time (``seen_s``) the judge saw its loop take.

    Each call's wall time is the judge's measured overhead (``per_call_ms``: flush, events, synchronize),
    the GPU's sleep while the host launched (the cover), and the call's own GPU time (the sample);
    :class:`WallMismatch` says how much was left unexplained.
    """
    reps = len(samples_ms)
    overhead_ms = reps * per_call_ms + sum(covers_ms)
    unexplained_ms = seen_s * 1e3 - overhead_ms
    reported_ms = sum(samples_ms)
    if unexplained_ms > 0 and reported_ms < 0.5 * unexplained_ms - 0.05 * reps:
        raise WallMismatch(
            f"the child reported {reported_ms:.3f} ms of kernel time over {reps} calls, but the judge saw the loop "
            f"take {seen_s * 1e3:.3f} ms, of which at most {overhead_ms:.3f} ms is overhead: "
            "work ran outside the timed region (a side stream, a thread or a patched timer)"
        )


__all__ = ["WallMismatch", "cross_check"]
