"""Judge a seed's versions (the seed and what a move made of it) in one evaluator, one row each.

Shared by the benchmarks that compare a seed with its moved versions (grid_stride.py,
fused_epilogue.py): one evaluator per spec, so every version is timed by the same judge and
the same eager and torch.compile baselines.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import Spec


def judge_versions(spec: Spec, versions: dict[str, str], device: str, **fields: Any) -> list[dict[str, Any]]:
    """One row per version (``fields`` added to each), printed as it is judged."""
    baselines = ["eager"] if device == "cpu" else ["eager", "compile"]
    rows = []
    with Evaluator(spec, EvalOptions(device=device, baselines=baselines)) as evaluator:
        for name, source in versions.items():
            r = evaluator.evaluate(source)
            rows.append({"spec": spec.name, **fields, "version": name, "correct": r.correct,
                         "error": str(r.error) if r.error else None, "message": (r.message or "")[:400],
                         "ms": r.kernel.median_ms if r.kernel else None,
                         "compile_ms": r.compiled.median_ms if r.compiled else None,
                         "speedup_eager": r.speedup_eager, "speedup_compile": r.speedup_compile,
                         "device": r.environment.device_name if r.environment else None})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def write_rows(out: Path | None, rows: list[dict[str, Any]]) -> None:
    if out:
        out.write_text(json.dumps({"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "rows": rows},
                                  indent=2))
