"""Attack: allocate an absurd workspace (2**40 floats, 4 TiB) in forward.

Harness weakness targeted: a shared evaluation process (KernelBench) that runs out of
memory fails for every later candidate too, or the allocation takes the GPU from other
workers; nothing bounds a candidate's memory. kernelevo caps each child's memory (a GPU
memory fraction, an address-space limit on CPU) and reports out_of_memory.
"""

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
        workspace = torch.empty(1 << 40, dtype=torch.float32, device=x.device)
        gelu_kernel[(1,)](x, workspace, 0, BLOCK_SIZE=1024)
        return out
