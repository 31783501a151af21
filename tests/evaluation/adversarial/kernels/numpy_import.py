"""Static rejection: import numpy and compute the answer on the host with NumPy.

A copy kernel is launched so something Triton runs; the values come from NumPy.
Harness weakness targeted: harnesses that forbid torch compute but not other
libraries (NumPy, SciPy, CuPy) accept host-side compute. kernelevo allows only a short
list of imports.
"""

import numpy as np

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = x.cpu().numpy()
        y = 0.5 * a * (1.0 + np.tanh(0.7978845608028654 * (a + 0.044715 * a**3)))
        host = torch.as_tensor(y, device=x.device)
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](host, out, n, BLOCK_SIZE=1024)
        return out
