"""``/api/runs/{id}/evaluations/export``: every evaluation of a run as a CSV or JSON file, to download.

One row (one object) per evaluation, in the order they finished, with the descriptors under their
own names. The CSV is for spreadsheets: every text cell that a spreadsheet would read as a formula
(it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading ``'``, so an LLM's
note or a compiler's message can never run as one; numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response

from kernelevo.api.deps import IdPath, ReadDep, SessionDep
from kernelevo.api.routes.evaluations import ERRORS
from kernelevo.archive.descriptors import descriptor_set
from kernelevo.storage import evaluations as stored
from kernelevo.storage.database import utcnow
from kernelevo.storage.evaluations import EvaluationItem
from kernelevo.storage.runs import get_run, run_info

router = APIRouter(prefix="/api/runs", tags=["evaluations"], dependencies=[ReadDep])

MESSAGE_CHARS = 2000  # of each error message: enough for a compiler's first errors, not a whole log
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
COLUMNS = ["number", "evaluation_id", "candidate_id", "candidate_number", "operator", "note", "island", "hardware",
           "correct", "stage", "error", "message", "kernel_ms", "eager_ms", "compile_ms", "speedup_eager",
           "speedup_compile", "roofline", "roofline_floor", "objective", "archive_status", "cell"]
TAIL = ["interpreted", "finished_at", "library_ops", "library_gpu_share"]


def slug(text: str) -> str:
    """A file name part of letters, digits, ``.``, ``_`` and ``-`` only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:80] or "run"


def spreadsheet_safe(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def descriptor_names(config: dict[str, Any], items: list[EvaluationItem]) -> list[str]:
    """The run's descriptor names, in the order its measures are stored (``measure_K`` if the config no longer
    names them)."""
    try:
        names = [d.name for d in descriptor_set(config.get("descriptors", "levels"))]
    except ValueError:
        names = []
    width = max((len(i.measures) for i in items if i.measures), default=len(names))
    return names if len(names) == width else [f"measure_{k}" for k in range(width)]


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def row(item: EvaluationItem, names: list[str]) -> dict[str, Any]:
    """One evaluation as a CSV row: its measures by descriptor name, its library calls summed up."""
    data = item.model_dump(mode="json")
    measures = item.measures if item.measures else [None] * len(names)
    return {**{k: data[k] for k in COLUMNS if k in data}, "evaluation_id": item.id,
            **dict(zip(names, measures, strict=False)), "interpreted": item.interpreted,
            "finished_at": data["finished_at"], "library_ops": item.library.ops() if item.library else None,
            "library_gpu_share": item.library.gpu_share if item.library else None}


def document_row(item: EvaluationItem, names: list[str]) -> dict[str, Any]:
    """One evaluation as a JSON object: the list's fields, its descriptors by name, its library calls in full."""
    data = item.model_dump(mode="json", exclude={"id", "measures"})
    return {"number": item.number, "evaluation_id": item.id, **{k: _finite(v) for k, v in data.items()},
            "descriptors": dict(zip(names, item.measures, strict=False)) if item.measures else None}


def to_csv(rows: list[dict[str, Any]], columns: list[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")  # RFC 4180
    writer.writerow(columns)
    for found in rows:
        writer.writerow(["" if (v := _finite(found.get(c))) is None else spreadsheet_safe(v) if isinstance(v, str)
                         else str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, float) else v
                         for c in columns])
    return out.getvalue()


@router.get("/{run_id}/evaluations/export", response_class=Response, responses={
    200: {"content": {"text/csv": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}},
          "description": "a file to save: one row (object) per evaluation"}, **ERRORS})
def export_evaluations(run_id: IdPath, session: SessionDep, format: Literal["csv", "json"] = "csv") -> Response:
    """Every evaluation of the run, in the order they finished: kernel, operator, verdict, stage and reason, times
    (ms), speedups, roofline fraction and its floor, objective, archive outcome, descriptors, library calls and
    their share of the GPU time, finish time (UTC)."""
    run = run_info(session, get_run(session, run_id))
    items, _ = stored.evaluations(session, run_id, message_chars=MESSAGE_CHARS)
    names = descriptor_names(run.config, items)
    filename = f"{slug(run.spec_name)}-run{run_id}-evaluations.{format}"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if format == "csv":
        table = to_csv([row(item, names) for item in items], [*COLUMNS, *names, *TAIL])
        return Response(table, media_type="text/csv; charset=utf-8", headers=headers)
    document = {"run_id": run_id, "spec": run.spec_name, "hardware": run.hardware, "interpreted": run.interpreted,
                "exported_at": utcnow().isoformat(), "descriptors": names,
                "objective": "natural log of the speedup over PyTorch eager (of the interpreted time ratio on a CPU "
                             "run)", "times": "milliseconds, medians",
                "evaluations": [document_row(item, names) for item in items]}
    return Response(json.dumps(document), media_type="application/json", headers=headers)
