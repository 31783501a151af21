"""A guarded event loop: a coroutine a thread hands to a cancelled task is closed, not left to warn.

The pattern is litellm's ``acompletion``: a thread builds the request and returns the coroutine
that sends it, which the caller then awaits (see kernelevo/utils/aio.py)."""

from __future__ import annotations

import asyncio
import gc
import threading
import warnings
from concurrent.futures import Future, ThreadPoolExecutor, wait

import pytest

from kernelevo.utils import aio


async def send(request: str) -> str:
    await asyncio.sleep(0)
    return f"sent {request}"


async def acompletion(request: str, built: threading.Event, release: threading.Event,
                      cancel_when_built: bool = False) -> str:
    """Like litellm's: the request is built in a thread, which returns the coroutine that sends it."""
    def build():  # type: ignore[no-untyped-def]
        built.set()
        release.wait(10)
        return send(request)

    building = asyncio.get_running_loop().run_in_executor(None, build)
    if cancel_when_built:  # cancelled once the result is in, before this task resumes to take it
        task = asyncio.current_task()
        assert task is not None
        building.add_done_callback(lambda _: task.cancel())
    sending = await building
    return await sending


async def cancel_while_building() -> None:
    built, release = threading.Event(), threading.Event()
    call = asyncio.create_task(acompletion("a", built, release))
    await asyncio.to_thread(built.wait, 10)
    call.cancel()  # while the thread builds (the search stopping with calls under way)
    await asyncio.sleep(0)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await call


class Recording(ThreadPoolExecutor):
    """The loop's default executor, keeping the futures of what it runs."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.submitted: list[Future[object]] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        future = super().submit(fn, *args, **kwargs)
        self.submitted.append(future)
        return future


async def cancel_after_the_thread_returned() -> None:
    built, release = threading.Event(), threading.Event()
    release.set()
    threads = Recording()
    asyncio.get_running_loop().set_default_executor(threads)
    call = asyncio.create_task(acompletion("b", built, release))
    await asyncio.sleep(0)  # the call is in its thread
    wait(threads.submitted, timeout=10)  # the loop held: the thread has returned, nothing is handed over yet
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call


async def cancel_before_the_task_resumes() -> None:
    """The result is handed over, then the task is cancelled before it runs again."""
    built, release = threading.Event(), threading.Event()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await acompletion("c", built, release, cancel_when_built=True)


async def not_cancelled() -> str:
    built, release = threading.Event(), threading.Event()
    release.set()
    return await acompletion("d", built, release)


def guarded(main):  # type: ignore[no-untyped-def]
    """asyncio.run on a loop guard_hand_offs has guarded (as the LLM client does before its first call)."""
    async def guarded_main():  # type: ignore[no-untyped-def]
        aio.guard_hand_offs()
        return await main

    return asyncio.run(guarded_main())


def unawaited(runner, scenario) -> list[str]:  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runner(scenario())
        gc.collect()
    return [str(w.message) for w in caught if "never awaited" in str(w.message)]


@pytest.mark.parametrize("scenario", [cancel_while_building, cancel_after_the_thread_returned,
                                      cancel_before_the_task_resumes])
def test_a_cancelled_caller_leaves_no_coroutine_unawaited(scenario) -> None:  # type: ignore[no-untyped-def]
    assert unawaited(guarded, scenario) == []


@pytest.mark.parametrize("scenario", [cancel_while_building, cancel_after_the_thread_returned,
                                      cancel_before_the_task_resumes])
def test_asyncio_run_leaves_it_unawaited(scenario) -> None:  # type: ignore[no-untyped-def]
    """What the loop fixes: each case warns on asyncio's own loop."""
    assert unawaited(asyncio.run, scenario) == ["coroutine 'send' was never awaited"]


def test_a_caller_that_waits_gets_its_coroutine() -> None:
    assert guarded(not_cancelled()) == "sent d"
