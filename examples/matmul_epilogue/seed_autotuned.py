"""The tiled matmul with the fused bias + tanh-GELU epilogue, autotuned over tile shapes.

The kernel is the first seed's (grouped tile order, fp32 accumulation, epilogue in
registers); what changes is that the tile sizes, warps and pipeline depth are no longer
fixed at 128 x 128 x 32: ``@triton.autotune`` times a few configurations the first time
it meets a new (M, N, K) and keeps the fastest. On an H200 the larger tiles (128 x 256 x
64) raise the FLOPs per byte loaded from shared memory and keep the tensor cores busier,
and deeper pipelines hide the global loads of the next K step; which wins depends on the
shape (wave quantisation over 132 SMs at 4096^3, register pressure of the fp32
accumulator), so measuring beats guessing. The first config is the one most likely to
win at the default size; in Triton's CPU interpreter the evaluator runs only it.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


# Hopper-sized fp16 tiles. Shared memory per stage is (BLOCK_M + BLOCK_N) * BLOCK_K * 2
# bytes: 48 KiB for the first, times 3 stages = 144 KiB of the 228 KiB an SM has.
@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4),
        triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=4),
    ],
    # retuned whenever the problem shape changes; the output is overwritten in full, so
    # the timing runs leave nothing to restore
    key=["M", "N", "K"],
)
@triton.jit
def linear_gelu_autotuned_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    # Grouped ordering: GROUP_M consecutive programs share a column of W tiles, so those
    # tiles are still in L2 when the next row of tiles needs them.
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
    # W is (N, K); its transpose is read in place through the strides, as a (BLOCK_K, BLOCK_N) tile
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        # zeros outside the matrix add nothing to the dot product
        a = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & k_mask[None, :], other=0.0)
        b = tl.load(w_ptrs, mask=k_mask[:, None] & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk

    # epilogue, in fp32: bias, then gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3)))
    n_mask = offs_n < N
    bias = tl.load(b_ptr + offs_n, mask=n_mask, other=0.0).to(tl.float32)
    y = acc + bias[None, :]
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0  # tanh(u) = 2 sigmoid(2u) - 1
    y = 0.5 * y * (1.0 + tanh)

    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, y.to(tl.float16), mask=(offs_m[:, None] < M) & n_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # held for its parameters only (linear.weight (N, K), linear.bias (N,)), which the
        # evaluator fills from the reference; forward never calls it
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        w, b = self.linear.weight, self.linear.bias
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=torch.float16)
        # the autotuner passes each config's tile sizes as the meta-parameters the grid reads
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
        # the tile sizes, warps and stages come from the chosen config, not from the launch
        linear_gelu_autotuned_kernel[grid](
            x, w, b, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
        )
        return out
