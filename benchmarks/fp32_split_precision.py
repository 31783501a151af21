"""fp32 GEMMs on tensor cores with split TF32 ("tf32x3"), judged against cuBLAS's fp32 GEMM, on a GPU.

Eight of the suite's specs stand at 0.99x to 1.00x torch.compile on an H200 because their time is one
fp32 cuBLAS GEMM, the same call torch.compile makes, and no other vendor kernel behind that call is
faster (`library_backends.py`). An fp32 GEMM without TF32 runs on the CUDA cores (about 51 TFLOP/s on an
H200). Split TF32 runs it on the tensor cores: each fp32 operand is written as a TF32 high part plus a
TF32 low part, and three TF32 products (hi*hi + hi*lo + lo*hi) keep about 21 of fp32's 24 mantissa
bits of each product, with fp32 accumulation (CUTLASS's 3xTF32; Triton's ``input_precision="tf32x3"``).
This script judges the project's own Triton GEMM (the library-GEMM move's kernel) in the three
precisions, with several tiles, beside the library call, against eager and torch.compile in one judge,
so the verdicts are the judge's own (plain TF32 is the control that the tolerance must reject):

    python benchmarks/fp32_split_precision.py --out benchmarks/results/fp32_split_precision-h200.json
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
from kernelevo.variation.moves.library_gemm import gemm_swaps  # noqa: E402
from kernelevo.variation.source.source_text import SourceText  # noqa: E402

LIBRARY = '''
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, A, B):
        C = torch.{op}(A, B)
        return C
'''
SPECS = {"matmul_square": "mm", "matmul_batched": "bmm", "matmul_large_k": "mm"}
WRITTEN = "BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8"
TILES = [(128, 128, 32, 8, 3), (128, 256, 32, 8, 3), (128, 128, 32, 4, 4), (64, 128, 32, 4, 4), (128, 128, 16, 8, 4)]


def candidates(op: str, split: bool) -> dict[str, str]:
    library = LIBRARY.format(op=op)
    moves = gemm_swaps(library, ast.parse(library), SourceText(library))
    own = next(m.apply() for m in moves if ("K split" in m.label) == split)
    out = {"library": library}
    for precision in ("ieee", "tf32x3", "tf32"):
        tiles = TILES if precision == "tf32x3" else TILES[:1]
        for bm, bn, bk, warps, stages in tiles:
            source = own.replace("PRECISION='ieee' if", f"PRECISION='{precision}' if")
            source = source.replace(WRITTEN, f"BLOCK_M={bm}, BLOCK_N={bn}, BLOCK_K={bk}, GROUP_M=8")
            source = source.replace("num_warps=8, num_stages=3", f"num_warps={warps}, num_stages={stages}")
            out[f"own {precision} {bm}x{bn}x{bk} w{warps} s{stages}"] = source
    return out


def judged_row(name: str, label: str, r) -> dict:
    """One judged candidate's row (verdict, times, worst error, the tolerances the judge widened), printed too."""
    row = {"spec": name, "candidate": label, "correct": r.correct, "error": r.error,
           "message": r.message[:300], "median_ms": r.kernel.median_ms if r.kernel else None,
           "iqr_ms": r.kernel.iqr_ms if r.kernel else None,
           "compile_ms": r.compiled.median_ms if r.compiled else None,
           "speedup_compile": r.speedup_compile,
           "tolerances": [t.model_dump() for t in r.tolerances],
           "worst_error": r.mismatch.model_dump() if r.mismatch else None}
    print(f"{name:16s} {label:32s} correct={r.correct!s:5s} {row['median_ms'] or 0:8.3f} ms  "
          f"x compile {r.speedup_compile or 0:.3f}  {r.error or ''} {r.message[:120] if r.error else ''}", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", default=",".join(SPECS))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import torch

    rows = []
    for name in args.specs.split(","):
        spec = read_spec(ROOT / "benchmarks" / "suite" / f"{name}.py")
        with Evaluator(spec, EvalOptions(baselines=["eager", "compile"])) as evaluator:
            for label, source in candidates(SPECS[name], split=name == "matmul_large_k").items():
                r = evaluator.evaluate(source)
                rows.append(judged_row(name, label, r))
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
              "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
              "torch": torch.__version__, "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
