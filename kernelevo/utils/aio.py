"""Thread hand-offs that a cancelled caller leaves behind: closed, not left to warn.

litellm's ``acompletion`` builds its request in a thread (``loop.run_in_executor``) and then
awaits the coroutine that thread returns. A call cancelled meanwhile -- the search stopping
(its budget reached, Ctrl-C) while the operators wait on their models -- never takes that
coroutine, and Python warns "RuntimeWarning: coroutine 'OpenAIChatCompletion.acompletion'
was never awaited" when it is collected: after a run whose model server had died (its
calls were retrying when the run stopped) that warning was the last thing printed.

:func:`guard_hand_offs` makes the running loop close a coroutine a thread hands back to a
task that no longer waits for it. Closing it is all there is to do: the request it held was
never sent. The LLM client guards the loop it runs on before its first call.
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

_GUARDED = "_kernelevo_guarded_hand_offs"


def guard_hand_offs(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Make ``loop`` (default: the running one) close what a thread hands back to a cancelled task.

    Its ``run_in_executor`` is wrapped (``asyncio.to_thread`` goes through it too); what passes
    through is unchanged. Once per loop; a loop whose methods cannot be replaced is left as it is."""
    loop = loop or asyncio.get_running_loop()
    if getattr(loop, _GUARDED, False):
        return
    plain = loop.run_in_executor

    def run_in_executor(executor: Executor | None, func: Callable[[*Ts], T], *args: *Ts) -> asyncio.Future[T]:
        hand_off = _HandOff(loop, asyncio.current_task(loop))
        future = plain(executor, hand_off.call, func, *args)
        future.add_done_callback(hand_off.settled)
        return future

    try:
        setattr(loop, "run_in_executor", run_in_executor)  # noqa: B010 (mypy: no assigning to a method)
        setattr(loop, _GUARDED, True)
    except AttributeError:  # a loop written in C (uvloop): left as it is
        pass


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
