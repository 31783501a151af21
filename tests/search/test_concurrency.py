"""The in-flight count: a limit and the live set, as Ray Tune's ConcurrencyLimiter keeps them."""

from __future__ import annotations

import pytest

from kernelevo.search.concurrency import ConcurrencyLimiter


def test_places_are_taken_handed_over_and_freed() -> None:
    limiter = ConcurrencyLimiter(limit=3)
    limiter.admit("produce task")
    limiter.admit(7)  # a candidate made, waiting for an evaluator
    assert limiter.free() == 1
    limiter.hand_over(7, "evaluate task")  # evaluating it takes no second place
    assert limiter.free() == 1 and len(limiter) == 2
    limiter.release("evaluate task")
    limiter.release("never admitted")  # an instant task, say: not counted, nothing to free
    assert limiter.free() == 2
    limiter.limit = 1  # the limit can fall below what is live
    assert limiter.free() == 0


def test_a_limit_below_one_says_how_to_fix_the_call() -> None:
    with pytest.raises(ValueError, match="in_flight to 1 or more"):
        ConcurrencyLimiter(limit=0)
