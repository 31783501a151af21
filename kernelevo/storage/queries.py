"""Reading runs back: the archive, a candidate with its lineage, progress, operators, the best per spec.

What the API, the dashboard and the exports show, as typed records, from the rows the
search wrote. Every function takes the session as a keyword argument.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kernelevo.records.elite import AddStatus
from kernelevo.records.result import EvalResult
from kernelevo.storage.tables import (
    CandidateRow,
    EliteRow,
    EvaluationRow,
    EventRow,
    FailureRow,
    PromptRow,
)


class StoredEvaluation(BaseModel):
    hardware: str
    objective: float | None
    measures: list[float] | None
    island: int
    cell: int | None
    archive_status: str | None
    result: EvalResult


class ArchiveElite(BaseModel):
    hardware: str
    island: int
    cell: int
    candidate_id: int  # global
    candidate_number: int
    objective: float
    measures: list[float]
    rel_iqr: float
    operator: str
    speedup_eager: float | None
    speedup_compile: float | None
    roofline: float | None
    roofline_floor: str | None  # which floor the fraction is of: "read", "copy" or "compute"
    kernel_ms: float | None
    interpreted: bool


def get_candidate(session: Session, candidate_id: int) -> CandidateRow | None:
    return session.get(CandidateRow, candidate_id)


def candidate_by_number(session: Session, run_id: int, number: int) -> CandidateRow | None:
    return session.scalar(select(CandidateRow).where(CandidateRow.run_id == run_id, CandidateRow.number == number))


def evaluations_of(session: Session, candidate_id: int) -> list[StoredEvaluation]:
    return [StoredEvaluation(hardware=e.hardware, objective=e.objective, measures=e.measures, island=e.island,
                             cell=e.cell, archive_status=e.archive_status, result=EvalResult.model_validate(e.result))
            for e in session.scalars(select(EvaluationRow).where(EvaluationRow.candidate_id == candidate_id)
                                     .order_by(EvaluationRow.id))]


def children_of(session: Session, row: CandidateRow) -> list[CandidateRow]:
    """Candidates of the same run made from this one (parents are stored as a list on the child)."""
    later = session.execute(select(CandidateRow.id, CandidateRow.parent_numbers).where(
        CandidateRow.run_id == row.run_id, CandidateRow.number > row.number))  # no sources: a long run has many
    ids = [cid for cid, parents in later if row.number in parents]
    return list(session.scalars(select(CandidateRow).where(CandidateRow.id.in_(ids)).order_by(CandidateRow.number)))


def lineage(session: Session, row: CandidateRow, limit: int = 200) -> list[CandidateRow]:
    """The chain back to a seed through each first parent: the candidate first."""
    chain, seen = [row], {row.number}
    current = row
    while current.parent_numbers and len(chain) < limit:
        parent = candidate_by_number(session, row.run_id, current.parent_numbers[0])
        if parent is None or parent.number in seen:
            break
        chain.append(parent)
        seen.add(parent.number)
        current = parent
    return chain


def archive(session: Session, run_id: int, hardware: str | None = None, *,
            limit: int | None = None) -> list[ArchiveElite]:
    """The run's elites (every island), fastest first, with the evaluation that put each there (one query);
    the first ``limit`` only, if given."""
    query = (select(EliteRow, CandidateRow.operator, EvaluationRow.speedup_eager, EvaluationRow.speedup_compile,
                    EvaluationRow.roofline, EvaluationRow.roofline_floor, EvaluationRow.kernel_ms,
                    EvaluationRow.interpreted)
             .join(CandidateRow, CandidateRow.id == EliteRow.candidate_id)
             .outerjoin(EvaluationRow, (EvaluationRow.candidate_id == EliteRow.candidate_id)
                        & (EvaluationRow.hardware == EliteRow.hardware))
             .where(EliteRow.run_id == run_id).order_by(EliteRow.objective.desc()))
    if hardware is not None:
        query = query.where(EliteRow.hardware == hardware)
    if limit is not None:
        query = query.limit(limit)
    return [ArchiveElite(hardware=elite.hardware, island=elite.island, cell=elite.cell,
                         candidate_id=elite.candidate_id, candidate_number=elite.candidate_number,
                         objective=elite.objective, measures=list(elite.measures), rel_iqr=elite.rel_iqr,
                         operator=operator, speedup_eager=eager, speedup_compile=compiled, roofline=roofline,
                         roofline_floor=floor, kernel_ms=kernel_ms, interpreted=bool(interpreted))
            for elite, operator, eager, compiled, roofline, floor, kernel_ms, interpreted in session.execute(query)]


def archive_version(session: Session, run_id: int) -> tuple[int, int, float]:
    """What changes whenever the run's archive does: its elites' count, and the sums of their candidates'
    ids and of their objectives (one pass over the run's elites, by their primary key). An entry taken
    by a new candidate changes both sums; an entry that keeps its candidate keeps its row."""
    count, ids, objectives = session.execute(
        select(func.count(), func.coalesce(func.sum(EliteRow.candidate_id), 0),
               func.coalesce(func.sum(EliteRow.objective), 0.0)).where(EliteRow.run_id == run_id)).one()
    return int(count), int(ids), float(objectives)


def elite_hardware(session: Session, run_id: int) -> list[str]:
    """The hardware types the run has elites on."""
    return sorted(session.scalars(select(EliteRow.hardware).where(EliteRow.run_id == run_id).distinct()))


def hardware_of(session: Session, run_id: int | None = None) -> list[str]:
    query = select(EvaluationRow.hardware).distinct()
    if run_id is not None:
        query = query.where(EvaluationRow.run_id == run_id)
    return sorted(session.scalars(query))


def events_after(session: Session, run_id: int, after_id: int = 0, limit: int = 1000) -> list[EventRow]:
    return list(session.scalars(select(EventRow).where(EventRow.run_id == run_id, EventRow.id > after_id)
                                .order_by(EventRow.id).limit(limit)))


def events_sampled(session: Session, run_id: int, points: int) -> list[EventRow]:
    """At most about ``points`` of the run's events, evenly spaced, the last always among them (for charts)."""
    count = session.scalar(select(func.count()).select_from(EventRow).where(EventRow.run_id == run_id)) or 0
    stride = max(1, -(-count // points))
    numbered = (select(EventRow.id, func.row_number().over(order_by=EventRow.id).label("n"))
                .where(EventRow.run_id == run_id).subquery())
    chosen = select(numbered.c.id).where(((numbered.c.n - 1) % stride == 0) | (numbered.c.n == count))
    return list(session.scalars(select(EventRow).where(EventRow.id.in_(chosen)).order_by(EventRow.id)))


def operator_stats(session: Session, run_id: int) -> dict[str, dict[str, Any]]:
    """Per operator: candidates made, evaluations (a candidate's on each hardware type) and the correct ones among
    them, archive entries (new cells, improvements beyond the noise), failures to produce, and the tokens and
    dollars it spent. Its correct rate is correct over evaluated, as the run's: candidates still waiting for
    their evaluation when the run stopped are made, not wrong."""
    stats: dict[str, dict[str, Any]] = defaultdict(lambda: {"candidates": 0, "evaluated": 0, "correct": 0,
                                                            "archive_entries": 0, "failures": 0, "tokens": 0,
                                                            "dollars": 0.0})

    def spent(operator: str, usage: dict[str, Any]) -> None:
        stats[operator]["tokens"] += usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        stats[operator]["dollars"] += usage.get("cost_usd", 0.0)

    for operator, usage in session.execute(select(CandidateRow.operator, CandidateRow.usage)
                                           .where(CandidateRow.run_id == run_id)):
        stats[operator]["candidates"] += 1
        spent(operator, usage)
    evaluated = (select(CandidateRow.operator, EvaluationRow.correct, EvaluationRow.archive_status)
                 .join(CandidateRow, CandidateRow.id == EvaluationRow.candidate_id)
                 .where(EvaluationRow.run_id == run_id))
    for operator, correct, status in session.execute(evaluated):
        stats[operator]["evaluated"] += 1
        stats[operator]["correct"] += bool(correct)
        # gains beyond the noise, as the operator bandit counts them: a tie that measured faster is not one
        stats[operator]["archive_entries"] += status is not None and AddStatus(status).credited
    for operator, usage in session.execute(select(FailureRow.operator, FailureRow.usage)
                                           .where(FailureRow.run_id == run_id)):
        stats[operator]["failures"] += 1
        spent(operator, usage)
    return dict(stats)


def prompts_of(session: Session, run_id: int) -> list[PromptRow]:
    return list(session.scalars(select(PromptRow).where(PromptRow.run_id == run_id).order_by(PromptRow.number)))
