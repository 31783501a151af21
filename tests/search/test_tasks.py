"""The search loop's task bookkeeping: counts by kind until collected, finished tasks in a queue."""

from __future__ import annotations

import asyncio

from kernelevo.search.tasks import Tasks


async def _value(value: object, delay_s: float = 0.0) -> object:
    await asyncio.sleep(delay_s)
    return value


async def _fail() -> None:
    raise ValueError("broken operator")


def test_a_task_counts_until_it_is_collected() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        tasks.start(_value("made"), "produce")
        tasks.start(_value("result", 0.05), "evaluate")
        assert (tasks.running("produce"), tasks.running("evaluate"), len(tasks)) == (1, 1, 2)
        await asyncio.sleep(0.01)  # the produce task has finished, but is not collected yet
        assert tasks.running("produce") == 1
        (task, kind), = tasks.finished_now()
        assert kind == "produce" and task.result() == "made" and tasks.running("produce") == 0
        assert tasks.finished_now() == []  # nothing else has finished: nothing waited for
        (task, kind), = await tasks.next_finished()
        assert kind == "evaluate" and task.result() == "result" and len(tasks) == 0

    asyncio.run(scenario())


def test_next_finished_takes_every_task_finished_meanwhile() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        for i in range(5):
            tasks.start(_value(i), "produce")
        tasks.start(_fail(), "produce")
        await asyncio.sleep(0)
        done = await tasks.next_finished()
        assert len(done) == 6 and tasks.running("produce") == 0
        failed = [task for task, _ in done if task.exception() is not None]
        assert len(failed) == 1 and isinstance(failed[0].exception(), ValueError)

    asyncio.run(scenario())


def test_cancel_all_but_keeps_the_evaluations() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        tasks.start(_value("slow edit", 10), "produce")
        tasks.start(_value("slow prompt", 10), "evolve")
        tasks.start(_value("result", 0.02), "evaluate")
        tasks.cancel_all_but("evaluate")
        await tasks.settle()
        done = {kind: task for task, kind in tasks.finished_now()}
        assert done["produce"].cancelled() and done["evolve"].cancelled()
        assert done["evaluate"].result() == "result"

    asyncio.run(scenario())


def test_next_finished_gives_up_after_its_timeout_and_loses_nothing() -> None:
    async def scenario() -> None:
        tasks = Tasks()
        tasks.start(_value("late", 0.3), "evaluate")
        started = asyncio.get_running_loop().time()
        assert await tasks.next_finished(0.05) == []  # the deadline came first: nothing collected
        assert 0.04 < asyncio.get_running_loop().time() - started < 0.25 and tasks.running("evaluate") == 1
        (task, kind), = await tasks.next_finished(5.0)  # the timed-out wait took nothing off the queue
        assert kind == "evaluate" and task.result() == "late" and len(tasks) == 0

    asyncio.run(scenario())
