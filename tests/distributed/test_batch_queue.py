"""How a batch's chunks go to its actors (kernelevo.distributed.batch._Queue): as few judge starts as the work
allows."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kernelevo.distributed.batch import SHARE_AFTER_CHUNKS, _Chunk, _Queue


def chunks(**counts: int) -> list[_Chunk]:
    """``counts`` chunks of two items for each problem, named by its spec's hash."""
    specs: dict[str, Any] = {name: SimpleNamespace(sha256=name) for name in counts}
    return [_Chunk(specs[name], [f"{name}-{i}-{j}" for j in range(2)])  # type: ignore[misc]
            for name, n in counts.items() for i in range(n)]


def test_two_idle_actors_open_two_problems_not_the_first_one_twice() -> None:
    queue = _Queue(chunks(gelu=6, softmax=2, rmsnorm=2, matmul=1))
    first, second = queue.take(0), queue.take(1)
    assert first is not None and second is not None
    assert first.spec.sha256 == "gelu"  # the problem with the most chunks waiting goes first
    assert second.spec.sha256 != first.spec.sha256


def test_an_actor_keeps_to_the_problem_it_holds_while_its_chunks_last() -> None:
    queue = _Queue(chunks(gelu=3, softmax=3))
    taken = [queue.take(0) for _ in range(3)]
    assert [c.spec.sha256 for c in taken if c] == ["gelu"] * 3
    nxt = queue.take(0)
    assert nxt is not None and nxt.spec.sha256 == "softmax"


def test_a_held_problem_gets_a_second_judge_only_when_enough_of_it_waits() -> None:
    queue = _Queue(chunks(gelu=SHARE_AFTER_CHUNKS + 2))
    assert queue.take(0) is not None  # actor 0 holds gelu; SHARE_AFTER_CHUNKS + 1 chunks wait
    helped = queue.take(1)
    assert helped is not None and helped.spec.sha256 == "gelu"
    assert len(queue.chunks) == SHARE_AFTER_CHUNKS
    assert queue.take(2) is None  # no more than SHARE_AFTER_CHUNKS wait: a third start would not pay
    assert 2 not in queue.held


def test_every_chunk_is_handed_out_once_whatever_the_order_actors_ask_in() -> None:
    made = chunks(gelu=7, softmax=1, rmsnorm=4, matmul=2, conv=5)
    queue = _Queue(list(made))
    handed: list[_Chunk] = []
    asking = [0, 1, 2]
    while asking:
        for actor in list(asking):
            chunk = queue.take(actor)
            if chunk is None:
                asking.remove(actor)
            else:
                handed.append(chunk)
    assert not queue.chunks and sorted(map(id, handed)) == sorted(map(id, made))
