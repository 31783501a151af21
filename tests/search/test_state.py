"""The search state's indexes: ids, children's failures, and what is left to repair."""

from __future__ import annotations

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import Candidate
from kernelevo.records.result import ErrorKind, EvalResult
from kernelevo.search.state import SearchState


def state() -> SearchState:
    return SearchState(descriptors=descriptor_set("levels"), tie_tolerance=0.08,
                       operators=["template", "llm-repair"])


def rejected(kind: ErrorKind) -> EvalResult:
    return EvalResult(error=kind, message=f"{kind} happened\nmore detail")


def test_ids_continue_after_the_highest() -> None:
    s = state()
    assert s.next_id() == 0
    s.add_candidate(Candidate(id=5, source="a", operator="seed"))
    assert s.next_id() == 6


def test_failures_of_a_parents_children_and_repairs() -> None:
    s = state()
    parent = Candidate(id=0, source="p", operator="seed")
    broken = Candidate(id=1, source="b", operator="template", parent_ids=[0], note="BLOCK 1 -> 2")
    unrepairable = Candidate(id=2, source="c", operator="template", parent_ids=[0])
    for c in (parent, broken, unrepairable):
        s.add_candidate(c)
    s.tell(broken, "h200", rejected(ErrorKind.COMPILE_ERROR))
    s.tell(unrepairable, "h200", rejected(ErrorKind.EVALUATOR_ERROR))
    assert s.failures_from(0) == ["BLOCK 1 -> 2: compile_error: compile_error happened",
                                  "template: evaluator_error: evaluator_error happened"]
    assert s.failures_from(1) == []
    assert [c.id for c in s.repair_targets()] == [1]  # an evaluator's own failure is not the kernel's to repair
    s.add_candidate(Candidate(id=3, source="fixed", operator="llm-repair", parent_ids=[1]))
    assert s.repair_targets() == []


def test_descriptors_measured_by_the_evaluator_are_taken_as_they_are(examples_dir) -> None:
    from kernelevo.archive.descriptors import measure
    from kernelevo.distributed.simulated import simulated_result

    s = state()
    source = (examples_dir / "softmax" / "seed_online.py").read_text()
    names = [d.name for d in s.descriptors]
    told = Candidate(id=0, source=source, operator="seed")
    s.add_candidate(told)
    result = simulated_result(source, 0.0)
    result.measures = {name: 3.0 for name in names}  # not what the source gives: proves they were not measured again
    assert list(measure(names, source).values()) != [3.0, 3.0, 3.0]
    assert s.tell(told, "h200", result).measures == [3.0, 3.0, 3.0]
    partial = Candidate(id=1, source=source + "\n", operator="seed")
    s.add_candidate(partial)
    result = simulated_result(partial.source, 0.0)
    result.measures = {names[0]: 3.0}  # not every descriptor of the run: the driver measures them all
    assert s.tell(partial, "h200", result).measures == list(measure(names, partial.source).values())


def test_the_best_is_the_top_elite_of_every_archive_after_cells_are_retaken() -> None:
    """best() reads each archive's kept best; it must agree with a walk over every elite."""
    from synthetic_run import gpu_result

    s = SearchState(descriptors=descriptor_set("metadata"), tie_tolerance=0.08, operators=["template"])
    for i in range(300):  # gpu_result varies times and metadata with i: cells are taken and retaken
        candidate = Candidate(id=i, source=f"k{i}", operator="template")
        s.add_candidate(candidate)
        s.tell(candidate, "h100", gpu_result(i))
        elites = [e for archive in s.archives.values() for e in archive.elites()]
        best = s.best("h100")
        if not elites:  # every fifth result is wrong: none taken yet
            assert best is None
            continue
        assert best is not None and best[0].objective == max(e.objective for e in elites)


def test_a_tie_that_measured_faster_is_the_best_but_earns_its_operator_nothing(examples_dir) -> None:
    from kernelevo.distributed.simulated import simulated_result

    s = state()  # ties within 8%
    source = (examples_dir / "softmax" / "seed_online.py").read_text()
    first = Candidate(id=0, source=source, operator="seed")
    tied = Candidate(id=1, source=source + "\n# faster by 1%\n", operator="template", parent_ids=[0])
    slower = Candidate(id=2, source=source + "\n# slower by 1%\n", operator="template", parent_ids=[1])
    for c in (first, tied, slower):
        s.add_candidate(c)

    def timed(candidate: Candidate, ms: float) -> EvalResult:
        result = simulated_result(candidate.source, 0.0)
        assert result.kernel is not None
        result.kernel.median_ms = ms
        result.measures = {d.name: 1.0 for d in s.descriptors}  # the same cell
        return result

    assert s.tell(first, "h100", timed(first, 0.3576)).archive_status == "new_cell"
    told = s.tell(tied, "h100", timed(tied, 0.3544))
    assert (told.archive_status, told.took_cell, told.credited) == ("tie_faster", True, False)
    assert s.bandit.stats["template"].successes == 0  # a gain inside the noise teaches the search nothing
    assert s.tell(slower, "h100", timed(slower, 0.3580)).archive_status == "tie"
    best = s.best("h100")
    assert best is not None and best[1].id == 1  # what the run exports: the fastest it measured
