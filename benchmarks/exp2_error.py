"""How far the 'exp through exp2' move's formula is from exp, on a GPU: max relative error against fp64.

The move (kernelevo.variation.moves.restructure) writes ``tl.exp2(LOG2_E * x)`` for libdevice's exact
``exp(x)``; the interpreter computes exp2 in numpy, so only a GPU's ``ex2`` shows the real error.
Both run over 2^24 evenly spaced fp32 values of each range, against ``torch.exp`` in fp64.

    python benchmarks/exp2_error.py --out benchmarks/results/exp2_error-h100.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernelevo.variation.moves.fast_math import LOG2_E

RANGES = ((-16.0, 0.0), (-87.0, 0.0), (0.0, 16.0), (-87.0, 88.0))
SAMPLES = 1 << 24


@triton.jit
def _exps(x_ptr, fast_ptr, exact_ptr, n, LOG2E: tl.constexpr, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + idx, idx < n)
    tl.store(fast_ptr + idx, tl.exp2(LOG2E * x), idx < n)
    tl.store(exact_ptr + idx, libdevice.exp(x), idx < n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for low, high in RANGES:
        x = torch.linspace(low, high, SAMPLES, device="cuda", dtype=torch.float32)
        fast, exact = torch.empty_like(x), torch.empty_like(x)
        _exps[(triton.cdiv(SAMPLES, 1024),)](x, fast, exact, SAMPLES, LOG2E=LOG2_E, BLOCK=1024)
        truth = torch.exp(x.double())
        normal = truth >= torch.finfo(torch.float32).tiny  # below it, ex2 flushes to zero: compare absolutely
        row = {"range": [low, high], "samples": SAMPLES}
        for name, got in (("exp2_move", fast), ("libdevice_exp", exact)):
            rel = ((got.double() - truth).abs() / truth)[normal]
            row[name] = {"max_rel": rel.max().item(), "mean_rel": rel.mean().item(),
                         "max_abs_below_normal": (got.double() - truth).abs()[~normal].max().item()
                         if (~normal).any() else None}
        rows.append(row)
        print(json.dumps(row), flush=True)
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
