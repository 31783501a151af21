"""How a search writes its run to the database, and reads it back to resume.

The search loop calls :class:`RunRecorder` the moment something exists: a candidate when it
is made (before it is evaluated), a candidate's evaluations on every hardware type in one
transaction, operator failures, prompt evolutions, the prompt archive, and a progress
snapshot at most once a second (each also updates the run's summary columns). Each call
commits, so a driver killed at any point loses nothing: :func:`load_run` returns the
stored records in the order they were made, for the search to replay.

While the loop runs it holds the recorder :meth:`~RunRecorder.batched`: what is written
within a tenth of a second goes in one transaction (a group commit). A transaction per write
kept one driver below 100 results a second (benchmarks/driver_ceiling.py). What a kill
loses is at most that last tenth of a second: candidates made and results reported in it,
which a resume never sees (their evaluations were under way or just over, as any kill
loses those). A commit that fails (the database away for a moment) keeps the writes for
the next one.

Each record becomes rows at once (:mod:`kernelevo.storage.writes`); with ``writer_process``
a batch's transaction is made in the store's writer process
(:mod:`kernelevo.storage.writer_process`), not in the driver's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution, Usage
from kernelevo.records.elite import Elite, Migration
from kernelevo.records.progress import SUMMARY_COLUMNS, Progress
from kernelevo.records.result import EvalResult, floor_name
from kernelevo.storage.database import Database
from kernelevo.storage.json_values import floats
from kernelevo.storage.runs import LeaseLost
from kernelevo.storage.tables import (
    CandidateRow,
    EvaluationRow,
    EvolutionRow,
    FailureRow,
    MigrationRow,
    PromptRow,
)
from kernelevo.storage.writer_process import WriterProcess
from kernelevo.storage.writes import Batch, RowWriter, Write
from kernelevo.variation.llm.metaprompt import MetaPrompt, PromptArchive

log = logging.getLogger(__name__)

PROGRESS_EVERY_S = 1.0
COMMIT_EVERY_S = 0.1  # while batched: the longest a write waits for its transaction
GIVE_UP_AFTER_S = 120.0  # a batch that cannot be written for this long fails the run (it can be resumed)


class RunRecorder:
    """The search's writer for run ``run_id``; with ``owner``, the driver holding the run's lease, every
    transaction is fenced (:func:`~kernelevo.storage.runs.fence`): once the lease is another driver's, nothing
    more is written and :class:`~kernelevo.storage.runs.LeaseLost` is raised. With ``writer_process``, the
    transactions of a :meth:`batched` stretch are made in the store's writer process."""

    def __init__(self, db: Database, run_id: int, *, owner: str | None = None, writer_process: bool = False) -> None:
        self.db, self.run_id, self.owner = db, run_id, owner
        self.rows = RowWriter(db, run_id, owner)  # the transactions made here
        # (an in-memory SQLite database is this process's alone: its writes stay here)
        self.writer_process = writer_process and not (db.sqlite and db.path is None)
        self.process: WriterProcess | None = None  # while batched with writer_process
        self._last_progress = 0.0
        self._pending: Progress | Callable[[], Progress] | None = None  # not written yet (too soon after the last)
        self._pending_forced = False  # the one pending was forced: written with the next commit
        # while batched: the rows made since the last commit, and the prompt archive to store with them
        self._batching = False
        self._held = Batch()
        self._prompts: PromptArchive | None = None
        self._failing_since: float | None = None  # when the commits began to fail
        self._timer: asyncio.TimerHandle | None = None  # the commit due for what is held
        self.failure: BaseException | None = None  # a commit that gave up, for the loop to raise

    # -- transactions ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        """Writes made inside are held for one transaction: committed ``COMMIT_EVERY_S`` after the first
        of them on the running event loop (if any), by :meth:`commit`, and on leaving."""
        if self.writer_process:
            self.process = WriterProcess(self.db.url, self.run_id, self.owner, GIVE_UP_AFTER_S)
        self._batching = True
        try:
            yield
        finally:
            self._batching = False
            try:
                self.commit(retry_later=False)
            finally:
                if self.process is not None:
                    process, self.process = self.process, None
                    process.close()
                    self.rows.reload_ids()  # the candidates it stored, for the writes made here from now on

    def check(self) -> None:
        """Raise the error of a timed commit that gave up (the loop calls this every turn)."""
        if self.failure is not None:
            raise self.failure

    def sync(self) -> None:
        """Wait until what was committed is stored (with a writer process; otherwise it is already)."""
        if self.process is not None:
            self.process.sync()

    def _commit_due(self) -> None:
        if self._timer is not None:
            return
        with contextlib.suppress(RuntimeError):  # no event loop running: the caller commits
            self._timer = asyncio.get_running_loop().call_later(COMMIT_EVERY_S, self._timed_commit)

    def _timed_commit(self) -> None:
        self._timer = None
        try:
            self.commit()
        except Exception as exc:  # raised from a callback, it would only be logged: the loop raises it
            self.failure = exc

    def commit(self, *, retry_later: bool = True) -> None:
        """Write what is held in one transaction: the candidates first (the other rows name them).
        If it fails and ``retry_later``, everything stays held for the next commit, for up to
        ``GIVE_UP_AFTER_S``: a database away longer than that (or a write that can never succeed) raises.
        With a writer process, the batch is sent to it (which tries again itself), and a failure it
        reported since is raised."""
        if self._pending_forced and self._pending is not None:  # (before the timer its write would set)
            self._write_progress(self._pending, time.time())
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._prompts is not None:  # as it is now: the last archive saved in the batch is the one stored
            self._held.writes.append(_prompt_rows(self._prompts))
            self._prompts = None
        if self.process is not None:
            try:
                if self._held:
                    batch, self._held = self._held, Batch()
                    self.process.send(batch)
                else:
                    self.process.poll()
            except Exception as exc:  # whoever called (the heartbeat, say), the loop raises it at its next turn
                self.failure = exc
                raise
            return
        if not self._held:
            return
        try:
            self.rows.write(self._held)
        except LeaseLost:
            self._held, self._pending, self._pending_forced = Batch(), None, False
            raise
        except Exception as exc:
            now = time.monotonic()
            self._failing_since = self._failing_since or now
            if not retry_later or now - self._failing_since > GIVE_UP_AFTER_S:
                raise
            log.warning("could not write %d records to the database, trying again at the next commit: %s",
                        len(self._held), exc)
            if self._batching:
                self._commit_due()
            return
        self._held, self._failing_since = Batch(), None

    def _write(self, write: Write) -> None:
        if self._batching:
            self._held.writes.append(write)
            self._commit_due()
            return
        self.rows.write(Batch(writes=[write]))

    # -- records ---------------------------------------------------------------------------------
    def add_candidate(self, c: Candidate) -> None:
        row = dict(run_id=self.run_id, number=c.id, source=c.source, source_hash=c.source_hash, operator=c.operator,
                   parent_numbers=c.parent_ids, prompt_number=c.prompt_id, island=c.island, note=c.note,
                   model=c.usage.model, usage=c.usage.model_dump(mode="json"), created_at=c.created_at)
        if self._batching:
            self._held.candidates.append(row)
            self._commit_due()
            return
        self.rows.write(Batch(candidates=[row]))

    def add_evaluations(self, evaluations: list[Evaluated]) -> None:
        """A candidate's results on every hardware type, in one transaction (resume never sees half of them)."""
        elites = []
        for e in evaluations:
            if e.took_cell and e.cell is not None:
                result = e.result
                elites.append(self._elite_row(e.hardware, e.island, Elite(
                    e.candidate_id, e.objective or 0.0, tuple(e.measures or ()), e.cell,
                    result.kernel.relative_iqr if result.kernel else 0.0)))
        self._write(("evaluations", [self._evaluation_row(e) for e in evaluations], elites))

    def _evaluation_row(self, e: Evaluated) -> dict[str, Any]:
        r = e.result
        return dict(
            run_id=self.run_id, candidate_number=e.candidate_id,
            hardware=e.hardware, correct=r.ok, stage=str(r.stage), error=str(r.error) if r.error else None,
            message=r.message, objective=e.objective, measures=e.measures, island=e.island, cell=e.cell,
            archive_status=str(e.archive_status) if e.archive_status else None,
            kernel_ms=r.kernel.median_ms if r.kernel else None,
            speedup_eager=r.speedup_eager, speedup_compile=r.speedup_compile,
            roofline=r.roofline.fraction if r.roofline else None, roofline_floor=floor_name(r.roofline),
            interpreted=r.interpreted,
            result=r.model_dump(mode="json"), finished_at=e.finished_at,
        )

    def _elite_row(self, hardware: str, island: int, elite: Elite) -> dict[str, Any]:
        return dict(run_id=self.run_id, hardware=hardware, island=island, cell=elite.cell,
                    candidate_number=elite.candidate_id, objective=elite.objective, measures=list(elite.measures),
                    rel_iqr=elite.rel_iqr)

    def save_elite(self, hardware: str, island: int, elite: Elite) -> None:
        """A cell's elite of ``island``'s archive, as an import or a summary writes it."""
        self._write(("elites", [self._elite_row(hardware, island, elite)]))

    def save_migration(self, migration: Migration) -> None:
        """An elite copied into another island's archive: the cell's elite there, and the migration in order."""
        self._write(("migration", self._elite_row(migration.hardware, migration.island, migration.elite),
                     migration.after_evaluations))

    def add_failure(self, failure: OperatorFailure) -> None:
        self._write(("failure", dict(
            run_id=self.run_id, operator=failure.operator, kind=failure.kind, message=failure.message,
            parent_numbers=failure.parent_ids, usage=failure.usage.model_dump(mode="json"), at=failure.at)))

    def add_evolution(self, evolution: PromptEvolution) -> None:
        self._write(("evolution", dict(
            run_id=self.run_id, parent_number=evolution.parent_id, mutation=evolution.mutation,
            prompt_number=evolution.prompt_id, usage=evolution.usage.model_dump(mode="json"), at=evolution.at)))

    def save_prompts(self, prompts: PromptArchive) -> None:
        """The prompt archive as it is now (held: as it is when the batch commits)."""
        if self._batching:
            self._prompts = prompts
            self._commit_due()
            return
        self._write(_prompt_rows(prompts))

    def progress(self, snapshot: Progress | Callable[[], Progress], *, force: bool = False) -> None:
        """A progress event (at most one a second unless ``force``; while batched, forced ones at most one a
        commit, the last of them written with it), and the run's summary columns.

        A snapshot held back by the second's limit is kept: :meth:`flush` writes it (the driver's heartbeat
        does, every second), so the last evaluation always shows within a second or two. Given as a
        function, it is taken only when written: the search tells a result hundreds of times a second,
        and a snapshot taken at each was 4% of the driver's time at 1,024 evaluators (benchmarks/README.md).
        """
        now = time.time()
        if not force and now - self._last_progress < PROGRESS_EVERY_S:
            self._pending = snapshot
            return
        if force and self._batching and now - self._last_progress < COMMIT_EVERY_S:
            # one snapshot a transaction is all a reader can see: a forced one made within the same tenth of a
            # second waits for the next commit (each credited result forced one: 1 result in 8 at 8 islands)
            self._pending, self._pending_forced = snapshot, True
            self._commit_due()
            return
        self._write_progress(snapshot, now)

    def flush(self) -> None:
        """Write the snapshot :meth:`progress` held back, if any, and commit what a batch holds (the
        driver's heartbeat calls this every second, so nothing waits long on a quiet loop)."""
        if self._pending is not None:
            self._write_progress(self._pending, time.time())
        if self._batching:
            self.commit()

    def _write_progress(self, snapshot: Progress | Callable[[], Progress], now: float) -> None:
        self._last_progress, self._pending, self._pending_forced = now, None, False
        if callable(snapshot):
            snapshot = snapshot()
        self._write(("progress", now, snapshot.model_dump(mode="json"),
                     {column: getattr(snapshot, column) for column in SUMMARY_COLUMNS}))


def _prompt_rows(prompts: PromptArchive) -> Write:
    return ("prompts", [dict(number=p.id, sections=p.sections, parent_number=p.parent_id, mutation=p.mutation,
                             fitness=p.fitness, best_candidate_number=p.best_candidate_id, uses=p.uses)
                        for p in prompts.prompts])


@dataclass
class StoredRun:
    """A run's records as stored, in the order they were made: what a resumed search replays."""

    candidates: list[Candidate]
    evaluations: list[tuple[Evaluated, list[float] | None]]  # with the stored descriptors
    failures: list[OperatorFailure]
    evolutions: list[PromptEvolution]
    prompts: PromptArchive | None
    migrations: list[Migration]  # in the order they were made


def candidate_of(row: CandidateRow) -> Candidate:
    """The search's record of a stored candidate (its id is its number in the run)."""
    return Candidate(id=row.number, source=row.source, operator=row.operator, parent_ids=list(row.parent_numbers),
                     prompt_id=row.prompt_number, island=row.island, note=row.note,
                     usage=Usage.model_validate(row.usage), created_at=row.created_at)


def load_run(db: Database, run_id: int) -> StoredRun:
    with db.session() as session:
        candidates = [candidate_of(c) for c in session.scalars(
            select(CandidateRow).where(CandidateRow.run_id == run_id).order_by(CandidateRow.number))]
        evaluations = [
            (Evaluated(candidate_id=e.candidate_number, hardware=e.hardware,
                       result=EvalResult.model_validate(e.result), finished_at=e.finished_at),
             floats(e.measures) if e.measures is not None else None)
            for e in session.scalars(select(EvaluationRow).where(EvaluationRow.run_id == run_id)
                                     .order_by(EvaluationRow.id))]
        failures = [
            OperatorFailure(operator=f.operator, kind=f.kind, message=f.message, parent_ids=list(f.parent_numbers),
                            usage=Usage.model_validate(f.usage), at=f.at)
            for f in session.scalars(select(FailureRow).where(FailureRow.run_id == run_id).order_by(FailureRow.id))]
        evolutions = [
            PromptEvolution(parent_id=v.parent_number, mutation=v.mutation, prompt_id=v.prompt_number,
                            usage=Usage.model_validate(v.usage), at=v.at)
            for v in session.scalars(select(EvolutionRow).where(EvolutionRow.run_id == run_id)
                                     .order_by(EvolutionRow.id))]
        prompt_rows = list(session.scalars(select(PromptRow).where(PromptRow.run_id == run_id)
                                           .order_by(PromptRow.number)))
        migrations = [
            Migration(m.after_evaluations, m.hardware, m.island,
                      Elite(m.candidate_number, m.objective, tuple(floats(m.measures)), m.cell, m.rel_iqr))
            for m in session.scalars(select(MigrationRow).where(MigrationRow.run_id == run_id)
                                     .order_by(MigrationRow.id))]
    prompts = PromptArchive(prompts=[
        MetaPrompt(id=p.number, sections=dict(p.sections), parent_id=p.parent_number, mutation=p.mutation,
                   fitness=p.fitness, best_candidate_id=p.best_candidate_number, uses=p.uses)
        for p in prompt_rows]) if prompt_rows else None
    return StoredRun(candidates, evaluations, failures, evolutions, prompts, migrations)
