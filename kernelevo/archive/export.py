"""Elites leaving the system: a drop-in module for the best kernel, and the archive as JSON.

For each hardware type of a run, under ``<directory>/<hardware>/<spec>/``:

- ``best.py``: the best elite, self-contained, behind a header with the spec's hash, the
  hardware, the measured times and speedups, and the tool versions;
- ``archive.json``: every elite (cell, descriptors, objective, timings, source, lineage).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import kernelevo
from kernelevo.records.result import EvalResult

if TYPE_CHECKING:
    from kernelevo.records.candidate import Candidate
    from kernelevo.search.state import SearchState
    from kernelevo.spec import Spec


def _lineage(state: SearchState, candidate: Candidate) -> list[str]:
    chain, seen = [], set()
    current: Candidate | None = candidate
    while current is not None and current.id not in seen:
        seen.add(current.id)
        chain.append(f"#{current.id} {current.operator}" + (f" ({current.note})" if current.note else ""))
        current = state.candidates.get(current.parent_ids[0]) if current.parent_ids else None
    return chain


def header(spec: Spec, candidate: Candidate, result: EvalResult | None, hardware: str) -> str:
    lines = [
        f"kernelevo {kernelevo.__version__}: best kernel for spec {spec.name!r}",
        f"spec sha256: {spec.sha256}",
        f"hardware: {hardware}",
        f"exported: {dt.datetime.now(dt.UTC).isoformat(timespec='seconds')}",
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


def export_run(state: SearchState, spec: Spec, directory: Path) -> list[Path]:
    """Write best.py and archive.json for every hardware type; returns the files written."""
    written = []
    for hardware in state.hardware_types():
        best = state.best(hardware)
        if best is None:
            continue
        target = Path(directory) / hardware / spec.name
        target.mkdir(parents=True, exist_ok=True)
        _, candidate = best
        result = state.result_of(candidate.id, hardware)
        module = header(spec, candidate, result, hardware) + _strip_docstring(candidate.source)
        (target / "best.py").write_text(module)
        (target / "archive.json").write_text(json.dumps(archive_document(state, spec, hardware), indent=1))
        written += [target / "best.py", target / "archive.json"]
    return written


def archive_document(state: SearchState, spec: Spec, hardware: str) -> dict[str, Any]:
    elites = []
    for (island, hw), archive in sorted(state.archives.items()):
        if hw != hardware:
            continue
        for elite in sorted(archive.elites(), key=lambda e: -e.objective):
            candidate = state.candidates[elite.candidate_id]
            result = state.result_of(elite.candidate_id, hardware)
            elites.append({
                "candidate_id": elite.candidate_id, "island": island, "cell": elite.cell,
                "descriptors": dict(zip([d.name for d in state.descriptors], elite.measures, strict=True)),
                "objective": elite.objective, "operator": candidate.operator, "note": candidate.note,
                "lineage": _lineage(state, candidate), "source": candidate.source,
                "result": json.loads(result.model_dump_json()) if result else None,
            })
    return {
        "spec": spec.name, "spec_sha256": spec.sha256, "hardware": hardware,
        "descriptors": [{"name": d.name, "low": d.low, "high": d.high, "cells": d.cells, "doc": d.doc}
                        for d in state.descriptors],
        "objective": "natural log of the speedup over PyTorch eager",
        "evaluations": state.evaluated_count(), "elites": elites,
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
