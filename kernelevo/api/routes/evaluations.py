"""``/api/runs/{id}/evaluations``: every evaluation of a run, paged and filtered; as scatter points; the rejected
ones by stage and reason.

The dashboard's evaluations list, scatter and rejected list read these. Filters take only values
the run or the evaluator knows (a stage, an error kind, one of the run's hardware types or
operators): anything else is a 422 that names what is known, never an empty page.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy.orm import Session

from kernelevo.api.deps import MAX_ID, After, IdPath, ReadDep, SessionDep
from kernelevo.api.schemas import ErrorDetail
from kernelevo.records.result import ErrorKind, Stage
from kernelevo.storage import evaluations as stored
from kernelevo.storage.evaluations import EvaluationItem, Filters, Points, ReasonCount, Sort
from kernelevo.storage.runs import get_run

router = APIRouter(prefix="/api/runs", tags=["evaluations"], dependencies=[ReadDep])
ERRORS: dict[int | str, dict[str, Any]] = {404: {"model": ErrorDetail}, 422: {"model": ErrorDetail}}

Limit = Annotated[int, Query(ge=1, le=1000)]
Offset = Annotated[int, Query(ge=0, le=MAX_ID)]
Hardware = Annotated[str | None, Query(max_length=100, description="one of the run's hardware types")]
Operator = Annotated[str | None, Query(max_length=40, description="one of the run's operators")]
CandidateNumber = Annotated[int | None, Query(ge=0, le=MAX_ID, description="a candidate's number in the run")]


class EvaluationPage(BaseModel):
    items: list[EvaluationItem]
    total: int  # of those the filters pass
    limit: int
    offset: int
    hardware: list[str]  # every hardware type and operator of the run, for filters
    operators: list[str]


class RejectedPage(BaseModel):
    """The run's rejected evaluations: how many for each stage and reason, and a page of those the filter passes."""

    evaluations: int  # of the run, rejected or not
    rejected: int  # of the run
    reasons: list[ReasonCount]
    items: list[EvaluationItem]
    total: int  # of those the filter passes
    limit: int
    offset: int


def known(session: Session, run_id: int, *, hardware: str | None = None, operator: str | None = None) -> None:
    """422 for a hardware type or operator the run never had, naming those it has."""
    for name, value, found in (("hardware", hardware, stored.hardware_of), ("operator", operator, stored.operators_of)):
        if value is None:
            continue
        names = found(session, run_id)
        if value not in names:
            raise HTTPException(422, f"{name}: {value!r} is not one of run {run_id}'s: "
                                     f"{', '.join(names) if names else 'it has none yet'}")


@router.get("/{run_id}/evaluations", response_model=EvaluationPage, responses=ERRORS)
def list_evaluations(run_id: IdPath, session: SessionDep, hardware: Hardware = None, operator: Operator = None,
                     correct: bool | None = None, stage: Stage | None = None, reason: ErrorKind | None = None,
                     candidate: CandidateNumber = None, sort: Sort = "number", limit: Limit = 100,
                     offset: Offset = 0) -> EvaluationPage:
    """The run's evaluations in the order they finished (``sort`` for others), with their times (ms), speedups,
    archive outcome, rejection reason and the library calls each kernel made when its record holds them."""
    get_run(session, run_id)
    known(session, run_id, hardware=hardware, operator=operator)
    filters = Filters(hardware=hardware, operator=operator, correct=correct, stage=stage, error=reason,
                      candidate_number=candidate)
    items, total = stored.evaluations(session, run_id, filters, sort=sort, limit=limit, offset=offset)
    return EvaluationPage(items=items, total=total, limit=limit, offset=offset,
                          hardware=stored.hardware_of(session, run_id), operators=stored.operators_of(session, run_id))


@router.get("/{run_id}/evaluations/points", response_class=Response, responses={
    200: {"model": Points, "description": "the evaluations' columns"}, **ERRORS})
def read_points(run_id: IdPath, session: SessionDep, after: After = 0) -> Response:
    """Every evaluation after the ``after``-th, as columns, for a scatter: a page following a live run asks for
    the ones after the last it has."""
    get_run(session, run_id)
    # written straight from the model: tens of thousands of numbers, not worth a second validation
    return Response(stored.points(session, run_id, after).model_dump_json(), media_type="application/json")


@router.get("/{run_id}/rejected", response_model=RejectedPage, responses=ERRORS)
def list_rejected(run_id: IdPath, session: SessionDep, stage: Stage | None = None, reason: ErrorKind | None = None,
                  hardware: Hardware = None, limit: Limit = 100, offset: Offset = 0) -> RejectedPage:
    """The run's rejected candidates (not correct, on any hardware unless one is named): counts by the stage they
    stopped at and the reason, and the newest first of those at ``stage`` for ``reason``."""
    get_run(session, run_id)
    known(session, run_id, hardware=hardware)
    reasons = stored.rejected_reasons(session, run_id, hardware)
    evaluations = stored.count(session, run_id, Filters(hardware=hardware))
    items, total = stored.evaluations(session, run_id, Filters(hardware=hardware, correct=False, stage=stage,
                                                               error=reason), sort="-number", limit=limit,
                                      offset=offset)
    return RejectedPage(evaluations=evaluations, rejected=sum(r.count for r in reasons), reasons=reasons,
                        items=items, total=total, limit=limit, offset=offset)
