"""Tanh GELU, one program per block; style: the same literal 1024 in the grid and as the constexpr keyword.

Spec: examples/gelu/spec.py
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # tanh(u) = 2 sigmoid(2u) - 1
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _gelu[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, num_warps=8)
        return y
