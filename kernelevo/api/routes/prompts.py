"""``/api/prompts``: a run's meta-prompt archive, each prompt with its sections, fitness, use and lineage."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from kernelevo.api.deps import MAX_ID, ReadDep, SessionDep
from kernelevo.api.routes.candidates import prompt_public
from kernelevo.api.schemas import ErrorDetail, PromptPublic
from kernelevo.storage import queries
from kernelevo.storage.runs import get_run

router = APIRouter(prefix="/api/prompts", tags=["prompts"], dependencies=[ReadDep])


@router.get("", response_model=list[PromptPublic], responses={404: {"model": ErrorDetail}})
def list_prompts(session: SessionDep, run: Annotated[int, Query(ge=1, le=MAX_ID, description="the run's id")],
                 limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0, le=MAX_ID)) -> list[PromptPublic]:
    get_run(session, run)
    return [prompt_public(p) for p in queries.prompts_of(session, run)[offset:offset + limit]]
