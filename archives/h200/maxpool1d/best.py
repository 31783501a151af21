# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "maxpool1d"
# spec sha256: "3e17e6b432b06528635366c29b64b0d4e542c6f2b542388fc9631cc5a3d572f4"
# hardware: "h200"
# made: "2026-11-29T12:03:37+00:00"
# candidate: {"run": 1, "number": 16, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2864 ms (IQR 0.0008), 6.24x eager, 1.58x torch.compile, 88% of roofline (read)"
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
                      VECTORS: tl.constexpr, TAPS0: tl.constexpr, TAPS1: tl.constexpr, TAPS2: tl.constexpr,
                      TAPS3: tl.constexpr, ALIGN: tl.constexpr, BLOCK: tl.constexpr):
    """A stride-1 1-D pool from aligned vector loads and stores, its taps picked from registers: BLOCK outputs of
    one row per program, 4 consecutive ones a thread, each thread's 4 outputs one aligned 16-byte store.

    A row's outputs start at ``plane * OW`` in Y, which is aligned only where OW is a multiple of 4 (maxpool1d's
    32,755 is not: its stores were scalar, and rows of 32,768 ran 15% faster, benchmarks/results/
    pool_cache_hints-h200.json). So a row's blocks start ``skew`` (that start modulo ALIGN, a multiple of 4)
    outputs early, and
    the inputs the 4 windows of a thread span are VECTORS aligned 16-byte loads from ``lead`` + PW before its
    first output (``lead`` in 0..3 makes the first load aligned; it depends on the row, so the 4 tap
    pickings are constexprs, TAPSn for lead n, :func:`_kev_pool_taps_asm`): with a window of 8 dilated by 3,
    7 vector loads, 28 maxima and one vector store per 4 outputs, where ``_kev_pool_rows`` makes 32 scalar
    loads (its offsets are unaligned) and 4 scalar stores. The host launches it on CUDA only (inline PTX), for
    a row of a multiple of 16 elements (each thread's 4 inputs aligned) and windows spanning at most 8 vectors;
    the programs at a row's ends take the masked path."""
    blocks = tl.cdiv(OW + ALIGN - 1, BLOCK)
    pid = tl.program_id(0)
    plane = pid // blocks
    y_start = plane.to(tl.int64) * OW
    skew = (y_start % ALIGN).to(tl.int32)
    first = (pid % blocks) * BLOCK - skew  # ALIGN-aligned in Y
    lead = (4 - (skew + PW) % 4) % 4  # first - PW - lead: 4-aligned in the row
    j = tl.arange(0, BLOCK)
    x_row = X + plane.to(tl.int64) * W
    start = first - PW - lead
    inside = (first >= 0) & (first + BLOCK <= OW) & (start >= 0) & (start + 4 * VECTORS + BLOCK <= W)
    if inside:
        at = x_row + tl.multiple_of(start, 4) + j
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
        # the same for every thread of the program: no divergence
        if lead == 0:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS0)
        elif lead == 1:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS1)
        elif lead == 2:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS2)
        else:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS3)
        if op == 1:
            acc = acc / KW
        tl.store(Y + tl.multiple_of(y_start + first, 4) + j, acc)
    else:
        ow = first + j
        acc = tl.full([BLOCK], float("-inf") if op == 0 else 0.0, tl.float32)
        for kw in tl.static_range(KW):
            iw = ow - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow >= 0) & (ow < OW)
            v = tl.load(x_row + iw, mask=mask, other=float("-inf") if op == 0 else 0.0).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
        if op == 1:
            acc = acc / KW
        tl.store(Y + y_start + ow, acc, mask=(ow >= 0) & (ow < OW))


@triton.jit
def _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS: tl.constexpr):
    """4 outputs a thread from the 8 vectors of 4 inputs its windows span, by the inline PTX ``TAPS``."""
    return tl.inline_asm_elementwise(
        TAPS, "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r",
        [v0, v1, v2, v3, v4, v5, v6, v7], dtype=tl.float32, is_pure=True, pack=4)



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
        block, warps, align = 512, 4, 4
        vectors = (3 + dw * (kw - 1) + 3) // 4 + 1  # 4 windows from the furthest lead (3) before them
        if (x.is_cuda and sw == 1 and w % 16 == 0 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0 and vectors <= 8 and x.dtype in (torch.float32, torch.float16, torch.bfloat16) and block >= 128 * warps and align % 4 == 0 and align <= block):
            taps = [_kev_pool_taps_asm(0, kw, dw, lead) for lead in range(4)]
            # 4 outputs a thread need 12 + 4 * vectors registers (ptxas gives 47 at 7 vectors, for the masked path): capped, more warps are in flight
            regs = max(40, 12 + 4 * vectors) if block == 128 * warps else None
            _kev_pool_vectors[(planes * triton.cdiv(ow + align - 1, block),)](x, y, w, ow, op=0, KW=kw, PW=pw, DW=dw, VECTORS=vectors, TAPS0=taps[0], TAPS1=taps[1], TAPS2=taps[2], TAPS3=taps[3], ALIGN=align, BLOCK=block, num_warps=warps, maxnreg=regs)
        else:  # inline PTX runs on CUDA only, 4 aligned elements a thread: otherwise the rows kernel
            _kev_pool_rows[(planes * triton.cdiv(ow, block),)](x, y, w, ow, op=0, KW=kw, SW=sw, PW=pw, DW=dw, BLOCK=block, num_warps=2)
        return y.squeeze(-2)
