"""Compile error: tl.arange(0, 1000) (Triton needs a power-of-two range).

A kernel specialised to the row length (1000) without rounding up, a common LLM
mistake. Harness weakness targeted: harnesses that report every exception alike (or
crash on it) give the search no signal about what went wrong. On a GPU kernelevo
reports compile_error; Triton's CPU interpreter has no compile step and raises the
same complaint while running the kernel (see the case table for the reason observed).
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_row_kernel(x_ptr, out_ptr, ROW: tl.constexpr):
    row = tl.program_id(axis=0)
    offsets = row * ROW + tl.arange(0, ROW)  # ROW = 1000: not a power of two
    x = tl.load(x_ptr + offsets)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        gelu_row_kernel[(x.shape[0],)](x, out, ROW=x.shape[1])
        return out
