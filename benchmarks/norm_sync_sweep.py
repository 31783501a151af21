"""Experiment (issue 37): normalizations whose input is read once from DRAM, in one launch. Set aside: at best
66% of the copy floor on GroupNorm and BatchNorm2d (`results/norm_sync_sweep-h200.json`), where the family's
split and looped forms stand at 61-63%; slower than the standing bests on LayerNorm and InstanceNorm2d.

Times, on the GPU it runs on, `_kev_norm_sync` below (PARTS programs a row publish partial statistics, wait for
each other, then normalize from registers and L2; built on the normalization family's helper kernels) over chunk
sizes, warps and a pause between polls, against eager, torch.compile and a copy of the input (the copy
floor, measured in the same process), at the suite's LayerNorm, GroupNorm, BatchNorm2d and InstanceNorm2d sizes
(16 x 64 x 256 x 256 fp32). Every launch is checked against eager first. triton.testing.do_bench (the L2
cleared before each run), median ms. The report is rewritten after each spec.

    python benchmarks/norm_sync_sweep.py OUT.json
    python benchmarks/norm_sync_sweep.py OUT.json --long   # 4 to 32 chunks a program
"""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

import torch
import triton
from kernel_text import kernels_module

SYNC_KERNEL = '''
@triton.jit
def _kev_norm_sync(X, Y, W, B, PARTIALS, COUNT, M, INNER, ROW_STRIDE, SEG_STRIDE, CHUNKS, PARTS, G, CPG, HWA, eps,
                   stat: tl.constexpr, affine: tl.constexpr, has_bias: tl.constexpr, TILES: tl.constexpr,
                   BLOCK: tl.constexpr, BLOCK_P: tl.constexpr, WAIT_NS: tl.constexpr):
    """Split statistics and the normalization in one launch, the input read once from DRAM: PARTS programs
    per row each reduce TILES chunks of BLOCK of one segment, publish their partial statistics, wait for
    the row's other programs, then normalize their first chunk from registers and the rest from L2 (it read
    them microseconds before).

    Waiting is safe because every program a row waits on runs: work goes by tickets taken in the order
    programs start (``COUNT[M]``), so no program of row m + 1 has a ticket before all of row m's do, and the
    host keeps PARTS within the GPU's SMs, each of which holds at least one program. ``COUNT[m]`` counts
    row m's arrivals. PARTIALS holds (count, mean, m2) per program, ``3 * M * PARTS`` floats."""
    t = tl.atomic_add(COUNT + M, 1)
    m = t // PARTS
    p = t % PARTS
    j = p // CHUNKS
    start = (p % CHUNKS) * (TILES * BLOCK)
    offs = tl.arange(0, BLOCK)
    row = m.to(tl.int64) * ROW_STRIDE + j * SEG_STRIDE
    mask0 = start + offs < INNER
    x0 = tl.load(X + row + start + offs, mask=mask0, other=0.0).to(tl.float32)
    n, mean, m2 = _kev_chunk(x0, mask0, stat)
    for i in range(1, TILES):
        s = start + i * BLOCK + offs
        mask = s < INNER
        x = tl.load(X + row + s, mask=mask, other=0.0).to(tl.float32)
        n_b, mean_b, m2_b = _kev_chunk(x, mask, stat)
        n, mean, m2 = _kev_merge(n, mean, m2, n_b, mean_b, m2_b, stat)
    total = M * PARTS
    slot = m.to(tl.int64) * PARTS + p
    tl.store(PARTIALS + slot, n)
    tl.store(PARTIALS + total + slot, mean)
    tl.store(PARTIALS + 2 * total + slot, m2)
    tl.debug_barrier()  # every thread's stores before the arrival that publishes them
    tl.atomic_add(COUNT + m, 1, sem="release")
    arrived = tl.load(COUNT + m, volatile=True)
    while arrived < PARTS:
        if WAIT_NS > 0:  # a waiting program's polls, spaced: every poll of a row goes to one L2 slice
            tl.inline_asm_elementwise("nanosleep.u32 $1; mov.u32 $0, $1;", "=r,r", [arrived * 0 + WAIT_NS],
                                      dtype=tl.int32, is_pure=False, pack=1)
        arrived = tl.load(COUNT + m, volatile=True)
    tl.atomic_add(COUNT + m, 0, sem="acquire")
    # The partials' loads are volatile and behind a barrier: plain loads were hoisted above the wait
    # (measured: rows normalized with half-written partials)
    tl.debug_barrier()
    q = tl.arange(0, BLOCK_P)
    q_mask = q < PARTS
    base = m.to(tl.int64) * PARTS + q
    n_q = tl.load(PARTIALS + base, mask=q_mask, other=0.0, volatile=True)
    part = tl.load(PARTIALS + total + base, mask=q_mask, other=0.0, volatile=True)
    n = tl.sum(n_q, axis=0)
    if stat == 0:
        shift = tl.sum(n_q * part, axis=0) / n  # the chunks' means weighted by their counts
        d = tl.where(q_mask, part - shift, 0.0)
        m2_q = tl.load(PARTIALS + 2 * total + base, mask=q_mask, other=0.0, volatile=True)
        scale = 1.0 / tl.sqrt(tl.sum(m2_q + n_q * d * d, axis=0) / n + eps)
    else:
        shift = 0.0
        scale = _kev_scale(tl.sum(part, axis=0), n, eps, stat)
    y = _kev_affine((x0 - shift) * scale, W, B, m, j * INNER + start + offs, mask0, G, CPG, HWA, affine, has_bias)
    tl.store(Y + row + start + offs, y, mask=mask0)
    for i in range(1, TILES):
        s = start + i * BLOCK + offs
        mask = s < INNER
        x = tl.load(X + row + s, mask=mask, other=0.0).to(tl.float32)
        y = _kev_affine((x - shift) * scale, W, B, m, j * INNER + s, mask, G, CPG, HWA, affine, has_bias)
        tl.store(Y + row + s, y, mask=mask)
'''


def _family_kernels() -> Any:
    """The normalization family's kernels and the one above, as a module."""
    from kernelevo.variation.seeding.families.norm_kernels import KERNELS

    return kernels_module(KERNELS + SYNC_KERNEL, "kev_norm_kernels")


_kev_norm_sync = _family_kernels()._kev_norm_sync


def norm_sync(x, rows, w, b, affine, eps, block, min_tiles, warps, wait_ns):
    """rows: (m, segs, inner, row_stride, seg_stride, g, cpg, hwa) of the family's plans."""
    m, segs, inner, row_stride, seg_stride, g, cpg, hwa = rows
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    tiles = max(min_tiles, triton.cdiv(triton.cdiv(inner, max(1, sms // segs)), block))
    chunks = triton.cdiv(inner, tiles * block)
    parts = segs * chunks
    assert parts <= sms, (parts, sms)
    y = torch.empty_like(x)
    partials = torch.empty(3 * m * parts, device=x.device, dtype=torch.float32)
    count = torch.zeros(m + 1, device=x.device, dtype=torch.int32)
    _kev_norm_sync[(m * parts,)](x, y, w, b, partials, count, m, inner, row_stride, seg_stride, chunks, parts, g, cpg,
                                 hwa, eps, stat=0, affine=affine, has_bias=True, TILES=tiles, BLOCK=block,
                                 BLOCK_P=triton.next_power_of_2(parts), WAIT_NS=wait_ns, num_warps=warps)
    return y


def _specs(x: torch.Tensor):
    """(name, eager module, rows, weight, bias, affine mode) at the suite's sizes."""
    n, c, h, w = x.shape
    hw = h * w
    ln = torch.nn.LayerNorm((c, h, w)).cuda()
    gn = torch.nn.GroupNorm(8, c).cuda()
    bn = torch.nn.BatchNorm2d(c).cuda()
    inorm = torch.nn.InstanceNorm2d(c).cuda()
    for mod in (ln, gn, bn):
        with torch.no_grad():
            mod.weight.uniform_(0.5, 1.5)
            mod.bias.uniform_(-0.5, 0.5)
    return [
        ("layernorm", ln, (n, 1, c * hw, c * hw, 0, 1, 1, 1), ln.weight, ln.bias, 1),
        ("groupnorm", gn, (n * 8, 1, c // 8 * hw, c // 8 * hw, 0, 8, c // 8, hw), gn.weight, gn.bias, 2),
        ("batchnorm2d", bn, (c, n, hw, hw, c * hw, c, 1, n * hw), bn.weight, bn.bias, 2),
        ("instancenorm2d", inorm, (n * c, 1, hw, hw, 0, 1, 1, 1), x, x, 0),
    ]


def _launches():
    if "--long" in sys.argv:  # fewer, longer parts a row: the trend of the first sweep, continued
        for block in (2048, 4096, 8192):
            for warps in (4, 8):
                if 8 <= block // (32 * warps) <= 64:
                    for min_tiles in (4, 8, 16, 32):
                        yield block, min_tiles, warps, 256
        return
    for block in (4096, 8192, 16384):
        for warps in (4, 8, 16):
            if 8 <= block // (32 * warps) <= 64:
                for min_tiles in (1, 2, 4):
                    for wait_ns in (0, 256):
                        yield block, min_tiles, warps, wait_ns


def main() -> None:
    out = sys.argv[1]
    torch.manual_seed(0)
    x = torch.randn(16, 64, 256, 256, device="cuda")
    bench = triton.testing.do_bench
    copy = torch.empty_like(x)
    report: dict[str, Any] = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                              "triton": triton.__version__, "shape": list(x.shape),
                              "copy_ms": bench(lambda: copy.copy_(x), return_mode="median"), "specs": {}}
    for name, mod, rows, w, b, affine in _specs(x):
        with torch.no_grad():
            want = mod(x)
            compiled = torch.compile(mod)
            compiled(x)
            row: dict[str, Any] = {"eager_ms": bench(lambda m=mod: m(x), return_mode="median"),
                                   "compile_ms": bench(lambda c=compiled: c(x), return_mode="median"), "sync": {}}
        for block, min_tiles, warps, wait_ns in _launches():
            key = f"block={block},min_tiles={min_tiles},warps={warps},wait_ns={wait_ns}"
            call = partial(norm_sync, x, rows, w, b, affine, mod.eps, block, min_tiles, warps, wait_ns)
            err = (call() - want).abs().max().item()
            if not err <= 1e-3:  # NaN too
                row["sync"][key] = {"max_abs_error": err}
                continue
            row["sync"][key] = {"ms": bench(call, return_mode="median"), "max_abs_error": err}
        best = min((v["ms"], k) for k, v in row["sync"].items() if "ms" in v)
        row["best"] = {"launch": best[1], "ms": best[0], "of_copy_floor": report["copy_ms"] / best[0],
                       "x_compile": row["compile_ms"] / best[0]}
        report["specs"][name] = row
        print(name, {k: v for k, v in row.items() if k != "sync"}, flush=True)
        Path(out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
