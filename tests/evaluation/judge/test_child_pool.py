"""The child pool: the next child is warmed while the current one works, and no answer is left behind."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kernelevo.evaluation.judge.child_pool import ChildPool
from kernelevo.isolation.sandbox import Limits

TESTS = str(Path(__file__).resolve().parents[2])
ENV = {"PYTHONPATH": os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")])}


@pytest.fixture
def pool() -> Iterator[Callable[[int], ChildPool]]:
    """Child pools with ``spare`` spares, closed after the test."""
    made: list[ChildPool] = []

    def make(spare: int) -> ChildPool:
        # the warm request stands in for creating a CUDA context: it takes a moment and answers
        made.append(ChildPool("sandbox_handlers:Echo", "child", env=ENV, spare=spare, limits=Limits(),
                              warm_request=("sleep", 0.2)))
        return made[-1]

    yield make
    for each in made:
        each.close()


def test_each_child_is_warmed_once_and_answers_its_own_requests(pool: Callable[[int], ChildPool]) -> None:
    children = pool(2)
    for i in range(4):
        box, _ = children.take()
        assert children._warming is not None and children._warming is not box  # the next one warms meanwhile
        assert box.call(("echo", i), {"*": 30}) == ("child", i)  # not a warm answer left in the pipe
        children.settle()
        assert children._warming is None and id(children.ready[0]) in children._warm
        box.kill()


def test_a_child_that_dies_while_warming_is_replaced(pool: Callable[[int], ChildPool]) -> None:
    children = pool(2)
    first, _ = children.take()
    first.kill()
    warming = children._warming
    assert warming is not None
    warming.kill()  # as a crash while making its context would
    box, _ = children.take()
    assert box is not warming and box.call(("echo", "x"), {"*": 30}) == ("child", "x")
    box.kill()


def test_without_spares_nothing_is_warmed_ahead(pool: Callable[[int], ChildPool]) -> None:
    children = pool(0)
    box, _ = children.take()
    assert children._warming is None
    assert box.call(("echo", 1), {"*": 30}) == ("child", 1)
    box.kill()
