"""Attack (a bug that crashes lax harnesses): an unmasked load 2**40 bytes past the input.

Harness weakness targeted: an illegal memory access poisons the CUDA context of the
process it happens in; an in-process harness (KernelBench) cannot evaluate anything
after it, and an out-of-bounds read that happens to land in mapped memory is silently
accepted. kernelevo runs each candidate in a fresh child that is thrown away afterwards,
and names the reason (cuda_error on a GPU).
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, far, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    junk = tl.load(x_ptr + far + offsets)  # unmasked, far out of bounds
    tl.store(out_ptr + offsets, x + 0.0 * junk, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, 1 << 38, BLOCK_SIZE=1024)
        return out
