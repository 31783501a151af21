"""Two kernels side by side (their sources, timings and library calls per hardware type), and two runs side by side
(their settings, results, rejections and how their best kernel improved).

Times are milliseconds (medians); a speedup of B over A is A's median over B's (above 1: B is faster).
"""

from __future__ import annotations

import difflib
import math
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.result import EvalResult, Timing
from kernelevo.records.run import RunInfo
from kernelevo.storage import evaluations as stored
from kernelevo.storage.evaluations import LibraryShown, ReasonCount, library_of
from kernelevo.storage.runs import get_run, run_info
from kernelevo.storage.tables import CandidateRow, EliteRow, EvaluationRow, RunRow, SpecRow


class KernelEvaluation(BaseModel):
    """One evaluation of a kernel, the parts a comparison shows."""

    hardware: str
    correct: bool
    stage: str
    error: str | None
    message: str  # its first line
    interpreted: bool  # timed in Triton's interpreter: no GPU speed
    kernel: Timing | None
    eager: Timing | None
    compiled: Timing | None
    speedup_eager: float | None
    speedup_compile: float | None
    roofline: float | None
    roofline_floor: str | None  # which floor the fraction is of: "read", "copy" or "compute"
    registers: int | None  # the most of any of its kernels
    spills: int | None
    launches: int
    library: LibraryShown | None


class KernelSide(BaseModel):
    id: int
    run_id: int
    spec_id: int
    spec_name: str
    number: int
    operator: str
    note: str
    source: str
    evaluations: list[KernelEvaluation]


class TimingComparison(BaseModel):
    """Both kernels' medians on one hardware type; ``speedup`` is A's median over B's (above 1: B is faster)."""

    hardware: str
    a_ms: float
    b_ms: float
    speedup: float
    beyond_noise: bool  # the medians differ by more than half of both IQRs together (their middles do not overlap)
    interpreted: bool


class KernelComparison(BaseModel):
    a: KernelSide
    b: KernelSide
    same_spec: bool  # otherwise their times measure different problems
    timings: list[TimingComparison]  # per hardware type both were timed on
    added_lines: int  # from A to B
    removed_lines: int
    diff: str  # unified, from A to B, 3 lines of context


def _first_line(text: str) -> str:
    return text.splitlines()[0][:300] if text else ""


def kernel_side(session: Session, row: CandidateRow) -> KernelSide:
    run = get_run(session, row.run_id)
    spec = session.get(SpecRow, run.spec_id)
    found = []
    for e in session.scalars(select(EvaluationRow).where(EvaluationRow.candidate_id == row.id)
                             .order_by(EvaluationRow.id)):
        r = EvalResult.model_validate(e.result)
        registers = [k.registers for k in r.kernels if k.registers is not None]
        spills = [k.spills for k in r.kernels if k.spills is not None]
        found.append(KernelEvaluation(
            hardware=e.hardware, correct=e.correct, stage=e.stage, error=e.error, message=_first_line(r.message),
            interpreted=r.interpreted, kernel=r.kernel, eager=r.eager, compiled=r.compiled,
            speedup_eager=r.speedup_eager, speedup_compile=r.speedup_compile, roofline=e.roofline,
            roofline_floor=e.roofline_floor,
            registers=max(registers, default=None), spills=max(spills, default=None), launches=r.launches,
            library=library_of(e.result.get("library"))))
    return KernelSide(id=row.id, run_id=row.run_id, spec_id=run.spec_id, spec_name=spec.name if spec else "?",
                      number=row.number, operator=row.operator, note=row.note, source=row.source, evaluations=found)


def compare_kernels(session: Session, a: CandidateRow, b: CandidateRow) -> KernelComparison:
    left, right = kernel_side(session, a), kernel_side(session, b)
    timings = []
    for ea in left.evaluations:
        eb = next((e for e in right.evaluations if e.hardware == ea.hardware), None)
        if eb is None or ea.kernel is None or eb.kernel is None or not ea.correct or not eb.correct:
            continue
        ka, kb = ea.kernel, eb.kernel
        timings.append(TimingComparison(
            hardware=ea.hardware, a_ms=ka.median_ms, b_ms=kb.median_ms, speedup=ka.median_ms / kb.median_ms,
            beyond_noise=abs(ka.median_ms - kb.median_ms) > (ka.iqr_ms + kb.iqr_ms) / 2,
            interpreted=ea.interpreted or eb.interpreted))
    before, after = a.source.splitlines(), b.source.splitlines()
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "equal":
            removed, added = removed + i2 - i1, added + j2 - j1
    diff = "\n".join(difflib.unified_diff(before, after, f"run {a.run_id} kernel #{a.number}",
                                          f"run {b.run_id} kernel #{b.number}", lineterm=""))
    return KernelComparison(a=left, b=right, same_spec=left.spec_id == right.spec_id, timings=timings,
                            added_lines=added, removed_lines=removed, diff=diff)


class BestKernel(BaseModel):
    """A run's best kernel on one hardware type, and how it got there."""

    hardware: str
    candidate_id: int
    candidate_number: int
    objective: float  # ln of the speedup over eager (of the interpreted time ratio on a CPU run)
    kernel_ms: float | None
    speedup_eager: float | None
    speedup_compile: float | None
    roofline: float | None
    roofline_floor: str | None
    interpreted: bool
    found_at: int  # the evaluation (its number in the run) that found it
    cells_filled: int  # of the archive on this hardware (every island)
    # the best objective so far at each evaluation that raised it: [number, objective]
    progress: list[tuple[int, float]]


class RunSide(BaseModel):
    run: RunInfo
    descriptors: list[str]
    cells_total: int  # of one island's archive
    evaluations: int  # stored, on every hardware type
    correct: int
    rejected: list[ReasonCount]
    best: list[BestKernel]


class ConfigDifference(BaseModel):
    key: str  # dotted: "budget.evaluations"
    a: Any
    b: Any


class RunComparison(BaseModel):
    a: RunSide
    b: RunSide
    same_spec: bool
    config: list[ConfigDifference]  # the settings that differ


def _flat(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict) and value:
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _best(session: Session, run_id: int) -> list[BestKernel]:
    rows = session.execute(
        select(EvaluationRow.hardware, EvaluationRow.candidate_id, EvaluationRow.candidate_number,
               EvaluationRow.objective, EvaluationRow.kernel_ms, EvaluationRow.speedup_eager,
               EvaluationRow.speedup_compile, EvaluationRow.roofline, EvaluationRow.roofline_floor,
               EvaluationRow.interpreted)
        .where(EvaluationRow.run_id == run_id).order_by(EvaluationRow.id)).all()
    filled = {hardware: count for hardware, count in session.execute(
        select(EliteRow.hardware, func.count()).where(EliteRow.run_id == run_id).group_by(EliteRow.hardware))}
    progress: dict[str, list[tuple[int, float]]] = {}
    best: dict[str, BestKernel] = {}
    for number, (hardware, cid, cnum, objective, kernel_ms, eager, compiled, roofline, floor,
                 interpreted) in enumerate(rows, start=1):
        if objective is None or not math.isfinite(objective):
            continue
        steps = progress.setdefault(hardware, [])
        if steps and objective <= steps[-1][1]:
            continue
        steps.append((number, objective))
        best[hardware] = BestKernel(
            hardware=hardware, candidate_id=cid, candidate_number=cnum, objective=objective, kernel_ms=kernel_ms,
            speedup_eager=eager, speedup_compile=compiled, roofline=roofline, roofline_floor=floor,
            interpreted=interpreted,
            found_at=number, cells_filled=filled.get(hardware, 0), progress=steps)
    return [best[h] for h in sorted(best)]


def run_side(session: Session, row: RunRow) -> RunSide:
    try:
        described = descriptor_set(row.config.get("descriptors", "levels"))
    except ValueError:
        described = []
    cells = math.prod(d.cells for d in described) if described else 0
    return RunSide(run=run_info(session, row), descriptors=[d.name for d in described], cells_total=cells,
                   evaluations=stored.count(session, row.id), correct=stored.count(
                       session, row.id, stored.Filters(correct=True)),
                   rejected=stored.rejected_reasons(session, row.id), best=_best(session, row.id))


def compare_runs(session: Session, a: RunRow, b: RunRow) -> RunComparison:
    left, right = _flat(a.config), _flat(b.config)
    differences = [ConfigDifference(key=key, a=left.get(key), b=right.get(key))
                   for key in sorted(left.keys() | right.keys()) if left.get(key) != right.get(key)]
    return RunComparison(a=run_side(session, a), b=run_side(session, b), same_spec=a.spec_id == b.spec_id,
                         config=differences)
