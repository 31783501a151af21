"""Two runs of the GELU spec written through the search's own writer, with what the evaluation lists, the
rejected list, the exports and the comparisons must get right, for their API and browser tests.

Every candidate is a real kernel source with a parent among the earlier ones, made by one of three
operators. The evaluations are GPU-shaped results (:func:`synthetic_run.gpu_result`) whose kernel
times span 0.08x to 12x of eager, so the archive's colours differ; one in ten is rejected at each of
four stages for five named reasons. Some results carry the vendor-library calls their kernel made
(as the evaluator records them); one note and two messages are spreadsheet formulas, and one message
holds a comma, quotes and a line break.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sqlalchemy import select
from synthetic_run import gpu_result, snapshot

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import Candidate
from kernelevo.records.result import ErrorKind, EvalResult, Floor, Stage, Timing
from kernelevo.search.state import SearchState
from kernelevo.spec import read_spec
from kernelevo.storage.database import Database
from kernelevo.storage.recorder import RunRecorder
from kernelevo.storage.runs import create_run, save_spec
from kernelevo.storage.tables import EvaluationRow, RunRow

GELU = Path(__file__).resolve().parent.parent / "examples" / "gelu"
EAGER_MS = 0.357
FORMULA_NOTE = '=HYPERLINK("http://example.invalid","x")'
FORMULA_MESSAGE = "@SUM(1+1) in a compile error"
MESSY_MESSAGE = 'wrong output: "odd", 12/4593 elements outside\nsecond line'
LIBRARY = {"policy": ["gemm"], "calls": [{"op": "mm", "family": "gemm", "signature": "mm 4096x4096x4096 float16",
                                          "count": 2, "work": ["gemm 4096x4096x4096"]}],
           "library_ms": 0.21, "gpu_share": 0.83}

# i % 10 -> (stage, reason) of the rejected ones
REJECTED = {3: (Stage.STATIC, "syntax_error"), 7: (Stage.COMPILE, "compile_error"),
            0: (Stage.CORRECTNESS, "wrong_output")}


def timing(ms: float) -> Timing:
    return Timing(median_ms=ms, iqr_ms=ms * 0.02, min_ms=ms * 0.98, mean_ms=ms * 1.01, repetitions=100,
                  method="cuda_events", l2_flushed=True)


def varied_result(i: int, shift: int = 0) -> EvalResult:
    """Correct, with a kernel time from 0.08x to 12x of eager's, or rejected at one stage for one reason."""
    base = gpu_result(i)
    if i > 1 and (i % 10 in REJECTED or i % 20 == 9):
        stage, reason = REJECTED.get(i % 10, (Stage.TIMING, "below_physical_floor"))
        message = {10: MESSY_MESSAGE, 17: FORMULA_MESSAGE, 27: "-1 is not a valid block size"}.get(
            i, f"{reason} of candidate {i}")
        return base.model_copy(update={"correct": False, "stage": stage, "error": ErrorKind(reason), "message": message,
                                       "kernel": None, "speedup_eager": None, "speedup_compile": None,
                                       "roofline": None, "mismatch": None})
    ms = EAGER_MS * math.exp(2.5 - 5 * (((i + shift) * 37) % 101) / 100)
    roofline = base.roofline.model_copy(update={"fraction": min(1.0, 0.3565 / ms)}) if base.roofline else None
    if roofline is not None and i % 4 == 2:  # one in four reads far more than it writes: the read floor
        read = roofline.bytes_read or 0
        roofline = roofline.model_copy(update={"bytes_written": read // 64, "bytes_moved": read + read // 64,
                                               "floor": Floor.READ})
    return base.model_copy(update={"correct": True, "error": None, "message": "", "kernel": timing(ms),
                                   "speedup_eager": EAGER_MS / ms, "speedup_compile": EAGER_MS / ms,
                                   "roofline": roofline})


def write_varied_run(db: Database, candidates: int, *, shift: int = 0, islands: int = 1, pending: int = 0,
                     config: dict[str, Any] | None = None) -> dict[str, Any]:
    """A finished run of ``candidates`` evaluated candidates (see the module's docstring) and ``pending`` more
    made but never evaluated (in flight when the run stopped); its id, and the numbers of the candidates whose
    results carry library calls."""
    seed = (GELU / "seed.py").read_text()
    with db.session() as session:
        spec = save_spec(session, read_spec(str(GELU / "spec.py")))
        run = create_run(session, spec_id=spec.id, config={"descriptors": "metadata", "islands": islands,
                                                           **(config or {})}, owner="tests")
        run_id = run.id
    recorder = RunRecorder(db, run_id)
    state = SearchState(descriptors=descriptor_set("metadata"), tie_tolerance=0.08,
                        operators=["template", "llm-mutate"])
    with recorder.batched():
        for i in range(candidates):
            source = seed.replace("BLOCK_SIZE=1024", f"BLOCK_SIZE={1 << (6 + i % 8)}") + f"\n# candidate {i}\n"
            operator = "seed" if i < 2 else "llm-mutate" if i % 3 == 0 else "template"
            note = FORMULA_NOTE if i == 4 else f"candidate {i}: BLOCK_SIZE {1 << (6 + i % 8)}"
            candidate = Candidate(id=i, source=source, operator=operator, parent_ids=[] if i < 2 else [(i * 37) % i],
                                  note=note, island=i % islands)
            state.add_candidate(candidate)
            recorder.add_candidate(candidate)
            recorder.add_evaluations([state.tell(candidate, "h100", varied_result(i, shift))])
        for i in range(candidates, candidates + pending):
            recorder.add_candidate(Candidate(id=i, source=seed + f"\n# pending {i}\n", operator="template",
                                             parent_ids=[0], note="in flight when the run stopped"))
        recorder.progress(snapshot(state, candidates - 1), force=True)  # the runs table's summary
        recorder.flush()
    library = [i for i in range(candidates) if i % 4 == 1 and varied_result(i, shift).ok]
    with db.session() as session:  # as the evaluator records them (EvalResult.library)
        for row in session.scalars(select(EvaluationRow).where(EvaluationRow.run_id == run_id,
                                                               EvaluationRow.candidate_number.in_(library))):
            row.result = {**row.result, "library": LIBRARY}
        session.get_one(RunRow, run_id).status = "finished"
    return {"run_id": run_id, "library": library, "evaluations": candidates, "shift": shift}
