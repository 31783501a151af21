# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "mean_last"
# spec sha256: "2b27e52cc71cb22b58e5fafe2b8f442aeda44dacb67312184524dd4f6d35f9ed"
# hardware: "h200"
# made: "2026-11-27T00:08:32+00:00"
# candidate: {"run": 1, "number": 46, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2387 ms (IQR 0.0014), 1.06x eager, 1.03x torch.compile, 100% of roofline (read)"
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
def _kev_reduce_row(X, OUT, R, op: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program, in chunks of BLOCK (a vector accumulator, reduced once at the end)."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = m.to(tl.int64) * R
    acc = tl.zeros([BLOCK], tl.float32) + _kev_identity(op)
    for r0 in range(0, R, BLOCK):
        r = r0 + offs
        x = tl.load(X + base + r, mask=r < R, other=_kev_identity(op)).to(tl.float32)
        acc = _kev_combine(acc, x, op)
    total = _kev_total(acc, 0, op)
    if op == 1:
        total = total / R
    tl.store(OUT + m, total)



class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        x = inputs[0].contiguous()
        out_shape = tuple(x.shape[:2]) + tuple(x.shape[3:])
        r = math.prod(x.shape[2:3])
        b, n = math.prod(x.shape[:2]), math.prod(x.shape[3:])
        out = torch.empty((b * n,), device=x.device, dtype=x.dtype)
        _kev_reduce_row[(b,)](x, out, r, op=1, BLOCK=512, num_warps=8)
        return out.view(out_shape)
