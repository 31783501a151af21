"""A batch of kernels (KernelBench's layout) spread over every GPU through Ray.

One :class:`~kernelevo.distributed.actors.EvaluatorActor` per GPU. The kernels of each
problem are cut into chunks of a few times an actor's slots; an idle actor takes the next
chunk, preferring one of the problem whose judge it holds warm, then a problem no other
actor holds (:class:`_Queue`), and closes a problem's judge before it starts another's, so
a GPU holds one problem's data at a time. Static
checks run here, in the driver, so a kernel they reject never takes a GPU. An actor that
dies mid-kernel is restarted by Ray and the kernel judged once more; a second death is
recorded as ``crashed``. Every kernel gets exactly one result.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kernelevo.distributed.actors import EvaluatorActor
from kernelevo.distributed.cluster import connect
from kernelevo.evaluation.judge.batch import Work, spec_error_result
from kernelevo.evaluation.judge.kernelbench import Item
from kernelevo.evaluation.static.gate import static_rejection
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import ErrorKind, EvalResult, Stage
from kernelevo.spec.spec import Spec

log = logging.getLogger(__name__)

OnResult = Callable[[Item, Spec | None, EvalResult], None]


@dataclass
class _Chunk:
    spec: Spec
    items: list[Item]


def _chunks(works: list[Work], size: int) -> list[_Chunk]:
    return [_Chunk(w.spec, w.items[i:i + size]) for w in works if w.spec is not None
            for i in range(0, len(w.items), size)]


SHARE_AFTER_CHUNKS = 3  # a second actor opens a held problem's judge only when more of its chunks than this wait


class _Queue:
    """Chunks left to judge, handed to actors so that as few judges start as the work allows.

    A problem's judge costs its actor a start and baselines (8 to 11 s and 5 to 9 s on an H200) before its
    first kernel, against about a second a kernel after. So an actor keeps to the problem it holds warm, then
    takes a problem no other actor holds (the one with the most chunks waiting first), and opens a judge for a
    problem another actor holds only when more than :data:`SHARE_AFTER_CHUNKS` of its chunks wait. Two GPUs
    both starting on a batch's first problem paid two judges for it, and 2 GPUs judged a 4-problem batch only
    1.36x as fast as one (benchmarks/README.md).
    """

    def __init__(self, chunks: list[_Chunk]) -> None:
        self.chunks = chunks
        self.failed: dict[str, str] = {}  # spec sha256 -> why its judge could not start
        self.held: dict[int, str] = {}  # actor -> the spec sha256 whose judge it holds

    def take(self, actor: int) -> _Chunk | None:
        chunk = self._pick(self.held.get(actor))
        if chunk is None:
            self.held.pop(actor, None)
        else:
            self.held[actor] = chunk.spec.sha256
        return chunk

    def _pick(self, warm: str | None) -> _Chunk | None:
        waiting = Counter(chunk.spec.sha256 for chunk in self.chunks)  # chunks waiting, per problem
        held_elsewhere = set(self.held.values()) - {warm}
        if warm in waiting:
            choice: str | None = warm
        elif free := [sha for sha in waiting if sha not in held_elsewhere]:
            choice = max(free, key=waiting.__getitem__)
        else:
            shared = [sha for sha, n in waiting.items() if n > SHARE_AFTER_CHUNKS]
            choice = max(shared, key=waiting.__getitem__) if shared else None
        if choice is None:
            return None
        index = next(i for i, chunk in enumerate(self.chunks) if chunk.spec.sha256 == choice)
        return self.chunks.pop(index)


async def judge_on_ray(works: list[Work], options: EvalOptions, on_result: OnResult, *,
                       workers: int | None = None) -> int:
    """Judge every item on Ray's GPUs (``workers`` actors at most); returns the actors used."""
    import ray

    for work in works:
        if work.spec is None:
            for item in work.items:
                on_result(item, None, spec_error_result(work.spec_error or "the problem could not be read"))
    cluster = connect(local_gpus=workers)
    count = min(workers or cluster.gpus, cluster.gpus)
    if count == 0:
        raise RuntimeError(f"{cluster.describe()}: no GPU to judge on (pass --no-ray to judge in this process)")
    remote: Any = ray.remote(EvaluatorActor).options(num_gpus=1, num_cpus=0, max_restarts=3, max_task_retries=0,
                                                     max_concurrency=1 + options.most_ahead())
    actors = [remote.remote(options.model_copy(update={"static_checks": False})) for _ in range(count)]
    try:
        places = await asyncio.gather(*(actor.ready.remote() for actor in actors))
        slots = [int(place.get("slots", 1)) for place in places]
        queue = _Queue(_chunks(works, 2 * max(slots)))
        await asyncio.gather(*(_work(i, actor, n, queue, options, on_result)
                               for i, (actor, n) in enumerate(zip(actors, slots, strict=True))))
    finally:
        for actor in actors:
            ray.kill(actor)
    return count


async def _work(index: int, actor: Any, slots: int, queue: _Queue, options: EvalOptions,
                on_result: OnResult) -> None:
    warm: Spec | None = None
    while (chunk := queue.take(index)) is not None:
        if warm is not None and warm.sha256 != chunk.spec.sha256:
            await actor.release.remote(warm)
        warm = chunk.spec
        problem = queue.failed.get(chunk.spec.sha256)
        if problem is None:
            problem = await actor.prepare.remote(chunk.spec)
            if problem:
                queue.failed[chunk.spec.sha256] = problem
        if problem:
            for item in chunk.items:
                on_result(item, chunk.spec, spec_error_result(problem))
            continue
        limit = asyncio.Semaphore(slots)
        await asyncio.gather(*(_one(actor, limit, chunk.spec, item, options, on_result) for item in chunk.items))
    if warm is not None:
        await actor.release.remote(warm)


async def _one(actor: Any, limit: asyncio.Semaphore, spec: Spec, item: Item, options: EvalOptions,
               on_result: OnResult) -> None:
    from ray.exceptions import RayActorError

    source = item.kernel.read_text()
    result = static_rejection(source, spec, options)
    if result is None:
        async with limit:
            for attempt in (1, 2):
                try:
                    result = await actor.evaluate.remote(spec, source)
                    break
                except RayActorError as exc:
                    log.warning("evaluator actor died judging %s (%s)%s", item.key, type(exc).__name__,
                                "; judging it again" if attempt == 1 else "")
                    result = EvalResult(stage=Stage.CORRECTNESS, error=ErrorKind.CRASHED, message=(
                        f"the evaluator worker died twice while judging this kernel ({type(exc).__name__})"))
    assert result is not None
    on_result(item, spec, result)
