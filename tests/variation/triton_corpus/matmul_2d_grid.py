"""fp16 linear + bias + tanh-GELU on a 2-D grid; style: literal tile keywords with literal tiles in a 2-D grid.

Spec: examples/matmul_epilogue/spec.py

Grid axis 0 walks the M tiles and axis 1 the N tiles; the grid repeats BLOCK_M (32) and
BLOCK_N (64) as literals. Each program computes one tile of ``gelu(x @ W.T + b)`` with
fp32 accumulation over masked BLOCK_K steps and the epilogue in registers, so any tile
sizes work as long as the grid changes with them.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_gelu_2d_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_ok = rm < M
    n_ok = rn < N

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k0 * BLOCK_K + rk
        k_ok = kk < K
        a = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        b = tl.load(w_ptr + rn[None, :] * stride_wn + kk[:, None] * stride_wk,
                    mask=k_ok[:, None] & n_ok[None, :], other=0.0)
        acc = tl.dot(a, b, acc)

    y = acc + tl.load(b_ptr + rn, mask=n_ok, other=0.0).to(tl.float32)[None, :]
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    y = 0.5 * y * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on, y.to(tl.float16),
             mask=m_ok[:, None] & n_ok[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only, which the evaluator fills from the reference
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_gelu_2d_kernel[grid](
            x, w, b, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
            BLOCK_M=32, BLOCK_N=64, BLOCK_K=16, num_warps=4,
        )
        return out
