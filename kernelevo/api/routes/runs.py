"""``/api/runs``: start, stop and resume runs; read their archive, progress, live events and operators."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kernelevo.api.cache import ResponseCache, etag
from kernelevo.api.deps import MAX_ID, After, DatabaseDep, IdPath, OptionalId, ReadDep, SessionDep, WriterDep
from kernelevo.api.schemas import (
    ArchivePublic,
    BestPublic,
    DescriptorInfo,
    ErrorDetail,
    EventPublic,
    HardwareArchive,
    OperatorsPublic,
    OperatorStats,
    PromptStats,
    RunConfigBody,
    RunCreate,
    RunPage,
    RunResume,
)
from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.run import RunInfo, RunStatus, StopReason
from kernelevo.settings import Settings, data_dir
from kernelevo.spec.names import path_under
from kernelevo.storage import queries
from kernelevo.storage import runs as storage_runs
from kernelevo.storage.runs import create_run, get_run, get_spec, run_info, status_of
from kernelevo.storage.tables import CandidateRow, EventRow, SpecRow

router = APIRouter(prefix="/api/runs", tags=["runs"])

LIMIT = Query(50, ge=1, le=500)
OFFSET = Query(0, ge=0, le=MAX_ID)
ENDED = (RunStatus.STOPPED, RunStatus.FINISHED, RunStatus.FAILED, RunStatus.INTERRUPTED)
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorDetail}}


def _config(data: dict[str, object]) -> RunConfigBody:
    """``data`` as a run's settings, every value checked (the device, the descriptors' names); 422 if not."""
    try:
        config = RunConfigBody.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "config"
        raise HTTPException(422, f"run config: {where}: {first['msg']}") from None
    try:
        descriptor_set(config.descriptors)
    except (KeyError, ValueError) as exc:
        raise HTTPException(422, f"run config: descriptors: {exc}") from None
    return config


def _merged(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``current`` with ``changes``: each key given replaces the run's, but for the evaluator's settings,
    changed one by one (``{"evaluation": {"device": "cpu"}}`` keeps the run's other evaluation settings). A
    budget given is the new budget, whole."""
    merged = {**current, **changes}
    if isinstance(current.get("evaluation"), dict) and isinstance(changes.get("evaluation"), dict):
        merged["evaluation"] = {**current["evaluation"], **changes["evaluation"]}
    return merged


def _runnable_here(request: Request, config: RunConfigBody, spec: SpecRow) -> None:
    """422 for a run this server could only start to see it fail: a GPU device, or a CUDA spec, where its
    runs have no GPU (no GPU on this machine, and no Ray cluster, whose nodes decide for themselves)."""
    settings: Settings = request.app.state.settings
    gpus: int = request.app.state.gpus
    if settings.ray_address:
        return
    device = config.evaluation.device
    where = "this server's runs have no GPU (none on this machine, and no KERNELEVO_RAY_ADDRESS)"
    if device.startswith("cuda") and gpus == 0:
        raise HTTPException(422, f"evaluation.device {device!r} needs a GPU, and {where}: use 'cpu' or 'auto'")
    if device.startswith("cuda:") and int(device.removeprefix("cuda:")) >= gpus:
        raise HTTPException(422, f"evaluation.device {device!r}: this machine has {gpus} GPU(s), cuda:0 to "
                                 f"cuda:{gpus - 1}")
    if (spec.settings or {}).get("language") == "cuda" and (device == "cpu" or gpus == 0):
        raise HTTPException(422, f"spec {spec.name!r} is a CUDA spec: its kernels need a GPU, and "
                                 + (where if gpus == 0 else "the run's device is 'cpu'"))


@router.post("", status_code=201, response_model=RunInfo,
             responses={401: {"model": ErrorDetail}, 404: {"model": ErrorDetail}, 422: {"model": ErrorDetail}})
def start_run(body: RunCreate, request: Request, session: SessionDep, who: WriterDep) -> RunInfo:
    """Queue a run of the spec; it starts as soon as a GPU (a run slot) is free."""
    spec = get_spec(session, body.spec_id)
    config = _config(body.config.model_dump())
    _runnable_here(request, config, spec)
    row = create_run(session, spec_id=body.spec_id, config=config.model_dump(mode="json"), owner=f"token:{who}")
    # its exports, next to the database's logs; the spec's name as one path component, whatever it holds
    row.out_dir = str(path_under(data_dir() / "runs", f"{spec.name}-{row.id}"))
    return run_info(session, row)


@router.get("", response_model=RunPage, dependencies=[ReadDep])
def list_runs(session: SessionDep, status: RunStatus | None = None, spec_id: OptionalId = None,
              stop_kind: StopReason | None = None, limit: int = LIMIT, offset: int = OFFSET) -> RunPage:
    """The runs, newest first: of one status, spec, or kind of stop (``stop_kind``: ``budget_time``, say)."""
    rows, total = storage_runs.list_runs(session, status=status, spec_id=spec_id, stop_kind=stop_kind, limit=limit,
                                         offset=offset)
    return RunPage(items=[run_info(session, r) for r in rows], total=total, limit=limit, offset=offset)


# The reads a dashboard polls open their session in the route (one thread hop a request; the session
# dependency costs two more), always in FastAPI's thread pool, never on the event loop.
@router.get("/{run_id}", response_model=RunInfo, dependencies=[ReadDep], responses=NOT_FOUND)
def read_run(run_id: IdPath, db: DatabaseDep) -> RunInfo:
    with db.session() as session:
        return run_info(session, get_run(session, run_id))


@router.post("/{run_id}/stop", response_model=RunInfo, responses={401: {"model": ErrorDetail}, **NOT_FOUND})
def stop_run(run_id: IdPath, session: SessionDep, _: WriterDep) -> RunInfo:
    """A queued run is stopped at once; a running one finishes the evaluations under way, within seconds."""
    row = get_run(session, run_id, for_update=True)
    storage_runs.stop_run(row)
    return run_info(session, row)


@router.post("/{run_id}/resume", response_model=RunInfo,
             responses={401: {"model": ErrorDetail}, 409: {"model": ErrorDetail}, 422: {"model": ErrorDetail},
                        **NOT_FOUND})
def resume_run(run_id: IdPath, request: Request, session: SessionDep, _: WriterDep,
               body: RunResume | None = None) -> RunInfo:
    """Queue a stopped, finished, failed or interrupted run again, with settings changed (a larger budget).

    Settings this server cannot run (a GPU device where there is none) are refused with 422, and the
    run is left as it was."""
    row = get_run(session, run_id, for_update=True)
    status = status_of(row)
    if status not in ENDED:
        raise HTTPException(409, f"run {run_id} is {status.value}: only a run that ended can be resumed")
    config = _config(_merged(row.config, body.config if body is not None else {}))
    _runnable_here(request, config, get_spec(session, row.spec_id))
    row.config = config.model_dump(mode="json")
    storage_runs.queue_again(row)
    return run_info(session, row)


def _known_hardware(session: Session, run_id: int, hardware: str | None) -> None:
    """422 for a hardware type the run was never evaluated on (never an invented, empty entry)."""
    if hardware is None:
        return
    known = queries.hardware_of(session, run_id)
    if hardware not in known:
        raise HTTPException(422, f"query.hardware: run {run_id} has no evaluations on {hardware!r}; it has "
                                 + (", ".join(repr(h) for h in known) or "none yet"))


HARDWARE = Query(None, max_length=100, description="one hardware type the run was evaluated on (its archive's "
                                                   "'hardware'); default: every one")


@router.get("/{run_id}/archive", response_model=ArchivePublic, dependencies=[ReadDep],
            responses={**NOT_FOUND, 422: {"model": ErrorDetail},
                       304: {"description": "unchanged since the ETag sent in If-None-Match"}})
def read_archive(run_id: IdPath, request: Request, db: DatabaseDep, hardware: str | None = HARDWARE) -> Response:
    """The MAP-Elites archive per hardware type: the descriptors' axes and every elite with its cell.

    With an ``ETag``: sent back in ``If-None-Match``, an archive that has not changed since is a 304."""
    with db.session() as session:
        row = get_run(session, run_id)
        _known_hardware(session, run_id, hardware)
        key = (run_id, hardware, row.config.get("descriptors", "levels"), queries.archive_version(session, run_id))
        tag = etag(key)
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        cache: ResponseCache = request.app.state.archives
        body = cache.get(key, lambda: archive_of(session, run_id, hardware).model_dump_json().encode())
    return Response(body, media_type="application/json", headers=headers)


def archive_of(session: Session, run_id: int, hardware: str | None) -> ArchivePublic:
    row = get_run(session, run_id)
    _known_hardware(session, run_id, hardware)
    described = descriptor_set(row.config.get("descriptors", "levels"))
    axes = [DescriptorInfo(name=d.name, low=d.low, high=d.high, cells=d.cells, doc=d.doc) for d in described]
    total = 1
    for d in described:
        total *= d.cells
    elites = queries.archive(session, run_id, hardware)
    found = []
    for hw in sorted({e.hardware for e in elites}):
        mine = [e for e in elites if e.hardware == hw]
        found.append(HardwareArchive(hardware=hw, interpreted=any(e.interpreted for e in mine), descriptors=axes,
                                     cells_total=total, cells_filled=len({(e.island, e.cell) for e in mine}),
                                     elites=mine))
    return ArchivePublic(run_id=run_id, hardware=found)


@router.get("/{run_id}/best", response_model=list[BestPublic], dependencies=[ReadDep],
            responses={**NOT_FOUND, 422: {"model": ErrorDetail}})
def read_best(run_id: IdPath, db: DatabaseDep, hardware: str | None = HARDWARE) -> list[BestPublic]:
    """The run's best kernel on each hardware type (the fastest elite over every island), with the URL of its
    drop-in module; empty while no kernel is correct yet."""
    with db.session() as session:
        get_run(session, run_id)
        _known_hardware(session, run_id, hardware)
        found = []
        for hw in [hardware] if hardware is not None else queries.elite_hardware(session, run_id):
            for elite in queries.archive(session, run_id, hw, limit=1):  # the fastest over every island
                found.append(BestPublic(
                    hardware=hw, interpreted=elite.interpreted, elite=elite,
                    module_url=f"/api/candidates/{elite.candidate_id}/module?hardware={quote(hw)}"))
        return found


@router.get("/{run_id}/progress", response_model=list[EventPublic], dependencies=[ReadDep], responses=NOT_FOUND)
def read_progress(run_id: IdPath, db: DatabaseDep, after: After = 0,
                  limit: int = Query(1000, ge=1, le=10_000),
                  points: int | None = Query(None, ge=2, le=10_000, description="at most about this many, evenly "
                                             "spaced over the whole run (for a chart)")) -> list[EventPublic]:
    """The run's progress snapshots over time (at most one a second)."""
    with db.session() as session:
        get_run(session, run_id)
        found = queries.events_sampled(session, run_id, points) if points else queries.events_after(
            session, run_id, after, limit)
        return [EventPublic(id=e.id, kind=e.kind, at=e.at, data=e.data) for e in found]


STREAM_BATCH = 200  # events sent per poll of the database
STREAM_POLL_S = 0.5


def _poll(db: DatabaseDep, run_id: int, after: int) -> tuple[RunInfo, list[EventRow]]:
    """The run's status, then its events after ``after``: read in this order, an ended status means every
    event the driver wrote before ending it is among those read (or the next batch)."""
    with db.session() as session:
        info = run_info(session, get_run(session, run_id))
        return info, queries.events_after(session, run_id, after, STREAM_BATCH)


@router.get("/{run_id}/events", dependencies=[ReadDep],
            responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                             "description": "progress and status events; an 'end' event, then the stream ends, "
                                            "once the run has ended"}, **NOT_FOUND})
async def stream_events(run_id: IdPath, request: Request, db: DatabaseDep,
                        after: After = 0) -> StreamingResponse:
    """Server-sent events: each progress snapshot as it is stored, and the run's status when it changes.

    Once the run has ended (stopped, finished, failed or interrupted) and its last events are sent, an
    ``end`` event closes the stream: a client resumes following only after it resumes the run. Every
    read of the database runs in the thread pool, never on the event loop."""
    await run_in_threadpool(_exists, db, run_id)
    header = request.headers.get("last-event-id", "")
    start = int(header) if header.isdigit() else after

    async def events() -> AsyncIterator[str]:
        last, status, quiet = start, None, 0.0
        while not await request.is_disconnected():
            info, found = await run_in_threadpool(_poll, db, run_id, last)
            for e in found:
                last = e.id
                yield f"id: {e.id}\nevent: {e.kind}\ndata: {json.dumps(e.data)}\n\n"
            if info.status != status:
                status = info.status
                yield f"event: status\ndata: {info.model_dump_json()}\n\n"
            if info.status in ENDED and len(found) < STREAM_BATCH:
                yield "event: end\ndata: " + json.dumps({"status": info.status.value,
                                                          "stop_reason": info.stop_reason,
                                                          "stop_kind": info.stop_kind}) + "\n\n"
                return
            quiet = 0.0 if found else quiet + STREAM_POLL_S
            if quiet >= 15:
                quiet = 0.0
                yield ": keep-alive\n\n"
            if len(found) < STREAM_BATCH:
                await asyncio.sleep(STREAM_POLL_S)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


def _exists(db: DatabaseDep, run_id: int) -> None:
    with db.session() as session:
        get_run(session, run_id)


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
