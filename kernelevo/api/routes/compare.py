"""``/api/compare``: two kernels side by side (diff and timings), and two runs side by side."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query

from kernelevo.api.deps import MAX_ID, ReadDep, SessionDep
from kernelevo.api.routes.evaluations import ERRORS
from kernelevo.storage import queries
from kernelevo.storage.compare import KernelComparison, RunComparison, compare_kernels, compare_runs
from kernelevo.storage.runs import get_run

router = APIRouter(prefix="/api/compare", tags=["compare"], dependencies=[ReadDep])

Id = Annotated[int, Query(ge=1, le=MAX_ID)]


def _two(a: int, b: int, what: str) -> None:
    if a == b:
        raise HTTPException(422, f"a and b are both {what} {a}: choose two different ones")


@router.get("/candidates", response_model=KernelComparison, responses=ERRORS)
def compare_candidates(a: Id, b: Id, session: SessionDep) -> KernelComparison:
    """Kernels ``a`` and ``b`` (candidate ids, of any runs): both sources and the diff from A to B, and on each
    hardware type both were timed on, their medians (ms) and B's speedup over A, beyond the noise or not."""
    _two(a, b, "candidate")
    rows = []
    for candidate_id in (a, b):
        row = queries.get_candidate(session, candidate_id)
        if row is None:
            raise HTTPException(404, f"no candidate {candidate_id}")
        rows.append(row)
    return compare_kernels(session, rows[0], rows[1])


@router.get("/runs", response_model=RunComparison, responses=ERRORS)
def compare_two_runs(a: Id, b: Id, session: SessionDep) -> RunComparison:
    """Runs ``a`` and ``b``: the settings that differ, their evaluations, correct ones and rejections by reason, and
    per hardware type their best kernel and the evaluations at which their best improved."""
    _two(a, b, "run")
    return compare_runs(session, get_run(session, a), get_run(session, b))
