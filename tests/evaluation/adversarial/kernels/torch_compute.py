"""Attack: compute the result with PyTorch ops while launching a dummy Triton kernel.

The kernel only copies ``x`` into a scratch buffer; the answer comes from
``F.gelu``. Harness weakness targeted: KernelBench checks neither which code produced
the output nor that the Triton/CUDA kernel did the work; "kernels" that call the same
PyTorch op as the reference (or cuBLAS/cuDNN) pass and report a ~1x speedup (or more,
with a different but equivalent op). kernelevo flags torch compute calls in host code
statically and records dispatched aten ops at run time.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
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
        scratch = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, scratch, n, BLOCK_SIZE=1024)
        return F.gelu(scratch, approximate="tanh")
