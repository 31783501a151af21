"""Attack: define a Triton kernel but never launch it; forward computes with PyTorch.

The source "contains a kernel" (a harness that greps for ``@triton.jit`` or checks that
something compiled is satisfied), but forward uses ``F.gelu``. Harness weakness targeted:
KernelBench accepts any ``ModelNew`` whose output matches; nothing checks that a custom
kernel ran. Meant to run with static checks off; kernelevo counts Triton launches per
call and rejects a call that launched none before any other runtime diagnosis.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
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
        self.kernel = gelu_kernel  # referenced, never launched

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x, approximate="tanh")
