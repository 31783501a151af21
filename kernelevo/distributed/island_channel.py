"""What the driver keeps per island (:class:`~kernelevo.distributed.island.RemoteIslands`): its actor (or, for
an island in the driver's own process, its emitter), the tells waiting to go and the last ones told (sent again
to a restarted actor), the asks waiting to be sent or answered, and whether it is dry, restarting or dead."""

from __future__ import annotations

import asyncio
import pickle
from collections import deque
from typing import Any

from kernelevo.search.island import Asked, IslandEmitter, Message

RECENT = 4096  # messages told again to a restarted island: far more than a tenth of a second's at any rate


def packed(messages: list[Any]) -> bytes:
    """Tells and answers as one pickle made here: Ray's cloudpickle calls back into Python for every object of a
    batch (its reducer_override), the standard pickler does not. A tell took 36.5 us to pickle through Ray's,
    21.2 us so; an answer 16.0 against 8.4 (``benchmarks/island_wire.py``, the 2-core machine, 2026-12-03).
    Only the driver and its island actors read them: the same package on both ends."""
    return pickle.dumps(messages, protocol=pickle.HIGHEST_PROTOCOL)


def unpacked(data: bytes) -> list[Any]:
    return pickle.loads(data)  # (from the run's own driver or island actor, never from a user)


class IslandChannel:
    """One island's actor, its pending tells, and the last ones told (for a restart)."""

    def __init__(self, actor: Any, *, home: IslandEmitter | None = None) -> None:
        self.actor = actor  # a Ray actor handle; for the island in the driver, its body called as one (InDriver)
        # the island's emitter where it runs in the driver's own process: asked and told directly, nothing pickled
        self.home = home
        self.pending: list[Message] = []
        self.recent: deque[Message] = deque(maxlen=RECENT)
        self.incarnation: str | None = None
        self.delivered = 0  # batches with a new elite delivered: an island found dry is fresh again after one
        self.dry = False  # its instant operator used up every parent it holds (until a new elite is delivered)
        self.inserts_pending = 0
        self.restarts = 0
        self.requests: list[tuple[asyncio.Future[tuple[Asked, int] | None], bool]] = []  # asks waiting to be sent
        self.pumps = 0  # batches of asks under way
        self.asking = 0  # asks sent in those batches, not answered yet
        self.seen: list[str] = []  # source hashes other islands' candidates took since the last flush
        self.made: dict[int, str] = {}  # candidates it made, not yet told, id: source hash (told by reference)
        self.failing_since: float | None = None  # time.monotonic() of the first tell that failed, in a row
        self.unavailable_until = 0.0  # time.monotonic(): a call failed, it is restarting; not asked before then
        self.dead = False

    def asks_out(self) -> int:
        """Asks it holds: waiting to be sent, or sent and not answered."""
        return len(self.requests) + self.asking


__all__ = ["RECENT", "IslandChannel", "packed", "unpacked"]
