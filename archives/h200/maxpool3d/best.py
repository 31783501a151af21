# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "maxpool3d"
# spec sha256: "6599fc180e58417f1ba7684177dbfa88c7c8b2298d388048704a8d893328e720"
# hardware: "h200"
# made: "2026-11-29T06:01:57+00:00"
# candidate: {"run": 1, "number": 201, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1618 ms (IQR 0.0018), 2.86x eager, 2.96x torch.compile, 83% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)


@triton.jit
def _kev_pool_take(acc, v, op: tl.constexpr):
    """A window's element into its accumulator: max (one instruction, max.NaN: NaN propagating as torch's)
    or sum."""
    if op == 0:
        return tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    return acc + v


@triton.autotune(configs=[triton.Config({}, num_warps=2, num_stages=3), triton.Config({}, num_warps=4, num_stages=2), triton.Config({}, num_warps=16, num_stages=2), triton.Config({}, num_warps=8, num_stages=4)], key=['D', 'H', 'W', 'OD', 'OH', 'OW', 'op', 'KD', 'KH', 'KW', 'SD', 'SH', 'SW', 'PD', 'PH', 'PW', 'DD', 'DH', 'DW', 'BLOCK_H', 'BLOCK_W', 'BLOCK_OW'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def _kev_pool_gather(X, Y, D, H, W, OD, OH, OW, op: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
                     KW: tl.constexpr, SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr,
                     PH: tl.constexpr, PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_OW: tl.constexpr):
    """BLOCK_H output rows, whole, of one output depth of one plane per program (BLOCK_W >= W, BLOCK_OW >= OW).
    A window's maximum is the maximum over its W taps of the maximum over its (D, H) taps: so each (D, H) tap is
    one load of BLOCK_H whole input rows (contiguous, vectorised, each element by one lane) folded into one
    accumulator elementwise, and each W tap is a gather of the accumulator's columns (within a warp where a
    warp holds whole rows). Per output that is a few vector loads, not a masked load per window element."""
    plane = tl.program_id(0)
    nc = plane // OD
    od = plane % OD
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    iw = tl.arange(0, BLOCK_W)
    base = nc.to(tl.int64) * D * H * W
    empty = float("-inf") if op == 0 else 0.0
    acc = tl.full([BLOCK_H, BLOCK_W], empty, tl.float32)
    for kd in tl.static_range(KD):
        i_d = od * SD - PD + kd * DD + tl.zeros([BLOCK_H], tl.int32)  # a vector: see _kev_pool_tiles
        d_ok = (i_d >= 0) & (i_d < D)
        for kh in tl.static_range(KH):
            ih = oh * SH - PH + kh * DH
            ok = d_ok & (ih >= 0) & (ih < H) & (oh < OH)
            at = base + ((i_d * H + ih).to(tl.int64) * W)[:, None] + iw[None, :]
            v = tl.load(X + at, mask=ok[:, None] & (iw < W)[None, :], other=empty).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
    ow = tl.arange(0, BLOCK_OW)
    out = tl.full([BLOCK_H, BLOCK_OW], empty, tl.float32)
    for kw in tl.static_range(KW):
        iw_k = ow * SW - PW + kw * DW
        iw_ok = (iw_k >= 0) & (iw_k < W)  # a padding column: no element (its gather reads column 0, unused)
        columns = tl.broadcast_to(tl.where(iw_ok, iw_k, 0)[None, :], [BLOCK_H, BLOCK_OW])
        out = _kev_pool_take(out, tl.where(iw_ok[None, :], tl.gather(acc, columns, 1), empty), op)
    if op == 1:
        out = out / (KD * KH * KW)
    at = nc.to(tl.int64) * OD * OH * OW + ((od * OH + oh).to(tl.int64) * OW)[:, None] + ow[None, :]
    tl.store(Y + at, out, mask=(oh < OH)[:, None] & (ow < OW)[None, :])



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()
        self.window = (3, 3, 3)
        self.stride = (2, 2, 2)
        self.padding = (1, 1, 1)
        self.dilation = (3, 3, 3)

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        (kd, kh, kw), (sd, sh, sw) = self.window, self.stride
        (pd, ph, pw), (dd, dh, dw) = self.padding, self.dilation
        d, h, w = (1,) * 0 + tuple(x.shape[-3:])
        od, oh, ow = ((i + 2 * p - dl * (k - 1) - 1) // s + 1 for i, p, dl, k, s in zip((d, h, w), (pd, ph, pw), (dd, dh, dw), (kd, kh, kw), (sd, sh, sw), strict=True))
        planes = math.prod(x.shape[:-3])
        y = torch.empty(tuple(x.shape[:-3]) + (od, oh, ow)[-3:], device=x.device, dtype=x.dtype)
        block_h = 16
        block_w, block_ow = triton.next_power_of_2(w), triton.next_power_of_2(ow)
        grid = (planes * od, triton.cdiv(oh, block_h))
        _kev_pool_gather[grid](x, y, d, h, w, od, oh, ow, op=0, KD=kd, KH=kh, KW=kw, SD=sd, SH=sh, SW=sw, PD=pd, PH=ph, PW=pw, DD=dd, DH=dh, DW=dw, BLOCK_H=block_h, BLOCK_W=block_w, BLOCK_OW=block_ow)
        return y
