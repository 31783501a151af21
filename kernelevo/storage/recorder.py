"""How a search writes its run to the database, and reads it back to resume.

The search loop calls :class:`RunRecorder` the moment something exists: a candidate when it
is made (before it is evaluated), a candidate's evaluations on every hardware type in one
transaction, operator failures, prompt evolutions, the prompt archive, and a progress
snapshot at most once a second (each also updates the run's summary columns). Each call
commits, so a driver killed at any point loses nothing: :func:`load_run` returns the
stored records in the order they were made, for the search to replay.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution, Usage
from kernelevo.records.elite import Elite
from kernelevo.records.result import EvalResult
from kernelevo.storage.database import Database
from kernelevo.storage.tables import (
    CandidateRow,
    EliteRow,
    EvaluationRow,
    EventRow,
    EvolutionRow,
    FailureRow,
    PromptRow,
    RunRow,
)
from kernelevo.variation.metaprompt import MetaPrompt, PromptArchive

PROGRESS_EVERY_S = 1.0


class RunRecorder:
    """The search's writer for run ``run_id``."""

    def __init__(self, db: Database, run_id: int) -> None:
        self.db, self.run_id = db, run_id
        self._candidate_ids: dict[int, int] = {}  # the run's candidate number -> global id
        self._last_progress = 0.0
        self._pending: dict[str, Any] | None = None  # a snapshot not written yet (too soon after the last)
        with db.session() as session:
            for number, cid in session.execute(select(CandidateRow.number, CandidateRow.id)
                                               .where(CandidateRow.run_id == run_id)):
                self._candidate_ids[number] = cid

    def add_candidate(self, candidate: Candidate) -> None:
        with self.db.session() as session:
            row = CandidateRow(run_id=self.run_id, number=candidate.id, source=candidate.source,
                               source_hash=candidate.source_hash, operator=candidate.operator,
                               parent_numbers=candidate.parent_ids, prompt_number=candidate.prompt_id,
                               island=candidate.island, note=candidate.note, model=candidate.usage.model,
                               usage=candidate.usage.model_dump(mode="json"), created_at=candidate.created_at)
            session.add(row)
            session.flush()
            self._candidate_ids[candidate.id] = row.id

    def add_evaluations(self, evaluations: list[Evaluated]) -> None:
        """A candidate's results on every hardware type, in one transaction (resume never sees half of them)."""
        with self.db.session() as session:
            for evaluated in evaluations:
                session.add(self._evaluation_row(evaluated))
                if evaluated.archive_status in ("new_cell", "improved") and evaluated.cell is not None:
                    result = evaluated.result
                    self._save_elite(session, evaluated.hardware, evaluated.island, Elite(
                        evaluated.candidate_id, evaluated.objective or 0.0, tuple(evaluated.measures or ()),
                        evaluated.cell, result.kernel.relative_iqr if result.kernel else 0.0))

    def _evaluation_row(self, e: Evaluated) -> EvaluationRow:
        r = e.result
        return EvaluationRow(
            run_id=self.run_id, candidate_id=self._candidate_ids[e.candidate_id], candidate_number=e.candidate_id,
            hardware=e.hardware, correct=r.ok, stage=str(r.stage), error=str(r.error) if r.error else None,
            message=r.message, objective=e.objective, measures=e.measures, island=e.island, cell=e.cell,
            archive_status=e.archive_status, kernel_ms=r.kernel.median_ms if r.kernel else None,
            speedup_eager=r.speedup_eager, speedup_compile=r.speedup_compile,
            roofline=r.roofline.fraction if r.roofline else None, interpreted=r.interpreted,
            result=r.model_dump(mode="json"), finished_at=e.finished_at,
        )

    def save_elite(self, hardware: str, island: int, elite: Elite) -> None:
        """An elite copied into another island's archive (a migration)."""
        with self.db.session() as session:
            self._save_elite(session, hardware, island, elite)

    def _save_elite(self, session: Session, hardware: str, island: int, elite: Elite) -> None:
        row = session.get(EliteRow, (self.run_id, hardware, island, elite.cell))
        if row is None:
            row = EliteRow(run_id=self.run_id, hardware=hardware, island=island, cell=elite.cell)
            session.add(row)
        row.candidate_id = self._candidate_ids[elite.candidate_id]
        row.candidate_number = elite.candidate_id
        row.objective, row.measures, row.rel_iqr = elite.objective, list(elite.measures), elite.rel_iqr

    def add_failure(self, failure: OperatorFailure) -> None:
        with self.db.session() as session:
            session.add(FailureRow(run_id=self.run_id, operator=failure.operator, kind=failure.kind,
                                   message=failure.message, parent_numbers=failure.parent_ids,
                                   usage=failure.usage.model_dump(mode="json"), at=failure.at))

    def add_evolution(self, evolution: PromptEvolution) -> None:
        with self.db.session() as session:
            session.add(EvolutionRow(run_id=self.run_id, parent_number=evolution.parent_id,
                                     mutation=evolution.mutation, prompt_number=evolution.prompt_id,
                                     usage=evolution.usage.model_dump(mode="json"), at=evolution.at))

    def save_prompts(self, prompts: PromptArchive) -> None:
        with self.db.session() as session:
            for prompt in prompts.prompts:
                row = session.get(PromptRow, (self.run_id, prompt.id))
                if row is None:
                    row = PromptRow(run_id=self.run_id, number=prompt.id)
                    session.add(row)
                row.sections, row.parent_number, row.mutation = prompt.sections, prompt.parent_id, prompt.mutation
                row.fitness, row.best_candidate_number, row.uses = (prompt.fitness, prompt.best_candidate_id,
                                                                    prompt.uses)

    def progress(self, snapshot: dict[str, Any], *, force: bool = False) -> None:
        """A progress event (at most one a second unless ``force``), and the run's summary columns.

        A snapshot held back by that limit is kept: :meth:`flush` writes it (the driver's heartbeat
        does, every second), so the last evaluation always shows within a second or two.
        """
        now = time.time()
        if not force and now - self._last_progress < PROGRESS_EVERY_S:
            self._pending = snapshot
            return
        self._write_progress(snapshot, now)

    def flush(self) -> None:
        """Write the snapshot :meth:`progress` held back, if any."""
        if self._pending is not None:
            self._write_progress(self._pending, time.time())

    def _write_progress(self, snapshot: dict[str, Any], now: float) -> None:
        self._last_progress, self._pending = now, None
        with self.db.session() as session:
            session.add(EventRow(run_id=self.run_id, kind="progress", at=now, data=snapshot))
            row = session.get(RunRow, self.run_id)
            assert row is not None
            for column in ("hardware", "interpreted", "evaluations", "correct", "best_speedup_eager",
                           "best_speedup_compile", "best_roofline", "tokens", "dollars", "elapsed_s"):
                if column in snapshot:
                    setattr(row, column, snapshot[column])


@dataclass
class StoredRun:
    """A run's records as stored, in the order they were made: what a resumed search replays."""

    candidates: list[Candidate]
    evaluations: list[tuple[Evaluated, list[float] | None]]  # with the stored descriptors
    failures: list[OperatorFailure]
    evolutions: list[PromptEvolution]
    prompts: PromptArchive | None


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
             list(e.measures) if e.measures is not None else None)
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
    prompts = PromptArchive(prompts=[
        MetaPrompt(id=p.number, sections=dict(p.sections), parent_id=p.parent_number, mutation=p.mutation,
                   fitness=p.fitness, best_candidate_id=p.best_candidate_number, uses=p.uses)
        for p in prompt_rows]) if prompt_rows else None
    return StoredRun(candidates, evaluations, failures, evolutions, prompts)
