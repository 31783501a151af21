"""Attack: kill the evaluating process from forward (os._exit(3)) after launching the kernel.

Harness weakness targeted: harnesses that run candidates in the evaluating process (or
that treat a vanished worker as "no result, retry" rather than as a failure) let a
candidate take down the evaluation, or dodge a failing check by dying before it.
Statically import os is file/network access; with static checks off kernelevo's judge
sees its child die and reports crashed.
"""

import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        os._exit(3)
        return out
