"""The scheduler's outcomes on their way to the island actors (:class:`~kernelevo.distributed.island.RemoteIslands`).

Each island is told what became of its candidates, which elites migrated into it and which kernels other
islands made, in batches, in order, one Ray call per island at most every :data:`FLUSH_EVERY_S`. A batch that
fails (its actor is restarting) is sent again once the actor is back; a restarted actor (a new incarnation)
is told again the last :data:`~kernelevo.distributed.island_channel.RECENT` messages, which storage may not
hold yet. Telling is idempotent on the island's side, so nothing is lost or doubled. An island in the driver's
own process is told at the same flushes, directly: nothing is pickled or sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from kernelevo.distributed.island_channel import IslandChannel, packed
from kernelevo.search.island import Duplicate, Message, Seen, Told, ToldOwn

log = logging.getLogger(__name__)

RETRY_WAIT_S = 0.2  # before a batch that failed (its island was restarting) is told again
GIVE_UP_S = 180.0  # an island whose tells all failed this long is taken for dead (Ray gave up restarting it)
# Tells wait for the next flush at most this long: a flush is a Ray call per island, and with 8 islands the
# scheduler's flush after every chunk of results took 16% of the driver (benchmarks/README.md, 2026-11-28);
# an evaluation takes seconds, so an island learns its outcomes a tenth of a second late at worst.
FLUSH_EVERY_S = 0.1


class IslandTells:
    """Messages queued per island, flushed in batches, sent again to an island that failed or restarted."""

    def __init__(self, channels: list[IslandChannel]) -> None:
        self.channels = channels  # the islands' (the same list as RemoteIslands', filled when they start)
        self.watching: set[asyncio.Task[None]] = set()  # deliveries under way
        self._last_flush = 0.0
        self._timer: asyncio.TimerHandle | None = None  # the flush put off by FLUSH_EVERY_S

    def enqueue(self, channel: IslandChannel, message: Message, *, inserted: bool = False) -> None:
        """``message`` for ``channel``'s island, sent at the next flush (``inserted``: it brings a new elite)."""
        channel.pending.append(message)
        channel.inserts_pending += inserted

    def flush(self, *, now: bool = False) -> None:
        """Send every island its pending tells, one batch each, in order, at most every :data:`FLUSH_EVERY_S`
        (a flush asked for sooner is put off until then). An island restarting gets them at a later flush
        (``now``: at once, whatever it may answer)."""
        wait = self._last_flush + FLUSH_EVERY_S - time.monotonic()
        if not now and wait > 0:
            if self._timer is None:
                self._timer = asyncio.get_running_loop().call_later(wait, self._put_off_flush)
            return
        self._last_flush = time.monotonic()
        for channel in self.channels:
            if channel.dead:  # nobody to tell
                channel.pending, channel.seen = [], []
                continue
            if channel.seen:
                channel.pending.append(Seen(channel.seen))
                channel.seen = []
            if channel.home is not None:  # the island in the driver's process: told now, the messages as they are
                if channel.pending:
                    batch, inserts = channel.pending, channel.inserts_pending
                    channel.pending, channel.inserts_pending = [], 0
                    channel.home.tell(batch)
                    if inserts:
                        channel.delivered += 1
                        channel.dry = False
                continue
            if channel.pending and (now or channel.unavailable_until <= time.monotonic()):
                batch, inserts = channel.pending, channel.inserts_pending
                channel.pending, channel.inserts_pending = [], 0
                ref = channel.actor.tell.remote(packed(_by_reference(channel, batch)))
                task = asyncio.get_running_loop().create_task(self._delivered(channel, ref, batch, inserts))
                self.watching.add(task)
                task.add_done_callback(self.watching.discard)

    def pending(self) -> bool:
        """Whether a tell waits to be sent or delivered."""
        return bool(self.watching) or any(c.pending for c in self.channels)

    def cancel(self) -> None:
        """Stop telling (the run is over): deliveries under way and the flush put off are dropped."""
        for task in list(self.watching):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def answered_by(self, channel: IslandChannel, incarnation: str) -> None:
        """An answer from ``incarnation``: a new one is a restarted island, told again what it may have missed."""
        if incarnation == channel.incarnation:
            return
        channel.incarnation = incarnation
        channel.restarts += 1
        channel.dry = False  # what it had used up is forgotten with it
        log.warning("island %d was restarted (rebuilt from storage); telling it the last %d messages again",
                    self.channels.index(channel), len(channel.recent))
        channel.pending[:0] = list(channel.recent)
        channel.inserts_pending += 1
        self.flush()

    def _put_off_flush(self) -> None:
        self._timer = None
        self.flush()

    async def _delivered(self, channel: IslandChannel, ref: Any, batch: list[Message], inserts: int) -> None:
        from ray.exceptions import RayActorError

        try:
            incarnation, unknown = await ref
        except RayActorError:  # it died: told again once it is back (it rebuilt the rest from storage)
            now = time.monotonic()
            channel.unavailable_until = now + RETRY_WAIT_S
            channel.failing_since = channel.failing_since or now
            if now - channel.failing_since >= GIVE_UP_S:
                if not channel.dead:
                    log.error("island %d stays unreachable: the run goes on without it",
                              self.channels.index(channel))
                channel.dead = True
                return
            await asyncio.sleep(RETRY_WAIT_S)
            channel.pending[:0] = batch
            channel.inserts_pending += inserts
            self.flush()
            return
        channel.failing_since = None
        if unknown:  # it restarted since it made them: told again whole (no longer in channel.made)
            missing = set(unknown)
            channel.pending[:0] = [m for m in batch if isinstance(m, Told) and m.candidate.id in missing]
            channel.inserts_pending += 1
        channel.recent.extend(m for m in batch if not isinstance(m, Duplicate))
        if inserts:
            channel.delivered += 1
            channel.dry = False
        self.answered_by(channel, incarnation)


def _by_reference(channel: IslandChannel, batch: list[Message]) -> list[Message]:
    """``batch`` as sent: the island's own candidates (:attr:`IslandChannel.made`) by reference (:class:`ToldOwn`),
    once; the rest whole. What is kept to be told again (a failed batch, :attr:`IslandChannel.recent`) stays
    whole."""
    sent: list[Message] = []
    for message in batch:
        if isinstance(message, Told) and (source_hash := channel.made.pop(message.candidate.id, None)) is not None:
            sent.append(ToldOwn(message.candidate.id, source_hash, message.results))
        else:
            sent.append(message)
    return sent


__all__ = ["FLUSH_EVERY_S", "GIVE_UP_S", "RETRY_WAIT_S", "IslandTells"]
