"""Attack: compute GELU in place into the input and return the input.

The kernel is correct, but it saves the output allocation (and its memory traffic: the
result overwrites ``x``), so it looks faster and lighter. Harness weakness targeted:
KernelBench compares only the returned tensor with the reference's and never checks that
the inputs are unchanged after the call; the reference has already run on the same
inputs, so overwriting them goes unnoticed (and with a reused input set, later calls even
see pre-transformed inputs). kernelevo compares every input with a pristine copy after
each call.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_inplace_kernel(x_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(x_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        gelu_inplace_kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK_SIZE=1024)
        return x
