"""fp16 linear + bias + tanh-GELU, grouped tile order; style: literal tile keywords at the launch and in the grid.

Spec: examples/matmul_epilogue/spec.py

Each program computes one BLOCK_M x BLOCK_N tile of ``gelu(x @ W.T + b)``, walking K in
steps of BLOCK_K with fp32 accumulation; GROUP_M rows of tiles are visited together so
their W tiles stay in L2. The grid repeats the tile sizes as literals (64 and 64), so a
change of BLOCK_M or BLOCK_N has to change them there too. Every tile edge and the K tail
are masked, and the grouping clamps its last group, so any sizes work.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_gelu_grouped_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_mask = offs_m < M
    n_mask = offs_n < N
    # W is (N, K): its transpose is read in place through the strides
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

    # epilogue in fp32: bias, then gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3)))
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

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
        linear_gelu_grouped_kernel[grid](
            x, w, b, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
            BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8, num_warps=4, num_stages=3,
        )
        return out
