# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "maxpool1d"
# spec sha256: "3e17e6b432b06528635366c29b64b0d4e542c6f2b542388fc9631cc5a3d572f4"
# hardware: "h200"
# made: "2026-11-29T09:36:16+00:00"
# candidate: {"run": 1, "number": 81, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2981 ms (IQR 0.0007), 5.99x eager, 1.52x torch.compile, 84% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_pool_take(acc, v, op: tl.constexpr):
    """A window's element into its accumulator: max (one instruction, max.NaN: NaN propagating as torch's)
    or sum."""
    if op == 0:
        return tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    return acc + v


@triton.jit
def _kev_pool_rows(X, Y, W, OW, op: tl.constexpr, KW: tl.constexpr, SW: tl.constexpr, PW: tl.constexpr,
                   DW: tl.constexpr, BLOCK: tl.constexpr):
    """A 1-D pool: BLOCK outputs of one row (plane) per program. A pool over few bytes per window is held by
    the SMs' issue rate, not the DRAM (8 masked loads, their index arithmetic and a NaN-aware compare per
    output): so a program away from the row's ends, where every window lies inside the row, loads without
    masks at constant offsets from one pointer, and a max is one instruction. Only the programs at a
    row's ends take the masked path."""
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
            acc = _kev_pool_take(acc, tl.load(x_row + kw * DW).to(tl.float32), op)
    else:
        for kw in tl.static_range(KW):
            iw = ow * SW - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow < OW)
            v = tl.load(x_row + kw * DW, mask=mask, other=float("-inf") if op == 0 else 0.0).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
    if op == 1:
        acc = acc / KW
    if inside:
        tl.store(y_row, acc)
    else:
        tl.store(y_row, acc, mask=ow < OW)


def _kev_pool_taps_asm(op, kw, dw, lead):
    """The PTX that makes 4 consecutive outputs ($0 to $3) of a stride-1 1-D pool from the aligned 4-vectors of
    input their windows span (8 of them, $4 to $35, in order: operand 4 + r holds the input r elements after
    the first vector's start): output i's tap k is input ``lead + i + dw * k``. A maximum is ``max.NaN`` (NaN
    propagating, as torch's max pooling); an average's sum is divided by the caller. Host code: the taps are
    the window's, read from the model at run time, and inline PTX is a constexpr string."""
    combine = "max.NaN.f32" if op == 0 else "add.f32"
    lines = []
    for i in range(4):
        taps = [4 + lead + i + dw * k for k in range(kw)]
        lines.append(f"mov.b32 ${i}, ${taps[0]};")
        lines += [f"{combine} ${i}, ${i}, ${t};" for t in taps[1:]]
    return " ".join(lines)  # one line: each instruction ends with its ";"


@triton.jit
def _kev_pool_vectors(X, Y, W, OW, op: tl.constexpr, KW: tl.constexpr, PW: tl.constexpr, DW: tl.constexpr,
                      LEAD: tl.constexpr, VECTORS: tl.constexpr, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    """A stride-1 1-D pool from aligned vector loads, its taps picked from registers: BLOCK outputs of one row
    per program, 4 consecutive ones a thread. The inputs those 4 windows span are VECTORS aligned 16-byte loads
    (the block's input from LEAD + PW before its first output, shifted by 0, 4, 8, ... elements), and TAPS
    (:func:`_kev_pool_taps_asm`) takes each output's KW taps from their registers: with a window of 8 dilated
    by 3, 7 vector loads per 4 outputs where ``_kev_pool_rows`` makes 32 scalar ones (its offsets are
    unaligned), which the SMs' issue rate held at 70% of the read floor. The host launches it on CUDA only
    (inline PTX), for a row of a multiple of 16 elements (so that each thread's 4 elements are consecutive and
    aligned) and a window spanning at most 8 vectors; the programs at a row's ends take the masked path."""
    blocks = tl.cdiv(OW, BLOCK)
    pid = tl.program_id(0)
    plane = pid // blocks
    first = (pid % blocks) * BLOCK
    j = tl.arange(0, BLOCK)
    x_row = X + plane.to(tl.int64) * W
    y_row = Y + plane.to(tl.int64) * OW
    start = first - PW - LEAD
    inside = (start >= 0) & (start + 4 * VECTORS + BLOCK <= W) & (first + BLOCK <= OW)
    if inside:
        at = x_row + start + j
        v0 = tl.load(at).to(tl.float32)
        v1, v2, v3, v4, v5, v6, v7 = v0, v0, v0, v0, v0, v0, v0  # beyond VECTORS: operands TAPS never names
        if VECTORS > 1:
            v1 = tl.load(at + 4).to(tl.float32)
        if VECTORS > 2:
            v2 = tl.load(at + 8).to(tl.float32)
        if VECTORS > 3:
            v3 = tl.load(at + 12).to(tl.float32)
        if VECTORS > 4:
            v4 = tl.load(at + 16).to(tl.float32)
        if VECTORS > 5:
            v5 = tl.load(at + 20).to(tl.float32)
        if VECTORS > 6:
            v6 = tl.load(at + 24).to(tl.float32)
        if VECTORS > 7:
            v7 = tl.load(at + 28).to(tl.float32)
        acc = tl.inline_asm_elementwise(  # 4 outputs, 8 vectors of 4 inputs
            TAPS, "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r",
            [v0, v1, v2, v3, v4, v5, v6, v7], dtype=tl.float32, is_pure=True, pack=4)
        if op == 1:
            acc = acc / KW
        tl.store(y_row + first + j, acc)
    else:
        ow = first + j
        acc = tl.full([BLOCK], float("-inf") if op == 0 else 0.0, tl.float32)
        for kw in tl.static_range(KW):
            iw = ow - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow < OW)
            v = tl.load(x_row + iw, mask=mask, other=float("-inf") if op == 0 else 0.0).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
        if op == 1:
            acc = acc / KW
        tl.store(y_row + ow, acc, mask=ow < OW)



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
        block, warps = 512, 4
        lead = -pw % 4  # the first vector starts at a multiple of 4 elements before the first window
        vectors = (lead + dw * (kw - 1) + 3) // 4 + 1
        grid = (planes * triton.cdiv(ow, block),)
        if (x.is_cuda and sw == 1 and w % 16 == 0 and x.data_ptr() % 16 == 0 and vectors <= 8 and x.dtype in (torch.float32, torch.float16, torch.bfloat16) and block >= 128 * warps):
            _kev_pool_vectors[grid](x, y, w, ow, op=0, KW=kw, PW=pw, DW=dw, LEAD=lead, VECTORS=vectors, TAPS=_kev_pool_taps_asm(0, kw, dw, lead), BLOCK=block, num_warps=warps)
        else:  # inline PTX runs on CUDA only, 4 aligned elements a thread: otherwise the rows kernel
            _kev_pool_rows[grid](x, y, w, ow, op=0, KW=kw, SW=sw, PW=pw, DW=dw, BLOCK=block, num_warps=2)
        return y.squeeze(-2)
