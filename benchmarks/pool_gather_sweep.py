"""Experiment (issue 37): max pools whose input rows are loaded whole and whose W taps are gathers.

Times, on the GPU it runs on, the pooling family's `_kev_pool_gather` (`kernelevo/variation/seeding/families/
pool_kernels.py`; the recorded sweep ran it as first written here, the same operations without its comments) over
block heights and warps against eager, torch.compile and the archived best (when the sweep was recorded, the
tuned inductor kernel at 0.1946 ms; the archive now holds the gather kernel), at the suite's maxpool3d and maxpool2d
sizes: which launch the family's `gather` seed starts from. triton.testing.do_bench (the L2 cleared before each
run), median ms.

    python benchmarks/pool_gather_sweep.py OUT.json
    python benchmarks/pool_gather_sweep.py --depths OUT.json   # maxpool3d, several output depths a program
"""

from __future__ import annotations

import json
import sys
from functools import partial
from typing import Any

import torch
import triton
import triton.language as tl
from kernel_text import kernels_module, load_module


def _family_kernels() -> Any:
    from kernelevo.variation.seeding.families.pool_kernels import KERNELS

    return kernels_module(KERNELS, "kev_pool_kernels")


_FAMILY = _family_kernels()
_kev_pool_gather, _kev_pool_take = _FAMILY._kev_pool_gather, _FAMILY._kev_pool_take


def _output(x, k, s, p, dl):
    """x: N, C, D, H, W; k, s, p, dl: (d, h, w) triples. The pool's output, empty, and its (OD, OH, OW)."""
    n, c, *sizes = x.shape
    od, oh, ow = ((i + 2 * pp - dd * (kk - 1) - 1) // ss + 1
                  for i, kk, ss, pp, dd in zip(sizes, k, s, p, dl, strict=True))
    return torch.empty(n, c, od, oh, ow, device=x.device, dtype=x.dtype), (od, oh, ow)


def pool(x, k, s, p, dl, block_h, warps):
    n, c, d, h, w = x.shape
    y, (od, oh, ow) = _output(x, k, s, p, dl)
    bw, bow = triton.next_power_of_2(w), triton.next_power_of_2(ow)
    grid = (n * c * od, triton.cdiv(oh, block_h))
    _kev_pool_gather[grid](x, y, d, h, w, od, oh, ow, op=0, KD=k[0], KH=k[1], KW=k[2], SD=s[0], SH=s[1], SW=s[2],
                           PD=p[0], PH=p[1], PW=p[2], DD=dl[0], DH=dl[1], DW=dl[2], BLOCK_H=block_h, BLOCK_W=bw,
                           BLOCK_OW=bow, num_warps=warps)
    return y


@triton.jit
def _pool_gather_depths(X, Y, D, H, W, OD, OH, OW, KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
                        SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr, PH: tl.constexpr,
                        PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                        BLOCK_D: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
                        BLOCK_OW: tl.constexpr):
    """The max pool above, BLOCK_D output depths a program: BLOCK_D times the loads in flight per program."""
    depth_blocks = tl.cdiv(OD, BLOCK_D)
    plane = tl.program_id(0)
    nc = plane // depth_blocks
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    iw = tl.arange(0, BLOCK_W)
    ow = tl.arange(0, BLOCK_OW)
    base = nc.to(tl.int64) * D * H * W
    for j in tl.static_range(BLOCK_D):
        # a vector: Triton's interpreter turns a scalar mask and'd into a vector one into int32, which loads refuse
        od = (plane % depth_blocks) * BLOCK_D + j + tl.zeros([BLOCK_H], tl.int32)
        acc = tl.full([BLOCK_H, BLOCK_W], float("-inf"), tl.float32)
        for kd in tl.static_range(KD):
            i_d = od * SD - PD + kd * DD
            d_ok = (i_d >= 0) & (i_d < D) & (od < OD)
            for kh in tl.static_range(KH):
                ih = oh * SH - PH + kh * DH
                ok = d_ok & (ih >= 0) & (ih < H) & (oh < OH)
                at = base + ((i_d * H + ih).to(tl.int64) * W)[:, None] + iw[None, :]
                v = tl.load(X + at, mask=ok[:, None] & (iw < W)[None, :], other=float("-inf"))
                acc = _kev_pool_take(acc, v, 0)
        out = tl.full([BLOCK_H, BLOCK_OW], float("-inf"), tl.float32)
        for kw in tl.static_range(KW):
            col = ow * SW - PW + kw * DW
            col_ok = (col >= 0) & (col < W)
            index = tl.broadcast_to(tl.where(col_ok, col, 0)[None, :], [BLOCK_H, BLOCK_OW])
            out = _kev_pool_take(out, tl.where(col_ok[None, :], tl.gather(acc, index, 1), float("-inf")), 0)
        at = nc.to(tl.int64) * OD * OH * OW + ((od * OH + oh).to(tl.int64) * OW)[:, None] + ow[None, :]
        tl.store(Y + at, out, mask=((oh < OH) & (od < OD))[:, None] & (ow < OW)[None, :])


def pool_depths(x, k, s, p, dl, block_d, block_h, warps):
    n, c, d, h, w = x.shape
    y, (od, oh, ow) = _output(x, k, s, p, dl)
    grid = (n * c * triton.cdiv(od, block_d), triton.cdiv(oh, block_h))
    _pool_gather_depths[grid](x, y, d, h, w, od, oh, ow, KD=k[0], KH=k[1], KW=k[2], SD=s[0], SH=s[1], SW=s[2],
                              PD=p[0], PH=p[1], PW=p[2], DD=dl[0], DH=dl[1], DW=dl[2], BLOCK_D=block_d,
                              BLOCK_H=block_h, BLOCK_W=triton.next_power_of_2(w),
                              BLOCK_OW=triton.next_power_of_2(ow), num_warps=warps)
    return y


def depths_sweep(out: str) -> None:
    """--depths: maxpool3d with 1 to 3 output depths a program (more loads in flight), beside the gather above."""
    from triton.testing import do_bench

    x = torch.randn(16, 32, 64, 64, 64, device="cuda")
    args = ((3, 3, 3), (2, 2, 2), (1, 1, 1), (3, 3, 3))
    ref = torch.nn.functional.max_pool3d(x, 3, 2, 1, 3)
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "gather 16x8": do_bench(partial(pool, x, *args, 16, 8), rep=300), "depths": {}}
    for block_d in (1, 2, 3):
        for block_h, warps in ((32, 8), (16, 8), (16, 4), (8, 4), (8, 2), (4, 4)):
            key = f"{block_d}x{block_h}x{warps}"
            try:
                assert torch.equal(pool_depths(x, *args, block_d, block_h, warps), ref), "wrong"
                report["depths"][key] = do_bench(partial(pool_depths, x, *args, block_d, block_h, warps), rep=300)
            except Exception as exc:
                report["depths"][key] = repr(exc)[:200]
            print(key, report["depths"][key], flush=True)
    with open(out, "w") as f:
        json.dump(report, f, indent=1)


def main() -> None:
    from triton.testing import do_bench

    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "specs": {}}
    cases = {
        "maxpool3d": ((16, 32, 64, 64, 64), (3, 3, 3), (2, 2, 2), (1, 1, 1), (3, 3, 3),
                      "archives/h200/maxpool3d/best.py", (3, 2, 1, 3)),
        "maxpool2d": ((32, 64, 1, 256, 256), (1, 3, 3), (1, 2, 2), (0, 1, 1), (1, 1, 1), None, None),
    }
    for name, (shape, k, s, p, dl, best, init) in cases.items():
        x = torch.randn(shape, device="cuda")
        if name == "maxpool3d":
            eager = partial(torch.nn.functional.max_pool3d, x, 3, 2, 1, 3)
            ref = eager()
        else:
            eager = partial(torch.nn.functional.max_pool2d, x.squeeze(2), 3, 2, 1)
            ref = eager().unsqueeze(2)
        compiled = torch.compile(eager)
        compiled()
        row = {"eager": do_bench(eager, rep=300), "compile": do_bench(compiled, rep=300), "gather": {}}
        if best:
            model = load_module(best, "best").ModelNew(*init).cuda()
            assert torch.equal(model(x), ref)
            row["archived best"] = do_bench(partial(model, x), rep=300)
        for bh in (1, 2, 4, 8, 16, 32):
            for warps in (1, 2, 4, 8):
                try:
                    got = pool(x, k, s, p, dl, bh, warps)
                    assert torch.equal(got, ref), "wrong"
                    row["gather"][f"{bh}x{warps}"] = do_bench(partial(pool, x, k, s, p, dl, bh, warps), rep=200)
                except Exception as exc:
                    row["gather"][f"{bh}x{warps}"] = repr(exc)[:200]
        best_g = min((v, key) for key, v in row["gather"].items() if isinstance(v, float))
        row["gather best"] = best_g
        print(name, {kk: vv for kk, vv in row.items() if kk != "gather"}, flush=True)
        report["specs"][name] = row
    with open(sys.argv[1], "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    if sys.argv[1] == "--depths":
        depths_sweep(sys.argv[2])
    else:
        main()
