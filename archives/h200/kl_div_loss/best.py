# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "kl_div_loss"
# spec sha256: "a3df6afc11dbcc53dce5d75615e59b51b1159fbadff6514f7fec1f6419e69238"
# hardware: "h200"
# made: "2026-11-28T15:33:13+00:00"
# candidate: {"run": 1, "number": 220, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1299 ms (IQR 0.0009), 5.46x eager, 1.39x torch.compile, 94% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_loss_partial(IN0, IN1, PART, M, D, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr):
    """A program's partial sum of the loss over its tiles of BLOCK_M rows, each in passes of BLOCK_D columns
    (a pass per level of per-row values); masked lanes add 0."""
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_D)
    total = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)
    for t in range(pid, tl.cdiv(M, BLOCK_M), tl.num_programs(0)):
        m = t * BLOCK_M + rows
        m_mask = m < M
        base = m.to(tl.int64) * D
        for d0 in range(0, D, BLOCK_D):
            d = d0 + cols
            mask = m_mask[:, None] & (d < D)[None, :]
            in0 = tl.load(IN0 + base[:, None] + d[None, :], mask=mask, other=1.0).to(tl.float32)
            in1 = tl.load(IN1 + base[:, None] + d[None, :], mask=mask, other=1.0).to(tl.float32)
            total += tl.where(mask, (tl.where((in1 == 0.0) & (in1 == in1), 0.0, in1 * (tl.inline_asm_elementwise("lg2.approx.f32 $0, $1;", "=f,f", [(in1).to(tl.float32)], dtype=tl.float32, is_pure=True, pack=1) * 0.6931471805599453)) - (in1 * (tl.inline_asm_elementwise("lg2.approx.f32 $0, $1;", "=f,f", [(in0).to(tl.float32)], dtype=tl.float32, is_pure=True, pack=1) * 0.6931471805599453))), 0.0)
    tl.store(PART + pid, tl.sum(tl.sum(total, axis=1), axis=0))


@triton.jit
def _kev_loss_finish(PART, OUT, P, scale, BLOCK_P: tl.constexpr):
    """The partial sums added in a fixed order (deterministic), times the mean's and the graph's factors."""
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32)
    for p0 in range(0, P, BLOCK_P):
        p = p0 + offs
        acc += tl.load(PART + p, mask=p < P, other=0.0, eviction_policy='evict_first')
    tl.store(OUT, tl.sum(acc, axis=0) * scale)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        x = inputs[0]
        d = x.shape[-1]
        m = x.numel() // max(d, 1)
        out = torch.empty((), device=x.device, dtype=x.dtype)
        block_d = 4096
        block_m = 1
        tiles = triton.cdiv(m, block_m)
        grid = max(1, tiles)
        part = torch.empty((grid,), device=x.device, dtype=torch.float32)
        _kev_loss_partial[(grid,)](inputs[0].contiguous(), inputs[1].contiguous(), part, m, d, BLOCK_M=block_m, BLOCK_D=block_d, num_warps=16)
        _kev_loss_finish[(1,)](part, out, grid, 1.0 / inputs[0].shape[0], BLOCK_P=2048, num_warps=32)
        return out
