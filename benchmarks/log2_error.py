"""How far the 'log through lg2' move's formula is from log, on a GPU: its error against fp64.

The move (kernelevo.variation.moves.restructure) writes the hardware's ``lg2.approx.f32`` times ln 2 for
Triton's ``tl.log`` (a software polynomial from libdevice); inline PTX does not run on the CPU interpreter, so
only a GPU shows its error. Both run over 2^24 fp32 values of each range (evenly spaced, or evenly spaced
exponents for the wide ranges), against ``torch.log`` in fp64. Near x = 1, where log x is near 0, the error is
absolute: the relative one is reported only where |log x| >= 0.1.

    python benchmarks/log2_error.py --out benchmarks/results/log2_error-h200.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernelevo.variation.moves.fast_math import LN_2

SAMPLES = 1 << 24
# (name, low, high, spacing): "linear" in x, "exponent" in log2 x
RANGES = (("near 1", 0.5, 2.0, "linear"), ("a softmax's outputs", 1e-7, 1.0, "linear"),
          ("normal fp32", -126.0, 127.0, "exponent"), ("subnormal fp32", -149.0, -126.0, "exponent"))


@triton.jit
def _logs(x_ptr, fast_ptr, exact_ptr, n, LN2: tl.constexpr, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + idx, idx < n)
    # as the move writes it (fast_math.HW_LOG2)
    fast = tl.inline_asm_elementwise("lg2.approx.f32 $0, $1;", "=f,f", [(x).to(tl.float32)], dtype=tl.float32,
                                     is_pure=True, pack=1) * LN2
    tl.store(fast_ptr + idx, fast, idx < n)
    tl.store(exact_ptr + idx, tl.log(x), idx < n)


def _inputs(low: float, high: float, spacing: str) -> torch.Tensor:
    points = torch.linspace(low, high, SAMPLES, device="cuda", dtype=torch.float64)
    return (torch.exp2(points) if spacing == "exponent" else points).float()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for name, low, high, spacing in RANGES:
        x = _inputs(low, high, spacing)
        x = x[x > 0]
        fast, exact = torch.empty_like(x), torch.empty_like(x)
        _logs[(triton.cdiv(x.numel(), 1024),)](x, fast, exact, x.numel(), LN2=LN_2, BLOCK=1024)
        truth = torch.log(x.double())
        away_from_one = truth.abs() >= 0.1
        row = {"range": name, "low": low, "high": high, "spacing": spacing, "samples": x.numel()}
        for label, got in (("lg2_move", fast), ("triton_log", exact)):
            error = (got.double() - truth).abs()
            row[label] = {"max_abs": error.max().item(), "mean_abs": error.mean().item(),
                          "max_rel_where_abs_log_ge_0.1": (error / truth.abs())[away_from_one].max().item()
                          if away_from_one.any() else None,
                          "non_finite": int((~torch.isfinite(got)).sum().item())}
        rows.append(row)
        print(json.dumps(row), flush=True)
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
