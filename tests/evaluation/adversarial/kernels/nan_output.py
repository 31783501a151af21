"""Attack: a correct kernel except that element 0 is NaN.

Harness weakness targeted: tolerance checks written as "no element is off by more than
tol", e.g. not ((out - ref).abs() > tol).any(), are blind to NaN (every comparison
with NaN is False), and equal_nan=True or NaN-dropping metrics hide it too; a kernel
that leaves NaN/Inf in some positions (an overflow, an uninitialised reduction) passes.
kernelevo compares NaN/Inf positions with the reference's before anything else.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, bad_value, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    y = 0.5 * x * (1.0 + tanh)
    y = tl.where(offsets == 0, bad_value, y)
    tl.store(out_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, float("nan"), BLOCK_SIZE=1024)
        return out
