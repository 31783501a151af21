"""The island model's migration: each island's best joins the next island, in a ring; a seed joins every island."""

from __future__ import annotations

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import Evaluated
from kernelevo.records.elite import AddStatus
from kernelevo.records.result import EvalResult
from kernelevo.search.islands import migrate, share_seed
from kernelevo.search.state import SearchState


def test_each_islands_best_joins_the_next_island_once() -> None:
    state = SearchState(descriptors=descriptor_set("levels"), tie_tolerance=0.02, operators=["template"])
    state.archive(0, "h200").add(1, 0.5, (1.0, 1.0, 0.0), 0.01)
    state.archive(0, "h200").add(2, 0.2, (2.0, 1.0, 0.0), 0.01)
    state.archive(2, "h200").add(3, 0.9, (3.0, 1.0, 0.0), 0.01)
    moved = migrate(state, 3)
    # in island order: 0's best (1) to island 1, which passes it on to 2, whose best (3) goes to 0
    assert [(hw, island, e.candidate_id) for hw, island, e in moved] == [("h200", 1, 1), ("h200", 2, 1),
                                                                          ("h200", 0, 3)]
    assert {e.candidate_id for e in state.archive(1, "h200").elites()} == {1}
    assert {e.candidate_id for e in state.archive(0, "h200").elites()} == {1, 2, 3}
    # again: 0's best is now 3, new to island 1; 1 passes 3 to 2, which holds it already (a tie), as 0 does
    assert [(island, e.candidate_id) for _, island, e in migrate(state, 3)] == [(1, 3)]


def test_a_seed_that_took_its_cell_joins_every_other_island_where_it_is_best() -> None:
    state = SearchState(descriptors=descriptor_set("levels"), tie_tolerance=0.02, operators=["template"])
    cell = (1.0, 1.0, 0.0)
    state.archive(0, "h200").add(1, 0.5, cell, 0.01)  # seed 1, judged in island 0, took its cell
    state.archive(2, "h200").add(7, 0.9, cell, 0.01)  # island 2 already holds a faster kernel there
    told = [Evaluated(candidate_id=1, hardware="h200", result=EvalResult(correct=True), objective=0.5,
                      measures=list(cell), island=0, archive_status=AddStatus.NEW_CELL)]
    assert [(hw, island, e.candidate_id) for hw, island, e in share_seed(state, told, 3)] == [("h200", 1, 1)]
    assert {e.candidate_id for e in state.archive(1, "h200").elites()} == {1}
    assert {e.candidate_id for e in state.archive(2, "h200").elites()} == {7}
    # a slower seed in the same cell took nothing in island 0: it goes nowhere
    state.archive(0, "h200").add(2, 0.3, cell, 0.01)
    slower = Evaluated(candidate_id=2, hardware="h200", result=EvalResult(correct=True), objective=0.3,
                       measures=list(cell), island=0, archive_status=AddStatus.WORSE)
    assert share_seed(state, [slower], 3) == []
    assert {e.candidate_id for e in state.archive(1, "h200").elites()} == {1}
