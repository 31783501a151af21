"""The child pool: the next child is warmed while the current one works, and no answer is left behind."""

from __future__ import annotations

import os
from pathlib import Path

from kernelevo.evaluation.child_pool import ChildPool
from kernelevo.sandbox import Limits

TESTS = str(Path(__file__).resolve().parent.parent)
ENV = {"PYTHONPATH": os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")])}


def _pool(spare: int) -> ChildPool:
    # the warm request stands in for creating a CUDA context: it takes a moment and answers
    return ChildPool("sandbox_handlers:Echo", "child", env=ENV, spare=spare, limits=Limits(),
                     warm_request=("sleep", 0.2))


def test_each_child_is_warmed_once_and_answers_its_own_requests() -> None:
    pool = _pool(spare=2)
    try:
        for i in range(4):
            box, _ = pool.take()
            assert pool._warming is not None and pool._warming is not box  # the next one warms meanwhile
            assert box.call(("echo", i), {"*": 30}) == ("child", i)  # not a warm answer left in the pipe
            pool.settle()
            assert pool._warming is None and id(pool.ready[0]) in pool._warm
            box.kill()
    finally:
        pool.close()


def test_a_child_that_dies_while_warming_is_replaced() -> None:
    pool = _pool(spare=2)
    try:
        first, _ = pool.take()
        first.kill()
        warming = pool._warming
        assert warming is not None
        warming.kill()  # as a crash while making its context would
        box, _ = pool.take()
        assert box is not warming and box.call(("echo", "x"), {"*": 30}) == ("child", "x")
        box.kill()
    finally:
        pool.close()


def test_without_spares_nothing_is_warmed_ahead() -> None:
    pool = _pool(spare=0)
    try:
        box, _ = pool.take()
        assert pool._warming is None
        assert box.call(("echo", 1), {"*": 30}) == ("child", 1)
        box.kill()
    finally:
        pool.close()
