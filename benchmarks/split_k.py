"""The project's own Triton GEMM with K split over programs, against the library call, on a GPU.

A GEMM with a long K and a small output (KernelBench level 1 problem 6: (256 x 262144) @ (262144 x 256),
fp32) has 4 tiles of 128 x 128 for 132 SMs: one program a tile leaves the GPU nearly idle, and sums
8,192 dot products of a tile in one fp32 order. The library-GEMM move (kernelevo.variation.moves.library_gemm)
writes the GEMM with K split over programs; this script judges it at the spec's own sizes for several
splits, beside the library call, each against eager and torch.compile in the same judge:

    python benchmarks/split_k.py --out benchmarks/results/split_k-h100.json
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation import EvalOptions, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.moves.library_gemm import SPLIT, gemm_swaps  # noqa: E402
from kernelevo.variation.source.source_text import SourceText  # noqa: E402

LIBRARY = '''
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, A, B):
        C = torch.mm(A, B)
        return C
'''


def candidates(splits: list[int]) -> dict[str, str]:
    moves = {m.label: m.apply() for m in gemm_swaps(LIBRARY, ast.parse(LIBRARY), SourceText(LIBRARY))}
    split = moves[f"torch.mm -> a Triton GEMM of its own (_kev_gemm_0, K split {SPLIT} ways)"]
    out = {"library torch.mm": LIBRARY}
    for n in splits:
        written = f"_kev_gemm_0_split_k = {SPLIT}"
        out[f"own GEMM, K split {n} ways"] = split.replace(written, f"_kev_gemm_0_split_k = {n}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", default=str(ROOT / "benchmarks" / "suite" / "matmul_large_k.py"))
    parser.add_argument("--splits", default="1,8,16,32,64,128")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    import torch

    spec = read_spec(args.spec)
    rows = []
    with Evaluator(spec, EvalOptions(baselines=["eager", "compile"])) as evaluator:
        for label, source in candidates([int(s) for s in args.splits.split(",")]).items():
            r = evaluator.evaluate(source)
            row = {"candidate": label, "correct": r.correct, "error": r.error, "message": r.message[:300],
                   "median_ms": r.kernel.median_ms if r.kernel else None,
                   "iqr_ms": r.kernel.iqr_ms if r.kernel else None,
                   "compile_ms": r.compiled.median_ms if r.compiled else None,
                   "speedup_compile": r.speedup_compile, "speedup_eager": r.speedup_eager,
                   "worst_error": r.mismatch.model_dump() if r.mismatch else None}
            rows.append(row)
            print(f"{label:28s} correct={r.correct!s:5s} {row['median_ms'] or 0:8.3f} ms  "
                  f"x compile {r.speedup_compile or 0:.3f}  {r.error or ''}", flush=True)
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "spec": spec.name,
              "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
              "torch": torch.__version__, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
