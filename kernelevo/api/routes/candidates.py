"""``/api/candidates/{id}``: a kernel with its evaluations, parents, children, prompt; its lineage; its module.

A kernel is also found by its number within its run (``/api/runs/{run}/candidates/{number}``): the
number the logs, the exports and the meta-prompts use.
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import Response
from sqlalchemy.orm import Session

from kernelevo.api.deps import MAX_ID, IdPath, ReadDep, SessionDep
from kernelevo.api.schemas import CandidatePublic, CandidateRef, ErrorDetail, LineageStep, PromptPublic
from kernelevo.records.candidate import Usage
from kernelevo.storage import queries
from kernelevo.storage.export import drop_in_module, module_filename
from kernelevo.storage.runs import get_run, get_spec
from kernelevo.storage.tables import CandidateRow, PromptRow

router = APIRouter(prefix="/api/candidates", tags=["candidates"], dependencies=[ReadDep])
by_number = APIRouter(prefix="/api/runs", tags=["candidates"], dependencies=[ReadDep])
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorDetail}}


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
    return candidate_public(session, _row(session, candidate_id))


@by_number.get("/{run_id}/candidates/{number}", response_model=CandidatePublic, responses=NOT_FOUND)
def read_candidate_by_number(run_id: IdPath, number: Annotated[int, Path(ge=0, le=MAX_ID)],
                             session: SessionDep) -> CandidatePublic:
    """The run's candidate with this number (as the logs and the meta-prompts name it)."""
    get_run(session, run_id)
    row = queries.candidate_by_number(session, run_id, number)
    if row is None:
        raise HTTPException(404, f"run {run_id} has no candidate {number}")
    return candidate_public(session, row)


def candidate_public(session: Session, row: CandidateRow) -> CandidatePublic:
    parents = [p for n in row.parent_numbers if (p := queries.candidate_by_number(session, row.run_id, n))]
    prompt = session.get(PromptRow, (row.run_id, row.prompt_number)) if row.prompt_number is not None else None
    return CandidatePublic(
        id=row.id, run_id=row.run_id, number=row.number, source=row.source, operator=row.operator, note=row.note,
        island=row.island, model=row.model, usage=Usage.model_validate(row.usage), created_at=row.created_at,
        parents=[ref(p) for p in parents], children=[ref(c) for c in queries.children_of(session, row)],
        prompt=prompt_public(prompt) if prompt else None, evaluations=queries.evaluations_of(session, row.id))


@router.get("/{candidate_id}/lineage", response_model=list[LineageStep], responses=NOT_FOUND)
def read_lineage(candidate_id: IdPath, session: SessionDep) -> list[LineageStep]:
    """The chain back to the seed through each first parent, this candidate first, with the lines each
    step added and removed."""
    chain = queries.lineage(session, _row(session, candidate_id))
    steps = []
    for k, row in enumerate(chain):
        parent = chain[k + 1] if k + 1 < len(chain) else None
        added, removed = _changed_lines(parent.source, row.source) if parent else (None, None)
        steps.append(LineageStep(**ref(row).model_dump(), added_lines=added, removed_lines=removed))
    return steps


def _changed_lines(before: str, after: str) -> tuple[int, int]:
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed, added = removed + i2 - i1, added + j2 - j1
    return added, removed


@router.get("/{candidate_id}/module", response_class=Response,
            responses={200: {"content": {"text/x-python": {"schema": {"type": "string"}}}}, **NOT_FOUND,
                       422: {"model": ErrorDetail}})
def read_module(candidate_id: IdPath, session: SessionDep,
                hardware: str | None = Query(None, max_length=100, description="one hardware type the candidate "
                                             "was evaluated on; default: its first evaluation's")) -> Response:
    """The kernel as a drop-in module, behind a header of comments (one JSON value a line) with its spec,
    hardware, timings and versions."""
    row = _row(session, candidate_id)
    evaluations = queries.evaluations_of(session, row.id)
    if hardware is not None and hardware not in {e.hardware for e in evaluations}:
        raise HTTPException(422, f"query.hardware: candidate {candidate_id} has no evaluation on {hardware!r}; it "
                                 "has " + (", ".join(repr(e.hardware) for e in evaluations) or "none"))
    chosen = next((e for e in evaluations if hardware in (None, e.hardware)), None)
    spec = get_spec(session, get_run(session, row.run_id).spec_id)
    module = drop_in_module(row, chosen.result if chosen else None, spec_name=spec.name, spec_sha256=spec.sha256,
                            hardware=chosen.hardware if chosen else "not evaluated")
    filename = module_filename(spec.name, row.run_id, row.number)  # a valid name: no quote, no newline
    return Response(module, media_type="text/x-python",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
