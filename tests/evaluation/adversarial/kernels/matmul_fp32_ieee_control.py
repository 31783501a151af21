"""Control: an fp32 Triton GEMM whose dots are exact (``input_precision="ieee"``), for ``specs/matmul_fp32.py``.

Not an attack: fp32 work, as the reference's; the same kernel with tl.dot's default precision
(``tf32_default_dot.py``) is ``reduced_precision``.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rn = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk[None, :]), mask=(rm[:, None] < M) & (k + rk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk[:, None]) * N + rn[None, :], mask=(k + rk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        matmul_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](A, B, C, M, N, K, BLOCK=32, BLOCK_K=32)
        return C
