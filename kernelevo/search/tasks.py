"""The scheduler's running tasks, by kind, and the queue of those that have finished."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Coroutine
from typing import Any

Task = asyncio.Task[object]


class Tasks:
    """Tasks the scheduler started ("produce", "instant", "evaluate", "evolve") until it has collected them.

    Finished tasks queue up as they finish: waiting on all of them (``asyncio.wait``) costs time in
    proportion to the tasks in flight on every wake-up, hundreds with hundreds of evaluators.
    """

    def __init__(self) -> None:
        self._kinds: dict[Task, str] = {}
        self._counts: Counter[str] = Counter()
        self._finished: asyncio.Queue[Task] = asyncio.Queue()

    def start(self, work: Coroutine[Any, Any, object], kind: str) -> Task:
        task = asyncio.create_task(work)
        self._kinds[task] = kind
        self._counts[kind] += 1
        task.add_done_callback(self._finished.put_nowait)
        return task

    def running(self, kind: str) -> int:
        """Started and not collected yet (a finished task counts until it is collected)."""
        return self._counts[kind]

    def __len__(self) -> int:
        return len(self._kinds)

    async def next_finished(self, timeout_s: float | None = None) -> list[tuple[Task, str]]:
        """Wait for a task to finish; it and every other finished one, collected. After ``timeout_s``
        with none finished: an empty list (the scheduler's wake-up at its time budget's deadline)."""
        try:
            done = [await asyncio.wait_for(self._finished.get(), timeout_s)]
        except TimeoutError:
            return []
        return self._collect(done)

    def finished_now(self) -> list[tuple[Task, str]]:
        """The tasks finished so far, collected; none waited for."""
        return self._collect([])

    def _collect(self, done: list[Task]) -> list[tuple[Task, str]]:
        while not self._finished.empty():
            done.append(self._finished.get_nowait())
        collected = []
        for task in done:
            kind = self._kinds.pop(task)
            self._counts[kind] -= 1
            collected.append((task, kind))
        return collected

    def cancel_all_but(self, kind: str) -> None:
        for task, running in self._kinds.items():
            if running != kind:
                task.cancel()

    async def settle(self) -> None:
        """Wait for every task left, whatever becomes of it."""
        await asyncio.gather(*self._kinds, return_exceptions=True)
