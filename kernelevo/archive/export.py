"""Elites leaving the system: a drop-in module for the best kernel, and the archive as JSON.

Read from the database (what the search stored), for each hardware type of a run, under
``<directory>/<hardware>/<spec>/``:

- ``best.py``: the best elite, self-contained, behind a header with the spec's hash, the
  hardware, the measured times and speedups, and the tool versions;
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
from kernelevo.storage.database import Database
from kernelevo.storage.queries import ArchiveElite, archive, evaluations_of, get_candidate, lineage
from kernelevo.storage.runs import get_run, get_spec, spec_of
from kernelevo.storage.tables import CandidateRow


def header(spec_name: str, spec_sha256: str, result: EvalResult | None, hardware: str, made_at: float) -> str:
    """The provenance header of an exported kernel: spec, hardware, when it was made, timings, versions.
    Nothing in it depends on when it is exported: the same kernel downloads as the same bytes."""
    lines = [
        f"kernelevo {kernelevo.__version__}: best kernel for spec {spec_name!r}",
        f"spec sha256: {spec_sha256}",
        f"hardware: {hardware}",
        f"made: {dt.datetime.fromtimestamp(made_at, dt.UTC).isoformat(timespec='seconds')}",
    ]
    if result is not None:
        env = result.environment
        if env is not None:
            lines.append(f"measured on: {env.device_name} ({env.hostname}); torch {env.torch}, triton {env.triton}, "
                         f"python {env.python}" + (f", CUDA {env.cuda}" if env.cuda else ""))
        if result.interpreted:
            lines.append("timings: Triton's CPU interpreter (correctness only; not a GPU speed)")
        elif result.kernel is not None:
            parts = [f"median {result.kernel.median_ms:.4f} ms (IQR {result.kernel.iqr_ms:.4f})",
                     *result.speed_parts()]
            lines.append("timings: " + ", ".join(parts))
        lines.append(f"variants checked: {', '.join(result.variants_checked)}")
    return '"""' + "\n".join(lines) + '\n"""\n'


def drop_in_module(candidate: CandidateRow, result: EvalResult | None, *, spec_name: str, spec_sha256: str,
                   hardware: str) -> str:
    """The candidate as a self-contained module behind its provenance header."""
    return header(spec_name, spec_sha256, result, hardware, candidate.created_at) + _strip_docstring(candidate.source)


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
            target = Path(directory) / hardware / spec.name
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
