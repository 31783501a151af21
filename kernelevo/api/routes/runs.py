"""``/api/runs``: start, stop and resume runs; read their archive, progress, live events and operators."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kernelevo.api.deps import MAX_ID, After, DatabaseDep, IdPath, OptionalId, ReadDep, SessionDep, WriterDep
from kernelevo.api.schemas import (
    ArchivePublic,
    DescriptorInfo,
    EventPublic,
    HardwareArchive,
    OperatorsPublic,
    OperatorStats,
    Problem,
    PromptStats,
    RunCreate,
    RunPage,
    RunResume,
)
from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.run import RunInfo, RunStatus
from kernelevo.search.config import RunConfig
from kernelevo.settings import data_dir
from kernelevo.storage import queries
from kernelevo.storage.runs import create_run, get_run, get_spec, run_info, status_of
from kernelevo.storage.tables import CandidateRow, RunRow

router = APIRouter(prefix="/api/runs", tags=["runs"])

LIMIT = Query(50, ge=1, le=500)
OFFSET = Query(0, ge=0, le=MAX_ID)
ENDED = (RunStatus.STOPPED, RunStatus.FINISHED, RunStatus.FAILED, RunStatus.INTERRUPTED)
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": Problem}}


def _config(data: dict[str, object]) -> RunConfig:
    try:
        return RunConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "config"
        raise HTTPException(422, f"run config: {where}: {first['msg']}") from None


@router.post("", status_code=201, response_model=RunInfo,
             responses={401: {"model": Problem}, 404: {"model": Problem}, 422: {"model": Problem}})
def start_run(body: RunCreate, session: SessionDep, who: WriterDep) -> RunInfo:
    """Queue a run of the spec; it starts as soon as a GPU (a run slot) is free."""
    spec = get_spec(session, body.spec_id)
    config = _config(body.config)
    row = create_run(session, spec_id=body.spec_id, config=config.model_dump(mode="json"), owner=f"token:{who}")
    row.out_dir = str(data_dir() / "runs" / f"{spec.name}-{row.id}")  # its exports, next to the database's logs
    return run_info(session, row)


@router.get("", response_model=RunPage, dependencies=[ReadDep])
def list_runs(session: SessionDep, status: RunStatus | None = None, spec_id: OptionalId = None,
              limit: int = LIMIT, offset: int = OFFSET) -> RunPage:
    query = select(RunRow)
    if spec_id is not None:
        query = query.where(RunRow.spec_id == spec_id)
    if status is not None and status not in (RunStatus.RUNNING, RunStatus.INTERRUPTED):
        query = query.where(RunRow.status == status.value)
    elif status is not None:  # stored as running (the lease tells them apart), or interrupted (Ctrl-C twice)
        query = query.where(RunRow.status.in_((RunStatus.RUNNING.value, RunStatus.INTERRUPTED.value)))
    rows = [r for r in session.scalars(query.order_by(RunRow.id.desc()))
            if status is None or status_of(r) == status]
    return RunPage(items=[run_info(session, r) for r in rows[offset:offset + limit]], total=len(rows), limit=limit,
                   offset=offset)


# The two reads a dashboard polls run on the event loop: a thread hand-off per request cost more
# than their queries (under a millisecond each) under load.
@router.get("/{run_id}", response_model=RunInfo, dependencies=[ReadDep], responses=NOT_FOUND)
async def read_run(run_id: IdPath, db: DatabaseDep) -> RunInfo:
    with db.session() as session:
        return run_info(session, get_run(session, run_id))


@router.post("/{run_id}/stop", response_model=RunInfo, responses={401: {"model": Problem}, **NOT_FOUND})
def stop_run(run_id: IdPath, session: SessionDep, _: WriterDep) -> RunInfo:
    """A queued run is stopped at once; a running one finishes the evaluations under way, within seconds."""
    row = get_run(session, run_id, for_update=True)
    status = status_of(row)
    if status == RunStatus.QUEUED:
        row.status, row.stop_reason = RunStatus.STOPPED.value, "stopped before it started"
    elif status == RunStatus.RUNNING:
        row.stop_requested = True
    return run_info(session, row)


@router.post("/{run_id}/resume", response_model=RunInfo,
             responses={401: {"model": Problem}, 409: {"model": Problem}, 422: {"model": Problem}, **NOT_FOUND})
def resume_run(run_id: IdPath, session: SessionDep, _: WriterDep, body: RunResume | None = None) -> RunInfo:
    """Queue a stopped, finished, failed or interrupted run again, with settings changed (a larger budget)."""
    row = get_run(session, run_id, for_update=True)
    status = status_of(row)
    if status not in ENDED:
        raise HTTPException(409, f"run {run_id} is {status.value}: only a run that ended can be resumed")
    if body is not None and body.config:
        row.config = _config({**row.config, **body.config}).model_dump(mode="json")
    row.status, row.stop_requested, row.stop_reason = RunStatus.QUEUED.value, False, None
    return run_info(session, row)


@router.get("/{run_id}/archive", response_model=ArchivePublic, dependencies=[ReadDep], responses=NOT_FOUND)
async def read_archive(run_id: IdPath, db: DatabaseDep, hardware: str | None = None) -> ArchivePublic:
    """The MAP-Elites archive per hardware type: the descriptors' axes and every elite with its cell."""
    with db.session() as session:
        return archive_of(session, run_id, hardware)


def archive_of(session: Session, run_id: int, hardware: str | None) -> ArchivePublic:
    row = get_run(session, run_id)
    described = descriptor_set(row.config.get("descriptors", "levels"))
    axes = [DescriptorInfo(name=d.name, low=d.low, high=d.high, cells=d.cells, doc=d.doc) for d in described]
    total = 1
    for d in described:
        total *= d.cells
    elites = queries.archive(session, run_id, hardware)
    found = []
    for hw in sorted({e.hardware for e in elites} | ({hardware} if hardware else set())):
        mine = [e for e in elites if e.hardware == hw]
        found.append(HardwareArchive(hardware=hw, interpreted=any(e.interpreted for e in mine), descriptors=axes,
                                     cells_total=total, cells_filled=len({(e.island, e.cell) for e in mine}),
                                     elites=mine))
    return ArchivePublic(run_id=run_id, hardware=found)


@router.get("/{run_id}/progress", response_model=list[EventPublic], dependencies=[ReadDep], responses=NOT_FOUND)
def read_progress(run_id: IdPath, session: SessionDep, after: After = 0,
                  limit: int = Query(1000, ge=1, le=10_000),
                  points: int | None = Query(None, ge=2, le=10_000, description="at most about this many, evenly "
                                             "spaced over the whole run (for a chart)")) -> list[EventPublic]:
    """The run's progress snapshots over time (at most one a second)."""
    get_run(session, run_id)
    found = queries.events_sampled(session, run_id, points) if points else queries.events_after(session, run_id,
                                                                                                 after, limit)
    return [EventPublic(id=e.id, kind=e.kind, at=e.at, data=e.data) for e in found]


@router.get("/{run_id}/events", dependencies=[ReadDep], responses={200: {"content": {"text/event-stream": {}}},
                                                                       **NOT_FOUND})
async def stream_events(run_id: IdPath, request: Request, db: DatabaseDep,
                        after: After = 0) -> StreamingResponse:
    """Server-sent events: each progress snapshot as it is stored, and the run's status when it changes."""
    with db.session() as session:
        get_run(session, run_id)
    start = int(request.headers.get("last-event-id", after) or after)

    async def events() -> AsyncIterator[str]:
        last, status, quiet = start, None, 0.0
        while not await request.is_disconnected():
            with db.session() as session:
                found = queries.events_after(session, run_id, last, 200)
                info = run_info(session, get_run(session, run_id))
            for e in found:
                last = e.id
                yield f"id: {e.id}\nevent: {e.kind}\ndata: {json.dumps(e.data)}\n\n"
            if info.status != status:
                status = info.status
                yield f"event: status\ndata: {info.model_dump_json()}\n\n"
            quiet = 0.0 if found else quiet + 0.5
            if quiet >= 15:
                quiet = 0.0
                yield ": keep-alive\n\n"
            await asyncio.sleep(0.5)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@router.get("/{run_id}/operators", response_model=OperatorsPublic, dependencies=[ReadDep], responses=NOT_FOUND)
def read_operators(run_id: IdPath, session: SessionDep) -> OperatorsPublic:
    """What each operator and each meta-prompt produced, and at what token cost."""
    get_run(session, run_id)
    operators = [OperatorStats(operator=name, **stats) for name, stats in
                 sorted(queries.operator_stats(session, run_id).items())]
    counted = session.execute(select(CandidateRow.prompt_number, func.count()).where(
        CandidateRow.run_id == run_id, CandidateRow.prompt_number.is_not(None)).group_by(CandidateRow.prompt_number))
    used = {number: count for number, count in counted}
    prompts = [PromptStats(number=p.number, fitness=p.fitness, uses=p.uses, candidates=used.get(p.number, 0),
                           best_candidate_number=p.best_candidate_number) for p in queries.prompts_of(session, run_id)]
    return OperatorsPublic(operators=operators, prompts=prompts)
