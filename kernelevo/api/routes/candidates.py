"""``/api/candidates/{id}``: a kernel with its evaluations, parents, children, prompt; its lineage; its module."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response
from sqlalchemy.orm import Session

from kernelevo.api.deps import IdPath, ReadDep, SessionDep
from kernelevo.api.schemas import CandidatePublic, CandidateRef, Problem, PromptPublic
from kernelevo.archive.export import drop_in_module
from kernelevo.records.candidate import Usage
from kernelevo.storage import queries
from kernelevo.storage.runs import get_run, get_spec
from kernelevo.storage.tables import CandidateRow, PromptRow

router = APIRouter(prefix="/api/candidates", tags=["candidates"], dependencies=[ReadDep])
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": Problem}}


def _row(session: Session, candidate_id: int) -> CandidateRow:
    row = queries.get_candidate(session, candidate_id)
    if row is None:
        raise HTTPException(404, f"no candidate {candidate_id}")
    return row


def ref(row: CandidateRow) -> CandidateRef:
    return CandidateRef(id=row.id, number=row.number, operator=row.operator, note=row.note)


def prompt_public(row: PromptRow) -> PromptPublic:
    return PromptPublic(run_id=row.run_id, number=row.number, sections=row.sections, parent_number=row.parent_number,
                        mutation=row.mutation, fitness=row.fitness, best_candidate_number=row.best_candidate_number,
                        uses=row.uses)


@router.get("/{candidate_id}", response_model=CandidatePublic, responses=NOT_FOUND)
def read_candidate(candidate_id: IdPath, session: SessionDep) -> CandidatePublic:
    row = _row(session, candidate_id)
    parents = [p for n in row.parent_numbers if (p := queries.candidate_by_number(session, row.run_id, n))]
    prompt = session.get(PromptRow, (row.run_id, row.prompt_number)) if row.prompt_number is not None else None
    return CandidatePublic(
        id=row.id, run_id=row.run_id, number=row.number, source=row.source, operator=row.operator, note=row.note,
        island=row.island, model=row.model, usage=Usage.model_validate(row.usage), created_at=row.created_at,
        parents=[ref(p) for p in parents], children=[ref(c) for c in queries.children_of(session, row)],
        prompt=prompt_public(prompt) if prompt else None, evaluations=queries.evaluations_of(session, row.id))


@router.get("/{candidate_id}/lineage", response_model=list[CandidateRef], responses=NOT_FOUND)
def read_lineage(candidate_id: IdPath, session: SessionDep) -> list[CandidateRef]:
    """The chain back to the seed through each first parent, this candidate first."""
    return [ref(r) for r in queries.lineage(session, _row(session, candidate_id))]


@router.get("/{candidate_id}/module", response_class=Response,
            responses={200: {"content": {"text/x-python": {"schema": {"type": "string"}}}}, **NOT_FOUND})
def read_module(candidate_id: IdPath, session: SessionDep, hardware: str | None = None) -> Response:
    """The kernel as a drop-in module, behind a header with its spec, hardware, timings and versions."""
    row = _row(session, candidate_id)
    evaluations = queries.evaluations_of(session, row.id)
    chosen = next((e for e in evaluations if hardware in (None, e.hardware)), None)
    spec = get_spec(session, get_run(session, row.run_id).spec_id)
    module = drop_in_module(row, chosen.result if chosen else None, spec_name=spec.name, spec_sha256=spec.sha256,
                            hardware=chosen.hardware if chosen else (hardware or "not evaluated"))
    filename = f"{spec.name}-run{row.run_id}-candidate{row.number}.py"
    return Response(module, media_type="text/x-python",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})
