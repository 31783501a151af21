"""The search's garbage-collector settings: set for a block or for the rest of a process, and put back."""

from __future__ import annotations

import gc
import multiprocessing

from kernelevo.utils.collector import THRESHOLDS, collect_less, fewer_collections


def test_fewer_collections_for_a_block_puts_the_thresholds_back() -> None:
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == THRESHOLDS and gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def _in_a_child(answer) -> None:  # type: ignore[no-untyped-def]
    collect_less()
    answer.put((gc.get_threshold(), gc.get_freeze_count() > 0))


def test_collect_less_holds_for_the_rest_of_the_process() -> None:
    """As an island actor calls it: in a process of its own, which it changes for good."""
    context = multiprocessing.get_context("spawn")
    answer = context.Queue()
    child = context.Process(target=_in_a_child, args=(answer,))
    child.start()
    threshold, frozen = answer.get(timeout=60)
    child.join(60)
    assert tuple(threshold) == THRESHOLDS and frozen
