"""fp16 linear + bias + tanh-GELU, row-major tile order; style: tile sizes as a module-level tuple assignment.

Spec: examples/matmul_epilogue/spec.py

``BM, BN, BK`` are bound once at module level and read by both the launch and the grid.
Program ``pid`` computes tile (pid // tiles_n, pid % tiles_n) of ``gelu(x @ W.T + b)``:
a K loop of BK-wide masked steps accumulating in fp32, then the bias and GELU in
registers, rounded to fp16 at the store. Every edge is masked, so any tile sizes work.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

BM, BN, BK = 32, 64, 32


@triton.jit
def linear_gelu_rowmajor_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = offs_m < M
    n_mask = offs_n < N

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        k_mask = offs_k < K
        a = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk,
                    mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        # a (BLOCK_K, BLOCK_N) tile of W.T, read in place through W's strides
        b = tl.load(w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn,
                    mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc += tl.dot(a, b)

    bias = tl.load(b_ptr + offs_n, mask=n_mask, other=0.0).to(tl.float32)
    y = acc + bias[None, :]
    # tanh(u) = 2 sigmoid(2u) - 1
    u = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    y = 0.5 * y * (2.0 * tl.sigmoid(2.0 * u))
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on, y.to(tl.float16),
             mask=m_mask[:, None] & n_mask[None, :])


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
        grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
        linear_gelu_rowmajor_kernel[grid](
            x, w, b, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
            BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=4,
        )
        return out
