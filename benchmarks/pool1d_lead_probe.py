"""Probe (issue 37): what the aligned-store form of the `vectors` pool pays for choosing its taps at run time.

The family's `_kev_pool_vectors` aligns each thread's 4 outputs in Y, so the inputs' alignment (`lead`) differs by
row and the taps are picked by a 4-way branch. The form before it had one lead (a constexpr) and unaligned stores,
and ran 15% faster when handed rows of 32,768 outputs (aligned: `results/pool_cache_hints-h200.json`'s probe). This
times, on rows of 32,768 (every row's lead 0), the form before (maxpool1d's archived best before it,
`results/maxpool1d-best-before-aligned-stores.py`), the family's form, and the family's form with the branch replaced
by the lead-0 taps, each at blocks and warps; do_bench medians, ms.

    python benchmarks/pool1d_lead_probe.py OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import torch
import triton
from kernel_text import kernels_module, load_module

KW, DW, PW = 8, 3, 4
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    from kernelevo.variation.seeding.families.pool_kernels import KERNELS

    old = load_module(ROOT / "benchmarks" / "results" / "maxpool1d-best-before-aligned-stores.py", "maxpool1d_before")
    new = kernels_module(KERNELS, "kev_pool_now")
    one = kernels_module(KERNELS.replace("if lead == 0:", "if True:"), "kev_pool_one_lead")
    x = torch.randn(32, 128, 32768, device="cuda")
    ow = 32768
    bench = triton.testing.do_bench
    report: dict[str, Any] = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__, "ms": {}}
    y = torch.empty(32, 128, ow, device="cuda")
    vectors = (3 + DW * (KW - 1) + 3) // 4 + 1
    taps = {f"TAPS{lead}": new._kev_pool_taps_asm(0, KW, DW, lead) for lead in range(4)}
    for block, warps in ((512, 4), (512, 2), (1024, 2), (1024, 4)):
        grid = (4096 * triton.cdiv(ow, block),)
        runs = {  # each timed before the loop moves on
            "previous (one constexpr lead)": lambda: old._kev_pool_vectors[grid](  # noqa: B023
                x, y, 32768, ow, op=0, KW=KW, PW=PW, DW=DW, LEAD=0, VECTORS=7, TAPS=taps["TAPS0"],
                BLOCK=block, num_warps=warps),  # noqa: B023
            "now (lead by row, 4-way branch)": lambda: new._kev_pool_vectors[grid](  # noqa: B023
                x, y, 32768, ow, op=0, KW=KW, PW=PW, DW=DW, VECTORS=vectors, **taps, ALIGN=4,
                BLOCK=block, num_warps=warps),  # noqa: B023
            "now, the branch taken out": lambda: one._kev_pool_vectors[grid](  # noqa: B023
                x, y, 32768, ow, op=0, KW=KW, PW=PW, DW=DW, VECTORS=vectors, **taps, ALIGN=4,
                BLOCK=block, num_warps=warps),  # noqa: B023
        }
        for label, run in runs.items():
            report["ms"][f"{label} @ {block}x{warps}"] = bench(run, return_mode="median")
            print(label, block, warps, report["ms"][f"{label} @ {block}x{warps}"], flush=True)
    Path(sys.argv[1]).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
