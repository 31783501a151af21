"""How many candidates a search keeps in flight, and which: the shape of Ray Tune's ``ConcurrencyLimiter``.

Ray Tune wraps a searcher so that ``suggest`` gives nothing while ``max_concurrent`` trials are live,
and ``on_trial_complete`` frees the trial's place. Here the scheduler asks its emitter for a candidate
only while :meth:`ConcurrencyLimiter.free` is above zero. What is live is every candidate between its
making and its result: a *produce* task under way, a candidate made and waiting for an evaluator, and
an *evaluate* task under way. A task stays live until the scheduler collects it.
"""

from __future__ import annotations

from collections.abc import Hashable


class ConcurrencyLimiter:
    """The in-flight limit (candidates) and the live set (a produce task, a waiting candidate's id, an
    evaluate task)."""

    def __init__(self, *, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a search needs at least one candidate in flight, got limit={limit} "
                             "(set RunConfig.in_flight to 1 or more, or leave it unset)")
        self.limit = limit
        self.live: set[Hashable] = set()

    def free(self) -> int:
        """Places left for new candidates (negative when the limit was lowered below what is live)."""
        return self.limit - len(self.live)

    def admit(self, key: Hashable) -> None:
        self.live.add(key)

    def release(self, key: Hashable) -> None:
        """``key`` left the flight (finished, cancelled or failed); a key not live is ignored."""
        self.live.discard(key)

    def hand_over(self, before: Hashable, after: Hashable) -> None:
        """One candidate's place passes on (a waiting candidate's id to the task evaluating it)."""
        self.release(before)
        self.admit(after)

    def __len__(self) -> int:
        return len(self.live)
