# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "groupnorm"
# spec sha256: "c52cda551c4122538934031c2b1d4ecbc6b5f759235c823dc0840136a2e188d1"
# hardware: "h200"
# made: "2026-11-27T03:33:56+00:00"
# candidate: {"run": 1, "number": 26, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2058 ms (IQR 0.0009), 2.99x eager, 1.14x torch.compile, 61% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_scale(total, rows, eps, stat: tl.constexpr):
    """The scale of a row from the sum its ``stat`` accumulates (of x^2 or |x|) over ``rows`` elements."""
    if stat == 1:
        scale = 1.0 / tl.sqrt(total / rows + eps)
    elif stat == 2:
        scale = 1.0 / total
    else:
        scale = 1.0 / tl.sqrt(total)
    return scale


@triton.jit
def _kev_chunk(x, mask, stat: tl.constexpr):
    """One chunk's (count, mean, m2) for stat 0; its sum of x^2 or |x| (as mean, count and m2 zero) else."""
    count = tl.sum(mask.to(tl.float32), axis=0)
    if stat == 0:
        mean = tl.sum(x, axis=0) / tl.maximum(count, 1.0)
        d = tl.where(mask, x - mean, 0.0)
        m2 = tl.sum(d * d, axis=0)
    elif stat == 2:
        mean = tl.sum(tl.abs(x), axis=0)
        m2 = mean * 0.0
    else:
        mean = tl.sum(x * x, axis=0)
        m2 = mean * 0.0
    return count, mean, m2


@triton.jit
def _kev_affine(y, W, B, m, r, mask, G, CPG, HWA, affine: tl.constexpr, has_bias: tl.constexpr):
    if affine != 0:
        if affine == 1:
            idx = r
        else:
            idx = (m % G) * CPG + r // HWA
        y = y * tl.load(W + idx, mask=mask, other=0.0).to(tl.float32)
        if has_bias:
            y = y + tl.load(B + idx, mask=mask, other=0.0).to(tl.float32)
    return y


@triton.jit
def _kev_norm_partial(X, P_N, P_MEAN, P_M2, M0, INNER, ROW_STRIDE, SEG_STRIDE, CHUNKS, stat: tl.constexpr,
                      BLOCK: tl.constexpr):
    """Split statistics: one chunk of BLOCK elements of one segment per program, its (count, mean, m2)
    written to the row's slot among ``SEGS * CHUNKS`` (rows from M0: a launch may cover some rows only)."""
    m = M0 + tl.program_id(0)
    p = tl.program_id(1)
    j = p // CHUNKS
    s = (p % CHUNKS) * BLOCK + tl.arange(0, BLOCK)
    mask = s < INNER
    x = tl.load(X + m.to(tl.int64) * ROW_STRIDE + j * SEG_STRIDE + s, mask=mask, other=0.0).to(tl.float32)
    count, mean, m2 = _kev_chunk(x, mask, stat)
    slot = m * tl.num_programs(1) + p
    tl.store(P_N + slot, count)
    tl.store(P_MEAN + slot, mean)
    tl.store(P_M2 + slot, m2)


@triton.jit
def _kev_norm_finish(P_N, P_MEAN, P_M2, SHIFT, SCALE, M0, PARTS, eps, stat: tl.constexpr, BLOCK_P: tl.constexpr):
    """The second, small pass of split statistics: one row's partial statistics combined (Chan's formula
    over the partials, in two passes over them), its shift and scale written (rows from M0)."""
    m = M0 + tl.program_id(0)
    offs = tl.arange(0, BLOCK_P)
    base = m.to(tl.int64) * PARTS
    n_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    s_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for p0 in range(0, PARTS, BLOCK_P):
        p = p0 + offs
        mask = p < PARTS
        n_p = tl.load(P_N + base + p, mask=mask, other=0.0)
        part = tl.load(P_MEAN + base + p, mask=mask, other=0.0)
        n_acc += n_p
        if stat == 0:
            s_acc += n_p * part  # a chunk's mean, weighted by its count
        else:
            s_acc += part  # a chunk's sum
    n = tl.sum(n_acc, axis=0)
    if stat == 0:
        mean = tl.sum(s_acc, axis=0) / n
        m2_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
        for p0 in range(0, PARTS, BLOCK_P):
            p = p0 + offs
            mask = p < PARTS
            n_p = tl.load(P_N + base + p, mask=mask, other=0.0)
            d = tl.load(P_MEAN + base + p, mask=mask, other=0.0) - mean
            m2_acc += tl.load(P_M2 + base + p, mask=mask, other=0.0) + n_p * d * d
        tl.store(SHIFT + m, mean)
        tl.store(SCALE + m, 1.0 / tl.sqrt(tl.sum(m2_acc, axis=0) / n + eps))
    else:
        tl.store(SHIFT + m, 0.0)
        tl.store(SCALE + m, _kev_scale(tl.sum(s_acc, axis=0), n, eps, stat))


@triton.jit
def _kev_norm_apply(X, Y, W, B, SHIFT, SCALE, M0, INNER, ROW_STRIDE, SEG_STRIDE, CHUNKS, G, CPG, HWA,
                    affine: tl.constexpr, has_bias: tl.constexpr, BLOCK: tl.constexpr):
    """Split statistics' normalization: one chunk of one segment per program, its row's shift and scale
    read once (rows from M0)."""
    m = M0 + tl.program_id(0)
    p = tl.program_id(1)
    j = p // CHUNKS
    s = (p % CHUNKS) * BLOCK + tl.arange(0, BLOCK)
    mask = s < INNER
    at = m.to(tl.int64) * ROW_STRIDE + j * SEG_STRIDE + s
    x = tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
    y = (x - tl.load(SHIFT + m)) * tl.load(SCALE + m)
    y = _kev_affine(y, W, B, m, j * INNER + s, mask, G, CPG, HWA, affine, has_bias)
    tl.store(Y + at, y, mask=mask)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()
        self.gn = nn.ModuleDict()
        self.gn.weight = nn.Parameter(torch.empty((init[1],)))
        self.gn.bias = nn.Parameter(torch.empty((init[1],)))
        self.groups = init[0]

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        y = torch.empty_like(x)
        groups = self.groups
        g, cpg, hwa = groups, x.shape[1] // groups, math.prod(x.shape[2:])
        m = math.prod(x.shape[:1]) * groups
        r = x.numel() // max(m, 1)
        segs, inner, row_stride, seg_stride = 1, r, r, 0
        stats_block = 8192
        apply_block = 2048
        chunks = triton.cdiv(inner, stats_block)
        parts = segs * chunks
        p_n, p_mean, p_m2 = (torch.empty((m, parts), device=x.device, dtype=torch.float32) for _ in range(3))
        shift, scale = (torch.empty((m,), device=x.device, dtype=torch.float32) for _ in range(2))
        apply_chunks = triton.cdiv(inner, apply_block)
        _kev_norm_partial[(m, parts)](x, p_n, p_mean, p_m2, 0, inner, row_stride, seg_stride, chunks, stat=0, BLOCK=stats_block, num_warps=8)
        _kev_norm_finish[(m,)](p_n, p_mean, p_m2, shift, scale, 0, parts, 1e-05, stat=0, BLOCK_P=128, num_warps=4)
        _kev_norm_apply[(m, segs * apply_chunks)](x, y, self.gn.weight, self.gn.bias, shift, scale, 0, inner, row_stride, seg_stride, apply_chunks, g, cpg, hwa, affine=2, has_bias=True, BLOCK=apply_block, num_warps=4)
        return y
