# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "max_dim1"
# spec sha256: "a8e6e261adf4ba14747fc87ed486460d8d7c407c48506303cc54185ea19da089"
# hardware: "h200"
# made: "2026-11-26T23:50:15+00:00"
# candidate: {"run": 1, "number": 105, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2486 ms (IQR 0.0010), 1.32x eager, 1.05x torch.compile, 98% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kev_identity(op: tl.constexpr):
    if op == 2:
        value = float("-inf")
    elif op == 3:
        value = float("inf")
    else:
        value = 0.0
    return value


@triton.jit
def _kev_max_nan(a, b):
    """The larger of a and b, NaN where either is NaN (a != a only for NaN)."""
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def _kev_min_nan(a, b):
    """The smaller of a and b, NaN where either is NaN."""
    return tl.where((a < b) | (a != a), a, b)


@triton.jit
def _kev_combine(acc, x, op: tl.constexpr):
    if op == 2:
        acc = _kev_max_nan(acc, x)
    elif op == 3:
        acc = _kev_min_nan(acc, x)
    else:
        acc = acc + x
    return acc


@triton.jit
def _kev_total(acc, axis: tl.constexpr, op: tl.constexpr):
    if op == 2:
        value = tl.reduce(acc, axis, _kev_max_nan)
    elif op == 3:
        value = tl.reduce(acc, axis, _kev_min_nan)
    else:
        value = tl.sum(acc, axis=axis)
    return value


@triton.jit
def _kev_reduce_columns(X, OUT, R, N, op: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    """A reduction over a middle dimension (x as [B, R, N]): a tile of BLOCK_N neighbouring columns per
    program, so that each load is a coalesced run although the reduced elements lie N apart."""
    b = tl.program_id(1)
    n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = n < N
    base = b.to(tl.int64) * R * N
    rs = tl.arange(0, BLOCK_R)
    acc = tl.zeros([BLOCK_R, BLOCK_N], tl.float32) + _kev_identity(op)
    for r0 in tl.range(0, R, BLOCK_R, num_stages=4):
        r = r0 + rs
        mask = (r < R)[:, None] & n_mask[None, :]
        x = tl.load(X + base + r[:, None] * N + n[None, :], mask=mask, other=_kev_identity(op)).to(tl.float32)
        acc = _kev_combine(acc, x, op)
    total = _kev_total(acc, 0, op)
    if op == 1:
        total = total / R
    tl.store(OUT + b.to(tl.int64) * N + n, total, mask=n_mask)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        out_shape = tuple(x.shape[:1]) + tuple(x.shape[2:])
        r = math.prod(x.shape[1:2])
        b, n = math.prod(x.shape[:1]), math.prod(x.shape[2:])
        out = torch.empty((b * n,), device=x.device, dtype=x.dtype)
        block_n = 128
        _kev_reduce_columns[(triton.cdiv(n, block_n), b)](x, out, r, n, op=2, BLOCK_R=16, BLOCK_N=block_n, num_warps=4)
        return out.view(out_shape)
