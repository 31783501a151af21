"""Experiment (issue 37): a 1-D max pool from aligned vector loads, its taps picked from registers.

maxpool1d (window 8, stride 1, padding 4, dilation 3, over 32 x 128 x 32,768 fp32) stands at 70% of its floor, held
by the SMs' issue rate: its best kernel when the sweep was recorded (the family's `rows`, tuned; the archive now
holds the kernel below) made 8 scalar loads per output, each tap's offset (3k - 4) being unaligned. Here each thread
holds 4 consecutive outputs: the 25 inputs their windows span are 7 aligned 16-byte loads (the block's input shifted
by 0, 4, ..., 24 elements), and one inline PTX block per 4 outputs takes each output's 8 taps from those 28
registers (operand 4 + r holds the input r elements after the first vector's start) with `max.NaN.f32`: 7 vector
loads and 28 maxima per 4 outputs, where the best makes 32 loads and 28 maxima. Programs at a row's ends take the
masked path.

Times the pooling family's `_kev_pool_vectors` and `_kev_pool_taps_asm` (`kernelevo/variation/seeding/families/
pool_kernels.py`; the recorded sweep ran them as first written here: the same loads, 7 vectors instead of up to
8, the maxima without a first `mov`) over blocks and warps against eager, torch.compile and the archived best,
each checked against eager first (NaN inputs included); triton.testing.do_bench (L2 cleared), median ms.
`results/pool1d_vector_sweep-h200.json` is that first form's; `pool1d_vector_sweep-aligned-stores-h200.json` the
family's form now, which also stores each thread's 4 outputs as one aligned vector (a row's blocks start where
the output is aligned, `benchmarks/results/pool_cache_hints-h200.json`'s probe);
`pool1d_vector_sweep-maxnreg-h200.json` adds launches with the registers a thread capped (`maxnreg`).

    python benchmarks/pool1d_vector_sweep.py OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import torch
import triton
from kernel_text import kernels_module, load_module

KW, DW, PW = 8, 3, 4  # the suite's maxpool1d (stride 1)


def _family_kernels() -> Any:
    from kernelevo.variation.seeding.families.pool_kernels import KERNELS

    return kernels_module(KERNELS, "kev_pool_kernels")


_FAMILY = _family_kernels()
VECTORS = (3 + DW * (KW - 1) + 3) // 4 + 1
TAPS = {f"TAPS{lead}": _FAMILY._kev_pool_taps_asm(0, KW, DW, lead) for lead in range(4)}


def pool(x: torch.Tensor, block: int, warps: int, align: int = 4, row: int | None = None,
         regs: int | None = None) -> torch.Tensor:
    """``align``: the outputs a row's blocks are aligned to; ``row``: output rows that long (a probe of aligned
    rows, not the spec's layout); ``regs``: the registers a thread may use (``maxnreg``; None: ptxas's choice)."""
    w = x.shape[-1]
    ow = row or w + 2 * PW - DW * (KW - 1)
    planes = x.numel() // w
    y = torch.empty(*x.shape[:-1], ow, device=x.device, dtype=x.dtype)
    _FAMILY._kev_pool_vectors[(planes * triton.cdiv(ow + align - 1, block),)](
        x, y, w, ow, op=0, KW=KW, PW=PW, DW=DW, VECTORS=VECTORS, **TAPS, ALIGN=align, BLOCK=block, num_warps=warps,
        maxnreg=regs)
    return y


def _archived_best() -> Any:
    path = Path(__file__).resolve().parents[1] / "archives" / "h200" / "maxpool1d" / "best.py"
    return load_module(path, "maxpool1d_best").ModelNew()


def main() -> None:
    out = sys.argv[1]
    torch.manual_seed(0)
    x = torch.randn(32, 128, 32768, device="cuda")
    x.view(-1)[::9973] = float("nan")  # NaN windows must come out NaN, as eager's
    eager = torch.nn.MaxPool1d(KW, stride=1, padding=PW, dilation=DW)
    compiled = torch.compile(eager)
    want = eager(x)
    bench = triton.testing.do_bench
    best = _archived_best()
    copy = torch.empty_like(x)
    report: dict[str, Any] = {
        "gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
        "read_ms": bench(lambda: x.sum(), return_mode="median"),  # the input read once, nothing written
        "copy_ms": bench(lambda: copy.copy_(x), return_mode="median"),
        "eager_ms": bench(lambda: eager(x), return_mode="median"),
        "compile_ms": bench(lambda: compiled(x), return_mode="median"), "vector": {}}
    assert torch.allclose(best(x), want, rtol=0, atol=0, equal_nan=True)
    report["archived_best_ms"] = bench(lambda: best(x), return_mode="median")
    for block in (256, 512, 1024, 2048):
        for warps in (1, 2, 4, 8):
            for align in (4, 32):
                if not 4 <= block // (32 * warps) <= 32 or align > block:
                    continue
                got = pool(x, block, warps, align)
                right = torch.allclose(got, want, rtol=0, atol=0, equal_nan=True)
                key = f"{block}x{warps} align {align}"
                report["vector"][key] = (bench(lambda b=block, w=warps, a=align: pool(x, b, w, a),
                                               return_mode="median") if right else "wrong output")
                print(key, report["vector"][key], flush=True)
    # the kernel takes 40 to 47 registers a thread at 4 warps (ptxas for sm_90), where the form before took 32:
    # capped at 32 (a few spills) it would keep more warps in flight
    for block, warps in ((512, 4), (512, 2), (1024, 4), (1024, 8), (2048, 8), (256, 2)):
        for regs in (32, 40):
            key = f"{block}x{warps} align 4 maxnreg {regs}"
            got = pool(x, block, warps, 4, None, regs)
            right = torch.allclose(got, want, rtol=0, atol=0, equal_nan=True)
            report["vector"][key] = (bench(lambda b=block, w=warps, r=regs: pool(x, b, w, 4, None, r),
                                           return_mode="median") if right else "wrong output")
            print(key, report["vector"][key], flush=True)
    # a probe: rows of 32,768 outputs (each row aligned), the spec's 32,755 written into longer rows
    report["aligned_rows_probe"] = {f"{b}x{w}": bench(lambda b=b, w=w: pool(x, b, w, 4, 32768), return_mode="median")
                                    for b, w in ((512, 4), (1024, 2), (512, 2))}
    print(report["aligned_rows_probe"], flush=True)
    timed = {k: v for k, v in report["vector"].items() if isinstance(v, float)}
    if timed:
        report["vector_best"] = min((v, k) for k, v in timed.items())
    print({k: v for k, v in report.items() if k != "vector"}, flush=True)
    Path(out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
