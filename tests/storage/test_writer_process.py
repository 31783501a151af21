"""The store's writer process (SQLite and PostgreSQL): a driver's batches stored beside it, with what the
driver's own transactions promise: everything in order, a failed write tried again, a lost lease and a dead
writer named, and a killed driver's last batches kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from storage.test_recorder import _leased, _take_over, candidate, evaluated, new_run

from kernelevo.records.candidate import OperatorFailure, PromptEvolution, Usage
from kernelevo.records.elite import Elite, Migration
from kernelevo.records.progress import Progress
from kernelevo.storage.recorder import RunRecorder, load_run
from kernelevo.storage.tables import EliteRow, RunRow
from kernelevo.storage.writer_process import StoreWriterFailed
from kernelevo.variation.llm.metaprompt import PromptArchive


def _stored(db, run_id: int) -> tuple:
    """What a resume would read, and the elites and summary, without the ids each database gives."""
    run = load_run(db, run_id)
    with db.session() as session:
        elites = sorted((r.hardware, r.island, r.cell, r.candidate_number) for r in session.query(EliteRow).all())
        summary = session.get(RunRow, run_id).evaluations
    return ([c.model_dump(exclude={"created_at"}) for c in run.candidates],
            [(e.candidate_id, e.result, m) for e, m in run.evaluations], [f.kind for f in run.failures],
            [v.mutation for v in run.evolutions], [p.id for p in run.prompts.prompts] if run.prompts else None,
            [(m.island, m.elite.candidate_id) for m in run.migrations], elites, summary)


def _write_a_run(recorder: RunRecorder) -> None:
    prompts = PromptArchive.with_default()
    prompts.add({"philosophy": "p", "strategies": "s", "pitfalls": "x", "analysis": "a"}, parent_id=0,
                mutation="improve")
    with recorder.batched():
        for i in range(4):
            recorder.add_candidate(candidate(i, parent_ids=[0] if i else []))
        recorder.add_evaluations([evaluated(1, ms=0.3)])
        recorder.add_evaluations([evaluated(0, ms=0.2, status="improved")])
        recorder.add_failure(OperatorFailure(operator="template", kind="duplicate", message="seen"))
        recorder.commit()
        recorder.add_evolution(PromptEvolution(parent_id=0, mutation="improve", prompt_id=1, usage=Usage()))
        recorder.save_prompts(prompts)
        recorder.save_migration(Migration(2, "h200", 1, Elite(0, 0.4, (1.5, 1.5, 0.5), 3, 0.01)))
        recorder.add_evaluations([evaluated(3, ms=0.1, status="improved")])
        recorder.progress(Progress(evaluations=3, correct=3), force=True)
    recorder.add_candidate(candidate(4, parent_ids=[3]))  # after the batch: written here, naming its parent


def test_a_writer_process_stores_what_the_driver_would_have(any_db, examples_dir: Path) -> None:
    inline, beside = new_run(any_db, examples_dir), new_run(any_db, examples_dir)
    _write_a_run(RunRecorder(any_db, inline))
    _write_a_run(RunRecorder(any_db, beside, writer_process=True))
    assert _stored(any_db, beside) == _stored(any_db, inline)
    assert [c["id"] for c in _stored(any_db, beside)[0]] == [0, 1, 2, 3, 4]


def test_what_was_committed_is_stored_without_the_driver_waiting_for_it(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id, writer_process=True)
    with recorder.batched():
        assert recorder.process is not None and recorder.process.process.poll() is None
        recorder.add_candidate(candidate(0))
        recorder.add_evaluations([evaluated(0)])
        assert load_run(any_db, run_id).candidates == []  # held: nothing is sent before the commit
        recorder.commit()
        recorder.sync()
        assert [c.id for c in load_run(any_db, run_id).candidates] == [0]
        process = recorder.process.process
    assert process.poll() == 0  # leaving the batch ends the writer, once it stored everything


def test_a_write_that_fails_is_tried_again_with_what_comes_next(any_db, examples_dir: Path) -> None:
    """A real constraint violation, which another writer then clears: the writer's next try stores it all."""
    from sqlalchemy import delete

    from kernelevo.storage.tables import CandidateRow

    run_id = new_run(any_db, examples_dir)
    RunRecorder(any_db, run_id).add_candidate(candidate(1))  # in the way of the batch's candidate 1
    recorder = RunRecorder(any_db, run_id, writer_process=True)
    with recorder.batched():
        recorder.add_candidate(candidate(0))
        recorder.add_candidate(candidate(1))
        recorder.add_evaluations([evaluated(0)])
        recorder.commit()
        time.sleep(0.5)  # tried, and tried again
        assert load_run(any_db, run_id).evaluations == []
        with any_db.session() as session:
            session.execute(delete(CandidateRow).where(CandidateRow.number == 1))
        recorder.add_evaluations([evaluated(1, status="improved")])
        recorder.commit()
        recorder.sync()
        stored = load_run(any_db, run_id)
        assert [c.id for c in stored.candidates] == [0, 1]
        assert [e.candidate_id for e, _ in stored.evaluations] == [0, 1]


def test_a_write_that_never_succeeds_stops_the_run_with_its_reason(any_db, examples_dir: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from kernelevo.storage import recorder as module

    monkeypatch.setattr(module, "GIVE_UP_AFTER_S", 0.3)
    run_id = new_run(any_db, examples_dir)
    RunRecorder(any_db, run_id).add_candidate(candidate(0))
    recorder = RunRecorder(any_db, run_id, writer_process=True)
    with pytest.raises(StoreWriterFailed, match="could not store the run: IntegrityError"), recorder.batched():
        recorder.add_candidate(candidate(0))  # (run, number 0) is taken: this batch can never be written
        recorder.commit()
        time.sleep(1.0)
        recorder.add_candidate(candidate(1))
        recorder.commit()
    assert [c.id for c in load_run(any_db, run_id).candidates] == [0]


def test_a_writer_that_finds_the_lease_taken_writes_nothing_more(any_db, examples_dir: Path) -> None:
    from kernelevo.storage.runs import LeaseLost

    run_id, first, second, _ = _leased(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id, owner=first, writer_process=True)
    with pytest.raises(LeaseLost, match="taken over"), recorder.batched():
        recorder.add_candidate(candidate(0, operator="seed"))
        recorder.commit()
        recorder.sync()
        _take_over(any_db, run_id, first, second)
        recorder.add_candidate(candidate(1))
        recorder.add_evaluations([evaluated(0)])
        recorder.commit()
        recorder.sync()
    stored = load_run(any_db, run_id)
    assert [c.id for c in stored.candidates] == [0] and stored.evaluations == []


def test_a_killed_writer_is_named_at_the_next_commit_and_what_it_stored_is_kept(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    recorder = RunRecorder(any_db, run_id, writer_process=True)
    with pytest.raises(StoreWriterFailed, match=r"died \(exit status -9\)"), recorder.batched():
        recorder.add_candidate(candidate(0))
        recorder.commit()
        recorder.sync()
        assert recorder.process is not None
        os.kill(recorder.process.pid, signal.SIGKILL)
        recorder.process.process.wait()
        recorder.add_candidate(candidate(1))
        recorder.commit()
    assert [c.id for c in load_run(any_db, run_id).candidates] == [0]
    recorder.add_candidate(candidate(2))  # the driver's own transactions go on (a resume, say)
    assert [c.id for c in load_run(any_db, run_id).candidates] == [0, 2]


DRIVER = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, {tests!r})
    from storage.test_recorder import candidate, evaluated
    from kernelevo.storage.database import open_database
    from kernelevo.storage.recorder import RunRecorder

    recorder = RunRecorder(open_database({url!r}), {run_id}, writer_process=True)
    with recorder.batched():
        for i in range(200):
            recorder.add_candidate(candidate(i))
            recorder.add_evaluations([evaluated(i)])
            if i % 50 == 49:
                recorder.commit()
        print(recorder.process.pid, flush=True)
        os.kill(os.getpid(), 9)  # killed: no close, no last commit
""")


def test_a_killed_driver_leaves_what_it_sent_stored(any_db, examples_dir: Path) -> None:
    run_id = new_run(any_db, examples_dir)
    tests = str(Path(__file__).resolve().parent.parent)
    driver = subprocess.run([sys.executable, "-c", DRIVER.format(tests=tests, url=any_db.url, run_id=run_id)],
                            capture_output=True, text=True, timeout=120)
    assert driver.returncode == -signal.SIGKILL, driver.stderr
    writer = int(driver.stdout.split()[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and Path(f"/proc/{writer}").exists():
        time.sleep(0.05)
    assert not Path(f"/proc/{writer}").exists() or "Z" in Path(f"/proc/{writer}/stat").read_text().split()[2]
    stored = load_run(any_db, run_id)
    assert [c.id for c in stored.candidates] == list(range(200))  # the four batches sent, all stored
    assert [e.candidate_id for e, _ in stored.evaluations] == list(range(200))
