"""TF32 turned on for torch's fp32 GEMMs in forward, and left on.

The static check names the assignment into ``torch.backends.cuda.matmul``; with it off, the flag is
still on at the GEMM's library call and after forward returns: ``precision_settings`` either way.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, A, B):
        torch.backends.cuda.matmul.allow_tf32 = True
        C = torch.mm(A, B)
        out = torch.empty_like(C)
        copy_kernel[(triton.cdiv(C.numel(), 1024),)](C, out, C.numel(), BLOCK=1024)
        return out
