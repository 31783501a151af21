"""The search's writes, read back in order (SQLite and PostgreSQL): what a resumed run replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution, Usage
from kernelevo.records.elite import Elite, Migration
from kernelevo.records.progress import Progress
from kernelevo.records.result import EvalResult, Floor, KernelMetadata, Roofline, Stage, Timing
from kernelevo.spec import read_spec
from kernelevo.storage import queries
from kernelevo.storage.recorder import RunRecorder, load_run
from kernelevo.storage.runs import create_run, save_spec
from kernelevo.storage.tables import EliteRow, EvaluationRow, RunRow
from kernelevo.variation.llm.metaprompt import PromptArchive


def new_run(db, examples_dir: Path) -> int:
    with db.session() as session:
        spec = save_spec(session, read_spec(str(examples_dir / "gelu" / "spec.py")))
        return create_run(session, spec_id=spec.id, config={"descriptors": "levels"}, owner="test").id


def candidate(i: int, **fields: object) -> Candidate:
    return Candidate(**{"id": i, "source": f"# kernel {i}\nBLOCK = {1 << i}\n", "operator": "template", **fields})


def evaluated(i: int, *, ms: float = 0.2, status: str = "new_cell", cell: int = 3) -> Evaluated:
    result = EvalResult(correct=True, stage=Stage.VERDICT, speedup_eager=0.3 / ms,
                        kernel=Timing(median_ms=ms, iqr_ms=0.004, min_ms=ms, mean_ms=ms, repetitions=50,
                                      method="cuda_events"),
                        kernels=[KernelMetadata(name="gelu_kernel", launches=1, registers=32, num_warps=4)])
    return Evaluated(candidate_id=i, hardware="h200", result=result, objective=0.405, measures=[1.5, 1.5, 0.5],
                     island=0, cell=cell, archive_status=status)


def test_records_come_back_as_they_were_written(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    usage = Usage(calls=1, prompt_tokens=100, completion_tokens=50, cost_usd=0.001, model="m")
    recorder.add_candidate(candidate(0, operator="seed"))
    recorder.add_candidate(candidate(1, parent_ids=[0], prompt_id=0, usage=usage, note="BLOCK 1 -> 2"))
    recorder.add_evaluations([evaluated(0)])
    recorder.add_failure(OperatorFailure(operator="llm-diff", kind="unusable_reply", message="no code",
                                         parent_ids=[1], usage=usage))
    recorder.add_evolution(PromptEvolution(parent_id=0, mutation="improve", prompt_id=1, usage=usage))
    prompts = PromptArchive.with_default()
    prompts.add({"philosophy": "p", "strategies": "s", "pitfalls": "x", "analysis": "a"}, parent_id=0,
                mutation="improve")
    recorder.save_prompts(prompts)
    stored = load_run(any_db, run_id)
    assert [c.id for c in stored.candidates] == [0, 1]
    assert stored.candidates[1].parent_ids == [0] and stored.candidates[1].usage == usage
    assert stored.candidates[1].note == "BLOCK 1 -> 2" and stored.candidates[1].prompt_id == 0
    (first, measures), = stored.evaluations
    assert first.candidate_id == 0 and first.result == evaluated(0).result and measures == [1.5, 1.5, 0.5]
    assert stored.failures[0].kind == "unusable_reply" and stored.failures[0].usage == usage
    assert stored.evolutions[0].mutation == "improve"
    assert stored.prompts is not None and [p.id for p in stored.prompts.prompts] == [0, 1]
    assert stored.prompts.prompts[1].mutation == "improve"


def test_each_evaluation_is_stored_with_the_floor_its_roofline_fraction_is_of(any_db, examples_dir: Path) -> None:
    """The floor named by the result, or for a result made before floors were named, the one its numbers show;
    none where no fraction is known."""
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    rooflines = [Roofline(bytes_moved=2_000_000, bytes_read=1_900_000, bytes_written=100_000, flops=0,
                          bandwidth_gbs=3000.0, read_bandwidth_gbs=3200.0, peak_tflops=989.0, floor_ms=0.0006,
                          fraction=0.98, floor=Floor.READ),
                 Roofline(bytes_moved=2_000_000, flops=10**12, bandwidth_gbs=3000.0, peak_tflops=989.0, floor_ms=1.01,
                          fraction=0.75),  # no floor stored: FLOPs at the peak take longer than the bytes
                 Roofline(bytes_moved=2_000_000, flops=0, bandwidth_gbs=None, peak_tflops=None, floor_ms=None,
                          fraction=None),  # the bandwidth unknown
                 None]
    for i, roofline in enumerate(rooflines):
        recorder.add_candidate(candidate(i))
        told = evaluated(i)
        recorder.add_evaluations([told.model_copy(update={"result": told.result.model_copy(
            update={"roofline": roofline})})])
    with any_db.session() as session:
        stored = session.execute(select(EvaluationRow.roofline, EvaluationRow.roofline_floor)
                                 .where(EvaluationRow.run_id == run_id).order_by(EvaluationRow.id)).all()
    assert [tuple(r) for r in stored] == [(0.98, "read"), (0.75, "compute"), (None, None), (None, None)]


def test_an_elite_row_follows_its_cell(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    for i in range(5):
        recorder.add_candidate(candidate(i))
    recorder.add_evaluations([evaluated(0, ms=0.3)])
    recorder.add_evaluations([evaluated(1, ms=0.2, status="improved")])  # the same cell, faster
    recorder.add_evaluations([evaluated(2, ms=0.4, status="worse")])  # not an elite
    migrant = Elite(1, 0.405, (1.5, 1.5, 0.5), 3, 0.02)
    recorder.save_migration(Migration(3, "h200", 1, migrant))  # a migration to island 1, after 3 evaluations
    assert load_run(any_db, run_id).migrations == [Migration(3, "h200", 1, migrant)]  # replayed in order on resume
    with any_db.session() as session:
        rows = session.query(EliteRow).order_by(EliteRow.island).all()
        assert [(r.island, r.cell, r.candidate_number) for r in rows] == [(0, 3, 1), (1, 3, 1)]
        elites = queries.archive(session, run_id, "h200")
        assert {e.candidate_number for e in elites} == {1} and elites[0].kernel_ms == 0.2
        assert elites[0].speedup_eager == pytest.approx(1.5) and elites[0].operator == "template"
    recorder.add_evaluations([evaluated(3, ms=0.198, status="tie_faster")])  # within the noise, faster: holds it
    recorder.add_evaluations([evaluated(4, ms=0.199, status="tie")])  # within the noise, not faster
    with any_db.session() as session:
        assert {(e.island, e.candidate_number) for e in queries.archive(session, run_id, "h200")} == {(0, 3), (1, 1)}
        # only gains beyond the noise count as the operator's archive entries
        assert queries.operator_stats(session, run_id)["template"]["archive_entries"] == 2


def test_progress_updates_the_runs_summary_at_most_once_a_second(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    best = {"best_speedup_eager": 1.4, "hardware": "h200"}
    recorder.progress(Progress(evaluations=3, correct=2, **best))
    recorder.progress(Progress(evaluations=4, correct=3, **best))  # within the second: held back
    recorder.progress(Progress(evaluations=5, correct=3, **best), force=True)  # an improvement: written at once
    recorder.progress(Progress(evaluations=6, correct=3, best_speedup_eager=1.5, hardware="h200", best_roofline=0.98,
                               best_roofline_floor="read"))  # held back ...
    recorder.flush()  # ... until the heartbeat writes it
    recorder.flush()  # nothing held back: nothing written
    with any_db.session() as session:
        row = session.get(RunRow, run_id)
        assert (row.evaluations, row.correct, row.best_speedup_eager, row.hardware) == (6, 3, 1.5, "h200")
        assert (row.best_roofline, row.best_roofline_floor) == (0.98, "read")
        assert [e.data["evaluations"] for e in queries.events_after(session, run_id)] == [3, 5, 6]


def test_a_chart_samples_the_events_evenly_and_keeps_the_last(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    for i in range(1, 26):
        recorder.progress(Progress(evaluations=i), force=True)
    with any_db.session() as session:
        sampled = [e.data["evaluations"] for e in queries.events_sampled(session, run_id, 10)]
        assert sampled == [1, 4, 7, 10, 13, 16, 19, 22, 25]
        assert [e.data["evaluations"] for e in queries.events_sampled(session, run_id, 100)] == list(range(1, 26))


def test_lineage_and_children(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    recorder.add_candidate(candidate(0, operator="seed"))
    recorder.add_candidate(candidate(1, parent_ids=[0]))
    recorder.add_candidate(candidate(2, parent_ids=[1, 0], operator="llm-crossover"))
    with any_db.session() as session:
        last = queries.candidate_by_number(session, run_id, 2)
        assert [c.number for c in queries.lineage(session, last)] == [2, 1, 0]
        seed = queries.candidate_by_number(session, run_id, 0)
        assert [c.number for c in queries.children_of(session, seed)] == [1, 2]


def test_a_batch_is_written_in_one_commit_in_the_order_it_was_made(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    with recorder.batched():
        for i in range(3):
            recorder.add_candidate(candidate(i))
        recorder.add_evaluations([evaluated(1, ms=0.3)])
        recorder.add_evaluations([evaluated(0, ms=0.2, status="improved")])  # the same cell, in the same batch
        recorder.add_failure(OperatorFailure(operator="template", kind="duplicate", message="seen"))
        recorder.progress(Progress(evaluations=2, correct=2), force=True)
        assert load_run(any_db, run_id).candidates == []  # held: nothing is written before the commit
        recorder.commit()
        stored = load_run(any_db, run_id)
        assert [c.id for c in stored.candidates] == [0, 1, 2]
        assert [e.candidate_id for e, _ in stored.evaluations] == [1, 0] and len(stored.failures) == 1
        recorder.add_evaluations([evaluated(2, ms=0.1, status="improved")])  # committed on leaving
    with any_db.session() as session:
        assert [(r.cell, r.candidate_number) for r in session.query(EliteRow).all()] == [(3, 2)]
        assert session.get(RunRow, run_id).evaluations == 2
    assert [e.candidate_id for e, _ in load_run(any_db, run_id).evaluations] == [1, 0, 2]


def test_in_a_batch_forced_snapshots_of_the_same_tenth_of_a_second_are_written_once_at_its_commit(
        any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    with recorder.batched():
        recorder.progress(Progress(evaluations=1), force=True)  # the first: written with the batch
        for i in range(2, 6):  # every result credited, within the tenth of a second: the last one waits
            recorder.progress(Progress(evaluations=i), force=True)
        recorder.commit()
        with any_db.session() as session:
            assert [e.data["evaluations"] for e in queries.events_after(session, run_id)] == [1, 5]
            assert session.get(RunRow, run_id).evaluations == 5
        recorder.progress(Progress(evaluations=6), force=True)  # right after that commit: waits for the next
    with any_db.session() as session:  # ... which leaving the batch makes
        assert [e.data["evaluations"] for e in queries.events_after(session, run_id)] == [1, 5, 6]


def test_a_batch_that_cannot_be_written_is_kept_for_the_next_commit(any_db, examples_dir: Path) -> None:
    """A commit that fails (here a real constraint violation, which another writer then clears) loses
    nothing: the next commit writes the whole batch, candidates with their evaluations."""
    from sqlalchemy import delete

    from kernelevo.storage.tables import CandidateRow

    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    RunRecorder(any_db, run_id).add_candidate(candidate(1))  # in the way of the batch's candidate 1
    with recorder.batched():
        recorder.add_candidate(candidate(0))
        recorder.add_candidate(candidate(1))
        recorder.add_evaluations([evaluated(0)])
        recorder.commit()  # fails: (run, number 1) is taken
        assert load_run(any_db, run_id).evaluations == []
        with any_db.session() as session:
            session.execute(delete(CandidateRow).where(CandidateRow.number == 1))
        recorder.add_evaluations([evaluated(1, status="improved")])
        recorder.commit()
    stored = load_run(any_db, run_id)
    assert [c.id for c in stored.candidates] == [0, 1]
    assert [e.candidate_id for e, _ in stored.evaluations] == [0, 1]
    with any_db.session() as session:
        assert [r.candidate_number for r in session.query(EliteRow).all()] == [1]


def test_on_an_event_loop_a_batch_commits_itself_within_a_tenth_of_a_second(any_db, examples_dir: Path) -> None:
    import asyncio

    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)

    async def search() -> None:
        with recorder.batched():
            recorder.add_candidate(candidate(0))
            recorder.add_evaluations([evaluated(0)])
            assert load_run(any_db, run_id).candidates == []
            await asyncio.sleep(0.3)  # no commit called: the batch's timer commits it
            stored = load_run(any_db, run_id)
            assert [c.id for c in stored.candidates] == [0] and len(stored.evaluations) == 1

    asyncio.run(search())


def test_a_timed_commit_that_gives_up_stops_the_loop_with_its_error(any_db, examples_dir: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from sqlalchemy.exc import IntegrityError

    from kernelevo.storage import recorder as module

    monkeypatch.setattr(module, "GIVE_UP_AFTER_S", 0.0)  # give up at the first failure
    run_id = new_run(any_db, examples_dir)
    RunRecorder(any_db, run_id).add_candidate(candidate(0))
    recorder = RunRecorder(any_db, run_id)

    async def search() -> None:
        with recorder.batched():
            recorder.add_candidate(candidate(0))  # (run, number 0) is taken: this batch can never be written
            await asyncio.sleep(0.3)
            recorder.check()

    with pytest.raises(IntegrityError):
        asyncio.run(search())


def _take_over(db, run_id: int, first: str, second: str) -> None:
    """``second`` takes the run from ``first``, whose lease ran out while it was paused."""
    from datetime import timedelta

    from kernelevo.storage.database import utcnow
    from kernelevo.storage.runs import acquire_lease

    with db.session() as session:
        session.get(RunRow, run_id).lease_expires_at = utcnow() - timedelta(seconds=1)
    with db.session() as session:
        acquire_lease(session, run_id, second)


def _leased(db, examples_dir: Path) -> tuple[int, str, str, RunRecorder]:
    """A run whose lease the first of two drivers holds, and that driver's recorder."""
    from kernelevo.storage.runs import acquire_lease, lease_owner_name

    run_id = new_run(db, examples_dir)
    first, second = lease_owner_name(), lease_owner_name()
    with db.session() as session:
        acquire_lease(session, run_id, first)
    return run_id, first, second, RunRecorder(db, run_id, owner=first)


def test_a_driver_that_lost_its_lease_writes_nothing_more(any_db, examples_dir: Path) -> None:
    from kernelevo.storage.runs import LeaseLost

    run_id, first, second, recorder = _leased(any_db, examples_dir)
    recorder.add_candidate(candidate(0, operator="seed"))
    recorder.add_evaluations([evaluated(0)])
    _take_over(any_db, run_id, first, second)
    with pytest.raises(LeaseLost, match="taken over"):
        recorder.add_candidate(candidate(1))
    with pytest.raises(LeaseLost):
        recorder.add_evaluations([evaluated(0, ms=0.1)])
    with pytest.raises(LeaseLost):
        recorder.progress(Progress(evaluations=2), force=True)
    stored = load_run(any_db, run_id)
    assert [c.id for c in stored.candidates] == [0] and len(stored.evaluations) == 1
    with any_db.session() as session:
        assert session.get(RunRow, run_id).evaluations != 2  # the summary columns are the new driver's


def test_writes_held_for_a_group_commit_are_dropped_when_the_lease_is_lost(any_db, examples_dir: Path) -> None:
    from kernelevo.storage.runs import LeaseLost

    run_id, first, second, recorder = _leased(any_db, examples_dir)
    with pytest.raises(LeaseLost), recorder.batched():
        recorder.add_candidate(candidate(0, operator="seed"))
        recorder.add_evaluations([evaluated(0)])
        _take_over(any_db, run_id, first, second)  # between the writes and their commit
    assert load_run(any_db, run_id).candidates == []
    recorder.commit()  # nothing is held any more: nothing to write, nothing raised
    second_recorder = RunRecorder(any_db, run_id, owner=second)
    second_recorder.add_candidate(candidate(0, operator="seed"))  # the driver in charge writes on
    assert [c.id for c in load_run(any_db, run_id).candidates] == [0]


def test_a_takeover_waits_for_a_commit_under_way_and_then_nothing_more_is_written(any_db, examples_dir: Path) -> None:
    """Another driver takes the run while the first one's commit is under way (between the fence and the
    insert): it waits for that commit, which lands whole, and from then on the first driver writes nothing.
    On SQLite a fence that only read the lease let the takeover commit in between, and the stale driver's
    evaluation after it (an evaluation counted twice, 41 rows against a budget of 40)."""
    import threading
    from datetime import timedelta

    from sqlalchemy import event

    from kernelevo.storage.database import open_database, utcnow
    from kernelevo.storage.runs import LeaseLost, acquire_lease, lease_owner_name

    run_id = new_run(any_db, examples_dir)
    first, second = lease_owner_name(), lease_owner_name()
    with any_db.session() as session:
        acquire_lease(session, run_id, first)
    recorder = RunRecorder(any_db, run_id, owner=first)
    recorder.add_candidate(candidate(0, operator="seed"))
    with any_db.session() as session:  # the first driver was paused past its lease
        session.get(RunRow, run_id).lease_expires_at = utcnow() - timedelta(seconds=1)
    other = open_database(any_db.url)  # the second driver's own connections
    took = threading.Event()

    def take_over() -> None:
        with other.session() as session:
            acquire_lease(session, run_id, second)
        took.set()

    thread = threading.Thread(target=take_over)
    waited: list[bool] = []

    def in_the_commit(_conn, _cursor, statement: str, *_args) -> None:
        if statement.startswith("INSERT") and not waited:
            thread.start()  # the fence has passed; nothing of the evaluation is written yet
            waited.append(not took.wait(0.5))

    event.listen(any_db.engine, "before_cursor_execute", in_the_commit)
    try:
        recorder.add_evaluations([evaluated(0)])
        thread.join(timeout=30)
    finally:
        event.remove(any_db.engine, "before_cursor_execute", in_the_commit)
        other.dispose()
    assert waited == [True] and took.is_set()  # the takeover waited for the commit, then went in
    with pytest.raises(LeaseLost, match="taken over"):
        recorder.add_evaluations([evaluated(0, ms=0.1)])  # the evaluation under way when it lost the run
    stored = load_run(any_db, run_id)
    assert [e.candidate_id for e, _ in stored.evaluations] == [0]  # once: nothing after the takeover
    with any_db.session() as session:
        assert session.get(RunRow, run_id).lease_owner == second


def test_a_driver_that_lost_its_lease_cannot_end_the_run(any_db, examples_dir: Path) -> None:
    """The driver in charge's status and lease stand: the stale one's end (failed, say) changes nothing."""
    from kernelevo.records.run import StopReason
    from kernelevo.storage.runs import end_run, lease_owner_name, start_run

    run_id = new_run(any_db, examples_dir)
    first, second = lease_owner_name(), lease_owner_name()
    with any_db.session() as session:
        from kernelevo.storage.runs import acquire_lease

        start_run(acquire_lease(session, run_id, first), driver="first", out_dir="out")
    _take_over(any_db, run_id, first, second)
    with any_db.session() as session:
        end_run(session, run_id, first, StopReason.DRIVER_FAILED, "LeaseLost")
    with any_db.session() as session:
        row = session.get(RunRow, run_id)
        assert (row.status, row.stop_reason, row.lease_owner) == ("running", None, second)
    with any_db.session() as session:
        end_run(session, run_id, second, StopReason.BUDGET_EVALUATIONS, "budget reached")
    with any_db.session() as session:
        row = session.get(RunRow, run_id)
        assert (row.status, row.stop_reason, row.stop_kind, row.lease_owner) == (
            "finished", "budget reached", "budget_evaluations", None)


def test_a_run_resumed_through_the_api_fences_out_its_paused_driver(any_db, examples_dir: Path) -> None:
    """A driver paused past its lease shows its run as interrupted; queued again (the API's resume), the
    paused driver, continued, writes nothing: the run waits for the driver that resumes it."""
    from kernelevo.storage.runs import LeaseLost, acquire_lease, lease_owner_name, queue_again, start_run

    run_id = new_run(any_db, examples_dir)
    first = lease_owner_name()
    with any_db.session() as session:
        start_run(acquire_lease(session, run_id, first), driver="first", out_dir="out")
    recorder = RunRecorder(any_db, run_id, owner=first)
    recorder.add_candidate(candidate(0, operator="seed"))
    with any_db.session() as session:
        queue_again(session.get(RunRow, run_id))
    with pytest.raises(LeaseLost, match="none now"):
        recorder.add_evaluations([evaluated(0)])
    assert load_run(any_db, run_id).evaluations == []


def test_a_result_with_infinite_and_nan_errors_is_stored_and_read_back(any_db, examples_dir: Path) -> None:
    # a kernel that writes inf where the reference is finite has an infinite error: PostgreSQL's json type
    # takes no Infinity or NaN, so a commit holding its row failed until the run gave up
    from kernelevo.records.result import Mismatch

    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id)
    recorder.add_candidate(candidate(0))
    mismatch = Mismatch(variant="main", trial="random", output_index=0, max_abs_error=float("inf"),
                        max_rel_error=float("nan"), worst_index=[3], expected=1.0, got=float("-inf"), mismatched=1,
                        total=8, atol=1e-4, rtol=1e-4)
    wrong = EvalResult(correct=False, stage=Stage.CORRECTNESS, mismatch=mismatch)
    recorder.add_evaluations([Evaluated(candidate_id=0, hardware="h200", result=wrong)])
    [(stored, _)] = load_run(any_db, run_id).evaluations
    back = stored.result.mismatch
    assert back is not None and back.max_abs_error == float("inf") and back.got == float("-inf")
    assert back.max_rel_error != back.max_rel_error  # NaN
