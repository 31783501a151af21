# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "cross_entropy"
# spec sha256: "3edb5d7dbb8ca342d93f36fe21331425096f85a36e667f465fccab4a3a5a2f3a"
# hardware: "h200"
# made: "2026-11-28T15:49:40+00:00"
# candidate: {"run": 1, "number": 107, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1302 ms (IQR 0.0015), 3.17x eager, 2.14x torch.compile, 92% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_xent_resident(X, T, PART, COUNT, M, C, ignore, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    """A program's partial sum of its rows' losses (and how many rows count), tiles of BLOCK_M whole rows
    (BLOCK_C >= C) held in registers: each row's maximum, then its sum of exponentials, one exp an element."""
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    c = tl.arange(0, BLOCK_C)
    total = tl.zeros([BLOCK_M], tl.float32)
    count = tl.zeros([BLOCK_M], tl.float32)
    for t in range(pid, tl.cdiv(M, BLOCK_M), tl.num_programs(0)):
        m = t * BLOCK_M + rows
        m_mask = m < M
        base = m.to(tl.int64) * C
        mask = m_mask[:, None] & (c < C)[None, :]
        x = tl.load(X + base[:, None] + c[None, :], mask=mask, other=float("-inf")).to(tl.float32)
        row_max = tl.max(x, axis=1)
        # a row of -inf only: its sum of exponentials is 0 and its log -inf, as torch's
        safe_max = tl.where(row_max == float("-inf"), 0.0, row_max)
        lse = tl.log(tl.sum(tl.exp(x - safe_max[:, None]), axis=1)) + safe_max
        label = tl.load(T + m, mask=m_mask, other=ignore)
        counts = m_mask & (label != ignore)
        picked = tl.load(X + base + tl.where(counts, label, 0), mask=counts, other=0.0).to(tl.float32)
        total += tl.where(counts, lse - picked, 0.0)
        count += counts.to(tl.float32)
    tl.store(PART + pid, tl.sum(total, axis=0))
    tl.store(COUNT + pid, tl.sum(count, axis=0))


@triton.jit
def _kev_xent_finish(PART, COUNT, OUT, P, BLOCK_P: tl.constexpr):
    """The partial sums and counts added in a fixed order; the mean over the rows that count."""
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32)
    n = tl.zeros([BLOCK_P], tl.float32)
    for p0 in tl.range(0, P, BLOCK_P, num_stages=3):
        p = p0 + offs
        acc += tl.load(PART + p, mask=p < P, other=0.0)
        n += tl.load(COUNT + p, mask=p < P, other=0.0)
    tl.store(OUT, tl.sum(acc, axis=0) / tl.sum(n, axis=0))


@triton.jit
def _kev_xent_finish_resident(PART, COUNT, OUT, P, BLOCK_P: tl.constexpr):
    """The partial sums and counts added in a fixed order; the mean over the rows that count."""
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32)
    n = tl.zeros([BLOCK_P], tl.float32)
    p0 = 0  # the whole row in one block: the loop ran once
    p = p0 + offs
    acc += tl.load(PART + p, mask=p < P, other=0.0)
    n += tl.load(COUNT + p, mask=p < P, other=0.0)
    tl.store(OUT, tl.sum(acc, axis=0) / tl.sum(n, axis=0))



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        target = inputs[1].contiguous()
        m, c = x.shape
        out = torch.empty((), device=x.device, dtype=x.dtype)
        block_m, block_c = 1, triton.next_power_of_2(c)
        tiles = triton.cdiv(m, block_m)
        PROGRAMS = 1054  # a few waves of programs on a GPU of about 132 SMs
        grid = max(1, min(PROGRAMS, tiles))
        part, count = (torch.empty((grid,), device=x.device, dtype=torch.float32) for _ in range(2))
        _kev_xent_resident[(grid,)](x, target, part, count, m, c, -100, BLOCK_M=block_m, BLOCK_C=block_c, num_warps=4)
        if 0 < grid <= 32768:  # rows that fit one block: _kev_xent_finish_resident, one read a row
            _kev_xent_finish_resident[(1,)](part, count, out, grid, BLOCK_P=triton.next_power_of_2(grid), num_warps=max(4, min(32, triton.next_power_of_2(grid) // 2048)))
        else:
            _kev_xent_finish[(1,)](part, count, out, grid, BLOCK_P=1024, num_warps=8)
        return out
