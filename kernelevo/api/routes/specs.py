"""``/api/specs``: submit a spec (checked in an isolated child, never here) and read specs."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query
from sqlalchemy import func, select

from kernelevo.api.deps import MAX_ID, IdPath, ReadDep, SessionDep, SettingsDep, WriterDep
from kernelevo.api.schemas import ErrorDetail, SpecCreate, SpecDetail, SpecPage, SpecPublic
from kernelevo.spec import SpecError, check_spec, read_spec
from kernelevo.spec.spec import Spec
from kernelevo.storage.runs import get_spec, save_spec
from kernelevo.storage.tables import SpecRow

router = APIRouter(prefix="/api/specs", tags=["specs"])

LIMIT = Query(50, ge=1, le=500)
OFFSET = Query(0, ge=0, le=MAX_ID)


def public(row: SpecRow) -> SpecPublic:
    return SpecPublic(id=row.id, name=row.name, sha256=row.sha256, settings=row.settings,
                      seeds=[name for name, _ in row.seeds], report=row.report, created_at=row.created_at)


def _seeds(spec: Spec, given: dict[str, str]) -> list[tuple[str, str]]:
    """The spec's seeds: inline ones, and path ones from ``given`` (a spec sent over HTTP has no folder)."""
    seeds: list[tuple[str, str]] = []
    for entry in spec.settings.seeds:
        if "\n" in entry:
            seeds.append((f"{spec.name}-seed{len(seeds)}", entry))
        elif entry in given:
            seeds.append((entry.removesuffix(".py"), given[entry]))
        else:
            raise SpecError(f"the spec names seed {entry!r}: send its source in 'seeds' under that name")
    return seeds


@router.post("", status_code=201, response_model=SpecPublic,
             responses={401: {"model": ErrorDetail}, 413: {"model": ErrorDetail}, 422: {"model": ErrorDetail}})
def create_spec(body: SpecCreate, session: SessionDep, config: SettingsDep, _: WriterDep) -> SpecPublic:
    """Check the spec in an isolated child (as ``kernelevo spec`` does) and store it; 422 with the reason if not."""
    size = len(body.source.encode()) + sum(len(s.encode()) for s in body.seeds.values())
    if size > config.api_max_spec_bytes:
        raise HTTPException(413, f"the spec and its seeds are {size} bytes; this server takes at most "
                                 f"{config.api_max_spec_bytes}")
    if "\n" not in body.source:
        raise HTTPException(422, "'source' must be the spec's Python source, not a path")
    try:
        spec = read_spec(body.source, name=body.name)
        seeds = _seeds(spec, body.seeds)
        report = check_spec(spec)  # a child process; this route runs in the thread pool
    except SpecError as exc:
        raise HTTPException(422, f"the spec was rejected: {exc}") from None
    row = save_spec(session, spec, seeds=seeds, report=report.model_dump(mode="json"))
    return public(row)


@router.get("", response_model=SpecPage, dependencies=[ReadDep])
def list_specs(session: SessionDep, name: str | None = Query(None, max_length=200, description="specs of this name"),
               limit: int = LIMIT, offset: int = OFFSET) -> SpecPage:
    query = select(SpecRow)
    if name:
        query = query.where(SpecRow.name == name)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(SpecRow.id.desc()).limit(limit).offset(offset))
    return SpecPage(items=[public(r) for r in rows], total=total, limit=limit, offset=offset)


@router.get("/{spec_id}", response_model=SpecDetail, dependencies=[ReadDep], responses={404: {"model": ErrorDetail}})
def read_spec_(spec_id: IdPath, session: SessionDep) -> SpecDetail:
    row = get_spec(session, spec_id)
    return SpecDetail(**public(row).model_dump(), source=row.source)
