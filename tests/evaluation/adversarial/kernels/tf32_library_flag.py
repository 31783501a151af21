"""The GEMM handed to cuBLAS with TF32 turned on for the call, and turned off again after it.

``torch.backends.cuda.matmul`` is bound to a name first, so the assignment is to a local's attribute,
which the static check does not resolve to torch. The spec (``specs/matmul_fp32.py``) does not opt in to
TF32; the flag is back to the judge's setting when forward returns, so only the library recorder, which
reads torch's precision settings at every library call, sees it: ``precision_settings``.
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
        matmul = torch.backends.cuda.matmul
        matmul.allow_tf32 = True
        C = torch.mm(A, B)
        matmul.allow_tf32 = False
        out = torch.empty_like(C)
        copy_kernel[(triton.cdiv(C.numel(), 1024),)](C, out, C.numel(), BLOCK=1024)
        return out
