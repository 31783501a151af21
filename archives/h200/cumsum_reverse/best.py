# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "cumsum_reverse"
# spec sha256: "d8b9f81db5b8961ed7e2feec9734a8fc10ff24f93a3fc3c1cee4e116bdc18d49"
# hardware: "h200"
# made: "2026-11-27T07:10:27+00:00"
# candidate: {"run": 1, "number": 124, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1437 ms (IQR 0.0012), 5.39x eager, 2.87x torch.compile, 87% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_scan_identity(op: tl.constexpr):
    if op == 1:
        value = 1.0
    else:
        value = 0.0
    return value


@triton.jit
def _kev_scan_load(X, MASK, at, mask, op: tl.constexpr, masked: tl.constexpr):
    """A chunk's elements in fp32, those outside the row (or the mask's zeros, times x) the identity's."""
    x = tl.load(X + at, mask=mask, other=_kev_scan_identity(op)).to(tl.float32)
    if masked:
        x = x * tl.load(MASK + at, mask=mask, other=0).to(tl.float32)
        x = tl.where(mask, x, _kev_scan_identity(op))
    return x


@triton.jit
def _kev_scan_chunk(x, carry, axis: tl.constexpr, op: tl.constexpr, reverse: tl.constexpr):
    """(the chunk's scan combined with the carry before it, the carry after it) along ``axis`` (1).

    The carry after is the scan's element at the chunk's far end, not ``carry + sum(x)``: Triton 3.6's
    TritonGPUOptimizeThreadLocality pass fails ("PassManager::run failed") on a loop-carried sum of a
    loaded chunk beside its scan, so the reduction reads the scan instead (one element per row)."""
    if op == 1:
        y = tl.cumprod(x, axis=axis, reverse=reverse) * tl.expand_dims(carry, axis)
    else:
        y = tl.cumsum(x, axis=axis, reverse=reverse) + tl.expand_dims(carry, axis)
    lanes = tl.arange(0, y.shape[1])
    if reverse:
        edge = lanes == 0
    else:
        edge = lanes == y.shape[1] - 1
    carry = tl.sum(tl.where(edge[None, :], y, 0.0), axis=axis)
    return y, carry


@triton.jit
def _kev_scan_rows(X, MASK, Y, M, R, op: tl.constexpr, masked: tl.constexpr, reverse: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK: tl.constexpr):
    """BLOCK_M rows per program, walked chunk by chunk of BLOCK (from the end where ``reverse``), each
    chunk scanned in registers and offset by the carry of those before it: 4N read, 4N written."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = rows < M
    base = rows.to(tl.int64) * R
    offs = tl.arange(0, BLOCK)
    carry = tl.zeros([BLOCK_M], tl.float32) + _kev_scan_identity(op)
    for i in range(0, tl.cdiv(R, BLOCK)):
        if reverse:
            r = R - (i + 1) * BLOCK + offs  # lanes before the row's start are masked, on the chunk's left
        else:
            r = i * BLOCK + offs
        mask = m_mask[:, None] & ((r >= 0) & (r < R))[None, :]
        at = base[:, None] + r[None, :]
        x = _kev_scan_load(X, MASK, at, mask, op, masked)
        y, carry = _kev_scan_chunk(x, carry, 1, op, reverse)
        tl.store(Y + at, y, mask=mask)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        mask = x
        y = torch.empty_like(x)
        r = x.shape[-1]
        m = x.numel() // max(r, 1)
        block_m = 1
        _kev_scan_rows[(triton.cdiv(m, block_m),)](x, mask, y, m, r, op=0, masked=False, reverse=True, BLOCK_M=block_m, BLOCK=256, num_warps=1)
        return y
