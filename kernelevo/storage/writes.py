"""The run's writes as data, and the transaction that stores them.

The recorder (:mod:`kernelevo.storage.recorder`) turns each record into rows (plain dicts) at once, and
hands a batch of them to a :class:`RowWriter`: in its own process (the driver's), or in the store's writer
process (:mod:`kernelevo.storage.writer_process`) that a driver with island actors keeps, where these
transactions cost it a third of its time (benchmarks/README.md, islands). Rows name candidates by their
number in the run; the writer knows their ids.

A :class:`Batch` holds the candidates apart (one INSERT gives their ids, and the other rows name them) and
the other writes in the order they were made, each a tuple ``(kind, ...)``:

- ``("evaluations", evaluation rows, elite rows)``: a candidate's results, and the cells it took;
- ``("elites", elite rows)``: cells' elites, as an import or a summary writes them;
- ``("migration", elite row, after how many evaluations)``: an elite copied into another island's archive;
- ``("failure", row)``, ``("evolution", row)``: an operator's failure, a meta-prompt's evolution;
- ``("prompts", prompt rows)``: the prompt archive as it is;
- ``("progress", at, event data, summary columns)``: a progress snapshot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from kernelevo.storage.database import Database
from kernelevo.storage.runs import fence
from kernelevo.storage.tables import (
    CandidateRow,
    EliteRow,
    EvaluationRow,
    EventRow,
    EvolutionRow,
    FailureRow,
    MigrationRow,
    PromptRow,
    RunRow,
)

Write = tuple[Any, ...]

# Rows are inserted into the tables, not through the ORM's classes, whose bulk path costs more: 0.244 -> 0.219
# ms of CPU a candidate and its evaluation in batches of 50 (benchmarks/recorder_batches.py, 2 cores)
_CANDIDATES, _EVALUATIONS, _ELITES, _FAILURES = (cast(Table, row.__table__)
                                                  for row in (CandidateRow, EvaluationRow, EliteRow, FailureRow))


@dataclass
class Batch:
    """Writes for one transaction: the candidates first (the other rows name them), then the rest in order."""

    candidates: list[dict[str, Any]] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.candidates) + len(self.writes)

    def extend(self, other: Batch) -> None:
        self.candidates.extend(other.candidates)
        self.writes.extend(other.writes)


class RowWriter:
    """Stores batches of run ``run_id``'s rows, each in one transaction, fenced by ``owner``'s lease where given
    (:func:`~kernelevo.storage.runs.fence`: :class:`~kernelevo.storage.runs.LeaseLost` once it is another's)."""

    def __init__(self, db: Database, run_id: int, owner: str | None = None) -> None:
        self.db, self.run_id, self.owner = db, run_id, owner
        self.candidate_ids: dict[int, int] = {}  # the run's candidate number -> global id
        self.reload_ids()

    def reload_ids(self) -> None:
        """The candidates' ids as stored (another process may have written candidates since)."""
        with self.db.session() as session:
            self.candidate_ids = {number: cid for number, cid in session.execute(
                select(CandidateRow.number, CandidateRow.id).where(CandidateRow.run_id == self.run_id))}

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction for the run's records: fenced first where the writer has an owner."""
        with self.db.session() as session:
            if self.owner is not None:
                fence(session, self.run_id, self.owner)
            yield session

    def write(self, batch: Batch) -> None:
        """``batch`` in one transaction; if it raises, nothing of it is stored (the caller may try it again)."""
        with self.session() as session:
            self._insert_candidates(session, batch.candidates)
            evaluations: list[dict[str, Any]] = []
            failures: list[dict[str, Any]] = []
            # held until the end, the last per cell kept, and written in one upsert: a read of each stored row and
            # an UPDATE each cost the driver 7% of its time (islands, 2,048 evaluators)
            elites: dict[tuple[str, int, int], dict[str, Any]] = {}
            for write in batch.writes:
                kind = write[0]
                if kind == "evaluations":
                    evaluations.extend(self._named(row) for row in write[1])
                    self._keep_elites(elites, write[2])
                elif kind == "elites":
                    self._keep_elites(elites, write[1])
                elif kind == "failure":  # in the one INSERT: islands report a duplicate every few results
                    failures.append(write[1])
                elif kind == "migration":  # the cell's elite there, and the migration (the same fields) in order
                    self._keep_elites(elites, [write[1]])
                    session.add(MigrationRow(**self._named(write[1]), after_evaluations=write[2]))
                elif kind == "evolution":
                    session.add(EvolutionRow(**write[1]))
                elif kind == "prompts":
                    self._save_prompts(session, write[1])
                elif kind == "progress":
                    self._save_progress(session, *write[1:])
                else:
                    raise ValueError(f"unknown write {kind!r}")
            # in order: resume replays the evaluations as they were made
            if evaluations:
                session.execute(insert(_EVALUATIONS), evaluations)
            if failures:
                session.execute(insert(_FAILURES), failures)
            if elites:
                upsert_elites(session, list(elites.values()))

    def _insert_candidates(self, session: Session, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        # one INSERT for the batch, which gives their ids
        ids = session.execute(insert(_CANDIDATES).returning(CandidateRow.number, CandidateRow.id), rows)
        # (a transaction that then fails leaves ids that were never stored here: its retry inserts these
        # candidates again and overwrites them before any write that names them)
        self.candidate_ids.update((number, cid) for number, cid in ids)

    def _named(self, row: dict[str, Any]) -> dict[str, Any]:
        """``row`` with the id of the candidate it names by number."""
        return {**row, "candidate_id": self.candidate_ids[row["candidate_number"]]}

    def _keep_elites(self, elites: dict[tuple[str, int, int], dict[str, Any]], rows: list[dict[str, Any]]) -> None:
        for row in rows:
            elites[(row["hardware"], row["island"], row["cell"])] = self._named(row)

    def _save_prompts(self, session: Session, prompts: list[dict[str, Any]]) -> None:
        session.flush()  # rows added earlier in this transaction are found, not added twice
        for prompt in prompts:
            row = session.get(PromptRow, (self.run_id, prompt["number"]))
            if row is None:
                row = PromptRow(run_id=self.run_id, number=prompt["number"])
                session.add(row)
            for column, value in prompt.items():
                setattr(row, column, value)

    def _save_progress(self, session: Session, at: float, data: dict[str, Any], summary: dict[str, Any]) -> None:
        session.add(EventRow(run_id=self.run_id, kind="progress", at=at, data=data))
        row = session.get(RunRow, self.run_id)
        assert row is not None
        for column, value in summary.items():
            setattr(row, column, value)


def upsert_elites(session: Session, rows: list[dict[str, Any]]) -> None:
    """Each row its cell's elite: inserted, or written over the stored one, in one statement (SQLite's and
    PostgreSQL's ON CONFLICT; another database: the ORM's merge, a read per row)."""
    dialect = session.get_bind().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        for row in rows:
            session.merge(EliteRow(**row))
        return
    dialect_insert: Any
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    else:
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    keys = ("run_id", "hardware", "island", "cell")
    statement = dialect_insert(_ELITES)
    written = {column: statement.excluded[column] for column in rows[0] if column not in keys}
    statement = statement.on_conflict_do_update(index_elements=list(keys), set_=written)
    session.execute(statement, rows)
