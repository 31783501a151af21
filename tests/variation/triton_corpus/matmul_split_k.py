"""fp16 linear + bias + tanh-GELU as a deterministic split-K matmul; style: SPLIT_K module constant, literal tiles.

Spec: examples/matmul_epilogue/spec.py

The first kernel runs SPLIT_K programs per BLOCK_M x BLOCK_N output tile (grid axis 1);
program s accumulates, in fp32, the K blocks s, s + SPLIT_K, s + 2 SPLIT_K, ... and
stores its partial tile into slice s of a (SPLIT_K, M, N) fp32 buffer; a program with no
K block left stores zeros, so every slice is written in full. The second kernel sums the
SPLIT_K partials of BLOCK elements in a fixed order, adds the bias, applies the GELU and
stores fp16: no atomics, so the result is the same on every run. Every edge is masked,
so any tile sizes, any BLOCK and any SPLIT_K >= 1 work.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

SPLIT_K = 2


@triton.jit
def matmul_partial_kernel(
    x_ptr, w_ptr, part_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk,
    SPLIT_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    pid_k = tl.program_id(axis=1)
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = offs_m < M
    n_mask = offs_n < N

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(pid_k * BLOCK_K, K, SPLIT_K * BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        k_mask = offs_k < K
        a = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk,
                    mask=m_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn,
                    mask=k_mask[:, None] & n_mask[None, :], other=0.0)
        acc = tl.dot(a, b, acc)

    # slice pid_k of the contiguous (SPLIT_K, M, N) buffer; int64: SPLIT_K*M*N may pass 2**31
    offs = pid_k.to(tl.int64) * M * N + offs_m[:, None].to(tl.int64) * N + offs_n[None, :]
    tl.store(part_ptr + offs, acc, mask=m_mask[:, None] & n_mask[None, :])


@triton.jit
def splitk_reduce_gelu_kernel(part_ptr, b_ptr, out_ptr, M, N, SPLIT_K: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < M * N
    y = tl.zeros([BLOCK], dtype=tl.float32)
    ptrs = part_ptr + offs
    # a fixed summation order over the partials: deterministic; the pointer steps one
    # M x N slice at a time, so no index grows past the size of one slice
    for _ in range(SPLIT_K):
        y += tl.load(ptrs, mask=mask, other=0.0)
        ptrs += M * N
    y += tl.load(b_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    y = 0.5 * y * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    # out is contiguous (M, N), so the flat index is the same as the partials'
    tl.store(out_ptr + offs, y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only, which the evaluator fills from the reference
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        partials = torch.empty((SPLIT_K, M, N), device=x.device, dtype=torch.float32)
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64), SPLIT_K)
        matmul_partial_kernel[grid](
            x, w, partials, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1),
            SPLIT_K=SPLIT_K, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, num_warps=4, num_stages=3,
        )
        splitk_reduce_gelu_kernel[(triton.cdiv(M * N, 1024),)](
            partials, b, out, M, N, SPLIT_K=SPLIT_K, BLOCK=1024, num_warps=4,
        )
        return out
