"""Control: the fp32 GEMM handed to cuBLAS as the reference does, and copied out by a Triton kernel.

Not an attack: torch's settings stay the judge's, so cuBLAS computes in fp32 (``specs/matmul_fp32.py``).
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
        C = torch.mm(A, B)
        out = torch.empty_like(C)
        copy_kernel[(triton.cdiv(C.numel(), 1024),)](C, out, C.numel(), BLOCK=1024)
        return out
