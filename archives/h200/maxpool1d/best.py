# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "maxpool1d"
# spec sha256: "3e17e6b432b06528635366c29b64b0d4e542c6f2b542388fc9631cc5a3d572f4"
# hardware: "h200"
# made: "2026-11-28T11:28:04+00:00"
# candidate: {"run": 1, "number": 106, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.3603 ms (IQR 0.0009), 4.96x eager, 1.26x torch.compile, 70% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)


@triton.autotune(configs=[triton.Config({}, num_warps=2, num_stages=3), triton.Config({}, num_warps=2, num_stages=3), triton.Config({}, num_warps=8, num_stages=3), triton.Config({}, num_warps=4, num_stages=4)], key=['W', 'OW', 'op', 'KW', 'SW', 'PW', 'DW', 'BLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def _kev_pool_rows(X, Y, W, OW, op: tl.constexpr, KW: tl.constexpr, SW: tl.constexpr, PW: tl.constexpr,
                   DW: tl.constexpr, BLOCK: tl.constexpr):
    """A 1-D pool: BLOCK outputs of one row (plane) per program. A pool over few bytes per window is held by
    the SMs' issue rate, not the DRAM (8 masked loads, their index arithmetic and a NaN-aware compare per
    output): so a program away from the row's ends, where every window lies inside the row, loads without
    masks at constant offsets from one pointer, and a max is one instruction (max.NaN). Only the programs
    at a row's ends take the masked path."""
    blocks = tl.cdiv(OW, BLOCK)
    pid = tl.program_id(0)
    plane = pid // blocks
    first = (pid % blocks) * BLOCK
    ow = first + tl.arange(0, BLOCK)
    x_row = X + plane.to(tl.int64) * W + ow * SW - PW
    y_row = Y + plane.to(tl.int64) * OW + ow
    inside = (first * SW >= PW) & ((first + BLOCK - 1) * SW - PW + (KW - 1) * DW < W) & (first + BLOCK <= OW)
    if op == 0:
        acc = tl.full([BLOCK], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK], tl.float32)
    if inside:
        for kw in tl.static_range(KW):
            v = tl.load(x_row + kw * DW).to(tl.float32)
            if op == 0:
                acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
            else:
                acc += v
    else:
        for kw in tl.static_range(KW):
            iw = ow * SW - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow < OW)
            if op == 0:
                v = tl.load(x_row + kw * DW, mask=mask, other=float("-inf")).to(tl.float32)
                acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
            else:
                acc += tl.load(x_row + kw * DW, mask=mask, other=0.0).to(tl.float32)
    if op == 1:
        acc = acc / KW
    if inside:
        tl.store(y_row, acc)
    else:
        tl.store(y_row, acc, mask=ow < OW)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()
        self.window = (1, 1, 8)
        self.stride = (1, 1, 1)
        self.padding = (0, 0, 4)
        self.dilation = (1, 1, 3)

    def forward(self, *inputs):
        x = inputs[0].contiguous().unsqueeze(-2)
        (kd, kh, kw), (sd, sh, sw) = self.window, self.stride
        (pd, ph, pw), (dd, dh, dw) = self.padding, self.dilation
        d, h, w = (1,) * 1 + tuple(x.shape[-2:])
        od, oh, ow = ((i + 2 * p - dl * (k - 1) - 1) // s + 1 for i, p, dl, k, s in zip((d, h, w), (pd, ph, pw), (dd, dh, dw), (kd, kh, kw), (sd, sh, sw), strict=True))
        planes = math.prod(x.shape[:-2])
        y = torch.empty(tuple(x.shape[:-2]) + (od, oh, ow)[-2:], device=x.device, dtype=x.dtype)
        block = 256
        grid = (planes * triton.cdiv(ow, block),)
        _kev_pool_rows[grid](x, y, w, ow, op=0, KW=kw, SW=sw, PW=pw, DW=dw, BLOCK=block)
        return y.squeeze(-2)
