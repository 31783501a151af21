"""Experiment (issue 37): a 3-D max pool that loads each input depth slice once per program, whole.

maxpool3d (window 3, stride 2, padding 1, dilation 3, over 16 x 32 x 64 x 64 x 64 fp32) stands at 83% of its read
floor. Its best kernel (the family's `gather`: a program per block of BLOCK_H output rows of one output depth)
loads, for each of its 9 (D, H) taps, BLOCK_H whole input rows: about 2.1 element loads per input element
through L2, where the window's overlap needs 1.4 (30 output depths x 3 taps over 64 input depths).

Here (`planes`) a program takes one output depth of one plane whole: its 3 depth taps are 3 loads of a whole
H x W input slice (16 KB each), folded elementwise; the H taps are then gathers of that fold's rows (through
shared memory) and the W taps gathers of its columns, as `gather` does. About 1.4 loads per input element.

Times `planes` over warps against eager, torch.compile, the family's `gather` at whole-height blocks and the
archived best, each checked against eager first (NaN inputs included); triton.testing.do_bench (L2 cleared),
median ms.

    python benchmarks/pool3d_plane_sweep.py OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import torch
import triton
from kernel_text import kernels_module, load_module

WINDOW, STRIDE, PADDING, DILATION = 3, 2, 1, 3  # the suite's maxpool3d, the same along D, H and W

PLANES = '''

@triton.jit
def _kev_pool_planes(X, Y, D, H, W, OD, OH, OW, op: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
                     KW: tl.constexpr, SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr,
                     PH: tl.constexpr, PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_OH: tl.constexpr,
                     BLOCK_OW: tl.constexpr):
    """One output depth of one plane per program (BLOCK_H >= H, BLOCK_W >= W, BLOCK_OH >= OH, BLOCK_OW >= OW):
    each D tap one load of the whole input slice, folded elementwise; each H tap a gather of the fold's rows,
    each W tap a gather of its columns."""
    plane = tl.program_id(0)
    nc = plane // OD
    od = plane % OD
    ih = tl.arange(0, BLOCK_H)
    iw = tl.arange(0, BLOCK_W)
    inside = (ih < H)[:, None] & (iw < W)[None, :]
    base = nc.to(tl.int64) * D * H * W
    empty = float("-inf") if op == 0 else 0.0
    acc = tl.full([BLOCK_H, BLOCK_W], empty, tl.float32)
    for kd in tl.static_range(KD):
        i_d = od * SD - PD + kd * DD + tl.zeros([BLOCK_H], tl.int32)
        ok = inside & ((i_d >= 0) & (i_d < D))[:, None]
        at = base + ((i_d * H + ih).to(tl.int64) * W)[:, None] + iw[None, :]
        v = tl.load(X + at, mask=ok, other=empty).to(tl.float32)
        acc = _kev_pool_take(acc, v, op)
    oh = tl.arange(0, BLOCK_OH)
    rows = tl.full([BLOCK_OH, BLOCK_W], empty, tl.float32)
    for kh in tl.static_range(KH):
        ih_k = oh * SH - PH + kh * DH
        ih_ok = (ih_k >= 0) & (ih_k < H)
        picked = tl.broadcast_to(tl.where(ih_ok, ih_k, 0)[:, None], [BLOCK_OH, BLOCK_W])
        rows = _kev_pool_take(rows, tl.where(ih_ok[:, None], tl.gather(acc, picked, 0), empty), op)
    ow = tl.arange(0, BLOCK_OW)
    out = tl.full([BLOCK_OH, BLOCK_OW], empty, tl.float32)
    for kw in tl.static_range(KW):
        iw_k = ow * SW - PW + kw * DW
        iw_ok = (iw_k >= 0) & (iw_k < W)
        columns = tl.broadcast_to(tl.where(iw_ok, iw_k, 0)[None, :], [BLOCK_OH, BLOCK_OW])
        out = _kev_pool_take(out, tl.where(iw_ok[None, :], tl.gather(rows, columns, 1), empty), op)
    if op == 1:
        out = out / (KD * KH * KW)
    at = nc.to(tl.int64) * OD * OH * OW + ((od * OH + oh).to(tl.int64) * OW)[:, None] + ow[None, :]
    tl.store(Y + at, out, mask=(oh < OH)[:, None] & (ow < OW)[None, :])
'''


def _kernels() -> Any:
    from kernelevo.variation.seeding.families.pool_kernels import KERNELS

    return kernels_module(KERNELS + PLANES, "kev_pool3d_planes")


_K = _kernels()


def _sizes(x: torch.Tensor) -> tuple[int, ...]:
    d, h, w = x.shape[-3:]
    return tuple((i + 2 * PADDING - DILATION * (WINDOW - 1) - 1) // STRIDE + 1 for i in (d, h, w))


def _window() -> dict[str, int]:
    names = ("KD", "KH", "KW", "SD", "SH", "SW", "PD", "PH", "PW", "DD", "DH", "DW")
    values = (WINDOW,) * 3 + (STRIDE,) * 3 + (PADDING,) * 3 + (DILATION,) * 3
    return dict(zip(names, values, strict=True))


def planes(x: torch.Tensor, warps: int) -> torch.Tensor:
    d, h, w = x.shape[-3:]
    od, oh, ow = _sizes(x)
    n = x.numel() // (d * h * w)
    y = torch.empty(*x.shape[:-3], od, oh, ow, device=x.device, dtype=x.dtype)
    p2 = triton.next_power_of_2
    _K._kev_pool_planes[(n * od,)](x, y, d, h, w, od, oh, ow, op=0, **_window(), BLOCK_H=p2(h), BLOCK_W=p2(w),
                                   BLOCK_OH=p2(oh), BLOCK_OW=p2(ow), num_warps=warps)
    return y


def gather(x: torch.Tensor, block_h: int, warps: int) -> torch.Tensor:
    d, h, w = x.shape[-3:]
    od, oh, ow = _sizes(x)
    n = x.numel() // (d * h * w)
    y = torch.empty(*x.shape[:-3], od, oh, ow, device=x.device, dtype=x.dtype)
    p2 = triton.next_power_of_2
    _K._kev_pool_gather[(n * od, triton.cdiv(oh, block_h))](
        x, y, d, h, w, od, oh, ow, op=0, **_window(), BLOCK_H=block_h, BLOCK_W=p2(w), BLOCK_OW=p2(ow),
        num_warps=warps)
    return y


def _archived_best() -> Any:
    path = Path(__file__).resolve().parents[1] / "archives" / "h200" / "maxpool3d" / "best.py"
    return load_module(path, "maxpool3d_best").ModelNew()


def _same(got: torch.Tensor, want: torch.Tensor) -> bool:
    return torch.allclose(got, want, rtol=0, atol=0, equal_nan=True)  # NaN where eager has NaN


def main() -> None:
    out = sys.argv[1]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    shape = (16, 32, 64, 64, 64) if device == "cuda" else (2, 3, 9, 7, 11)
    torch.manual_seed(0)
    x = torch.randn(*shape, device=device)
    x.view(-1)[::9973] = float("nan")  # NaN windows must come out NaN, as eager's
    eager = torch.nn.MaxPool3d(WINDOW, stride=STRIDE, padding=PADDING, dilation=DILATION)
    want = eager(x)
    if device == "cpu":  # the interpreter's check of the kernels (TRITON_INTERPRET=1), no timing
        print({"planes": _same(planes(x, 4), want), "gather": _same(gather(x, 8, 4), want)})
        return
    compiled = torch.compile(eager)
    bench = triton.testing.do_bench
    best = _archived_best()
    report: dict[str, Any] = {
        "gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
        "read_ms": bench(lambda: x.sum(), return_mode="median"),  # the input read once, nothing written
        "eager_ms": bench(lambda: eager(x), return_mode="median"),
        "compile_ms": bench(lambda: compiled(x), return_mode="median"), "planes": {}, "gather": {}}
    assert _same(best(x), want)
    report["archived_best_ms"] = bench(lambda: best(x), return_mode="median")
    for warps in (2, 4, 8, 16):
        key = f"w{warps}"
        report["planes"][key] = (bench(lambda w=warps: planes(x, w), return_mode="median")
                                 if _same(planes(x, warps), want) else "wrong output")
        print("planes", key, report["planes"][key], flush=True)
        for block_h in (16, 32):
            key = f"{block_h}x{warps}"
            report["gather"][key] = (bench(lambda b=block_h, w=warps: gather(x, b, w), return_mode="median")
                                     if _same(gather(x, block_h, warps), want) else "wrong output")
            print("gather", key, report["gather"][key], flush=True)
    print({k: v for k, v in report.items() if k not in ("planes", "gather")}, flush=True)
    Path(out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
