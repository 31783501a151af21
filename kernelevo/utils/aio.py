"""Running the command line's coroutines on an event loop whose thread hand-offs can be cancelled cleanly.

litellm's ``acompletion`` builds its request in a thread (``loop.run_in_executor``) and then
awaits the coroutine that thread returns. A call cancelled meanwhile -- the search stopping
(its budget reached, Ctrl-C) while the operators wait on their models -- never takes that
coroutine, and Python warns "RuntimeWarning: coroutine 'OpenAIChatCompletion.acompletion'
was never awaited" when it is collected: after a run whose model server had died (its
calls were retrying when the run stopped) that warning was the last thing printed.

:func:`run` runs a coroutine as :func:`asyncio.run` does, on a loop that closes a coroutine
a thread hands back to a task that no longer waits for it. Closing it is all there is to do:
the request it held was never sent.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on a :class:`HandOffLoop` (Ctrl-C cancels ``main``, as asyncio.run does)."""
    with asyncio.Runner(loop_factory=HandOffLoop) as runner:
        return runner.run(main)


class HandOffLoop(asyncio.SelectorEventLoop):
    """The default loop on Linux, with :meth:`run_in_executor` closing what a cancelled caller leaves."""

    def run_in_executor(self, executor: Executor | None, func: Callable[[*Ts], T],
                        *args: *Ts) -> asyncio.Future[T]:
        hand_off = _HandOff(self, asyncio.current_task(self))
        future = super().run_in_executor(executor, hand_off.call, func, *args)
        future.add_done_callback(hand_off.settled)
        return future


class _HandOff:
    """One function run in a thread for a task; a coroutine it returns that the task never takes is closed."""

    def __init__(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any] | None) -> None:
        self.loop, self.task = loop, task
        self.lock = threading.Lock()
        self.abandoned = False  # the caller's future was cancelled
        self.returned: Coroutine[Any, Any, Any] | None = None

    def call(self, func: Callable[[*Ts], T], *args: *Ts) -> T:
        result = func(*args)
        if inspect.iscoroutine(result):
            with self.lock:
                if not self.abandoned:
                    self.returned = result
            if self.abandoned:  # cancelled while the thread ran: nobody will take it
                result.close()
        return result

    def settled(self, future: asyncio.Future[Any]) -> None:
        with self.lock:
            self.abandoned = future.cancelled()
            returned, self.returned = self.returned, None
        if returned is None:
            return
        if self.abandoned:  # cancelled after the thread returned, before the result was handed over
            returned.close()
            return
        # Handed over; but the task may be cancelled before it resumes and awaits it. This callback runs
        # after the task's own wake-up (callbacks run in the order they were added): look then.
        self.loop.call_soon(self._check, returned)

    def _check(self, returned: Coroutine[Any, Any, Any]) -> None:
        task = self.task
        if inspect.getcoroutinestate(returned) == inspect.CORO_CREATED and task is not None and \
                (task.cancelling() or task.done()):
            returned.close()
