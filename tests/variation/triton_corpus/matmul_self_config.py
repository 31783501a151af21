"""fp16 linear + bias + tanh-GELU; style: tile sizes as module attributes set in __init__ (self.block_m, ...).

Spec: examples/matmul_epilogue/spec.py

``__init__`` stores the tile sizes next to the linear layer's parameters, and forward
reads them for both the launch and the grid. Each program computes one tile of
``gelu(x @ W.T + b)`` (row-major over the N tiles) with fp32 accumulation over masked
BLOCK_K steps; every tile edge is masked, so any tile sizes work.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_gelu_attr_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    # column-major tile order: consecutive programs share a W tile
    pid_m = pid % tiles_m
    pid_n = pid // tiles_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_mask = offs_m < M
    n_mask = offs_n < N
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(x_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(w_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk

    bias = tl.load(b_ptr + offs_n, mask=n_mask, other=0.0).to(tl.float32)
    y = acc + bias[None, :]
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    y = 0.5 * y * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, y.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only, which the evaluator fills from the reference
        self.linear = nn.Linear(in_features, out_features)
        self.block_m = 64
        self.block_n = 32
        self.block_k = 32

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        grid = (triton.cdiv(M, self.block_m) * triton.cdiv(N, self.block_n),)
        linear_gelu_attr_kernel[grid](
            x, w, b, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
            BLOCK_M=self.block_m, BLOCK_N=self.block_n, BLOCK_K=self.block_k, num_warps=4, num_stages=2,
        )
        return out
