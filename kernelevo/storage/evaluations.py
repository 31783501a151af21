"""Every evaluation of a run, as the evaluation lists, the scatter, the rejected list and the exports read it.

An evaluation's ``number`` is its place in the run: 1 for the first result stored, in the order
the driver stored them (the evaluations table's ids ascend within a run, one driver writing it).
These reads never load a whole stored :class:`~kernelevo.records.EvalResult`: the few parts of
it they show (baseline medians, library calls) are read out of its JSON by the database.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from kernelevo.storage.tables import CandidateRow, EvaluationRow

log = logging.getLogger(__name__)

MESSAGE_CHARS = 400  # of an error message, in the lists (the kernel page shows it whole)
Sort = Literal["number", "-number", "kernel_ms", "-kernel_ms", "speedup_eager", "-speedup_eager"]


class LibraryCallShown(BaseModel):
    """Calls of one vendor-library op a candidate's forward made through torch (e.g. ``mm`` of the gemm family)."""

    op: str
    family: str = ""
    signature: str = ""
    count: int = 1  # per forward


class LibraryShown(BaseModel):
    """The library calls a kernel made and their share of its GPU time (None on a CPU run or when unmeasured)."""

    calls: list[LibraryCallShown] = []
    gpu_share: float | None = None  # 0..1 of the candidate's median time
    library_ms: float | None = None

    def ops(self) -> str:
        """``"mm x2; conv2d"``: the ops, for a table cell."""
        return "; ".join(f"{c.op}{f' x{c.count}' if c.count > 1 else ''}" for c in self.calls)


def library_of(stored: Any) -> LibraryShown | None:
    """The ``library`` part of a stored result's JSON, or None: results stored before it existed have none, and
    one that does not read as calls is left out (with a log line), never an error in a list of thousands."""
    if not isinstance(stored, dict):
        return None
    try:
        return LibraryShown.model_validate(stored)
    except ValidationError as exc:
        log.warning("an evaluation's library record does not read as calls: %s", exc.errors()[0]["msg"])
        return None


class EvaluationItem(BaseModel):
    """One evaluation of a run: a row of the evaluations list and of its exports. Times in ms."""

    number: int  # its place in the run, from 1
    id: int  # the evaluation's id
    candidate_id: int
    candidate_number: int
    operator: str
    note: str  # what the operator changed
    island: int
    hardware: str
    correct: bool
    stage: str
    error: str | None  # the reason it was rejected (an ErrorKind)
    message: str  # its first MESSAGE_CHARS characters
    kernel_ms: float | None
    eager_ms: float | None
    compile_ms: float | None
    speedup_eager: float | None
    speedup_compile: float | None
    roofline: float | None  # the fraction of the floor reached ...
    roofline_floor: str | None  # ... and which floor: "read", "copy" or "compute"
    objective: float | None  # ln of the speedup over eager (of the interpreted time ratio on a CPU run)
    archive_status: str | None
    cell: int | None
    measures: list[float] | None
    interpreted: bool
    finished_at: datetime
    library: LibraryShown | None = None


@dataclass(frozen=True)
class Filters:
    """Which of a run's evaluations to read; None: any."""

    hardware: str | None = None
    operator: str | None = None
    correct: bool | None = None
    stage: str | None = None
    error: str | None = None
    candidate_number: int | None = None


def _numbered(run_id: int) -> Any:
    return (select(EvaluationRow.id.label("id"), func.row_number().over(order_by=EvaluationRow.id).label("number"))
            .where(EvaluationRow.run_id == run_id).subquery())


def _filtered(query: Select[Any], filters: Filters) -> Select[Any]:
    if filters.hardware is not None:
        query = query.where(EvaluationRow.hardware == filters.hardware)
    if filters.operator is not None:
        query = query.where(CandidateRow.operator == filters.operator)
    if filters.correct is not None:
        query = query.where(EvaluationRow.correct.is_(filters.correct))
    if filters.stage is not None:
        query = query.where(EvaluationRow.stage == filters.stage)
    if filters.error is not None:
        query = query.where(EvaluationRow.error == filters.error)
    if filters.candidate_number is not None:
        query = query.where(EvaluationRow.candidate_number == filters.candidate_number)
    return query


def _ordered(query: Select[Any], numbered: Any, sort: Sort) -> Select[Any]:
    column = {"number": numbered.c.number, "kernel_ms": EvaluationRow.kernel_ms,
              "speedup_eager": EvaluationRow.speedup_eager}[sort.lstrip("-")]
    key = column.desc() if sort.startswith("-") else column.asc()
    # runs without a time (rejected ones) last, either way, then by place in the run
    return query.order_by(column.is_(None), key, numbered.c.number)


def count(session: Session, run_id: int, filters: Filters | None = None) -> int:
    """How many of the run's evaluations pass ``filters``."""
    return session.scalar(_filtered(select(func.count()).select_from(EvaluationRow)
                                    .join(CandidateRow, CandidateRow.id == EvaluationRow.candidate_id)
                                    .where(EvaluationRow.run_id == run_id), filters or Filters())) or 0


def evaluations(session: Session, run_id: int, filters: Filters | None = None, *, sort: Sort = "number",
                limit: int | None = None, offset: int = 0,
                message_chars: int = MESSAGE_CHARS) -> tuple[list[EvaluationItem], int]:
    """A page of the run's evaluations that pass ``filters`` and how many pass them in all; each error message
    cut to its first ``message_chars`` characters."""
    filters = filters or Filters()
    numbered = _numbered(run_id)
    result, e = EvaluationRow.result, EvaluationRow
    # named columns, not the row: loading each stored result whole would cost most of the time
    columns = [numbered.c.number.label("number"), e.id, e.candidate_id, e.candidate_number, CandidateRow.operator,
               CandidateRow.note, e.island, e.hardware, e.correct, e.stage, e.error,
               func.substr(e.message, 1, message_chars).label("message"), e.kernel_ms,
               result[("eager", "median_ms")].as_float().label("eager_ms"),
               result[("compiled", "median_ms")].as_float().label("compile_ms"), e.speedup_eager, e.speedup_compile,
               e.roofline, e.roofline_floor, e.objective, e.archive_status, e.cell, e.measures, e.interpreted,
               e.finished_at, result["library"].label("library")]
    query = _filtered(select(*columns).join(numbered, numbered.c.id == e.id)
                      .join(CandidateRow, CandidateRow.id == e.candidate_id).where(e.run_id == run_id), filters)
    total = count(session, run_id, filters)
    query = _ordered(query, numbered, sort).offset(offset)
    if limit is not None:
        query = query.limit(limit)
    items = []
    for row in session.execute(query).mappings():
        data = dict(row)
        data["message"] = data["message"] or ""
        data["finished_at"] = datetime.fromtimestamp(row["finished_at"], UTC)
        data["library"] = library_of(row["library"])
        items.append(EvaluationItem.model_validate(data))
    return items, total


class Points(BaseModel):
    """Every evaluation of a run after the ``after``-th, as columns (compact for a scatter of thousands).

    Row k is evaluation ``after + k + 1``; ``operator``, ``hardware`` and ``error`` hold indices into the
    lists of names (``error`` -1: correct)."""

    run_id: int
    after: int
    operators: list[str]
    hardware: list[str]
    errors: list[str]
    candidate_id: list[int]
    candidate_number: list[int]
    operator: list[int]
    hardware_index: list[int]
    correct: list[bool]
    error: list[int]
    kernel_ms: list[float | None]
    speedup_eager: list[float | None]
    objective: list[float | None]
    interpreted: bool  # any of them timed in Triton's interpreter (a CPU run): no GPU speed among them


def points(session: Session, run_id: int, after: int = 0) -> Points:
    """The run's evaluations after its ``after``-th, in order (one query, no stored result read)."""
    rows = session.execute(
        select(EvaluationRow.candidate_id, EvaluationRow.candidate_number, CandidateRow.operator,
               EvaluationRow.hardware, EvaluationRow.correct, EvaluationRow.error, EvaluationRow.kernel_ms,
               EvaluationRow.speedup_eager, EvaluationRow.objective, EvaluationRow.interpreted)
        .join(CandidateRow, CandidateRow.id == EvaluationRow.candidate_id)
        .where(EvaluationRow.run_id == run_id).order_by(EvaluationRow.id).offset(after)).all()
    names: dict[str, dict[str, int]] = {"operator": {}, "hardware": {}, "error": {}}

    def index(kind: str, name: str) -> int:
        return names[kind].setdefault(name, len(names[kind]))

    return Points.model_construct(  # built from the database's own columns: nothing to validate
        run_id=run_id, after=after, candidate_id=[r[0] for r in rows], candidate_number=[r[1] for r in rows],
        operator=[index("operator", r[2]) for r in rows], hardware_index=[index("hardware", r[3]) for r in rows],
        correct=[r[4] for r in rows], error=[index("error", r[5] or "rejected") if not r[4] else -1 for r in rows],
        kernel_ms=[r[6] for r in rows], speedup_eager=[r[7] for r in rows], objective=[r[8] for r in rows],
        interpreted=any(r[9] for r in rows), operators=list(names["operator"]), hardware=list(names["hardware"]),
        errors=list(names["error"]))


class ReasonCount(BaseModel):
    stage: str  # the stage it was rejected at
    reason: str  # the ErrorKind
    count: int


def rejected_reasons(session: Session, run_id: int, hardware: str | None = None) -> list[ReasonCount]:
    """How many of the run's evaluations were rejected at each stage for each reason, the most first."""
    query = (select(EvaluationRow.stage, EvaluationRow.error, func.count())
             .where(EvaluationRow.run_id == run_id, EvaluationRow.correct.is_(False))
             .group_by(EvaluationRow.stage, EvaluationRow.error))
    if hardware is not None:
        query = query.where(EvaluationRow.hardware == hardware)
    found = [ReasonCount(stage=stage, reason=error or "rejected", count=count) for stage, error, count in
             session.execute(query)]
    return sorted(found, key=lambda r: (-r.count, r.stage, r.reason))


def operators_of(session: Session, run_id: int) -> list[str]:
    return sorted(session.scalars(select(CandidateRow.operator).where(CandidateRow.run_id == run_id).distinct()))


def hardware_of(session: Session, run_id: int) -> list[str]:
    return sorted(session.scalars(select(EvaluationRow.hardware).where(EvaluationRow.run_id == run_id).distinct()))
