"""Elites leaving the system: a drop-in module for the best kernel, and the archive as JSON.

Read from the database (what the search stored), for each hardware type of a run, under
``<directory>/<hardware>/<spec>/`` (both made valid names: :func:`kernelevo.spec.names.path_under`):

- ``best.py``: the best elite, self-contained, behind a header of comments (one JSON value a
  line) with the spec's hash, the hardware, the measured times and speedups, and the tool versions;
- ``archive.json``: every elite (cell, descriptors, objective, timings, source, lineage).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import kernelevo
from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.result import EvalResult
from kernelevo.spec.names import path_under, slugify
from kernelevo.storage.database import Database
from kernelevo.storage.queries import ArchiveElite, archive, evaluations_of, get_candidate, lineage
from kernelevo.storage.runs import get_run, get_spec, spec_of
from kernelevo.storage.tables import CandidateRow

HEADER_FIRST = "# -*- coding: utf-8 -*-"


def _line(key: str, value: Any) -> str:
    """``# key: <value as JSON>``: one line whatever the value holds. JSON escapes quotes, backslashes,
    every control character and (ensure_ascii) every non-ASCII one, U+2028 included, so no value can end
    the comment, start a statement or change how Python decodes the file."""
    return f"# {key}: {json.dumps(value, ensure_ascii=True, default=str)}"


def header(spec_name: str, spec_sha256: str, result: EvalResult | None, hardware: str, made_at: float,
           candidate: dict[str, Any] | None = None) -> str:
    """The provenance header of an exported kernel: spec, hardware, when it was made, timings, versions.

    Comments only, each value JSON on its own line (:func:`_line`): the header is data, never code,
    whatever a spec's name, a hardware type or a model's name holds. The first line declares the
    encoding, so no value on line two can (PEP 263 reads a ``coding:`` comment on the first two lines).
    Nothing in it depends on when it is exported: the same kernel downloads as the same bytes."""
    lines = [
        HEADER_FIRST,
        f"# kernelevo {kernelevo.__version__}: the best kernel of a search, as a drop-in module; "
        "provenance below, one JSON value a line",
        _line("spec", spec_name),
        _line("spec sha256", spec_sha256),
        _line("hardware", hardware),
        _line("made", dt.datetime.fromtimestamp(made_at, dt.UTC).isoformat(timespec="seconds")),
    ]
    if candidate:
        lines.append(_line("candidate", candidate))
    if result is not None:
        env = result.environment
        if env is not None:
            lines.append(_line("measured on", {"device": env.device_name, "host": env.hostname, "torch": env.torch,
                                               "triton": env.triton, "python": env.python, "cuda": env.cuda}))
        if result.interpreted:
            lines.append(_line("timings", "Triton's CPU interpreter (correctness only; not a GPU speed)"))
        elif result.kernel is not None:
            parts = [f"median {result.kernel.median_ms:.4f} ms (IQR {result.kernel.iqr_ms:.4f})",
                     *result.speed_parts()]
            lines.append(_line("timings", ", ".join(parts)))
        lines.append(_line("variants checked", list(result.variants_checked)))
    return "\n".join(lines) + "\n\n"


def drop_in_module(candidate: CandidateRow, result: EvalResult | None, *, spec_name: str, spec_sha256: str,
                   hardware: str) -> str:
    """The candidate as a self-contained module behind its provenance header (comments only)."""
    made_by = {"run": candidate.run_id, "number": candidate.number, "operator": candidate.operator,
               "model": candidate.model}
    return header(spec_name, spec_sha256, result, hardware, candidate.created_at, made_by) + \
        _strip_docstring(candidate.source)


def module_filename(spec_name: str, run_id: int, number: int) -> str:
    """The download's file name: a valid name whatever the stored spec name holds (rows from before the rule)."""
    return f"{slugify(spec_name)}-run{run_id}-candidate{number}.py"


def export_run(db: Database, run_id: int, directory: Path) -> list[Path]:
    """Write best.py and archive.json for every hardware type of the run; returns the files written."""
    written = []
    with db.session() as session:
        run = get_run(session, run_id)
        spec_row = get_spec(session, run.spec_id)
        spec = spec_of(spec_row)
        elites = archive(session, run_id)
        hardware_types = sorted({e.hardware for e in elites})
        for hardware in hardware_types:
            mine = [e for e in elites if e.hardware == hardware]
            top = mine[0]  # fastest first
            best = get_candidate(session, top.candidate_id)
            assert best is not None
            result = next((e.result for e in evaluations_of(session, best.id) if e.hardware == hardware), None)
            target = path_under(directory, hardware, spec.name)  # names, never paths: no '..', no '/'
            target.mkdir(parents=True, exist_ok=True)
            (target / "best.py").write_text(drop_in_module(best, result, spec_name=spec.name,
                                                           spec_sha256=spec.sha256, hardware=hardware))
            document = _archive_document(session, run_id, spec.name, spec.sha256, hardware, mine,
                                         run.config.get("descriptors", "levels"), run.evaluations)
            (target / "archive.json").write_text(json.dumps(document, indent=1))
            written += [target / "best.py", target / "archive.json"]
    return written


def _archive_document(session: Any, run_id: int, spec_name: str, spec_sha256: str, hardware: str,
                      elites: list[ArchiveElite], descriptors: str, evaluations: int) -> dict[str, Any]:
    described = descriptor_set(descriptors)
    rows = []
    for elite in elites:
        candidate = get_candidate(session, elite.candidate_id)
        assert candidate is not None
        result = next((e.result for e in evaluations_of(session, candidate.id) if e.hardware == hardware), None)
        rows.append({
            "candidate_id": elite.candidate_number, "island": elite.island, "cell": elite.cell,
            "descriptors": dict(zip([d.name for d in described], elite.measures, strict=False)),
            "objective": elite.objective, "operator": candidate.operator, "note": candidate.note,
            "lineage": [f"#{c.number} {c.operator}" + (f" ({c.note})" if c.note else "")
                        for c in lineage(session, candidate)],
            "source": candidate.source, "result": result.model_dump(mode="json") if result else None,
        })
    return {
        "spec": spec_name, "spec_sha256": spec_sha256, "hardware": hardware, "run_id": run_id,
        "descriptors": [{"name": d.name, "low": d.low, "high": d.high, "cells": d.cells, "doc": d.doc}
                        for d in described],
        "objective": "natural log of the speedup over PyTorch eager",
        "evaluations": evaluations, "elites": rows,
    }


def _strip_docstring(source: str) -> str:
    """The candidate without its own module docstring (the header replaces it)."""
    import ast

    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        lines = source.splitlines(keepends=True)
        return "".join(lines[first.end_lineno or 0:]).lstrip("\n")
    return source
