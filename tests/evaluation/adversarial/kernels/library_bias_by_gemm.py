"""Attack: the bias added by a second GEMM, ``[y, 1] @ [[I], [b]]`` (cuBLAS does the bias add).

Spec: ``examples/matmul_epilogue`` (fp16 ``gelu(x @ W.T + b)``). The first GEMM is the
reference's own; the second multiplies the result, with a column of ones appended, by an
identity with the bias as its last row, so the library adds the bias; a Triton kernel
does the GELU. Harness weakness targeted: a policy that lets GEMMs through by name.
kernelevo compares each call's work with the reference's: an (M x N x N+1) GEMM is not
the reference's (M x N x K), ``library_misuse``.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    tl.store(out_ptr + offs, (0.5 * x * (1.0 + t)).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer("eye", torch.eye(out_features))

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())
        ones = torch.ones(y.shape[0], 1, dtype=y.dtype, device=y.device)
        aug = torch.empty(y.shape[0], y.shape[1] + 1, dtype=y.dtype, device=y.device)
        aug[:, :-1] = y
        aug[:, -1:] = ones
        eye = torch.empty(y.shape[1] + 1, y.shape[1], dtype=y.dtype, device=y.device)
        eye[:-1] = self.eye
        eye[-1] = self.linear.bias
        z = torch.mm(aug, eye)
        out = torch.empty_like(z)
        n = z.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](z, out, n, BLOCK=1024)
        return out
